"""The API's endpoints over HTTP: each one's scopes, its answers, and its refusals as JSON with
the service's code and words (``api.endpoints``)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync

from api import limits
from api.models import AccessToken
from api.scopes import SCOPES
from games.models import ChatMessage, Game, Move, Table
from games.services import history
from tests.play import WINNING_RUN, play_to_the_end

pytestmark = pytest.mark.django_db

# Every endpoint that takes a token, and the scopes it accepts.
ENDPOINTS = [
    ("get", "/api/account", ["read:profile"]),
    ("get", "/api/users/alice", ["read:profile"]),
    ("get", "/api/games/1", ["read:games"]),
    ("get", "/api/games/user/alice", ["read:games"]),
    ("get", "/api/lobby", ["read:games"]),
    ("get", "/api/stream/event", ["challenge:read", "bot:play"]),
    ("get", "/api/bot/game/stream/1", ["bot:play"]),
    ("post", "/api/bot/game/1/action", ["bot:play"]),
    ("post", "/api/bot/game/1/chat", ["bot:play"]),
    ("post", "/api/bot/game/1/leave", ["bot:play"]),
    ("post", "/api/bot/account/upgrade", ["bot:play"]),
    ("post", "/api/challenge/bob", ["challenge:write"]),
    ("post", "/api/challenge/1/accept", ["challenge:write", "bot:play"]),
    ("post", "/api/challenge/1/decline", ["challenge:write", "bot:play"]),
    ("post", "/api/challenge/1/cancel", ["challenge:write"]),
]


@pytest.mark.parametrize(("method", "path", "accepted"), ENDPOINTS)
def test_each_endpoint_refuses_a_token_without_its_scopes(
    alice, api_client, bearer, method, path, accepted
):
    others = [scope for scope in SCOPES if scope not in accepted]
    client = api_client(bearer(alice, *others))
    if method == "get":
        answer = client.get(path)
    else:
        answer = client.post(path, data="{}", content_type="application/json")
    assert answer.status_code == 403
    body = answer.json()["error"]
    assert body["code"] == "missing_scope"
    assert body["scopes"] == accepted
    assert all(scope in body["message"] for scope in accepted)


def test_every_endpoint_is_in_the_list_above():
    from api.endpoints import api

    schema = api.get_openapi_schema()
    listed = {(method, path) for path, ops in schema["paths"].items() for method in ops}
    assert len(listed) == len(ENDPOINTS)


def test_who_am_i(alice, api_client, bearer):
    answer = api_client(bearer(alice, "read:profile", "bot:play")).get("/api/account")
    assert answer.status_code == 200
    body = answer.json()
    assert body["username"] == "alice" and body["bot"] is False
    assert body["scopes"] == ["read:profile", "bot:play"]
    assert body["stats"]["played"] == 0


def test_a_bad_token_is_refused_and_not_taken_for_nobody(api_client):
    answer = api_client("taki_nothing").get("/api/lobby")
    assert answer.status_code == 401
    assert answer["WWW-Authenticate"] == "Bearer"
    assert api_client().get("/api/lobby").status_code == 200


def test_a_profile_and_the_lobby_need_no_token(alice, bob, api_client, make_table):
    make_table(name="Open to all")
    profile = api_client().get("/api/users/ALICE").json()
    assert profile["username"] == "alice" and profile["ratings"] == {}
    [table] = api_client().get("/api/lobby").json()
    assert table["name"] == "Open to all" and table["taken"] == 1
    missing = api_client().get("/api/users/nobody")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


@pytest.fixture
def duel(make_table, bob, rig) -> Table:
    """alice (seat 0) and bob at a started duel whose deal lets alice win in eight moves."""
    table = make_table(players=[bob], start=True)
    rig(table, WINNING_RUN, leading="red:9")
    return table


def read_all(answer) -> bytes:
    """A streamed answer's whole body (its stream an async one, read to its end)."""

    async def collect() -> bytes:
        return b"".join([chunk async for chunk in answer.streaming_content])

    return async_to_sync(collect)()


def _post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_a_seat_plays_through_the_api_and_the_record_verifies(alice, duel, api_client, bearer):
    client = api_client(bearer(alice, "bot:play"))
    for version, card in enumerate(WINNING_RUN[0]):
        action = {"type": "play", "card": card, "version": version, "last_card": True}
        answer = _post(client, f"/api/bot/game/{duel.pk}/action", action)
        assert answer.status_code == 200, answer.json()
        assert answer.json()["ok"] is True
    game = Game.objects.get(table=duel)
    assert game.finished and game.winner == 0
    assert history.verify_game(game)


def test_stale_out_of_turn_and_malformed_actions_are_refused_and_nothing_is_stored(
    alice, bob, duel, api_client, bearer
):
    alice_client = api_client(bearer(alice, "bot:play"))
    bob_client = api_client(bearer(bob, "bot:play"))
    path = f"/api/bot/game/{duel.pk}/action"
    refusals = [
        (bob_client, {"type": "draw", "version": 0}, 400, "not_your_turn"),
        (alice_client, {"type": "draw", "version": 5}, 409, "stale"),
        (alice_client, {"type": "draw", "version": 0, "seat": 1}, 400, "bad_request"),
        (alice_client, {"type": "fly", "version": 0}, 400, "bad_request"),
        (alice_client, {"type": "play", "card": "red:99", "version": 0}, 400, "bad_action"),
        (alice_client, {"type": "play", "card": "yellow:1", "version": 0}, 400, "card_not_in_hand"),
        (alice_client, {"type": "draw"}, 400, "bad_request"),
    ]
    for client, body, status, code in refusals:
        answer = _post(client, path, body)
        assert answer.status_code == status, (body, answer.content)
        assert answer.json()["error"]["code"] == code
        assert answer.json()["error"]["message"]
    broken = alice_client.post(path, data="{not json", content_type="application/json")
    assert broken.status_code == 400 and broken.json()["error"]["code"] == "bad_request"
    huge = _post(alice_client, path, {"type": "draw", "version": 0, "pad": "x" * 10_000})
    assert huge.status_code == 413 and huge.json()["error"]["code"] == "too_large"
    assert not Move.objects.exists()
    assert Game.objects.get(table=duel).version == 0
    # The move answered after all that is the game's first.
    assert _post(alice_client, path, {"type": "draw", "version": 0}).status_code == 200
    stale = _post(alice_client, path, {"type": "draw", "version": 0})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale"
    assert Move.objects.count() == 1


# A stream closes stale database connections between its reads, as a long-lived view must: on
# PostgreSQL that would end the test's transaction, so the data is committed instead.
@pytest.mark.django_db(transaction=True)
def test_someone_not_seated_cannot_play_or_stream(carol, duel, api_client, bearer):
    client = api_client(bearer(carol, "bot:play"))
    answer = _post(client, f"/api/bot/game/{duel.pk}/action", {"type": "draw", "version": 0})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "not_seated"
    stream = client.get(f"/api/bot/game/stream/{duel.pk}")
    assert stream.status_code == 403 and stream.json()["error"]["code"] == "not_seated"


def test_chat_and_leave(alice, bob, duel, api_client, bearer):
    client = api_client(bearer(bob, "bot:play"))
    answer = _post(client, f"/api/bot/game/{duel.pk}/chat", {"text": "good luck"})
    assert answer.status_code == 200
    assert ChatMessage.objects.get(pk=answer.json()["id"]).text == "good luck"
    assert _post(client, f"/api/bot/game/{duel.pk}/leave", {}).status_code == 200
    assert duel.seats.get(position=1).bot == "greedy"


# A stream closes stale database connections between its reads, as a long-lived view must: on
# PostgreSQL that would end the test's transaction, so the data is committed instead.
@pytest.mark.django_db(transaction=True)
def test_finished_games_export_as_ndjson_with_filters(alice, bob, carol, make_table, api_client):
    tables = [make_table(players=[bob], start=True, rated=False) for _ in range(2)]
    tables.append(make_table(host=carol, players=[bob], start=True, rated=True))
    games = [play_to_the_end(table) for table in tables]
    answer = api_client().get("/api/games/user/bob")
    assert answer["Content-Type"] == "application/x-ndjson"
    lines = read_all(answer).decode().splitlines()
    records = [json.loads(text) for text in lines]
    assert [record["game_id"] for record in records] == [game.pk for game in reversed(games)]
    assert all(record["format"] == "taki-record/1" for record in records)

    def exported(query: str) -> list[int]:
        answer = api_client().get(f"/api/games/user/bob?{query}")
        return [json.loads(text)["game_id"] for text in read_all(answer).split()]

    assert [table.rated for table in tables] == [False, False, True]
    assert exported("against=carol") == [games[2].pk]
    assert exported("rated=true") == [games[2].pk]
    assert exported("max=1") == [games[2].pk]
    assert exported("mode=party") == []
    bad = api_client().get("/api/games/user/bob?max=0")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request"


def test_a_running_game_has_no_record_yet(alice, duel, api_client):
    game = Game.objects.get(table=duel)
    answer = api_client().get(f"/api/games/{game.pk}")
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"


def test_challenges_are_made_accepted_declined_and_cancelled(alice, bob, api_client, bearer):
    alice_client = api_client(bearer(alice, "challenge:write"))
    bob_client = api_client(bearer(bob, "bot:play"))
    made = _post(alice_client, "/api/challenge/bob", {"seats": 2}).json()
    assert made["status"] == "open" and made["invited"][0]["username"] == "bob"
    cancelled = _post(alice_client, f"/api/challenge/{made['id']}/cancel", {}).json()
    assert cancelled["status"] == "cancelled"
    again = _post(alice_client, "/api/challenge/bob", {"seats": 2}).json()
    declined = _post(bob_client, f"/api/challenge/{again['id']}/decline", {}).json()
    assert declined["status"] == "declined"
    third = _post(alice_client, "/api/challenge/bob", {"seats": 2}).json()
    accepted = _post(bob_client, f"/api/challenge/{third['id']}/accept", {}).json()
    assert accepted["status"] == "accepted" and accepted["table"] is not None
    unknown = _post(alice_client, "/api/challenge/bob", {"seats": 2, "colour": "red"})
    assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "bad_request"


def test_too_many_requests_are_refused_with_retry_after(alice, api_client, bearer, monkeypatch):
    monkeypatch.setattr(limits, "TOKEN_REQUESTS_PER_MINUTE", 3)
    client = api_client(bearer(alice, "read:profile"))
    answers = [client.get("/api/account") for _ in range(4)]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    refusal = answers[-1]
    assert 1 <= int(refusal["Retry-After"]) <= 60
    body = refusal.json()["error"]
    assert body["code"] == "rate_limited" and body["limit"] == "token_requests_per_minute"
    assert body["retry_after"] == int(refusal["Retry-After"])


def test_streams_past_the_cap_are_refused(alice, api_client, bearer, monkeypatch):
    monkeypatch.setattr(limits, "STREAMS_PER_TOKEN", 0)
    answer = api_client(bearer(alice, "challenge:read")).get("/api/stream/event")
    assert answer.status_code == 429
    assert answer.json()["error"]["limit"] == "streams_per_token"
    assert answer["Retry-After"] == str(limits.STREAM_RETRY)


def test_no_token_is_made_through_the_api(alice, api_client, bearer):
    client = api_client(bearer(alice))
    for path in ("/api/tokens", "/api/token", "/api/account/tokens"):
        assert _post(client, path, {"name": "x", "scopes": ["bot:play"]}).status_code == 404
    assert AccessToken.objects.count() == 1
