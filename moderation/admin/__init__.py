"""The moderators' screens in the admin, one module per family of screens; importing them here
is what registers them when the admin looks for this app's screens."""

from moderation.admin import players, tables  # noqa: F401
