"""Tables, seats, games and the append-only move log.

A :class:`Game` keeps the engine's snapshot (secret: every hand and the draw pile) and the
record's header; its :class:`Move` rows are the record's actions, in order. Replaying the moves
from the header must always give the snapshot again: ``games.services`` writes both in one
transaction, and the admin can verify any game (:class:`GameVerification`). A finished table's
"Play again" asks its players with a :class:`RematchInvitation` each.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine import GameState, Record
from lib.append_only import AppendOnly, AppendOnlyError

if TYPE_CHECKING:
    from datetime import datetime

    from django.contrib.auth.models import AbstractBaseUser

MIN_SEATS, MAX_SEATS = 2, 10  # R3
# The bot levels a table offers (games.engine.bots.LEVELS), weakest first, as a seat names them.
BOT_LEVELS = (
    ("beginner", _("Beginner bot")),
    ("easy", _("Easy bot")),
    ("medium", _("Medium bot")),
    ("hard", _("Hard bot")),
    ("expert", _("Expert bot")),
)
DEFAULT_BOT_LEVEL = "easy"  # the choice a page offers first: the greedy player
# Every bot a seat may hold: the levels, and the two older names stored seats still hold
# (a greedy bot also takes the seat of a person who leaves a running game).
BOT_KINDS = (*BOT_LEVELS, ("greedy", _("Greedy bot")), ("random", _("Random bot")))


# Turn-based tables: the days per move a table may give (as lichess's correspondence games).
TURN_DAYS = (1, 2, 3, 5, 7)


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


def seat_name(position: int, username: str | None, bot: str, replaced: str = "") -> str:
    """What a seat is called, in the active language, wherever it is drawn: its person's name;
    "Bot (for ana)" for a seat a bot took over from ana; "Easy bot 3" for a bot's own seat
    (its level and its seat's number); "" for an empty seat."""
    if username:
        return username
    if bot and replaced:
        return gettext("Bot (for %(username)s)") % {"username": replaced}
    if bot:
        return f"{dict(BOT_KINDS).get(bot, bot)} {position + 1}"
    return ""


class Table(models.Model):
    """A table people sit at; it holds at most one game."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")
        # Untimed, and nobody came back: ended by the clock.
        ABANDONED = "abandoned", _("Abandoned")

    name = models.CharField(_("name"), max_length=60)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables"
    )
    seat_count = models.PositiveSmallIntegerField(
        _("seats"), validators=[MinValueValidator(MIN_SEATS), MaxValueValidator(MAX_SEATS)]
    )
    tournament = models.BooleanField(_("tournament (R22)"), default=False)
    # R23: seconds per turn; None means no limit (games among friends).
    turn_seconds = models.PositiveSmallIntegerField(_("turn time"), null=True, blank=True)
    # Turn-based: days a player has for each move (TURN_DAYS); None for a table played live.
    # A turn-based table has no turn_seconds.
    turn_days = models.PositiveSmallIntegerField(
        _("days per move"), null=True, blank=True, choices=[(d, str(d)) for d in TURN_DAYS]
    )
    public = models.BooleanField(_("public"), default=True)
    # A rated game changes its players' ratings (games.services.ratings); a casual one does not.
    rated = models.BooleanField(_("rated"), default=False)
    # A one-click game against bots: its name is drawn in each viewer's language
    # (``shown_name``), not stored in the language of the person who opened it.
    against_bots = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    # "Play again": the finished table this one is the rematch of.
    rematch_of = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch"
    )
    # Quick match: the pool whose wave seated this table ("" for any other), and the matched
    # person who never came to it, for whom it was aborted (games.services.no_shows).
    pool = models.CharField(_("quick-match pool"), max_length=16, blank=True)
    no_show = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("never came"),
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "public"])]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    @property
    def turn_based(self) -> bool:
        """Played a move a day or so, not live: the page can be closed between moves."""
        return self.turn_days is not None

    def page_url(self, invite: str = "") -> str:
        """The table's page; with ``invite``, the table's token, the link that lets anyone into a
        private table."""
        url = reverse("games:table", args=[self.pk])
        return f"{url}?invite={invite}" if invite else url

    @property
    def shown_name(self) -> str:
        """The name as a page shows it: a game against bots is named in the viewer's language."""
        if self.against_bots:
            return gettext("%(username)s vs bots") % {"username": self.host.get_username()}
        return self.name


class SeatQuerySet(models.QuerySet):
    def sat_by(self, *users: AbstractBaseUser | int) -> SeatQuerySet:
        """The seats where any of ``users`` (people or their ids) sits, or sat before a bot
        took the seat (they left, or timed out too often)."""
        return self.filter(models.Q(user__in=users) | models.Q(replaced_user__in=users))


class Seat(models.Model):
    """One seat of a table: empty, a person, or a bot (R3: seats 0 … n-1)."""

    class Takeover(models.TextChoices):
        """Why a bot took a person's seat during the game."""

        LEFT = "left", _("left the game")
        TIMEOUTS = "timeouts", _("timed out three times")  # R23
        BANNED = "banned", _("banned")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot = models.CharField(max_length=16, blank=True, choices=BOT_KINDS)
    # R23: turns timed out in a row; at three the seat goes to a bot.
    timeouts = models.PositiveSmallIntegerField(default=0)
    # The person who sat here before a bot took over, why, and when: the number of moves played
    # by then. The move log is the game's record and holds no names; a takeover is the table's.
    replaced_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    replaced_because = models.CharField(max_length=8, blank=True, choices=Takeover.choices)
    replaced_at = models.PositiveIntegerField(null=True, blank=True)

    objects = SeatQuerySet.as_manager()

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(
                fields=["table", "user"],
                name="one_seat_per_user",
                condition=models.Q(user__isnull=False),
            ),
            models.CheckConstraint(
                condition=~(models.Q(user__isnull=False) & ~models.Q(bot="")),
                name="seat_is_person_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot

    @property
    def display_name(self) -> str:
        """What the seat is called (:func:`seat_name`): its person, or the bot playing it."""
        username = self.user.get_username() if self.user_id is not None else None
        replaced = ""
        if self.bot and self.replaced_user_id is not None:
            replaced = self.replaced_user.get_username()
        return seat_name(self.position, username, self.bot, replaced)


class GameQuerySet(models.QuerySet):
    def due(self, now: datetime) -> GameQuerySet:
        """The running games that owe a move by ``now``: a bot's, an R23 timeout, or a
        turn-based reminder. Read from the index on ``next_due`` alone, each candidate's table
        checked by its key, so that the look costs the same however many games wait for a
        deadline to come (docs/benchmarks.md); a join from the playing tables would read them
        all."""
        playing = Table.objects.filter(pk=models.OuterRef("table_id"), status=Table.Status.PLAYING)
        return self.filter(next_due__lte=now, winner__isnull=True).filter(models.Exists(playing))


class Game(models.Model):
    """The game played at a table: the record's header and the engine's current snapshot."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    # The header of the taki-record/1 record (docs/record-format.md).
    seed = models.CharField(max_length=64)
    players = models.JSONField()  # names in seat order, as at the start
    deck = models.JSONField()  # the 116 codes, top card first (R4)
    first_player = models.PositiveSmallIntegerField()  # R5: drawn at random at the start
    tournament = models.BooleanField(default=False)
    # The engine's snapshot after the last move: secret, never sent to a browser.
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)  # moves applied so far
    # The digest of the last move, which the next one chains to (Move.chain), kept here so that
    # storing a move need not look the log up.
    last_digest = models.CharField(max_length=64, blank=True, default="")
    # When the server must act next: a bot's move, or the turn deadline of R23.
    next_due = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    # Turn-based: when the people to act are reminded that less than a day is left (None once
    # they were, or on a table played live). next_due is the sooner of it and turn_deadline.
    turn_reminder = models.DateTimeField(null=True, blank=True)
    # Turn-based: the seats whose move it is (kept for turn-based games only, so that "your
    # move" is counted without reading any snapshot).
    to_act = models.JSONField(default=list, blank=True)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A moderator took this rated game out of everyone's ratings (moderation.actions.void_rating).
    rating_voided_at = models.DateTimeField(_("rating voided at"), null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"game of {self.table}"

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def engine(self) -> GameState:
        """The live engine game, from the saved snapshot."""
        return GameState.from_snapshot(self.state)

    def record(
        self, actions: list[Any] | None = None, extra: dict[str, Any] | None = None
    ) -> Record:
        """The taki-record/1 record so far (secret while the game runs: it holds the deck):
        the game's header, and ``actions``, read from the move log unless given; ``extra`` are
        keys the format leaves to the writer."""
        if actions is None:
            actions = list(self.moves.order_by("seq").values_list("action", flat=True))
        return Record(
            seed=self.seed,
            players=list(self.players),
            deck=list(self.deck),
            first_player=self.first_player,
            tournament=self.tournament,
            actions=actions,
            extra=extra or {},
        )


# json.dumps(sort_keys=True, separators=(",", ":")), without building an encoder per move.
_CANONICAL_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


class MoveLogError(AppendOnlyError):
    """Someone tried to change or delete a row of the append-only move log."""


class Move(AppendOnly):
    """One action of the game's record. Append-only: a row is never changed nor deleted.

    ``digest`` chains every move to the one before (sha256 over the previous digest and this
    move's canonical JSON), so any later edit of the log shows.
    """

    class Source(models.TextChoices):
        PLAYER = "player", _("player")
        BOT = "bot", _("bot")
        TIMEOUT = "timeout", _("time ran out")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()  # 0-based: the index of the action in the record
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()  # exactly as in docs/record-format.md
    events = models.JSONField(default=list)  # the engine's public events, for the words
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.PLAYER)
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_move_per_seq"),
        ]

    refusal = MoveLogError

    def __str__(self) -> str:
        return f"{self.game} move {self.seq}"

    @staticmethod
    def chain(previous_digest: str, action: dict) -> str:
        payload = previous_digest + _CANONICAL_JSON.encode(action)
        return hashlib.sha256(payload.encode()).hexdigest()


class ReplaySnapshot(models.Model):
    """The engine's snapshot of a finished game after ``seq`` moves, kept every
    ``replays.SNAPSHOT_EVERY`` moves so that a replay step replays at most that many moves,
    however long the game. Built once, on the first replay of the game; a finished game never
    changes, so they never go stale."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="replay_snapshots")
    seq = models.PositiveIntegerField()  # moves applied
    state = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_replay_snapshot_per_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game} after move {self.seq}"


class GameVerification(models.Model):
    """A moderator replayed a game's move log: who, when, and whether it held."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="verifications")
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    verified_at = models.DateTimeField(_("verified at"), auto_now_add=True)
    moves = models.PositiveIntegerField(_("moves"))
    ok = models.BooleanField(_("the log holds"))

    class Meta:
        verbose_name = _("verification")
        verbose_name_plural = _("verifications")
        ordering = ["-verified_at"]

    def __str__(self) -> str:
        return f"{self.game}: {'ok' if self.ok else 'broken'}"


class RematchInvitation(models.Model):
    """A player of a finished table asked to the rematch (``table``), and their answer."""

    class Answer(models.TextChoices):
        PENDING = "pending", _("Invited")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    answer = models.CharField(max_length=10, choices=Answer.choices, default=Answer.PENDING)

    class Meta:
        verbose_name = _("rematch invitation")
        verbose_name_plural = _("rematch invitations")
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="one_invitation_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} to {self.table}"
