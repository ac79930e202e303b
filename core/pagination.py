"""The API's pages (``REST_FRAMEWORK["DEFAULT_PAGINATION_CLASS"]``), in a module of their own:
DRF reads that setting while its views are defined, so the class cannot live beside them."""

from __future__ import annotations

from typing import Any

from rest_framework import pagination
from rest_framework.exceptions import NotFound, ValidationError

PAGES = ("page", "page_size")
"""The query parameters of a paged answer (``PageNumberPagination``'s), for an action that
pages what it answers itself."""


class PageNumberPagination(pagination.PageNumberPagination):
    """DRF's numbered pages, 50 rows by default; ``page_size`` asks for up to 500 (fewer
    requests against the anonymous throttle; more gives 500), a ``page_size`` that is not a
    whole number from 1 is refused (DRF would quietly answer 50 a page), and a page that does
    not exist is refused saying which pages do."""

    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request: Any) -> int | None:
        asked = request.query_params.get(self.page_size_query_param)
        if asked is not None and not (asked.isascii() and asked.isdigit() and int(asked) >= 1):
            raise ValidationError(
                {
                    self.page_size_query_param: [
                        f"{asked!r} is not a page size: give a whole number from 1 to "
                        f"{self.max_page_size}."
                    ]
                }
            )
        return super().get_page_size(request)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["description"] = (
                    f"Rows a page: {self.page_size} if not given, at most "
                    f"{self.max_page_size} (more gives {self.max_page_size})."
                )
                parameter["schema"] = {"type": "integer", "minimum": 1}
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1}
        return parameters

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        asked = request.query_params.get(self.page_query_param)
        if (
            asked is not None
            and asked not in self.last_page_strings
            and not (asked.isascii() and asked.removeprefix("-").isdigit())
        ):  # a page that is not a whole number is a bad request; 0 or -1, a missing page
            raise ValidationError(
                {self.page_query_param: [f"{asked!r} is not a page: give a whole number from 1."]}
            )
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:
            size = self.get_page_size(request) or 1
            paginator = self.django_paginator_class(queryset, size)
            asked = request.query_params.get(self.page_query_param, "")
            last = paginator.num_pages
            if not paginator.count:  # "pages run from 1 to 1 (0 rows...)" read oddly
                raise NotFound(f"There is no page {asked!r}: the list is empty.") from None
            raise NotFound(
                f"There is no page {asked!r}: pages run from 1 to {last} "
                f"({paginator.count} rows, {size} a page)."
            ) from None
