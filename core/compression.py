"""Django's gzip middleware, with a 304's ``Vary`` kept as the page's own says it."""

from __future__ import annotations

from typing import Any

from django.middleware import gzip
from django.utils.cache import patch_vary_headers


class GZipMiddleware(gzip.GZipMiddleware):
    """Django's, also marking a 304 Not Modified ``Vary: Accept-Encoding``: the 304 has no
    body to compress, so Django's leaves its ``Vary`` as the ETag middleware copied it,
    without the ``Accept-Encoding`` the 200 it stands for carried, and a cache that takes
    the 304's headers as the stored copy's would serve a gzipped page to a client that
    cannot read it."""

    def process_response(self, request: Any, response: Any) -> Any:
        if response.status_code == 304:
            patch_vary_headers(response, ("Accept-Encoding",))
            return response
        return super().process_response(request, response)
