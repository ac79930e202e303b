"""Signing in with a user name in any case (the admin, the fans' sign-in, API tokens).

Sign-up refuses a name that differs from another only by case (Django's
``UserCreationForm``), so a name read without its case names one user: a phone that
capitalises the first letter ("Phonefan") signed in nobody and counted as a wrong password
toward the lockout. The lockout (django-axes) counts a name in lower case too, or each
spelling of it would get its own tries.
"""

from __future__ import annotations

from typing import Any

from axes.conf import settings as axes_settings
from axes.helpers import (
    get_client_username,
    get_cool_off,
    get_cool_off_iso8601,
    get_failure_limit,
)
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class AnyCaseUsernameBackend(ModelBackend):
    """Django's model backend, the user name matched without its case when exactly one
    user has it that way (two that differ only by case, made before sign-up refused them,
    are each matched exactly, as before)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        model = get_user_model()
        field = model.USERNAME_FIELD
        if username is None:
            username = kwargs.pop(field, None)
        if isinstance(username, str):
            found = list(
                model._default_manager.filter(**{f"{field}__iexact": username}).values_list(
                    field, flat=True
                )[:2]
            )
            if len(found) == 1:
                username = found[0]
        return super().authenticate(request, username=username, password=password, **kwargs)


def lockout_name(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str | None:
    """Return the user name a login try counts against (``AXES_USERNAME_CALLABLE``), in
    lower case, from the credentials or else the posted form, as django-axes reads it."""
    source: Any = credentials
    if not source:
        source = getattr(request, "data", None) or getattr(request, "POST", {})
    name = source.get("username")
    return name.lower() if isinstance(name, str) else name


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """Return django-axes's lockout page (``AXES_LOCKOUT_CALLABLE``), as it renders it, with
    ``Retry-After``: the API's lockout said when to try again and the page did not."""
    context: dict[str, Any] = {
        "failure_limit": get_failure_limit(request, credentials),
        "username": get_client_username(request, credentials) or "",
    }
    cool_off = get_cool_off(request)
    if cool_off:
        context.update(cooloff_time=get_cool_off_iso8601(cool_off), cooloff_timedelta=cool_off)
    response = render(
        request,
        axes_settings.AXES_LOCKOUT_TEMPLATE,
        context,
        status=axes_settings.AXES_HTTP_RESPONSE_CODE,
    )
    if cool_off:
        response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response
