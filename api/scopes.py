"""What a personal access token may be used for: each endpoint names the scopes it accepts (as
lila's OAuthScope), and a token holds some of them."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

READ_PROFILE = "read:profile"
READ_GAMES = "read:games"
CHALLENGE_READ = "challenge:read"
CHALLENGE_WRITE = "challenge:write"
BOT_PLAY = "bot:play"

# Every scope, in the order the tokens page lists them, with what it lets a program do.
SCOPES = {
    READ_PROFILE: _("Read your account: who you are"),
    READ_GAMES: _("Export games, your own included"),
    CHALLENGE_READ: _("Follow your events: challenges received, games started and finished"),
    CHALLENGE_WRITE: _("Make, accept, decline and cancel challenges"),
    BOT_PLAY: _("Play your games: the game stream, moves, chat, leaving; turn into a BOT"),
}
