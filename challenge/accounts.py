"""Fans' accounts: sign-up, sign-in and sign-out, throttled per address.

A fan is a plain Django user: never staff, in no group, so he edits nothing of the league
and manages only his own entries (``challenge.services``). Signing in goes through Django's
``authenticate`` with the request, so django-axes counts wrong passwords and locks a
username out from an address exactly as it does the admin login (``AXES_*`` settings, the
429 answer of its middleware). On top, each address may make ``CHALLENGE_SIGNUP_RATE``
accounts (a sign-up the form refuses, a password too short say, is not counted) and try to
sign in ``CHALLENGE_SIGNIN_RATE`` times (a fixed window counted with the cache's atomic
``incr``: one Redis INCR where the cache is Redis); a refusal says how long to wait.

A private pool's invitation code is guessed one try at a time unless tries are counted:
each wrong code an address brings (to read a pool, on its pages or the API, or to join it)
counts against ``CHALLENGE_CODE_RATE``, and over it every code that address brings is
refused with a 429 until the window ends, the right one too, so that guessing on teaches
nothing (:func:`code_brought`). A right code, and a fan's own pools, are never counted.
"""

from __future__ import annotations

import time

from axes.helpers import get_client_ip_address
from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.cache import cache
from django.http import HttpRequest

from challenge import services
from challenge.models import Challenge
from core.text import wait_words

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
"""Seconds of a rate's period by its first letter, as DRF's throttles read it (the periods
a rate may name are the settings' ``env.rate``, which refuses any other at start)."""


def parse_rate(rate: str) -> tuple[int, int]:
    """Return (requests, seconds) of a rate like ``"10/hour"``."""
    count, _, period = rate.partition("/")
    return int(count), PERIODS[period.strip().lower()[:1]]


def _window(request: HttpRequest, scope: str, seconds: int) -> tuple[str, int]:
    """Return the cache key of the address's count in the current window of ``seconds``
    and the whole seconds left until the next window."""
    now = time.time()
    key = f"challenge-rate:{scope}:{get_client_ip_address(request)}:{int(now // seconds)}"
    return key, int(seconds - now % seconds) + 1


def rate_count(request: HttpRequest, scope: str, rate: str) -> int:
    """Count one request of ``scope`` from the client's address; return how many the
    window holds now."""
    _count, seconds = parse_rate(rate)
    key, _left = _window(request, scope, seconds)
    cache.add(key, 0, seconds + 1)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, seconds + 1)
        return 1


def rate_wait(request: HttpRequest, scope: str, rate: str) -> int | None:
    """Return the seconds the client's address must wait before ``scope`` is open to it
    again, or None while it is under ``rate`` (nothing is counted)."""
    count, seconds = parse_rate(rate)
    key, left = _window(request, scope, seconds)
    return left if int(cache.get(key, 0)) >= count else None


def over_rate(request: HttpRequest, scope: str, rate: str) -> int | None:
    """Count one request of ``scope`` from the client's address; return the seconds to
    wait when that is over ``rate``, else None."""
    count, seconds = parse_rate(rate)
    if rate_count(request, scope, rate) > count:
        return _window(request, scope, seconds)[1]
    return None


def signup_rate() -> str:
    return str(getattr(settings, "CHALLENGE_SIGNUP_RATE", "10/hour"))


def signin_rate() -> str:
    return str(getattr(settings, "CHALLENGE_SIGNIN_RATE", "30/minute"))


def code_rate() -> str:
    return str(getattr(settings, "CHALLENGE_CODE_RATE", "20/hour"))


class TooManyCodes(services.ChallengeRefused):
    """An address brought too many wrong invitation codes: a 429 with its wait."""

    def __init__(self, wait: int) -> None:
        super().__init__(
            f"too many wrong invitation codes from this address: try again in {wait_words(wait)}",
            status=429,
            retry_after=wait,
        )


def code_brought(request: HttpRequest, challenge: Challenge, code: str) -> bool:
    """Tell whether ``code``, brought by the client for a pool, is its invitation code;
    count it against the client's address when it is not. Raise :class:`TooManyCodes` while
    the address is over ``CHALLENGE_CODE_RATE`` (before the code is compared: the right one
    is refused too). An empty code is no try, and a code tried once in a request (a refused
    join shows its pool's page with the code it sent) is counted once."""
    if not code.strip():
        return False
    wait = rate_wait(request, "code", code_rate())
    if wait is not None:
        raise TooManyCodes(wait)
    if services.code_matches(challenge, code):
        return True
    tried: set[tuple[int, str]] = request.__dict__.setdefault("challenge_codes_tried", set())
    if (challenge.pk, code.strip()) not in tried:
        tried.add((challenge.pk, code.strip()))
        rate_count(request, "code", code_rate())
    return False


class FanSignupForm(UserCreationForm):  # type: ignore[type-arg]
    """A username and a password (twice); an e-mail address if the fan wants, unverified."""

    email = forms.EmailField(
        required=False, help_text="Optional; never verified, never sent anything."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def save(self, commit: bool = True):  # type: ignore[no-untyped-def]
        user = super().save(commit=False)
        user.email = self.cleaned_data.get("email", "")
        user.is_staff = False
        user.is_superuser = False
        if commit:
            user.save()
        return user
