"""The API's pages (``REST_FRAMEWORK["DEFAULT_PAGINATION_CLASS"]``), in a module of their own:
DRF reads that setting while its views are defined, so the class cannot live beside them."""

from __future__ import annotations

from typing import Any

from rest_framework import pagination
from rest_framework.exceptions import NotFound


class PageNumberPagination(pagination.PageNumberPagination):
    """DRF's numbered pages, 50 rows by default; ``page_size`` asks for up to 500 (fewer
    requests against the anonymous throttle), and a page that does not exist is refused
    saying which pages do."""

    page_size_query_param = "page_size"
    max_page_size = 500

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:
            size = self.get_page_size(request) or 1
            paginator = self.django_paginator_class(queryset, size)
            asked = request.query_params.get(self.page_query_param, "")
            last = paginator.num_pages
            raise NotFound(
                f"There is no page {asked!r}: pages run from 1 to {last} "
                f"({paginator.count} rows, {size} a page)."
            ) from None
