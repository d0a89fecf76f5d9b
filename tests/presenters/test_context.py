"""What a table shows each viewer (presenters), records, statistics and verification."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone, translation

from games import presenters
from games.engine import CARDS, make_bot, replay
from games.engine.record import Record
from games.loadtest.fragments import hand_actions
from games.models import Game, Move, Table
from games.presenters import fragments as presenters_fragments
from games.presenters import words
from games.services import broadcast, history, moves, stats, tables
from games.services.errors import ServiceError

pytestmark = pytest.mark.django_db

HANDS = [
    ["red:1", "red:3", "red:taki", "red:plus2", "plus3", "blue:1", "green:1", "yellow:1"],
    ["red:6", "red:7", "blue:6", "blue:7", "green:6", "green:7", "yellow:6", "breaker"],
]


def game_of(table: Table) -> Game:
    return Game.objects.get(table=table)


def card_lists(value: Any, path: tuple = ()) -> dict[tuple, list[str]]:
    """Every non-empty list of card codes in ``value``, by its path of keys."""
    found = {}
    if isinstance(value, dict):
        for key, item in value.items():
            found |= card_lists(item, (*path, key))
    elif isinstance(value, list | tuple):
        if value and all(isinstance(item, str) and item in CARDS for item in value):
            found[path] = list(value)
        for index, item in enumerate(value):
            found |= card_lists(item, (*path, index))
    return found


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in ``value`` (models are not looked into)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return card_codes(dataclasses.asdict(value))
    if isinstance(value, str):
        return {value} if value in CARDS else set()
    if isinstance(value, dict):
        return set().union(*(card_codes(item) for item in value.values()))
    if isinstance(value, list | tuple | set):
        return set().union(*(card_codes(item) for item in value))
    return set()


def public_codes(game: Game) -> set[str]:
    """The cards everyone has seen: the discard pile's top and the cards played."""
    engine = game.engine()
    played = {
        event["card"]
        for events in game.moves.values_list("events", flat=True)
        for event in events
        if "card" in event
    }
    return played | {engine.discard[-1].code, engine.leading.code}


def seen_by(table: Table, user: Any) -> dict[str, Any]:
    """What the table's templates draw for ``user``, from the view every socket shares."""
    return presenters.table_page_context(presenters.read_table(table.pk), user)


def pushed_to(table: Table, user: Any) -> str:
    """The fragments a socket of ``user`` is sent."""
    return presenters.table_fragments(presenters.read_table(table.pk), user)


@pytest.fixture
def table(alice, bob, make_table, rig) -> Table:
    table = make_table(players=[bob], start=True)
    rig(table, HANDS)
    moves.submit_action(table.pk, alice, {"type": "play", "card": "red:3", "version": 0})
    return table


def play_to_the_end(table: Table, people: dict[int, Any]) -> Game:
    """Play people's turns with the greedy bot's choices and let advance play the bots."""
    bot = make_bot("greedy")
    now = timezone.now()
    for _ in range(3000):
        game = game_of(table)
        if game.finished:
            return game
        engine = game.engine()
        seat = engine.seats_to_act()[0]
        if seat in people:
            action = {**bot.choose(engine, seat).to_json(), "version": game.version}
            moves.submit_action(table.pk, people[seat], action)
        else:
            now = max(now, game.next_due)
            moves.advance(game.pk, now=now)
    raise AssertionError("the game did not end")


@pytest.fixture
def finished(alice) -> Game:
    table = tables.play_against_bots(alice, opponents=1)
    return play_to_the_end(table, {0: alice})


def test_a_player_sees_their_own_hand_and_no_other(table, alice) -> None:
    context = seen_by(table, alice)

    game = game_of(table)
    own = sorted(code for code in HANDS[0] if code != "red:3")
    assert context["hand"] == own
    assert set(card_lists(context)) <= {("hand",)}
    public = public_codes(game)
    assert card_codes(context) <= set(own) | public
    html = pushed_to(table, alice)
    assert sorted(re.findall(r'data-card="([^"]+)"', html)) == own
    assert {code for code in CARDS if f'"{code}"' in html} <= set(own) | public
    # The check has teeth: bob holds cards that are neither alice's nor public.
    assert set(HANDS[1]) - set(own) - public


def test_a_player_gets_their_legal_actions_grouped_for_the_controls(table, bob) -> None:
    context = seen_by(table, bob)

    assert context["my_seat"] == 1
    assert context["legal"] == {
        # R19b: a Breaker may be played on one's own turn too (and costs three cards).
        "play": [
            {"card": "red:6", "colors": []},
            {"card": "red:7", "colors": []},
            {"card": "breaker", "colors": []},
        ],
        "draw": True,
        "close_taki": False,
        "pass": False,
        "accept": False,
        "last_card": False,
    }
    view = presenters.read_table(table.pk)
    hand = presenters.hand_view(view, view.seat_of(bob.pk))
    assert hand.playable == ["breaker", "red:6", "red:7"]


@pytest.mark.parametrize("who", ["carol", "anonymous"])
def test_a_spectator_sees_no_hand_at_all(table, carol, who) -> None:
    viewer = carol if who == "carol" else AnonymousUser()

    context = seen_by(table, viewer)

    assert context["my_seat"] is None
    assert (context["hand"], context["legal"], context["hand_cards"]) == (None, None, [])
    assert card_lists(context) == {}
    assert card_codes(context) <= public_codes(game_of(table))
    html = pushed_to(table, viewer)
    assert "data-card=" not in html
    assert {code for code in CARDS if f'"{code}"' in html} <= public_codes(game_of(table))


def test_everyone_watching_a_game_in_play_is_sent_one_drawing(
    table, alice, carol, monkeypatch
) -> None:
    view = presenters.read_table(table.pk)
    drawings = []
    live = presenters_fragments._live
    monkeypatch.setattr(
        presenters_fragments, "_live", lambda *args: drawings.append(args[0]) or live(*args)
    )

    first = presenters.table_fragments(view, carol)
    again = presenters.table_fragments(view, AnonymousUser())
    refused = presenters.table_fragments(view, carol, flash="Only players can do that.")
    player = presenters.table_fragments(view, alice)

    assert first == again and drawings.count("games/partials/table_private.html") == 3
    assert "Only players can do that." in refused and "Only players can do that." not in first
    assert "data-card=" not in first and "data-card=" in player
    with translation.override("es"):
        assert presenters.table_fragments(view, carol) != first  # each language its own


def test_every_seat_shows_its_hand_size_and_whose_turn_it_is(table, alice, bob) -> None:
    broadcast.socket_opened(table.pk, bob)

    seats = seen_by(table, alice)["seats"]

    assert [(s.name, s.hand_size, s.is_turn) for s in seats] == [
        ("alice", 7, False),
        ("bob", 8, True),
    ]
    assert [s.connected for s in seats] == [False, True]
    assert seats[1].deadline == game_of(table).turn_deadline
    broadcast.socket_closed(table.pk, bob)
    assert seen_by(table, alice)["seats"][1].connected is False


def test_the_recent_events_are_data_for_the_words(table, alice) -> None:
    events = presenters.read_table(table.pk).recent_moves

    assert events == (
        {
            "seq": 0,
            "seat": 0,
            "source": "player",
            "events": [{"kind": "played", "seat": 0, "card": "red:3", "color": "red"}],
            "action": {"type": "play", "player": 0, "card": "red:3"},
        },
    )
    assert seen_by(table, alice)["recent"] == [{"seq": 1, "text": "alice played red 3"}]


def test_an_open_table_has_no_game_to_show(alice, bob, make_table) -> None:
    table = make_table(seat_count=3, players=[bob])

    context = seen_by(table, alice)

    assert (context["board"], context["version"], context["result"]) == (None, None, None)
    assert context["is_host"] and context["can_start"]
    assert [s.name for s in context["seats"]] == ["alice", "bob", ""]


def test_the_record_is_refused_while_the_game_runs(table) -> None:
    with pytest.raises(ServiceError) as caught:
        history.export_record(game_of(table))

    assert caught.value.code == "forbidden"


def test_a_finished_game_exports_a_record_that_replays(finished) -> None:
    record = history.export_record(finished)

    digests = list(finished.moves.order_by("seq").values_list("digest", flat=True))
    actions = list(finished.moves.order_by("seq").values_list("action", flat=True))
    assert record["format"] == "taki-record/1"
    assert record["actions"] == actions
    assert record["digests"] == digests
    assert record["game_id"] == finished.pk
    assert record["finished_at"] == finished.finished_at.isoformat()
    assert record["result"] == {
        "winner": finished.winner,
        "winner_name": finished.players[finished.winner],
    }
    result = replay(Record.from_json(record))
    assert result.ok and result.game.winner == finished.winner


def test_a_finished_game_shows_its_result_to_everyone(finished, alice, bob) -> None:
    table = finished.table

    for viewer in (alice, bob):
        context = seen_by(table, viewer)
        assert context["result"]["winner"] == finished.winner
        assert context["hand"] is None and context["legal"] is None


def test_the_statistics_count_the_finished_games(finished, alice, bob) -> None:
    player = stats.player_stats(alice, viewer=alice)

    won = finished.winner == 0
    assert (player["played"], player["won"], player["win_rate"]) == (1, int(won), float(won))
    assert player["recent"][0]["game"] == finished
    assert player["recent"][0]["table_name"] == "alice vs bots"
    assert stats.player_stats(bob) == {
        "played": 0,
        "won": 0,
        "left": 0,
        "win_rate": 0.0,
        "recent": [],
    }


def test_a_game_verifies_until_its_log_is_tampered_with(table, bob) -> None:
    moves.submit_action(table.pk, bob, {"type": "draw", "version": 1})
    game = game_of(table)
    assert history.verify_game(game)

    first = game.moves.get(seq=0)
    Move.objects.filter(pk=first.pk).update(action={"type": "play", "player": 0, "card": "red:1"})

    assert not history.verify_game(game)


def test_a_game_does_not_verify_if_its_snapshot_was_changed(table) -> None:
    game = game_of(table)
    game.state["hands"][0], game.state["hands"][1] = game.state["hands"][1], game.state["hands"][0]
    Game.objects.filter(pk=game.pk).update(state=game.state)

    assert not history.verify_game(game_of(table))


def test_a_game_does_not_verify_if_a_chained_digest_was_changed(table) -> None:
    game = game_of(table)
    Move.objects.filter(game=game).update(digest="0" * 64)

    assert not history.verify_game(game)


def test_a_change_color_is_offered_with_every_colour_to_name(alice, bob, make_table, rig) -> None:
    table = make_table(players=[bob], start=True)
    hands = [["change-color", *HANDS[0][1:]], HANDS[1]]
    rig(table, hands)

    legal = seen_by(table, alice)["legal"]

    # R11: the colour is named on the play itself.
    assert {"card": "change-color", "colors": ["red", "yellow", "green", "blue"]} in legal["play"]


def test_a_tournament_game_starts_every_seat_at_stage_eight(alice, bob, make_table) -> None:
    table = make_table(players=[bob], tournament=True, start=True)

    context = seen_by(table, alice)

    assert table.game.tournament and table.game.engine().tournament
    assert [seat.stage for seat in context["seats"]] == [8, 8]


def test_a_table_read_once_names_its_bots_in_each_viewers_language(alice, make_table) -> None:
    table = make_table(bot_seats=1, start=True)
    with translation.override("en"):
        view = presenters.read_table(table.pk)

    with translation.override("es"):
        spanish = presenters.table_fragments(view, alice)
    english = presenters.table_fragments(view, alice)

    assert "Greedy bot 2" in english and "Greedy bot 2" not in spanish
    with translation.override("es"):
        assert translation.gettext("Greedy bot") + " 2" in spanish


def test_the_hand_s_cards_send_the_version_of_the_one_input_that_holds_it(
    alice, bob, make_table, rig
) -> None:
    table = make_table(players=[bob], start=True)
    rig(table, HANDS)
    before = pushed_to(table, alice)
    moves.submit_action(table.pk, alice, {"type": "play", "card": "red:3", "version": 0})
    moves.submit_action(table.pk, bob, {"type": "play", "card": "red:7", "version": 1})
    after = pushed_to(table, alice)

    for html, version in ((before, "0"), (after, "2")):
        hand = html.split('id="table-hand"')[1]
        assert hand.count('name="version"') == 2  # the hand's one input, and the draw button's
        assert f'id="hand-version" name="version" value="{version}"' in hand
        plays = [action for action in hand_actions(hand) if action["type"] == "play"]
        assert plays and all(action["version"] == version for action in plays)
    # So a card that is still playable is the same HTML from one move to the next.
    red_1 = re.compile(r'<li class="hand__card[^"]*" data-card="red:1">.*?</li>', re.S)
    assert red_1.search(before)[0] == red_1.search(after)[0]


def test_a_kept_card_is_drawn_in_each_viewers_language(alice, bob, make_table, rig) -> None:
    table = make_table(players=[bob], start=True)
    rig(table, HANDS)
    view = presenters.read_table(table.pk)

    english = presenters.table_fragments(view, alice)
    with translation.override("es"):
        spanish = presenters.table_fragments(view, alice)
        play_red_1 = translation.gettext("Play %(card)s") % {"card": words.card_name("red:1")}

    assert 'title="Play red 1"' in english
    assert f'title="{play_red_1}"' in spanish and 'title="Play red 1"' not in spanish
