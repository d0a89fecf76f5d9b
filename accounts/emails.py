"""A person's e-mail address: optional, and kept only once verified by a signed link.

``User.email`` holds a verified address or nothing: the address a person types is sent a link
(signed with ``django.core.signing``, naming the account and the address, good for
``VERIFY_FOR``), and becomes theirs when the link is opened. An address is one account's at
most. Django's password reset sends its link to ``User.email``, so only to verified addresses.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

VERIFY_SALT = "accounts.emails.verify"
VERIFY_FOR = timedelta(days=3)


class EmailRefused(Exception):
    """A verification link that does not hold, in words for the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def verification_token(user: AbstractBaseUser, address: str) -> str:
    return signing.dumps({"user": user.pk, "email": address}, salt=VERIFY_SALT, compress=True)


def send_verification(user: AbstractBaseUser, address: str, link_to: str) -> None:
    """Send ``address`` the link that makes it ``user``'s (``link_to``: the absolute address of
    the verifying page for a token, with ``{token}`` in it), in the active language."""
    token = verification_token(user, address)
    context = {
        "username": user.get_username(),
        "link": link_to.replace("{token}", token),
        "days": VERIFY_FOR.days,
    }
    send_mail(
        render_to_string("accounts/email/verify_subject.txt", context).strip(),
        render_to_string("accounts/email/verify_body.txt", context),
        settings.DEFAULT_FROM_EMAIL,
        [address],
    )


def verify(token: str) -> AbstractBaseUser:
    """The account whose address the link ``token`` verifies, that address now its own.

    :raises EmailRefused: an altered or expired link, a closed account, or an address another
        account verified meanwhile.
    """
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=VERIFY_FOR)
    except signing.SignatureExpired:
        message = _("This link has expired: ask for a new one on your account page.")
        raise EmailRefused(message) from None
    except signing.BadSignature:
        raise EmailRefused(_("This link is not valid.")) from None
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=data.get("user")).first()
        address = str(data.get("email", ""))
        if user is None or not user.is_active or not address:
            raise EmailRefused(_("This link is not valid."))
        taken = User.objects.filter(email__iexact=address).exclude(pk=user.pk).exists()
        if taken:
            raise EmailRefused(_("Another account uses this address already."))
        user.email = address
        user.save(update_fields=["email"])
    return user


def address_taken(user: AbstractBaseUser, address: str) -> bool:
    return get_user_model().objects.filter(email__iexact=address).exclude(pk=user.pk).exists()


def forget(user: AbstractBaseUser) -> None:
    """``user`` has no e-mail address any more."""
    user.email = ""
    user.save(update_fields=["email"])
