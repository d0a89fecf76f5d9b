"""The outbox's pages: a person's opt-ins (from the account page), their browsers' push
subscriptions (sent by static/js/push.js), the one-click unsubscribe link, and the service
worker, served at the site's root so that it may show the pushes of every page."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from outbox import sending
from outbox.models import PushSubscription

WORKER = Path(__file__).resolve().parent / "static" / "outbox" / "push-worker.js"
MAX_BODY = 4096


@require_POST
@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    sending.set_preferences(
        request.user,
        email=request.POST.get("email") == "on",
        push=request.POST.get("push") == "on",
        language=getattr(request, "LANGUAGE_CODE", ""),
    )
    messages.success(request, _("Your choices of what you are told are saved."))
    return redirect("games:account")


def _subscription(request: HttpRequest) -> dict | None:
    if len(request.body) > MAX_BODY:
        return None
    try:
        data = json.loads(request.body)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    endpoint, p256dh, auth = data.get("endpoint"), keys.get("p256dh"), keys.get("auth")
    if not all(isinstance(value, str) and value for value in (endpoint, p256dh, auth)):
        return None
    if not endpoint.startswith("https://") or len(endpoint) > 1000:
        return None
    if len(p256dh) > 200 or len(auth) > 100:
        return None
    return {"endpoint": endpoint, "p256dh": p256dh, "auth": auth}


@require_POST
@login_required
def subscribe(request: HttpRequest) -> HttpResponse:
    """A browser's push subscription (``PushSubscription.toJSON()``) for the person."""
    data = _subscription(request)
    if data is None:
        return HttpResponseBadRequest("not a push subscription")
    PushSubscription.objects.update_or_create(
        endpoint=data["endpoint"],
        defaults={"user": request.user, "p256dh": data["p256dh"], "auth": data["auth"]},
    )
    return JsonResponse({"subscribed": True})


@require_POST
@login_required
def unsubscribe_browser(request: HttpRequest) -> HttpResponse:
    data = _subscription(request)
    if data is None:
        return HttpResponseBadRequest("not a push subscription")
    PushSubscription.objects.filter(user=request.user, endpoint=data["endpoint"]).delete()
    return JsonResponse({"subscribed": False})


# A mail program's one-click unsubscribe (RFC 8058) posts without a CSRF token; the signed token
# in the address is what says who asks.
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the page with the one button; POST: done."""
    found = sending.read_unsubscribe(token)
    if found is None:
        return render(request, "outbox/unsubscribe.html", {"invalid": True}, status=400)
    user_id, channel = found
    if request.method == "POST":
        sending.unsubscribe(user_id, channel)
        return render(request, "outbox/unsubscribe.html", {"done": True, "channel": channel})
    return render(request, "outbox/unsubscribe.html", {"channel": channel, "token": token})


@cache
def _worker_source() -> bytes:
    return WORKER.read_bytes()


@require_safe
def worker(request: HttpRequest) -> HttpResponse:
    """The service worker that shows the pushes, at the root so that its scope is the site."""
    response = HttpResponse(_worker_source(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response
