"""``manage.py export_data``: a game's record, or a person's data, as JSON."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from games.engine import replay_text
from games.services import chat
from moderation import actions
from tests.play import play_to_the_end

pytestmark = pytest.mark.django_db


def export(*args: str, capsys) -> dict:
    call_command("export_data", *args)
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def finished(make_table, bob):
    table = make_table(players=[bob], start=True, turn_seconds=None)
    return play_to_the_end(table)


def test_a_games_record_is_the_one_the_site_serves_and_replays(finished, client, capsys) -> None:
    record = export("--game", str(finished.pk), capsys=capsys)

    assert record == client.get(f"/games/{finished.pk}/record.json").json()
    result = replay_text(json.dumps(record))
    assert result.ok and result.game.winner == finished.winner


def test_a_running_or_unknown_game_is_refused_clearly(make_table, bob) -> None:
    table = make_table(players=[bob], start=True)

    with pytest.raises(CommandError, match="not over"):
        call_command("export_data", "--game", str(table.game.pk))
    with pytest.raises(CommandError, match="no game 999999"):
        call_command("export_data", "--game", "999999")


def test_a_persons_data_holds_their_profile_games_chat_and_reports(
    finished, alice, bob, make_table, capsys
) -> None:
    running = make_table(host=bob, players=[alice], start=True)
    chat.post_message(running.pk, alice, "players", "good luck")
    actions.file_report(alice, bob, "other", "stalls every turn", running)

    data = export("--user", "ALICE", capsys=capsys)

    assert data["format"] == "taki-user-data/1"
    assert data["profile"]["username"] == "alice"
    assert data["statistics"]["played"] == 1
    by_id = {game["game_id"]: game for game in data["games"]}
    assert by_id[finished.pk]["record"]["format"] == "taki-record/1"
    assert "record" not in by_id[running.game.pk]  # its deck is still secret
    assert [line["text"] for line in data["chat"]] == ["good luck"]
    assert data["reports_filed"][0]["about"] == "bob"
    assert data["reports_filed"][0]["comment"] == "stalls every turn"


def test_a_persons_data_can_be_written_to_a_file(alice, tmp_path) -> None:
    target = tmp_path / "alice.json"

    call_command("export_data", "--user", "alice", "--output", str(target))

    assert json.loads(target.read_text())["profile"]["username"] == "alice"


def test_an_unknown_person_is_refused_clearly() -> None:
    with pytest.raises(CommandError, match="no user 'nobody'"):
        call_command("export_data", "--user", "nobody")
