"""The API's search and ordering (``REST_FRAMEWORK["DEFAULT_FILTER_BACKENDS"]``), in a module
of their own: DRF reads that setting while its views are defined, so they cannot live beside
the views."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from rest_framework import exceptions, filters

SEARCH_WORDS = 10
"""Words of a search read, the API's and the site's: each is a condition on every field
searched, and 1,200 of them made SQLite refuse the query ("Expression tree is too large")."""


class SearchFilter(filters.SearchFilter):
    """DRF's search, offered (and in the schema) only where a view names what it searches;
    its first :data:`SEARCH_WORDS` words read."""

    def get_search_terms(self, request: Any) -> list[str]:
        terms: list[str] = list(super().get_search_terms(request))
        return terms[:SEARCH_WORDS]

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        fields = getattr(view, "search_fields", None)
        if not fields:
            return []
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        parameters[0]["description"] = f"Search in {', '.join(f.lstrip('^=@$') for f in fields)}."
        return parameters


class OrderingFilter(filters.OrderingFilter):
    """DRF's ordering, refusing a field it cannot order by (DRF drops it silently) and
    listing in the schema the fields each view orders by.

    A client's ``?ordering=`` is followed by the view's own order and then the id, so rows
    level on the asked fields (games stored in one batch share ``played_at``) keep one order
    from page to page; and an empty value sorts as on PostgreSQL on every database: last
    going up, first going down (SQLite puts it first going up)."""

    def filter_queryset(self, request: Any, queryset: Any, view: Any) -> Any:
        if not request.query_params.get(self.ordering_param):
            return super().filter_queryset(request, queryset, view)
        ordering = list(self.get_ordering(request, queryset, view) or [])
        named = {t.lstrip("-") for t in ordering if isinstance(t, str)}
        default = self.get_default_ordering(view) or queryset.model._meta.ordering or ()
        for term in (*default, "pk"):
            if named & {"pk", "id"}:
                break  # unique from here on
            if isinstance(term, str) and term.lstrip("-") not in named:
                ordering.append(term)
                named.add(term.lstrip("-"))
        return queryset.order_by(*(self._nulls_placed(t) for t in ordering))

    @staticmethod
    def _nulls_placed(term: Any) -> Any:
        if not isinstance(term, str):
            return term
        if term.startswith("-"):
            return F(term[1:]).desc(nulls_first=True)
        return F(term).asc(nulls_last=True)

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
