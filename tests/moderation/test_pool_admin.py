"""Quick match's pools in the admin: moderators see who waits, and change nothing."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from games.models import PoolEntry
from games.services import quickmatch


def test_a_moderator_sees_who_waits_in_which_pool_since_when_and_their_rating(
    mod_client, alice, bob
) -> None:
    quickmatch.enter(alice, "duel-15", now=timezone.now() - timedelta(minutes=3))
    quickmatch.enter(bob, "party-30")

    page = mod_client.get(reverse("admin:games_poolentry_changelist")).content.decode()

    assert "alice" in page and "bob" in page
    assert "Duel, 15 s turns" in page and "4 players, 30 s turns" in page
    assert "1500" in page
    assert "3\xa0minutes" in page


def test_the_pools_are_filtered_by_the_names_players_read(mod_client, alice, bob) -> None:
    quickmatch.enter(alice, "duel-15")
    quickmatch.enter(bob, "party-30")
    changelist = reverse("admin:games_poolentry_changelist")

    page = mod_client.get(changelist).content.decode()
    filtered = mod_client.get(changelist, {"pool": "party-30"}).content.decode()

    for pool in quickmatch.POOLS.values():  # each pool named in the filter, waited in or not
        assert f">{pool.label}</a>" in page
    assert ">duel-15</a>" not in page
    assert "bob" in filtered and "alice" not in filtered


def test_a_moderator_cannot_add_change_or_delete_a_pool_entry(mod_client, alice) -> None:
    entry = quickmatch.enter(alice, "duel-15")

    add = mod_client.get(reverse("admin:games_poolentry_add"))
    page = mod_client.get(reverse("admin:games_poolentry_change", args=[entry.pk]))
    change = mod_client.post(
        reverse("admin:games_poolentry_change", args=[entry.pk]),
        {"pool": "party-30", "rating": "2000"},
    )
    delete = mod_client.post(
        reverse("admin:games_poolentry_delete", args=[entry.pk]), {"post": "yes"}
    )

    assert add.status_code == 403 and delete.status_code == 403
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert change.status_code == 403
    kept = PoolEntry.objects.get(pk=entry.pk)
    assert (kept.pool, kept.rating) == ("duel-15", entry.rating)


def test_the_moderators_group_may_read_the_pools_and_nothing_more(mod) -> None:
    codenames = set(
        Group.objects.get(name="Moderators").permissions.values_list("codename", flat=True)
    )

    assert "view_poolentry" in codenames
    assert not {"add_poolentry", "change_poolentry", "delete_poolentry"} & codenames
