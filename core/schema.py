"""The OpenAPI schema tells every error an operation can answer (a drf-spectacular hook).

Every API error is answered by ``core.api.exception_handler``: ``{"detail": "..."}``, and for
a body or query a serializer refuses, the refused fields each with their messages (``{"round":
["..."]}``, ``non_field_errors`` for the whole). The views document their own answers; this
hook adds what every operation of its kind can also answer, so a client generated from the
schema expects them: 400 (the field errors' shape) where a request carries a body or query
parameters, 401 and 403 on writes anyone may not make, 401 on a read only signed-in users
may make, 404 where the path names an object, 413 and 415 where a request has a body, 429
everywhere (the anonymous throttle).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from rest_framework import permissions

ERROR = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
}
VALIDATION_ERROR = {
    "type": "object",
    "description": "What was refused and why: `detail` for the request as a whole, else "
    "each refused field (`non_field_errors` for the whole body) with its messages.",
    "properties": {
        "detail": {"type": "string"},
        "non_field_errors": {"type": "array", "items": {"type": "string"}},
    },
    "additionalProperties": {
        "oneOf": [
            {"type": "array", "items": {"type": "string"}},
            {"type": "object"},
            {"type": "string"},
        ]
    },
}
ANSWERS = {
    "400": ("ValidationError", "The request is refused: what was wrong, by field."),
    "401": ("Error", "Not signed in (a session or `Authorization: Token ...`)."),
    "403": ("Error", "Signed in, but only a commissioner may do this."),
    "404": ("Error", "No such object."),
    "413": ("Error", "The body is larger than the server reads (`detail` says the limit)."),
    "415": ("Error", "The body is not in a type this operation reads (JSON, or a form)."),
    "429": ("Error", "Too many requests from this address (`Retry-After` says when)."),
}
WRITES = ("post", "put", "patch", "delete")


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``), knowing that a
    permission with ``anonymous_reads`` (the API's commissioner-or-read-only) lets anyone
    read, and a view with no permission lets anyone call it: those operations list no
    security as one choice (``{}``), as drf-spectacular does for DRF's own ``AllowAny`` and
    ``IsAuthenticatedOrReadOnly``. Without it the schema said every read (and asking for a
    token) needs a token or a session, and a client generated from it refused to call one
    anonymously."""

    def get_tags(self) -> list[str]:
        """Group each operation under the resource its path names (``/api/seasons/3/leaders/``
        under ``seasons``, the table's under ``table``): drf-spectacular's own tag is the
        path's first segment, ``api`` for all but the table's, one list of 54 operations."""
        parts = [p for p in self.path.split("/") if p]
        if parts[:2] == ["table", "api"]:
            return ["table"]
        if parts[:1] == ["api"] and len(parts) > 1:
            return [parts[1]]
        return super().get_tags()

    def get_auth(self) -> list[dict[str, Any]]:
        auths: list[dict[str, Any]] = super().get_auth()
        checks = self.view.get_permissions()
        reads = any(getattr(p, "anonymous_reads", False) for p in checks)
        # No permission at all (DRF's token view: you ask for a token without one) lets
        # anyone in, as AllowAny does.
        anyone = not checks or (reads and self.method in permissions.SAFE_METHODS)
        if anyone and {} not in auths:
            auths.append({})
        return auths


def add_error_responses(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """Add to every operation the errors of its kind it does not document itself, and read
    every documented 400 as the field errors' shape (which a bare ``detail`` also fits)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", ERROR)
    schemas["ValidationError"] = VALIDATION_ERROR
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method not in ("get", *WRITES):
                continue
            responses = operation.setdefault("responses", {})
            codes = ["429"]
            if "{" in path:
                codes.append("404")
            anyone = {} in operation.get("security", [{}])
            if method in WRITES:
                codes += ["400"] if anyone else ["400", "401", "403"]
            elif not anyone:
                codes.append("401")  # a read for signed-in users only (the table's)
            if "requestBody" in operation:
                codes += ["413", "415"]
            elif operation.get("parameters"):
                codes.append("400")
            for code in codes:
                name, description = ANSWERS[code]
                responses.setdefault(
                    code,
                    {
                        "description": description,
                        "content": {
                            "application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}
                        },
                    },
                )
            bad = responses.get("400", {}).get("content", {}).get("application/json", {})
            if bad.get("schema") == {"$ref": "#/components/schemas/Error"}:
                bad["schema"] = {"$ref": "#/components/schemas/ValidationError"}
    return result
