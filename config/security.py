"""Who the client is, read one way for the API throttle and the admin login lockout."""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle


def client_ip(request: HttpRequest) -> str:
    """Return the client's address as DRF's throttle reads it (``NUM_PROXIES`` trusted)."""
    # DRF's get_ident reads only META, which a Django request has as a DRF one does.
    return BaseThrottle().get_ident(request)  # type: ignore[arg-type]
