"""The view of ``/api/schema/`` (apart from ``core.schema``, which drf-spectacular's own
views import through DRF's settings while they load)."""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from core.api import ContentNegotiation


class SchemaView(SpectacularAPIView):
    """``/api/schema/``: the OpenAPI schema, generated once a process for each version and
    language asked for (every view and serializer walked: half a second to a second on the
    development machine, on every request before, and ``/api/docs/`` fetches it each time).
    It is the same for everyone (served public) and changes only with the code, which a new
    process loads."""

    _made: ClassVar[dict[tuple[str | None, str | None], Any]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()
    # As every API address: a format it does not give is a 406 naming those it does (DRF's
    # own said 404, "no address of the API", of the schema's own address), in JSON.
    content_negotiation_class = ContentNegotiation

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        if response.status_code >= 400:  # an error is JSON, not a YAML "detail: string: ..."
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)

    def _get_schema_response(self, request: Any) -> Response:
        asked = self._get_version_parameter(request)  # type: ignore[no-untyped-call]
        version = self.api_version or request.version or asked
        key = (version, translation.get_language())
        with self._lock:
            schema = self._made.get(key)
            if schema is None:
                generator = self.generator_class(
                    urlconf=self.urlconf, api_version=version, patterns=self.patterns
                )
                made = generator.get_schema
                schema = self._made[key] = made(  # type: ignore[no-untyped-call]
                    request=request, public=self.serve_public
                )
        filename = self._get_filename(request, version)  # type: ignore[no-untyped-call]
        return Response(
            data=schema, headers={"Content-Disposition": f'inline; filename="{filename}"'}
        )
