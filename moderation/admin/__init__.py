"""The moderators' screens in the admin, one module per family: the players (``players``),
sanctions, reports and the log; the games app's tables and seats, games, moves and
verifications (``games``), the chat and its blocked words, quick match's pools, and who
follows and blocks whom and the challenges people send (``people``). Importing
them here is what registers them when the admin looks for this app's screens.

Every action goes through ``moderation.actions``, which writes one row of the moderation log in
the same transaction. Moderators (staff in the Moderators group, not superusers) read a
player's page but change a player only through these actions. Tables, games and moves are
read-only: they change only through the actions, and nothing done here can rewrite a game's
history; the log is read-only for everyone. The screens stay at the admin addresses of their
models' apps (``/admin/games/table/``, ``/admin/accounts/sanction/``, ``/admin/auth/user/``).
"""

from moderation.admin import (
    chat,
    games,
    log,
    people,
    players,
    pools,
    reports,
    sanctions,
    tables,
)

__all__ = [
    "chat",
    "games",
    "log",
    "people",
    "players",
    "pools",
    "reports",
    "sanctions",
    "tables",
]
