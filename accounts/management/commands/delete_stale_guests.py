"""Delete guest accounts nobody claimed (accounts.guests), daily: deploy/systemd's
taki-stale-guests.timer runs it. Those that moderation records name are kept, inactive."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand

from accounts.guests import STALE_AFTER, delete_stale_guests


class Command(BaseCommand):
    help = "Delete unclaimed guest accounts (and their bot games) not used for some days."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=STALE_AFTER.days,
            help=f"unused for this many days (default {STALE_AFTER.days})",
        )

    def handle(self, *args, days: int, **options) -> None:
        count = delete_stale_guests(older_than=timedelta(days=days))
        self.stdout.write(f"deleted {count} guest account(s)")
