"""Template tags for the stat tables: the column lists of ``league.columns`` and their cells.

{% load league_stats %}{% stat_columns "box_score" as columns %}
{% for c in columns %}<th>{{ c.label }}</th>{% endfor %}
{% for c in columns %}<td>{{ line|cell:c }}</td>{% endfor %}
"""

from __future__ import annotations

from typing import Any

from django import template

from league import columns as stat_columns_module
from league.columns import Column

register = template.Library()


@register.simple_tag
def stat_columns(name: str) -> tuple[Column, ...]:
    """Return a page's column list by name (``league.columns.TABLES``); unknown names fail."""
    return stat_columns_module.TABLES[name]


@register.simple_tag
def leader_column(category: str, label: str, per_game: bool) -> Column:
    """Return the value column of a leader board, per game or in totals."""
    return stat_columns_module.leader_column(category, label, per_game_values=per_game)


@register.filter
def cell(row: Any, column: Column) -> Any:
    """Return what a column shows for a row."""
    return column.cell(row)
