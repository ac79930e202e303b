"""The odds panels the game and bracket pages include: a preview, the win-probability
chart, the bracket odds with the what-if form (``league.odds`` does the work)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from core.caching import waiting
from core.text import whole_number
from league import odds
from league.models import Game, Season
from simulator.games import find_game

register = template.Library()

WHATIF_PREFIX = "w_"
"""A what-if in a page's query string: ``w_<game key>=<winner's team id>``."""


def whatif_from(query: Mapping[str, str]) -> dict[str, int]:
    """Return the what-if winners a query string names (malformed entries are ignored)."""
    out = {}
    for name, value in query.items():
        if name.startswith(WHATIF_PREFIX) and whole_number(str(value)):
            out[name[len(WHATIF_PREFIX) :]] = int(value)
    return out


def game_odds_panel(game: Game) -> dict[str, Any]:
    """Return what a game's page shows of its odds (``pages/_game_odds.html``): a scheduled
    game's preview or a played game's win-probability chart, each ``pending`` while the
    background works it out, or why there are none."""
    context: dict[str, Any] = {"game": game}
    try:
        if game.status == Game.Status.FINAL:
            context["series"] = odds.win_probability(game)
        else:
            context["preview"] = odds.game_preview(game)
    except odds.OddsUnavailable as exc:
        context["error"] = str(exc)
    return context


def panel_pending(panel: Mapping[str, Any]) -> bool:
    """Tell whether a game's odds panel waits for the background (its page looks again)."""
    return any((panel.get(part) or {}).get("pending") for part in ("series", "preview"))


@register.inclusion_tag("pages/_game_odds.html", takes_context=True)
def game_odds(context: Mapping[str, Any], game: Game) -> dict[str, Any]:
    """A scheduled game's preview, or a played game's win-probability chart."""
    panel = game_odds_panel(game)
    if panel_pending(panel):
        waiting(context.get("request"))  # it reloads in a second: no front cache keeps it
    return panel


@register.inclusion_tag("pages/_bracket_odds.html", takes_context=True)
def bracket_odds(context: Mapping[str, Any], season: Season) -> dict[str, Any]:
    """The tournament's odds per round, moved by the what-ifs in the query string."""
    request = context.get("request")
    whatif = whatif_from(request.GET) if request is not None else {}
    out: dict[str, Any] = {"season": season, "whatif": whatif}
    if not find_game(season.game).has_odds:
        return {"season": season, "no_odds": True}  # never another game's numbers
    champion = context.get("view", {}).get("champion")
    if champion is not None:
        return _finished(out, season, champion, request)
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
        waiting(request)  # it reloads in a second or five: no front cache keeps it
        out["pending"] = result
        return out
    out["odds"] = result
    out["alive"] = [t for t in result["teams"] if t["champion"] > 0]
    out["out_count"] = len(result["teams"]) - len(out["alive"])
    out["shown_rounds"] = rounds_shown(result["rounds"], out["alive"])
    return out


def rounds_shown(rounds: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[Any]:
    """Return ``(index, round)`` of the rounds whose column tells the listed teams apart:
    a round every one of them is sure to play in, or sure not to (the first round before
    a game is played, a round already decided), says nothing and is left out."""
    return [(i, r) for i, r in enumerate(rounds) if any(0.0 < t["reach"][i] < 1.0 for t in rows)]


HISTORY_ROWS = 16
"""The favourites a finished tournament's page lists with their odds before the first game."""


def _finished(
    out: dict[str, Any], season: Season, champion: dict[str, Any], request: Any
) -> dict[str, Any]:
    """Once the tournament is over every chance is 100% or 0%: show instead the odds it
    started with, the favourites and the champion's own."""
    out["champion"] = champion
    try:
        before = odds.with_table(season, lambda: odds.bracket_odds(season, before_start=True))
    except odds.OddsUnavailable as exc:
        out["error"] = str(exc)
        return out
    if before.get("pending"):
        waiting(request)
        out["pending"] = before
        return out
    teams = before["teams"]
    out["history"] = before
    out["favourites"] = teams[:HISTORY_ROWS]
    out["shown_rounds"] = rounds_shown(before["rounds"], teams)
    out["champion_before"] = next(
        ((rank, t) for rank, t in enumerate(teams, start=1) if t["team_id"] == champion["team_id"]),
        None,
    )
    return out
