"""The table's chat: what may be posted, who reads which room, and moderation of it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Sanction
from games.models import BlockedWord, ChatMessage
from games.services import chat, tables
from games.services.errors import ServiceError
from social import relations

pytestmark = pytest.mark.django_db

XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'


@pytest.fixture(autouse=True)
def fresh_rate_limit():
    cache.clear()


@pytest.fixture
def table(make_table, bob):
    return make_table(players=[bob], start=True, turn_seconds=None)


def test_a_player_posts_to_the_players_room(table, alice) -> None:
    line = chat.post_message(table.pk, alice, "players", "  good luck  ")

    assert (line.text, line.room, line.author) == ("good luck", "players", alice)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "Write something first."),
        ("x" * 301, "at most 300 characters"),
        ("evil\u202etxt.exe", "invisible or control characters"),
        ("a\x07bell", "invisible or control characters"),
        ("zero\u200bwidth", "invisible or control characters"),
    ],
)
def test_a_bad_message_is_refused_and_not_stored(table, alice, text, words) -> None:
    with pytest.raises(ServiceError) as refusal:
        chat.post_message(table.pk, alice, "players", text)

    assert words in refusal.value.message
    assert not ChatMessage.objects.exists()


def test_a_blocked_word_is_refused_ignoring_case(table, alice) -> None:
    BlockedWord.objects.create(word="coins")

    with pytest.raises(ServiceError, match="not allowed"):
        chat.post_message(table.pk, alice, "players", "BUY cheap COINS now")
    chat.post_message(table.pk, alice, "players", "coinsurance is a word")  # not a whole word

    assert ChatMessage.objects.count() == 1


@pytest.mark.parametrize(
    "text",
    [
        "BUY cheap ＣＯＩＮＳ now",  # full-width
        "BUY cheap c\u043eins now",  # Cyrillic o
        "BUY cheap c o i n s now",  # spaced out
        "BUY cheap c\u0301o\u0301i\u0301n\u0301s\u0301 now",  # combining marks
    ],
)
def test_a_blocked_word_is_refused_in_look_alike_letters(table, alice, text) -> None:
    BlockedWord.objects.create(word="coins")

    with pytest.raises(ServiceError, match="not allowed"):
        chat.post_message(table.pk, alice, "players", text)

    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("\u3164", "Write something visible."),
        ("\u2800 \u2800", "Write something visible."),
        ("a" + "\u0301" * 40, "at most 4 accents or marks on one letter"),
    ],
)
def test_a_line_that_shows_nothing_or_spills_over_is_refused(table, alice, text, words) -> None:
    with pytest.raises(ServiceError) as refusal:
        chat.post_message(table.pk, alice, "players", text)

    assert refusal.value.code == "bad_request"
    assert words in refusal.value.message
    assert not ChatMessage.objects.exists()


def test_messages_are_rate_limited_per_person(table, alice) -> None:
    for number in range(chat.CHAT_BURST):
        chat.post_message(table.pk, alice, "players", f"line {number}")

    with pytest.raises(ServiceError, match="too fast"):
        chat.post_message(table.pk, alice, "players", "one more")


def test_a_muted_players_message_is_refused_with_its_end_time(table, alice, moderator) -> None:
    ends = timezone.now() + timedelta(hours=2)
    Sanction.objects.create(user=alice, kind="chat_mute", reason="x", ends_at=ends)

    with pytest.raises(ServiceError) as refusal:
        chat.post_message(table.pk, alice, "players", "hello")

    until = timezone.localtime(ends)
    assert "muted your chat until" in refusal.value.message
    assert until.strftime("%Y") in refusal.value.message and str(until.day) in refusal.value.message
    assert not ChatMessage.objects.exists()


def test_an_ended_or_lifted_mute_no_longer_holds(table, alice) -> None:
    past = timezone.now() - timedelta(minutes=1)
    Sanction.objects.create(user=alice, kind="chat_mute", reason="x", ends_at=past)
    Sanction.objects.create(user=alice, kind="chat_mute", reason="y", lifted_at=past)

    chat.post_message(table.pk, alice, "players", "back again")

    assert ChatMessage.objects.count() == 1


def test_rooms_players_write_in_theirs_spectators_in_theirs(table, alice, carol) -> None:
    with pytest.raises(ServiceError):
        chat.post_message(table.pk, carol, "players", "coaching")
    with pytest.raises(ServiceError):
        chat.post_message(table.pk, alice, "spectators", "peeking")
    chat.post_message(table.pk, carol, "spectators", "nice game")

    assert chat.recent_messages(table.pk, alice, "spectators") == []
    assert [line.text for line in chat.recent_messages(table.pk, carol, "spectators")] == [
        "nice game"
    ]


def test_html_in_a_message_is_shown_as_text(client: Client, table, alice, carol) -> None:
    chat.post_message(table.pk, alice, "players", XSS)
    client.force_login(carol)

    page = client.get(reverse("games:table", args=[table.pk])).content.decode()

    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "<script>alert" not in page and "<img src=x" not in page


def test_a_player_mutes_another_for_themselves(client: Client, table, alice, bob, carol) -> None:
    chat.post_message(table.pk, bob, "players", "you play badly")
    client.force_login(alice)

    client.post(reverse("games:chat_mute", args=[table.pk]), {"user": bob.pk})

    assert chat.recent_messages(table.pk, alice, "players") == []
    assert len(chat.recent_messages(table.pk, carol, "players")) == 1


def test_a_hidden_message_is_shown_to_nobody(table, alice, bob) -> None:
    line = chat.post_message(table.pk, bob, "players", "spam")
    ChatMessage.objects.filter(pk=line.pk).update(hidden_at=timezone.now())

    assert chat.recent_messages(table.pk, alice, "players") == []
    assert chat.readers_of(line.pk, table.pk, [alice, bob]) == (None, [False, False])


def test_who_may_read_a_new_line_is_worked_out_for_every_socket_at_once(
    table, alice, bob, carol, django_assert_num_queries
) -> None:
    players_line = chat.post_message(table.pk, bob, "players", "gl hf")
    spectators_line = chat.post_message(table.pk, carol, "spectators", "nice")
    chat.mute(alice, bob)
    readers = [alice, bob, carol, AnonymousUser(), None]

    with django_assert_num_queries(4):
        line, may_read = chat.readers_of(players_line.pk, table.pk, readers)
    assert line == players_line
    assert may_read == [False, True, True, True, True]  # alice muted bob
    assert chat.readers_of(spectators_line.pk, table.pk, readers)[1] == [
        False,  # players never read the spectators' room
        False,
        True,
        False,  # nor does an anonymous visitor
        False,
    ]
    tables.leave_table(table.pk, bob)  # a bot takes bob's seat: he sat there, he is a player
    assert chat.readers_of(spectators_line.pk, table.pk, [bob])[1] == [False]


def test_the_finished_game_page_keeps_the_players_chat(client: Client, alice) -> None:
    table = tables.create_table(alice, name="Done", seat_count=2, bot_seats=1, turn_seconds=5)
    game = tables.start_game(table.pk, alice)
    chat.post_message(table.pk, alice, "players", "gg bots")
    ChatMessage.objects.create(table=table, author=alice, room="spectators", text="secret")
    from games.services import moves

    now = timezone.now()
    while not game.finished:
        now = max(now, game.next_due)
        moves.advance(game.pk, now=now)
        game.refresh_from_db()

    page = client.get(reverse("games:finished_game", args=[game.pk])).content.decode()

    assert "gg bots" in page and "secret" not in page


def test_a_play_banned_player_cannot_open_nor_join_tables(alice, bob, make_table) -> None:
    ends = timezone.now() + timedelta(days=1)
    Sanction.objects.create(user=bob, kind="play_ban", reason="leaver", ends_at=ends)
    table = make_table(seat_count=3)

    with pytest.raises(ServiceError, match="banned you from playing until"):
        tables.join_table(table.pk, bob)
    with pytest.raises(ServiceError, match="banned you from playing until"):
        tables.create_table(bob, name="Mine", seat_count=2)
    with pytest.raises(ServiceError, match="banned you from playing until"):
        tables.play_against_bots(bob)
    assert not table.seats.filter(user=bob).exists()


def test_the_join_page_says_why_a_play_banned_player_is_refused(
    client: Client, bob, make_table
) -> None:
    Sanction.objects.create(user=bob, kind="play_ban", reason="leaver")
    table = make_table(seat_count=3)
    client.force_login(bob)

    response = client.post(reverse("games:join", args=[table.pk]), follow=True)

    assert "A moderator has banned you from playing." in response.content.decode()
    assert not table.seats.filter(user=bob).exists()


@pytest.mark.parametrize(
    ("language", "title", "send"),
    [
        ("es", "Chat de los jugadores", "Enviar"),
        ("id", "Obrolan pemain", "Kirim"),
        ("eo", "Babilejo de la ludantoj", "Sendi"),
    ],
)
def test_the_chat_is_in_the_visitors_language(
    client: Client, table, alice, language, title, send
) -> None:
    client.force_login(alice)

    page = client.get(
        reverse("games:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()

    assert f'<h2 class="chat__title">{title}</h2>' in page
    assert f'<button type="submit">{send}</button>' in page
    assert "Players' chat" not in page and "Mute or report" not in page


def end_game(table, status: str = "finished", minutes_ago: float = 0) -> None:
    """The table's game ended ``minutes_ago`` (as ``services.finish`` leaves it)."""
    from games.models import Game, Table

    Table.objects.filter(pk=table.pk).update(status=status)
    ended = timezone.now() - timedelta(minutes=minutes_ago)
    Game.objects.filter(table=table).update(finished_at=ended)


@pytest.mark.parametrize("status", ["finished", "aborted"])
def test_the_spectators_room_closes_with_the_game(table, carol, status) -> None:
    end_game(table, status)

    with pytest.raises(ServiceError) as refusal:
        chat.post_message(table.pk, carol, "spectators", "gg")

    assert "The game is over" in refusal.value.message
    assert not ChatMessage.objects.exists()
    rooms = chat.rooms_for(table.pk, carol)
    assert rooms.write == () and "spectators" in rooms.read


@pytest.mark.parametrize("status", ["finished", "aborted"])
def test_the_players_may_talk_for_a_while_after_the_game(table, alice, bob, status) -> None:
    end_game(table, status, minutes_ago=1)

    chat.post_message(table.pk, alice, "players", "gg")
    chat.post_message(table.pk, bob, "players", "gg, again?")

    assert ChatMessage.objects.count() == 2


def test_the_players_room_closes_a_while_after_the_game(table, alice) -> None:
    minutes = chat.AFTER_GAME_CHAT.total_seconds() / 60
    end_game(table, minutes_ago=minutes + 1)

    with pytest.raises(ServiceError) as refusal:
        chat.post_message(table.pk, alice, "players", "anyone?")

    assert "The game is over" in refusal.value.message
    assert chat.rooms_for(table.pk, alice).write == ()


def test_a_spectator_still_writes_while_the_game_runs(table, carol) -> None:
    chat.post_message(table.pk, carol, "spectators", "nice run")

    assert chat.rooms_for(table.pk, carol).write == ("spectators",)


def test_the_lines_since_one_are_those_the_reader_may_read(table, alice, bob, carol) -> None:
    first = chat.post_message(table.pk, alice, "players", "hi")
    chat.post_message(table.pk, bob, "players", "hello")
    chat.post_message(table.pk, carol, "spectators", "go bob")
    chat.mute(alice, bob)

    assert [line.text for line in chat.lines_since(table.pk, alice, first.pk)] == []
    assert [line.text for line in chat.lines_since(table.pk, carol, first.pk)] == [
        "hello",
        "go bob",
    ]
    assert [line.text for line in chat.lines_since(table.pk, AnonymousUser(), 0)] == [
        "hi",
        "hello",
    ]


def test_a_blocked_person_s_lines_are_gone_for_the_blocker_alone(table, alice, bob) -> None:
    before = chat.post_message(table.pk, bob, "players", "before the block")
    relations.block(alice, bob)
    after = chat.post_message(table.pk, bob, "players", "after the block")
    own = chat.post_message(table.pk, alice, "players", "mine")

    assert chat.recent_messages(table.pk, alice, "players") == [own]
    assert chat.lines_since(table.pk, alice, 0) == [own]
    assert chat.recent_messages(table.pk, bob, "players") == [before, after, own]
    _message, readers = chat.readers_of(after.pk, table.pk, [alice, bob])
    assert readers == [False, True]
    assert chat.muted_authors(alice) == set()  # a block is no mute: "Unmute" does not undo it
