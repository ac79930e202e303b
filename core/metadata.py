"""What ``OPTIONS`` answers about an API address: the body each of its writes takes."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.metadata import SimpleMetadata
from rest_framework.request import clone_request


class RequestMetadata(SimpleMetadata):
    """``OPTIONS`` describes the body each writing method of an address takes, as the API's
    schema does (a season's ``simulate`` takes a scope, not a season's fields: DRF's own
    metadata described the view's serializer for every write), to a client allowed to send
    it."""

    def determine_metadata(self, request: Any, view: Any) -> dict[str, Any]:
        metadata: dict[str, Any] = super().determine_metadata(request, view)
        metadata.pop("actions", None)
        actions = self.determine_actions(request, view)
        if actions:
            metadata["actions"] = actions
        return metadata

    def determine_actions(self, request: Any, view: Any) -> dict[str, Any]:
        actions = {}
        for method in sorted({"PUT", "PATCH", "POST"} & set(view.allowed_methods)):
            view.request = clone_request(request, method)
            try:
                view.check_permissions(view.request)
            except (exceptions.APIException, PermissionDenied, Http404):
                continue
            finally:
                view.request = request
            body = request_serializer(view, method)
            if body is not None:
                actions[method] = self.get_serializer_info(body)
        return actions


def request_serializer(view: Any, method: str) -> serializers.BaseSerializer[Any] | None:
    """Return the serializer of the body ``method`` takes at ``view``'s address, as the
    schema documents it (the handler's ``extend_schema(request=...)``, else what the
    schema reads off the view); ``None`` for a write that takes no body."""
    action_map = getattr(view, "action_map", None)
    name = action_map.get(method.lower()) if action_map is not None else method.lower()
    handler = getattr(view, name or "", None)
    # extend_schema keeps a handler's schema on it (an action's is the view's already).
    declared_by = getattr(handler, "kwargs", {}).get("schema")
    schema = declared_by() if declared_by is not None else view.schema
    schema.view = view
    schema.method = method
    body = schema.get_request_serializer()
    if isinstance(body, type) and issubclass(body, serializers.BaseSerializer):
        body = body()
    return body if isinstance(body, serializers.BaseSerializer) else None
