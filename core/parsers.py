"""The API's JSON parser (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``), in a module of its own:
DRF reads that setting while its views are defined, so the parser cannot live beside them."""

from __future__ import annotations

import json
import sys
from typing import Any

from rest_framework import exceptions, parsers, serializers


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing a body nested deeper than Python's parser goes (a few
    kilobytes of ``[[[[...``, which raise ``RecursionError``) as unreadable JSON, a 400,
    instead of a server error any anonymous client could cause, and a number of more digits
    than Python converts in the API's own words (Python's told the client to call
    ``sys.set_int_max_str_digits()``)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise exceptions.ParseError("JSON parse error - the JSON is nested too deeply") from exc
        except exceptions.ParseError as exc:
            if "int_max_str_digits" not in str(exc.detail):
                raise
            digits = sys.get_int_max_str_digits()
            raise exceptions.ParseError(
                f"JSON parse error - a number has more than {digits:,} digits"
            ) from exc


def query_json(text: Any, decoder: Any = None) -> Any:
    """Return a query parameter's JSON (:class:`core.api.QueryJSONField`), refusing JSON
    nested too deeply as the body's parser does (``json.loads`` raised ``RecursionError``,
    a server error) and what is not JSON, each a field's ``ValidationError``."""
    try:
        return json.loads(text, cls=decoder)
    except RecursionError:
        raise serializers.ValidationError(
            "Nested too deeply: give one JSON object of names and values."
        ) from None
    except (TypeError, ValueError):
        raise serializers.ValidationError("Value must be valid JSON.") from None
