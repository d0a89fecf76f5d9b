"""What accounts tell the rest of the site about a person's account.

Accounts sends these itself, from the code that made the change (never from a model's save), so
a receiver runs exactly when the thing happened: ``games`` closes the person's sockets;
``moderation`` says which accounts its records name.
"""

from __future__ import annotations

from django.dispatch import Signal

# A person's password changed: on their password-change page, in the admin's set-password form,
# or by claiming a guest account. The log-ins made with the old one have ended (Django's
# session check), and so must anything opened under them. Sent with ``user``, after the save.
password_changed = Signal()

# Before accounts are deleted (stale guests): receivers answer with the ids among ``user_ids``
# that records of theirs still name (reports, the moderation log). Those records outlive the
# account, so it is kept, inactive, rather than deleted with them. Sent with ``user_ids``.
accounts_named = Signal()
