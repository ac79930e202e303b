"""CSV exports: the renderer and the schema of the export endpoints (rows: ``selectors``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import renderers, serializers
from rest_framework.response import Response

from core.api import ErrorSerializer


class CSVRenderer(renderers.BaseRenderer):
    """Render a list of flat rows as CSV with a header line."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        rows = [data] if isinstance(data, dict) else list(data or [])
        buffer = io.StringIO()
        if rows:
            writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        return buffer.getvalue().encode(self.charset)


_View = TypeVar("_View", bound=Callable[..., Response])


def export_schema(
    summary: str,
    rows: type[serializers.Serializer[Any]],
) -> Callable[[_View], _View]:
    return extend_schema(
        summary=summary,
        description="CSV by default (also at the same path with a .csv suffix); "
        "?format=json for JSON.",
        parameters=[OpenApiParameter("format", str, enum=["csv", "json"])],
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/json"): rows(many=True),
            404: ErrorSerializer,
        },
    )
