"""Signing in with a user name in any case (the admin, the fans' sign-in, API tokens).

Sign-up refuses a name that differs from another only by case (Django's
``UserCreationForm``), so a name read without its case names one user: a phone that
capitalises the first letter ("Phonefan") signed in nobody and counted as a wrong password
toward the lockout. The lockout (django-axes) counts a name in lower case too, or each
spelling of it would get its own tries.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest


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
