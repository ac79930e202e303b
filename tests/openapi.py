"""Checking an API answer against the OpenAPI schema the app serves, key for key."""

from __future__ import annotations

import functools
from typing import Any

import jsonschema
from drf_spectacular.generators import SchemaGenerator


def strict(node: Any) -> Any:
    """Return an OpenAPI 3.0 schema as JSON Schema: ``nullable`` as a null type, and every
    object with listed properties closed to keys it does not list."""
    if isinstance(node, list):
        return [strict(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: strict(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable") and "type" in out:
        out["type"] = [out["type"], "null"]
    elif node.get("nullable") and "allOf" in out:  # a nested serializer that may be null
        out = {"anyOf": [{"allOf": out.pop("allOf")}, {"type": "null"}], **out}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


@functools.cache
def served() -> dict[str, Any]:
    """The schema the app serves (built once a test process)."""
    return SchemaGenerator().get_schema(request=None, public=True)


def answer_schema(path: str, status: str = "200", method: str = "get") -> dict[str, Any]:
    schema = served()
    body = schema["paths"][path][method]["responses"][status]["content"]["application/json"]
    return {**strict(body["schema"]), "components": strict(schema["components"])}


def problems(path: str, body: Any, status: str = "200", method: str = "get") -> list[str]:
    """Return where ``body`` departs from what the schema documents for this answer."""
    validator = jsonschema.Draft7Validator(answer_schema(path, status, method))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(body)]


def check(path: str, body: Any, status: str = "200", method: str = "get") -> None:
    found = problems(path, body, status, method)
    assert not found, "\n".join(found[:10])
