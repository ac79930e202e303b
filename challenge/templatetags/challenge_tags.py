"""The challenge's page filters."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def chance(entry: Any) -> str:
    """An entry's chance to win its pool as a fan reads it: "37.3% ± 1.1" (the error in
    percentage points, in a span a phone puts under it), "100%" once decided, a dash before
    it is computed."""
    p = getattr(entry, "win_probability", None)
    if p is None:
        return "\u2013"
    error = getattr(entry, "win_error", None) or 0.0
    text = f"{p * 100:.1f}".removesuffix(".0") + "%"
    if error > 0:
        return format_html('{} <span class="err">± {}</span>', text, f"{error * 100:.1f}")
    return text
