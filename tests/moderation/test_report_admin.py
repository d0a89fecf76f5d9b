"""Acting from a report in the admin: a sanction for the reported person with a duration and a
reason, the report resolved and linked to it; and players chosen by name, never by number."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Sanction
from moderation.models import ModerationLog, Report

pytestmark = pytest.mark.django_db


@pytest.fixture
def report(alice, bob) -> Report:
    return Report.objects.create(filer=alice, target=bob, category="abusive_chat", comment="rude")


def post(client: Client, report: Report, **fields: Any):
    data = {
        "status": "resolved",
        "notes": "",
        "sanction_kind": "",
        "duration": "1d",
        "sanction_reason": "",
        **fields,
    }
    url = reverse("admin:moderation_report_change", args=[report.pk])
    return client.post(url, data, follow=True)


def test_an_open_reports_page_offers_to_sanction_the_reported_player(mod_client, report) -> None:
    page = mod_client.get(reverse("admin:moderation_report_change", args=[report.pk]))

    html = page.content.decode()
    assert "Act on the reported player" in html
    assert 'name="sanction_kind"' in html and 'name="duration"' in html
    assert 'name="sanction_reason"' in html


def test_a_mute_from_the_report_resolves_it_and_links_the_sanction(
    mod, mod_client, report, bob
) -> None:
    post(mod_client, report, sanction_kind="chat_mute", duration="1d", sanction_reason="insults")

    report.refresh_from_db()
    sanction = Sanction.objects.get()
    assert (sanction.user, sanction.kind, sanction.reason) == (bob, "chat_mute", "insults")
    assert sanction.ends_at is not None
    assert (report.status, report.sanction, report.handled_by) == ("resolved", sanction, mod)
    assert ModerationLog.objects.count() == 2
    page = mod_client.get(reverse("admin:moderation_report_change", args=[report.pk])).content
    link = reverse("admin:accounts_sanction_change", args=[sanction.pk])
    assert f'href="{link}"' in page.decode() and "Chat mute" in page.decode()


def test_a_report_is_not_dismissed_and_acted_on_at_once(mod_client, report) -> None:
    response = post(
        mod_client, report, status="dismissed", sanction_kind="chat_mute", sanction_reason="x"
    )

    assert "A report acted on is resolved, not dismissed." in response.content.decode()
    assert Report.objects.get(pk=report.pk).status == "open"
    assert not Sanction.objects.exists()


def test_a_sanction_from_a_report_needs_its_reason(mod_client, report) -> None:
    response = post(mod_client, report, sanction_kind="play_ban", sanction_reason="  ")

    assert "Give a reason for the sanction." in response.content.decode()
    assert not Sanction.objects.exists() and not ModerationLog.objects.exists()


def test_a_report_left_open_without_a_sanction_is_refused(mod_client, report) -> None:
    response = post(mod_client, report, status="open")

    assert "Resolve or dismiss the report." in response.content.decode()
    assert not ModerationLog.objects.exists()


def test_the_sanction_add_page_chooses_the_player_by_name(mod_client, bob) -> None:
    page = mod_client.get(reverse("admin:accounts_sanction_add")).content.decode()
    found = mod_client.get(
        reverse("admin:autocomplete"),
        {
            "term": "bo",
            "app_label": "accounts",
            "model_name": "sanction",
            "field_name": "user",
        },
    )

    assert 'class="admin-autocomplete' in page
    assert 'id="lookup_id_user"' not in page  # no search-by-number pop-up
    assert found.status_code == 200
    assert [person["text"] for person in found.json()["results"]] == ["bob"]
