"""The API's addresses: one asked without its trailing slash is served, not redirected,
and one that names nothing, or a request the server fails on, answers in JSON like every
other API error.

Django's ``APPEND_SLASH`` answers ``POST /api/leagues`` with a redirect to ``/api/leagues/``
(a ``RuntimeError`` page with ``DEBUG`` on): a client that follows it sends a GET, and the
write is silently lost. Under ``/api/`` and the table's ``/table/api/``, a path that names
no route but does with a slash added is served as that path, whatever the method; one
that names nothing answers a JSON 404, with ``DEBUG`` on too.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.urls import is_valid_path
from django.views import defaults

API_PREFIXES = ("/api/", "/table/api/")


class ApiSlashMiddleware:
    """Serve ``/api/x`` as ``/api/x/`` when only the latter is a route (before Django's
    ``CommonMiddleware``, which would redirect it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        path = request.path_info
        if (
            path.startswith(API_PREFIXES)
            and not path.endswith("/")
            and not is_valid_path(path)
            and is_valid_path(f"{path}/")
        ):
            request.path_info = f"{path}/"
            request.path = f"{request.path}/"
        response = self.get_response(request)
        if path.startswith(API_PREFIXES) and not response.get("Content-Type", "").startswith(
            "application/json"
        ):
            # With DEBUG on Django answers an unknown address with its HTML page of every
            # route instead of ``handler404``, and an error with its HTML traceback instead
            # of ``handler500``: the API's clients get JSON either way (the traceback is in
            # the server's log).
            if response.status_code == 404:
                return not_found(request, None)
            if response.status_code == 500:
                return server_error(request)
        return response


def not_found(request: HttpRequest, exception: Exception | None) -> HttpResponse:
    """The site's 404 (``handler404``): JSON under the API's prefixes (a client reading
    ``detail`` of every error gets one here too), the site's page elsewhere."""
    if request.path_info.startswith(API_PREFIXES):
        where = request.path_info
        detail = f"Not found: {where} is no address of the API (/api/docs/ lists them)."
        return JsonResponse({"detail": detail}, status=404)
    said = exception.args[0] if isinstance(exception, Http404) and exception.args else ""
    if not isinstance(said, str) or said.endswith("matches the given query."):
        said = ""  # a resolver's 404 (no page at the address) or a bare lookup's: the page's own
    return render(request, "404.html", {"said": said}, status=404)


SERVER_ERROR = (
    "Server error: the request was not carried out as asked; the error is in the server's "
    "log. Try again, or tell the site's operator if it happens again."
)


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's 500 (``handler500``): JSON under the API's prefixes, the site's page
    elsewhere."""
    if request.path_info.startswith(API_PREFIXES):
        return JsonResponse({"detail": SERVER_ERROR}, status=500)
    return defaults.server_error(request)
