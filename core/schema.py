"""The OpenAPI schema tells every error an operation can answer (a drf-spectacular hook).

Every API error is answered by ``core.api.exception_handler``: ``{"detail": "..."}``, and for
a body or query a serializer refuses, the refused fields each with their messages (``{"round":
["..."]}``, ``non_field_errors`` for the whole). The views document their own answers; this
hook adds what every operation of its kind can also answer, so a client generated from the
schema expects them: 400 (the field errors' shape, beside an operation's own refusal) where a
request carries a body or query parameters, 401 everywhere (not signed in, or a token sent
that is not valid: DRF checks one wherever it is sent), 403 on writes anyone may not make,
404 where the path names an object or the list has pages, 406 everywhere (a format the
address does not give), 413 and 415 where a request has a body, 429 everywhere (the
anonymous throttle).
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
    "406": (
        "Error",
        "Not in a format this address gives (`?format=` or `Accept`; `detail` names those it "
        "does).",
    ),
    "413": ("Error", "The body is larger than the server reads (`detail` says the limit)."),
    "415": ("Error", "The body is not in a type this operation reads (JSON, or a form)."),
    "429": ("Error", "Too many requests from this address (`Retry-After` says when)."),
}
BAD_TOKEN = (
    "The `Authorization` token sent is not valid (send none to call this anonymously): a "
    "token is checked wherever it is sent."
)
NO_PAGE = "No such page (`detail` says which pages there are)."
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
            codes: dict[str, str | None] = {"429": None, "406": None, "401": None}
            if "{" in path:
                codes["404"] = None
            parameters = {p["name"] for p in operation.get("parameters", [])}
            if "page" in parameters:
                codes["404"] = NO_PAGE if "{" not in path else None
            anyone = {} in operation.get("security", [{}])
            if anyone:
                codes["401"] = BAD_TOKEN
            if method in WRITES:
                codes |= dict.fromkeys(["400"] if anyone else ["400", "403"])
            if "requestBody" in operation:
                codes |= dict.fromkeys(["413", "415"])
            elif parameters:
                codes["400"] = None
            for code, said in codes.items():
                name, description = ANSWERS[code]
                responses.setdefault(
                    code,
                    {
                        "description": said or description,
                        "content": {
                            "application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}
                        },
                    },
                )
            bad = responses.get("400", {}).get("content", {}).get("application/json", {})
            field_errors = {"$ref": "#/components/schemas/ValidationError"}
            if bad.get("schema") == {"$ref": "#/components/schemas/Error"}:
                bad["schema"] = field_errors
            elif bad.get("schema", field_errors) != field_errors:
                # An operation's own refusal (the table's TableError, a score sheet's
                # problems) or, from the serializer that reads its body, the fields' errors.
                bad["schema"] = {"anyOf": [bad["schema"], field_errors]}
    return result
