"""The name of the process that served a page, when asked for (SERVED_BY_HEADER): which of the
processes behind the proxy a page came from."""

from __future__ import annotations

import os
from collections.abc import Callable

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

# The response header naming the process that served it (SERVED_BY_HEADER).
SERVED_BY = "X-Served-By"


def _served_by(request: HttpRequest) -> str:
    """This process's address as its server gives it (Daphne's own, behind the proxy too), and
    its process id: ``127.0.0.1:8001 pid 4242``."""
    return f"{request.META.get('SERVER_NAME')}:{request.META.get('SERVER_PORT')} pid {os.getpid()}"


@sync_and_async_middleware
def served_by(get_response: Callable) -> Callable:
    """Middleware that names the process that served each response in ``X-Served-By``: which of
    the processes behind the proxy a page came from. Installed only with SERVED_BY_HEADER on."""
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponse:
            response = await get_response(request)
            response[SERVED_BY] = _served_by(request)
            return response

    else:

        def middleware(request: HttpRequest) -> HttpResponse:  # type: ignore[misc]
            response = get_response(request)
            response[SERVED_BY] = _served_by(request)
            return response

    return middleware
