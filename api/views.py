"""The API's pages: a person's tokens (made, shown once, revoked) and the API's documentation,
drawn on the server from the OpenAPI document, so that it needs no script (the site's CSP
allows no inline one, nor any other origin)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import guests
from api import receivers, tokens
from api.endpoints import api
from api.forms import TokenForm
from api.scopes import SCOPES
from games.services.errors import ServiceError


@login_required
@require_http_methods(["GET", "POST"])
def token_list(request: HttpRequest) -> HttpResponse:
    """The person's tokens, and the form that makes one; a new token's bearer is shown on the
    page that made it, once."""
    form = TokenForm(request.POST or None)
    bearer = None
    if request.method == "POST" and form.is_valid():
        try:
            token, bearer = tokens.create_token(
                request.user, form.cleaned_data["name"], form.cleaned_data["scopes"]
            )
        except ServiceError as refusal:
            form.add_error(None, refusal.message)
        else:
            form = TokenForm()
    context = {
        "form": form,
        "bearer": bearer,
        "tokens": list(tokens.live_tokens(request.user)),
        "scopes": SCOPES,
        "is_guest": guests.is_guest(request.user),
    }
    response = render(request, "api/tokens.html", context)
    if bearer is not None:
        response["Cache-Control"] = "no-store"  # the bearer is on this page alone
    return response


@login_required
@require_POST
def revoke(request: HttpRequest, token_id: str) -> HttpResponse:
    if tokens.revoke(request.user, token_id):
        receivers.token_revoked(token_id)
        messages.success(request, _("The token is revoked: it no longer works."))
    return redirect("api_pages:tokens")


@require_GET
def docs(request: HttpRequest) -> HttpResponse:
    """The API's endpoints, read from the OpenAPI document the code writes."""
    schema = api.get_openapi_schema()
    operations: list[dict[str, Any]] = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            operations.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": operation.get("summary", ""),
                    "description": operation.get("description", ""),
                    "tag": (operation.get("tags") or [""])[0],
                    "parameters": [
                        {
                            "name": parameter["name"],
                            "where": parameter["in"],
                            "required": parameter.get("required", False),
                        }
                        for parameter in operation.get("parameters", [])
                    ],
                    "body": _body_fields(schema, operation),
                    "responses": sorted(operation.get("responses", {})),
                    "secured": bool(operation.get("security")),
                }
            )
    return render(request, "api/docs.html", {"operations": operations, "info": schema["info"]})


def _body_fields(schema: dict[str, Any], operation: dict[str, Any]) -> list[dict[str, Any]]:
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if not content:
        return []
    ref = content["schema"].get("$ref", "")
    body = schema.get("components", {}).get("schemas", {}).get(ref.rsplit("/", 1)[-1], {})
    required = set(body.get("required", []))
    return [
        {"name": name, "required": name in required, "description": field.get("description", "")}
        for name, field in body.get("properties", {}).items()
    ]
