"""``POST /api/auth/token/``: a user's API token for his username and password;
``DELETE`` with it revokes it (a token a fan site leaked), the next ``POST`` making a new one.

A fan who plays at the table or picks a bracket through the API, or a commissioner's
script, asks once and then sends ``Authorization: Token ...`` (no session, no CSRF). The
password is checked by Django's ``authenticate`` with the request, so django-axes counts a
wrong one and locks the username out from that address exactly as at the admin login; the
anonymous throttle counts the requests.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import NotAuthenticated, Throttled
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import API_AUTHENTICATION, ClosedBody, ErrorSerializer
from core.parsers import JSONParser

TokenSerializer = inline_serializer("Token", {"token": serializers.CharField()})


class TokenRequestSerializer(ClosedBody, AuthTokenSerializer):
    """Your username and password; any other key is refused, as on every write (an API
    reviewer's ``{"username", "password", "x"}`` was answered 200)."""


class TokenView(ObtainAuthToken):
    """DRF's token view, documented, reading the API's own parsers (its JSON refuses a body
    nested too deeply)."""

    parser_classes = [JSONParser, FormParser, MultiPartParser]
    authentication_classes = API_AUTHENTICATION  # DELETE: the token (or session) to revoke
    # DRF's ObtainAuthToken sets none: config/api.py gives the API's throttles, and the
    # sign-in's by address (config.throttling.SignInRateThrottle).
    serializer_class = TokenRequestSerializer

    @extend_schema(
        summary="Revoke your API token",
        description="Deletes the token this request is signed in with (`Authorization: Token "
        "<token>`, or your session's user's): it answers 401 from then on, and the next POST "
        "gives a new one.",
        request=None,
        responses={204: None, 401: ErrorSerializer},
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not request.user or not request.user.is_authenticated:
            raise NotAuthenticated(
                "Sign in with the token to revoke (Authorization: Token <token>)."
            )
        Token.objects.filter(user=request.user).delete()
        return Response(status=204)

    @extend_schema(
        summary="Your API token, for your username and password",
        description="The same token every time (it lasts until revoked: DELETE here, or the "
        "admin). Send "
        "it as `Authorization: Token <token>`. A wrong password counts toward the login "
        "lockout of the admin (AXES_FAILURE_LIMIT wrong passwords from one address lock the "
        "username there).",
        request=inline_serializer(
            "TokenRequest",
            {"username": serializers.CharField(), "password": serializers.CharField()},
        ),
        responses={200: TokenSerializer, 400: ErrorSerializer, 403: ErrorSerializer},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            return super().post(request, *args, **kwargs)
        except exceptions.ValidationError:
            # django-axes marks the request it was given (this view's, not Django's, which
            # its middleware reads): a locked-out username answers as at the admin, 429.
            if getattr(request, "axes_locked_out", False):
                seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
                raise Throttled(
                    wait=seconds,
                    detail=f"Too many wrong passwords for this username from this address: "
                    f"it is locked out here for {seconds // 60} minutes.",
                ) from None
            raise
