"""CSV exports: the renderer, the streamed answer and the schema of the export endpoints
(rows: ``selectors``)."""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

from django.core.serializers.json import DjangoJSONEncoder
from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import renderers, serializers

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


ROWS_A_CHUNK = 500
"""Rows written to the client at a time by :func:`streamed`."""


def _csv_chunks(rows: Iterator[dict[str, Any]], columns: list[str]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()  # an empty season's export is its header: a table with no rows
    while True:
        chunk = list(itertools.islice(rows, ROWS_A_CHUNK))
        writer.writerows(chunk)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        if not chunk:
            return


def _json_chunks(rows: Iterator[dict[str, Any]]) -> Iterator[str]:
    encoder = DjangoJSONEncoder(separators=(",", ":"))
    yield "["
    comma = ""
    while chunk := list(itertools.islice(rows, ROWS_A_CHUNK)):
        yield comma + ",".join(encoder.encode(row) for row in chunk)
        comma = ","
    yield "]"


def streamed(
    rows: Iterable[dict[str, Any]],
    fmt: str,
    filename: str,
    columns: type[serializers.Serializer[Any]],
) -> StreamingHttpResponse:
    """Return export ``rows`` as CSV (``fmt`` "csv", a download named ``filename``, with
    the header of the ``columns`` serializer's fields, the schema's) or a JSON array,
    written to the client a chunk at a time while the rows are read: a season's hundreds
    of thousands of box-score lines never sit in memory at once."""
    if fmt == "csv":
        response = StreamingHttpResponse(
            _csv_chunks(iter(rows), list(columns().fields)),
            content_type="text/csv; charset=utf-8",
        )
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    return StreamingHttpResponse(_json_chunks(iter(rows)), content_type="application/json")


_View = TypeVar("_View", bound=Callable[..., Any])


def export_schema(
    summary: str,
    rows: type[serializers.Serializer[Any]],
) -> Callable[[_View], _View]:
    return extend_schema(
        summary=summary,
        description="CSV by default (also at the same path with a .csv suffix); "
        "?format=json for JSON.",
        parameters=[
            OpenApiParameter(
                "format",
                str,
                enum=["csv", "json"],
                description="csv (the default) or json: the same rows as a JSON array.",
            )
        ],
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/json"): rows(many=True),
            404: ErrorSerializer,
        },
    )
