"""Chat and moderation in the browser: a player insults another in the table's chat, the other
reports them from the table, and a moderator (a member of the Moderators group, not a superuser)
handles the report in the admin; the mod log shows it. Or mutes the reported player from the
report itself, and the muted player's chat box says so. Screenshots: test-artifacts/e2e-chat-*.png,
e2e-report-form.png, e2e-admin-reports.png, e2e-mod-log.png, e2e-admin-report-*.png.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import (
    PASSWORD,
    TIMEOUT,
    open_table,
    screenshot,
    sign_up,
    start_game,
    take_seat,
    unique_name,
)
from tests.e2e.site_server import ROOT

pytestmark = pytest.mark.e2e

MAKE_MODERATOR = """
from django.contrib.auth.models import Group, User
user = User.objects.create_user({name!r}, password={password!r}, is_staff=True)
user.groups.add(Group.objects.get(name="Moderators"))
"""


def make_moderator(site_server, name: str) -> None:
    """As README's Moderation section says: a staff account in the Moderators group."""
    code = MAKE_MODERATOR.format(name=name, password=PASSWORD)
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=site_server.env,
        check=True,
        capture_output=True,
    )


def test_a_report_filed_from_the_table_is_handled_by_a_moderator(
    site_server, new_context, artifacts
) -> None:
    base = site_server.url
    victim, rude = unique_name("vic"), unique_name("rude")
    host = sign_up(new_context(), base, victim)
    table_id = open_table(host, base, "Chat table")
    other = sign_up(new_context(), base, rude)
    take_seat(other, base, table_id)
    start_game(host, other)

    # A line with HTML in it arrives live on the other player's page, as text.
    other.locator("#chat-log-players + form input[name=text]").fill("<b>you</b> play like a bot")
    other.locator("#chat-log-players + form").get_by_role("button", name="Send").click()
    line = host.locator("#chat-log-players .chat__text")
    expect(line).to_have_text("<b>you</b> play like a bot", timeout=TIMEOUT)
    expect(other.locator("#chat-log-players + form input[name=text]")).to_have_value("")
    screenshot(host, artifacts, "chat-desktop")
    host.set_viewport_size({"width": 390, "height": 844})
    screenshot(host, artifacts, "chat-phone")
    host.set_viewport_size({"width": 1280, "height": 900})

    host.locator(".chat__tools summary").click()
    host.get_by_role("link", name="Report a player").click()
    form = host.locator("form.report-form")
    expect(form).to_contain_text(f"You are reporting {rude}.")  # the one other person here
    form.get_by_label("What happened").select_option(label="Abusive chat")
    form.get_by_label("Comment").fill("Insults in the chat.")
    screenshot(host, artifacts, "report-form")
    form.get_by_role("button", name="Send the report").click()
    expect(host.get_by_text("Report received")).to_be_visible()

    moderator = unique_name("mod")
    make_moderator(site_server, moderator)
    admin = new_context().new_page()
    admin.goto(base + "/admin/login/")
    admin.locator("input[name=username]").fill(moderator)
    admin.locator("input[name=password]").fill(PASSWORD)
    admin.locator("input[type=submit]").click()
    admin.get_by_role("link", name="Reports").first.click()
    row = admin.locator("#result_list tbody tr", has_text=rude)
    expect(row).to_contain_text("Open")
    screenshot(admin, artifacts, "admin-reports")
    row.locator("th a").click()
    expect(admin.locator(".field-recent_chat")).to_contain_text("<b>you</b> play like a bot")
    admin.locator("select[name=status]").select_option(label="Resolved")
    admin.locator("textarea[name=notes]").fill("Warned; muted for a day.")
    admin.locator("input[name=_save]").click()
    expect(admin.locator("#result_list tbody tr", has_text=rude)).to_contain_text("Resolved")

    admin.goto(base + "/admin/moderation/moderationlog/")
    entry = admin.locator("#result_list tbody tr", has_text="Handled a report")
    expect(entry).to_contain_text(moderator)
    expect(entry).to_contain_text("Warned; muted for a day.")
    screenshot(admin, artifacts, "mod-log")
    rows = site_server.query(
        "SELECT r.status FROM moderation_report r JOIN auth_user u ON u.id = r.target_id "
        "WHERE u.username = ?",
        (rude,),
    )
    assert rows == [("resolved",)]


def log_in_to_the_admin(context, base: str, username: str):
    admin = context.new_page()
    admin.goto(base + "/admin/login/")
    admin.locator("input[name=username]").fill(username)
    admin.locator("input[name=password]").fill(PASSWORD)
    admin.locator("input[type=submit]").click()
    return admin


def test_a_moderator_mutes_the_reported_player_from_the_report(
    site_server, new_context, artifacts
) -> None:
    base = site_server.url
    victim, rude = unique_name("vic"), unique_name("rude")
    host = sign_up(new_context(), base, victim)
    table_id = open_table(host, base, "Mute table")
    other = sign_up(new_context(), base, rude)
    take_seat(other, base, table_id)
    start_game(host, other)
    chat_form = other.locator("#chat-log-players + form")
    chat_form.locator("input[name=text]").fill("you are hopeless")
    chat_form.get_by_role("button", name="Send").click()
    expect(host.locator("#chat-log-players .chat__text")).to_have_text(
        "you are hopeless", timeout=TIMEOUT
    )
    host.goto(f"{base}/tables/{table_id}/report/")
    form = host.locator("form.report-form")
    form.get_by_label("What happened").select_option(label="Abusive chat")
    form.get_by_label("Comment").fill("Insults again.")
    form.get_by_role("button", name="Send the report").click()
    expect(host.get_by_text("Report received")).to_be_visible()

    moderator = unique_name("mod")
    make_moderator(site_server, moderator)
    admin = log_in_to_the_admin(new_context(), base, moderator)
    admin.goto(base + "/admin/moderation/report/")
    admin.locator("#result_list tbody tr", has_text=rude).locator("th a").click()
    admin.locator("select[name=sanction_kind]").select_option(label="Chat mute")
    admin.locator("select[name=duration]").select_option(label="1 day")
    admin.locator("textarea[name=sanction_reason]").fill("Insults in the chat.")
    screenshot(admin, artifacts, "admin-report-mute")
    admin.locator("input[name=_save]").click()

    expect(admin.locator("#result_list tbody tr", has_text=rude)).to_contain_text("Resolved")
    admin.locator("#result_list tbody tr", has_text=rude).locator("th a").click()
    sanction = admin.locator(".field-sanction_link a")
    expect(sanction).to_have_text("Chat mute")
    sanction.click()
    expect(admin.locator(".field-reason")).to_contain_text("Insults in the chat.")
    expect(admin.locator(".field-user")).to_contain_text(rude)
    screenshot(admin, artifacts, "admin-report-sanction")

    chat_form.locator("input[name=text]").fill("still here")
    chat_form.get_by_role("button", name="Send").click()
    expect(other.locator("#chat-flash")).to_contain_text(
        "A moderator has muted your chat until", timeout=TIMEOUT
    )
    screenshot(other, artifacts, "chat-muted")
    rows = site_server.query(
        "SELECT r.status, s.kind FROM moderation_report r JOIN accounts_sanction s "
        "ON s.id = r.sanction_id JOIN auth_user u ON u.id = r.target_id WHERE u.username = ?",
        (rude,),
    )
    assert rows == [("resolved", "chat_mute")]
