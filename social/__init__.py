"""The people a person knows and what they are told: follows (friends are people who follow each
other), blocks, privacy settings, and notifications.

An app between ``accounts`` and ``games``: it imports accounts and lib only; the games ask it
who may challenge whom and tell people what happened through it (``social.notifications``).

- :mod:`~social.models`: ``Follow``, ``Block``, ``Privacy``, ``Notification``.
- :mod:`~social.relations`: following, blocking, friends, the privacy settings and the
  questions asked of them (``may_challenge``, ``may_see_online``).
- :mod:`~social.notifications`: telling a person something (``notify``), their unread count and
  list, marking them read, forgetting the old ones.
- :mod:`~social.signals`: ``notified``, sent after commit, which the games' live side pushes to
  the person's pages.
- :mod:`~social.errors`: ``Refused``, what every refusal of the app raises.
"""
