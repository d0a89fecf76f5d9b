"""What the social app tells the apps above it, sent from the code that made the change (never
from a model's save), once its transaction has committed.

- ``notified``: a notification was stored for a person, with ``user_id`` and
  ``notification_id``;
- ``notifications_read``: some of a person's notifications were marked read, with ``user_id``.

The games' live side connects both (``GamesConfig.ready``) and pushes the person's bell (and a
new notification) to every page they have open.
"""

from __future__ import annotations

from django.dispatch import Signal

notified = Signal()
notifications_read = Signal()
