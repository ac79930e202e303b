"""The API's search and ordering (``REST_FRAMEWORK["DEFAULT_FILTER_BACKENDS"]``), in a module
of their own: DRF reads that setting while its views are defined, so they cannot live beside
the views."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, filters


class SearchFilter(filters.SearchFilter):
    """DRF's search, offered (and in the schema) only where a view names what it searches."""

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        fields = getattr(view, "search_fields", None)
        if not fields:
            return []
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        parameters[0]["description"] = f"Search in {', '.join(f.lstrip('^=@$') for f in fields)}."
        return parameters


class OrderingFilter(filters.OrderingFilter):
    """DRF's ordering, refusing a field it cannot order by (DRF drops it silently) and
    listing in the schema the fields each view orders by."""

    def get_ordering(self, request: Any, queryset: Any, view: Any) -> Any:
        asked = request.query_params.get(self.ordering_param)
        if asked:
            valid = {
                name for name, _ in self.get_valid_fields(queryset, view, {"request": request})
            }
            terms = [t.strip() for t in asked.split(",") if t.strip()]
            unknown = [t for t in terms if t.lstrip("-") not in valid]
            if unknown:
                raise exceptions.ValidationError(
                    {
                        self.ordering_param: [
                            f"{', '.join(unknown)}: not a field to order by; use "
                            f"{', '.join(sorted(valid))} (a leading - reverses)."
                        ]
                    }
                )
        return super().get_ordering(request, queryset, view)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        fields = getattr(view, "ordering_fields", None)
        if not fields or fields == "__all__":
            return []
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        parameters[0]["description"] = (
            f"Order by {', '.join(fields)}; a leading - reverses, commas join several."
        )
        return parameters
