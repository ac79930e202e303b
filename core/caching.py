"""The fans' pages a shared cache may keep for a few seconds (issue 25: every fan page under
load).

A fan page (home, a season's page, the leaders, a team...) and an API list are the same for
every visitor who is not signed in, and change only when a game is stored or a name edited.
Under 100 concurrent clients the application on two cores answers tens to a few hundred
such requests a second, however cheap each is; nginx in front (``make serve-cached``)
answers thousands to tens of thousands from a copy (``bench/serving.py``). So a view opts
in (``public_page`` on a function view, ``PublicReads.public_actions`` on an API view set)
and ``PublicPagesMiddleware`` sends its answer with

    Cache-Control: public, max-age=FAN_PAGE_MAX_AGE, stale-while-revalidate=FAN_PAGE_STALE_SECONDS

(5 and 5 seconds by default): a cache (nginx, a browser) may answer the page from one
rendering for ``max-age`` seconds, then for at most ``stale-while-revalidate`` more while one
request renders it again; past that it must ask. A stored game shows on every such page
within the sum plus one rendering.

Only a plain anonymous answer is made public: a GET or HEAD, status 200, from a request with
no session cookie and no ``Authorization`` header (the requests nginx passes by its cache:
config/nginx.conf), which sets no cookie and says nothing of caching itself (a played
game's page keeps its own, longer, ``GAME_PAGE_MAX_AGE``). An error, a throttled API
request's 429 and a signed-in commissioner's page never are. The API's answers keep the
``Vary: Accept, Cookie`` DRF and the session give them: a cache keeps one copy for each
(clients that send no cookie share one).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import add_never_cache_headers, patch_cache_control
from rest_framework.request import Request
from rest_framework.response import Response

PUBLIC_FLAG = "vabg_public_page"
"""The attribute a view sets on the Django request to ask for a public answer."""
WAITING_FLAG = "vabg_waiting_page"
"""Set on the request by a part of a page that waits for work in the background (odds
being worked out): the page reloads itself in a second or five, so no cache may keep it."""


def waiting(request: HttpRequest | None) -> None:
    """Mark the page being rendered as one that waits for the background: never public,
    never kept (:class:`PublicPagesMiddleware`)."""
    if request is not None:
        setattr(request, WAITING_FLAG, True)


def is_waiting(request: HttpRequest) -> bool:
    """Tell whether a part of the page rendered for ``request`` waits for the background."""
    return bool(getattr(request, WAITING_FLAG, False))


V = TypeVar("V", bound=Callable[..., HttpResponseBase])


def public_page(view: V) -> V:
    """Mark a function view's answers as the same for every anonymous visitor."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        setattr(request, PUBLIC_FLAG, True)
        return view(request, *args, **kwargs)

    return wrapped  # type: ignore[return-value]


class PublicReads:
    """An API view set mix-in: the actions named in ``public_actions`` (``list``,
    ``retrieve``, a GET ``@action``'s name) answer in JSON as public pages do. The browsable
    API's HTML is not one (it carries the visitor's CSRF token)."""

    public_actions: frozenset[str] = frozenset()

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        renderer = getattr(request, "accepted_renderer", None)
        action = getattr(self, "action", None)
        if action in self.public_actions and getattr(renderer, "format", "") == "json":
            setattr(request._request, PUBLIC_FLAG, True)
        return response


def anonymous(request: HttpRequest) -> bool:
    """Tell whether a request carries nothing that could make its answer the visitor's
    own: no session cookie, no ``Authorization`` header (nginx bypasses its cache for the
    same two)."""
    return (
        settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
    )


def public_headers(response: HttpResponseBase, max_age: int) -> None:
    """Mark ``response`` as one any cache may keep for ``max_age`` seconds and then serve
    stale for at most ``FAN_PAGE_STALE_SECONDS`` while it asks again."""
    patch_cache_control(
        response,
        public=True,
        max_age=max_age,
        stale_while_revalidate=settings.FAN_PAGE_STALE_SECONDS,
    )


class PublicPagesMiddleware:
    """Send an opted-in view's plain anonymous answer with the fan pages' public freshness
    (see the module's docstring). It stands before the session and CSRF middleware, so it
    sees the cookies they set."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if is_waiting(request):
            add_never_cache_headers(response)
            return response
        if (
            getattr(request, PUBLIC_FLAG, False)
            and settings.FAN_PAGE_MAX_AGE > 0
            and request.method in ("GET", "HEAD")
            and response.status_code == 200
            and not response.has_header("Cache-Control")
            and not response.cookies
            and anonymous(request)
        ):
            public_headers(response, settings.FAN_PAGE_MAX_AGE)
        return response
