"""The API base both apps share: authentication, the commissioner-or-read-only permission,
the error shapes and the id filter. ``cards.api`` and ``league.api`` build on it."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import inline_serializer
from rest_framework import permissions, serializers, viewsets
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.request import Request
from rest_framework.settings import api_settings

from core.roles import is_commissioner

# Token first: its WWW-Authenticate header turns an anonymous write into 401, not 403.
API_AUTHENTICATION = [TokenAuthentication, SessionAuthentication]


class CommissionerOrReadOnly(permissions.BasePermission):
    """Let everyone read; let only commissioners (see ``core.roles``) write."""

    message = "Only a commissioner can change the league."

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or is_commissioner(request.user)


class ApiViewSet(viewsets.GenericViewSet):  # type: ignore[type-arg]
    authentication_classes = API_AUTHENTICATION
    permission_classes = [CommissionerOrReadOnly]


def sentence(text: str) -> str:
    """Return a domain error as the API shows it: capitalised, ending in a period."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def model_errors(exc: DjangoValidationError) -> dict[str, list[str]] | list[str]:
    """Return a model's ``full_clean`` errors keyed as DRF keys them."""
    if not hasattr(exc, "error_dict"):
        return {api_settings.NON_FIELD_ERRORS_KEY: list(exc.messages)}
    return {
        (api_settings.NON_FIELD_ERRORS_KEY if field == NON_FIELD_ERRORS else field): messages
        for field, messages in exc.message_dict.items()
    }


ErrorSerializer = inline_serializer("Error", {"detail": serializers.CharField()})

ID_MAX = 2**63 - 1  # the largest id a column holds: the database cannot compare a bigger one


class IdFilter(django_filters.NumberFilter):
    """Filter by an id: a whole number from 1 to ``ID_MAX``, refused with 400 otherwise.

    A number no id column can hold would reach the database through a foreign key, which
    has no overflow guard, and fail there as a server error.
    """

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", ID_MAX)
        super().__init__(*args, **kwargs)


# The answers every write can get before it is read: not signed in, not a commissioner.
WRITE_REFUSED = {401: ErrorSerializer, 403: ErrorSerializer}
