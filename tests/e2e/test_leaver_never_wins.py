"""In a real browser: of two players, one leaves a running game; the other sees at once, without
a reload, a bot take the empty seat in the leaver's name, and the table's log say why. Whoever
wins after that, the site never names the person who left as the winner: not on the table, not
on the finished game's page, not in its replay.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.finish_game import finish_on_site
from tests.e2e.pages import (
    EVENTS,
    RESULT,
    TIMEOUT,
    game_state,
    mark_page,
    my_seat,
    not_reloaded,
    open_table,
    sign_up,
    start_game,
    take_seat,
    unique_name,
)

pytestmark = pytest.mark.e2e


def assert_not_named_winner(text: str, name: str) -> None:
    """``text`` does not say that the person ``name`` won ("ana wins", "ana won")."""
    assert not re.search(rf"(?<![\w-]){re.escape(name)} w(ins|on)\b", text), text


def leave_the_game(page: Page, base: str) -> None:
    """Leave the running game through the table page's "Leave the game" and its confirmation."""
    leave = page.locator("details.leave-game")
    leave.locator("summary", has_text="Leave the game").click()
    confirm = leave.locator(".leave-game__confirm")
    expect(confirm).to_contain_text("Leave for good? A bot plays your seat until the end.")
    confirm.get_by_role("button", name="Yes, leave the game").click()
    page.wait_for_url(base + "/", timeout=TIMEOUT)
    expect(page.get_by_text("a bot plays your seat until it ends.")).to_be_visible()


def test_a_player_who_leaves_is_replaced_by_a_bot_and_is_never_named_the_winner(
    site_server, new_context
) -> None:
    base = site_server.url
    ana_name, ben_name = unique_name("ana"), unique_name("ben")
    ana = sign_up(new_context(), base, ana_name)
    ben = sign_up(new_context(), base, ben_name)

    table_id = open_table(ana, base, f"Leavers {ana_name}", seats=2)
    take_seat(ben, base, table_id)
    start_game(ana, ben)
    mark_page(ben)
    ana_seat, ben_seat = my_seat(ana), my_seat(ben)
    assert sorted([ana_seat, ben_seat]) == [0, 1]

    leave_the_game(ana, base)

    # Ben's page learns of it over its socket: a bot sits in ana's seat, in her name.
    bot_name = f"Bot (for {ana_name})"
    ana_seat_name = ben.locator(f"#table-seats li.seat[data-seat='{ana_seat}'] .seat__name")
    expect(ana_seat_name).to_have_text(bot_name, timeout=TIMEOUT)
    expect(ben.locator(f"#table-seats li.seat[data-seat='{ana_seat}'] .badge--bot")).to_be_visible()
    expect(ben.locator("#table-events h2")).to_have_text("What happened")
    left = ben.locator(EVENTS).filter(has_text=f"{ana_name} left; a bot plays for them")
    expect(left).to_have_count(1, timeout=TIMEOUT)
    assert not_reloaded(ben), "ben's page reloaded instead of updating over its socket"

    # The rest of the game is played on the server; ben's page reads the end on its next load.
    game_id = finish_on_site(site_server, table_id)
    _version, state = game_state(site_server, table_id)
    winner = state["winner"]
    assert winner in (ana_seat, ben_seat)
    ben_won = winner == ben_seat

    ben.reload()
    result = ben.locator(RESULT)
    expect(result).to_be_visible(timeout=TIMEOUT)
    expect(result.locator("h2")).to_have_text("You win!" if ben_won else f"{bot_name} wins!")
    assert_not_named_winner(result.inner_text(), ana_name)
    expect(ben.locator(f"#table-seats li.seat[data-seat='{ana_seat}'] .seat__name")).to_have_text(
        bot_name
    )

    # The finished game's page: the result, the replay's last step and the last line of moves.
    result.get_by_role("link", name="See the whole game").click()
    ben.wait_for_url(f"{base}/games/{game_id}/", timeout=TIMEOUT)
    winner_name = ben_name if ben_won else bot_name
    expect(ben.locator("p.result")).to_have_text(f"{winner_name} won.")
    expect(ben.locator(f"[data-takeover='{ana_seat}']")).to_contain_text(
        f"{ana_name} left; a bot plays for them"
    )
    expect(ben.locator(".replay__winner")).to_have_text(f"{winner_name} won.")
    last_move = ben.locator("ol.moves li").last
    expect(last_move).to_contain_text(f"{winner_name} wins the game")
    for shown in (
        ben.locator("p.result"),
        ben.locator(".replay__winner"),
        ben.locator(".replay__move"),
        last_move,
    ):
        assert_not_named_winner(shown.inner_text(), ana_name)
    assert_not_named_winner(ben.locator("main").inner_text(), ana_name)
