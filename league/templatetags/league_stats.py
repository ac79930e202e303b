"""Template tags for the stat tables: the column lists of ``league.columns`` and their cells.

{% load league_stats %}{% stat_columns "box_score" as columns %}
{% for c in columns %}<th>{{ c.label }}</th>{% endfor %}
{% for c in columns %}<td>{{ line|cell:c }}</td>{% endfor %}
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from league import columns as stat_columns_module
from league.columns import Column
from league.games import LeagueGame, league_game

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


@register.filter
def head(column: Column) -> str:
    """Return a column's header, its abbreviation explained: ``<abbr title="steals">STL</abbr>``."""
    if not column.abbr:
        return column.label
    return format_html('<abbr title="{}">{}</abbr>', column.abbr, column.label)


@register.simple_tag
def abbr(label: str, title: str = "") -> str:
    """Return a header explained by ``league.columns.TITLES`` (or ``title``) when it has one."""
    title = title or stat_columns_module.TITLES.get(label, "")
    return format_html('<abbr title="{}">{}</abbr>', title, label) if title else label


@register.filter
def site_name(game: str) -> str:
    """Return what a page's title ends with: the league of its game ("Grid court league"),
    so a grid-court or six-dice page never reads as VABG's."""
    return league_game(game).site_name


@register.filter(name="league_game")
def league_game_of(game: str) -> LeagueGame:
    """Return the league's side of a game by its name, for a page to ask its hooks
    (``{% with kind=season.game|league_game %}``)."""
    return league_game(game)
