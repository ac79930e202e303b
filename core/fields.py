"""Serializer fields the API's serializers share."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers


class CalendarDateField(serializers.DateField):
    """A date as ``YYYY-MM-DD``; one written right that no calendar has (2026-02-30) is
    refused as such, not as a date of the wrong format."""

    def to_internal_value(self, value: Any) -> Any:
        try:
            return super().to_internal_value(value)
        except serializers.ValidationError:
            if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
                raise serializers.ValidationError(
                    f"{value.strip()} is no day of the calendar."
                ) from None
            raise
