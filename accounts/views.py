"""Sign-up and claiming a guest account; the e-mail address and its verification; the password
reset, Django's view throttled. Log-in, log-out and password change are Django's views (see
urls.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_POST

from accounts import emails, guests, throttle
from accounts.forms import ClaimForm, EmailForm, SignUpForm


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("games:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not throttle.reserve_signup(request):
            form.add_error(
                None, _("Too many new accounts from your network. Please try again in an hour.")
            )
            return render(request, "accounts/signup.html", {"form": form})
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Someone took the name (in another case) between the form's check and the save;
            # the database's unique index (migration 0001) caught it.
            throttle.release_signup(request)
            form.add_error("username", _("That username was just taken. Please choose another."))
            return render(request, "accounts/signup.html", {"form": form})
        login(request, user)
        messages.success(request, _("Welcome, %(username)s!") % {"username": user.get_username()})
        _verify_later(request, user, form.address_to_verify)
        return redirect("games:home")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
@sensitive_post_parameters("password1", "password2")
def claim(request: HttpRequest) -> HttpResponse:
    """A guest chooses a username and password; the account, its games and statistics stay.
    Counted against the sign-up limit of the address (``accounts.throttle``)."""
    if not guests.is_guest(request.user):
        return redirect("games:profile", username=request.user.get_username())
    form = ClaimForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        # Keeping the account is signing up: counted as one, so that guests are no way round
        # the sign-up limit.
        if not throttle.reserve_signup(request):
            form.add_error(
                None, _("Too many new accounts from your network. Please try again in an hour.")
            )
            return render(request, "accounts/claim.html", {"form": form})
        try:
            with transaction.atomic():
                user = form.save()
                guests.claim(user)
        except IntegrityError:
            throttle.release_signup(request)
            form.add_error("username", _("That username was just taken. Please choose another."))
            return render(request, "accounts/claim.html", {"form": form})
        update_session_auth_hash(request, user)
        messages.success(request, _("Welcome, %(username)s!") % {"username": user.get_username()})
        _verify_later(request, user, form.address_to_verify)
        return redirect("games:profile", username=user.get_username())
    return render(request, "accounts/claim.html", {"form": form})


@login_required
@require_POST
def email(request: HttpRequest) -> HttpResponse:
    """Send a new address the link that verifies it (``accounts.emails``), or remove the
    address; back to the account page, saying which."""
    user = request.user
    if guests.is_guest(user):
        messages.error(request, _("Keep your account first: a guest has no e-mail address."))
        return redirect("games:account")
    if request.POST.get("remove"):
        emails.forget(user)
        messages.success(request, _("Your account has no e-mail address any more."))
        return redirect("games:account")
    form = EmailForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter a valid e-mail address."))
        return redirect("games:account")
    _verify_later(request, user, form.cleaned_data["email"])
    return redirect("games:account")


def _verify_later(request: HttpRequest, user, address: str) -> None:
    """Send ``address`` the link that makes it ``user``'s, and say so (or why not)."""
    if not address:
        return
    if emails.address_taken(user, address):
        messages.error(request, _("Another account uses this address already."))
        return
    if not throttle.reserve_mail(request, address):
        messages.error(request, _("Too many e-mails asked for: please try again in an hour."))
        return
    link = request.build_absolute_uri(reverse("accounts:verify_email", args=["TOKEN"]))
    emails.send_verification(user, address, link.replace("TOKEN", "{token}"))
    messages.success(
        request,
        _("We sent a link to %(address)s: open it to confirm the address.") % {"address": address},
    )


@require_GET
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link of a verification e-mail: the address becomes its account's."""
    try:
        verified = emails.verify(token)
    except emails.EmailRefused as refusal:
        return render(request, "accounts/email_verified.html", {"refusal": refusal.message})
    return render(request, "accounts/email_verified.html", {"verified": verified})


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, throttled per client address and per e-mail address; it says
    the same whether or not an account has the address."""

    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        if not throttle.reserve_mail(self.request, form.cleaned_data["email"]):
            form.add_error(None, _("Too many e-mails asked for: please try again in an hour."))
            return self.form_invalid(form)
        return super().form_valid(form)
