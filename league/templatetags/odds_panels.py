"""The odds panels the game and bracket pages include: a preview, the win-probability
chart, the bracket odds with the what-if form (``league.odds`` does the work)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from league import odds
from league.models import Game, Season

register = template.Library()

WHATIF_PREFIX = "w_"
"""A what-if in a page's query string: ``w_<game key>=<winner's team id>``."""


def whatif_from(query: Mapping[str, str]) -> dict[str, int]:
    """Return the what-if winners a query string names (malformed entries are ignored)."""
    out = {}
    for name, value in query.items():
        if name.startswith(WHATIF_PREFIX) and str(value).isdigit():
            out[name[len(WHATIF_PREFIX) :]] = int(value)
    return out


@register.inclusion_tag("pages/_game_odds.html")
def game_odds(game: Game) -> dict[str, Any]:
    """A scheduled game's preview, or a played game's win-probability chart."""
    context: dict[str, Any] = {"game": game}
    try:
        if game.status == Game.Status.FINAL:
            context["series"] = odds.win_probability(game)
        else:
            context["preview"] = odds.game_preview(game)
    except odds.OddsUnavailable as exc:
        context["error"] = str(exc)
    return context


@register.inclusion_tag("pages/_bracket_odds.html", takes_context=True)
def bracket_odds(context: Mapping[str, Any], season: Season) -> dict[str, Any]:
    """The tournament's odds per round, moved by the what-ifs in the query string."""
    request = context.get("request")
    whatif = whatif_from(request.GET) if request is not None else {}
    out: dict[str, Any] = {"season": season, "whatif": whatif}
    try:
        result = odds.with_table(season, lambda: odds.bracket_odds(season, whatif=whatif))
        out["choices"] = odds.whatif_choices(season, whatif)
    except odds.WhatIfRefused as exc:
        out["error"] = f"That what-if cannot happen: {exc}"
        return out
    except odds.OddsUnavailable as exc:
        out["error"] = str(exc)
        return out
    if result.get("pending"):
        out["pending"] = result
        return out
    out["odds"] = result
    return out
