"""Fans' accounts: sign-up, sign-in and sign-out, throttled per address.

A fan is a plain Django user: never staff, in no group, so he edits nothing of the league
and manages only his own entries (``challenge.services``). Signing in goes through Django's
``authenticate`` with the request, so django-axes counts wrong passwords and locks a
username out from an address exactly as it does the admin login (``AXES_*`` settings, the
429 answer of its middleware). On top, each address may sign up ``CHALLENGE_SIGNUP_RATE``
times and try to sign in ``CHALLENGE_SIGNIN_RATE`` times (a fixed window counted with the
cache's atomic ``incr``: one Redis INCR where the cache is Redis).
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

PERIODS = {"second": 1, "minute": 60, "min": 60, "hour": 3600, "day": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """Return (requests, seconds) of a rate like ``"10/hour"``."""
    count, _, period = rate.partition("/")
    return int(count), PERIODS[period.strip().lower()]


def over_rate(request: HttpRequest, scope: str, rate: str) -> bool:
    """Count one request of ``scope`` from the client's address; tell whether it is over
    ``rate``."""
    count, seconds = parse_rate(rate)
    window = int(time.time() // seconds)
    key = f"challenge-rate:{scope}:{get_client_ip_address(request)}:{window}"
    cache.add(key, 0, seconds + 1)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, seconds + 1)
        used = 1
    return used > count


def signup_rate() -> str:
    return str(getattr(settings, "CHALLENGE_SIGNUP_RATE", "10/hour"))


def signin_rate() -> str:
    return str(getattr(settings, "CHALLENGE_SIGNIN_RATE", "30/minute"))


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
