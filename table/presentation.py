"""What the score sheet page and the API show of a game at the table, as JSON-ready data."""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

from django.urls import reverse

from simulator.vabg import TeamCard, box_score, preset
from simulator.vabg.events import FreeThrow, PeriodEnd, Shot, Trip
from simulator.vabg.liveodds import LiveOdds
from simulator.vabg.render import describe
from simulator.vabg.sheet import Position, number_label, score_sheet
from table.models import TableGame

_ODDS: OrderedDict[str, LiveOdds] = OrderedDict()
_ODDS_KEPT = 32  # games whose trip laws stay in memory (about 4 ms to build one)


def _live_odds(game: TableGame, home: TeamCard, away: TeamCard) -> LiveOdds:
    """Return the game's live odds, built once per process for its cards and rules."""
    doc = [game.home_team_file, game.away_team_file, game.rules, game.neutral]
    key = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()
    odds = _ODDS.get(key)
    if odds is None:
        odds = LiveOdds(home, away, rules=preset(game.rules), neutral=game.neutral)
        _ODDS[key] = odds
        while len(_ODDS) > _ODDS_KEPT:
            _ODDS.popitem(last=False)
    _ODDS.move_to_end(key)
    return odds


def odds_state(game: TableGame, position: Position) -> dict[str, Any]:
    """Return P(home wins) now, from the exact trip laws, or why it is not given."""
    labels = {"home": position.home_card.label, "away": position.away_card.label}
    if game.strategy:
        return {
            "available": False,
            "note": "No win probability with the coach policy on: its late fouls and tries "
            "for 3 read the score, and the exact odds are solved only without them.",
        }
    odds = _live_odds(game, position.home_card, position.away_card)
    pregame = odds.p_home_win(0, 0, 0)
    if position.result is not None:
        p_home = 1.0 if position.result.home.score > position.result.away.score else 0.0
        as_of = "final"
    else:
        trip = position.trips[-1]
        p_home = odds.p_home_win(trip.period, trip.index, trip.home - trip.away)
        where = number_label(trip.period, trip.number)
        as_of = f"before {labels[trip.team]}'s trip {where} ({trip.away}-{trip.home})"
    return {
        "available": True,
        "p_home": p_home,
        "p_away": 1.0 - p_home,
        "pregame_home": pregame,
        "as_of": as_of,
        "note": "Exact, from the dice math (docs/odds.md), at the start of the current trip.",
    }


def _plays(position: Position) -> list[dict[str, Any]]:
    labels = {"home": position.home_card.label, "away": position.away_card.label}
    score = {"home": 20, "away": 20}
    out = []
    for play in position.plays():
        lines = []
        for event in play.events:
            if isinstance(event, Shot) and event.made:
                score[event.team] += event.value
            elif isinstance(event, FreeThrow) and event.made:
                score[event.team] += 1
            if isinstance(event, PeriodEnd):
                lines.append(f"End of {'regulation' if event.period == 0 else 'overtime'}.")
                continue
            if isinstance(event, Trip):
                who = event.player or "nobody takes the ball (shot clock)"
                again = " (re-roll)" if event.kind == "reroll" else ""
                lines.append(f"d8 {event.d8}{again}: {who}; 11-66 {event.roll}; d20 {event.d20}")
                continue
            text = describe(event, labels)
            if text is not None:
                lines.append(text)
        trip = play.trip
        out.append(
            {
                "label": number_label(trip.period, trip.number, trip.kind),
                "period": trip.period,
                "number": trip.number,
                "team": trip.team,
                "team_label": labels[trip.team],
                "kind": trip.kind,
                "dice": [{"die": r.die, "value": r.value, "step": r.step} for r in play.rolls],
                "lines": lines,
                "away": score["away"],
                "home": score["home"],
            }
        )
    return out


def _period_text(position: Position) -> str:
    if position.result is not None:
        ot = position.result.overtimes
        return "Final" + ("" if not ot else " (OT)" if ot == 1 else f" ({ot}OT)")
    need = position.need
    assert need is not None
    label = position.home_card.label if need.team == "home" else position.away_card.label
    return f"Possession {number_label(need.period, need.number)}, {label} ball"


def table_state(game: TableGame, position: Position) -> dict[str, Any]:
    """Return everything the score sheet page shows, for the page and the API alike."""
    home_box, away_box, overtimes = box_score(
        position.events, ot_length=position.rules.overtime_possessions
    )
    urls = {
        "page": reverse("table:sheet", args=[game.pk]),
        "state": reverse("table:api-game", args=[game.pk]),
        "dice": reverse("table:api-dice", args=[game.pk]),
        "undo": reverse("table:api-undo", args=[game.pk]),
        "finish": reverse("table:api-finish", args=[game.pk]),
        "abandon": reverse("table:api-abandon", args=[game.pk]),
        "dice_file": reverse("table:api-dice-file", args=[game.pk]),
        "league_game": None,
    }
    if game.league_game_id is not None:
        urls["league_game"] = reverse("game", args=[game.league_game_id])
    return {
        "id": game.pk,
        "status": game.status,
        "status_text": game.get_status_display(),
        "home": {"label": position.home_card.label, "team_id": game.home_id},
        "away": {"label": position.away_card.label, "team_id": game.away_id},
        "rules": game.rules,
        "strategy": game.strategy,
        "neutral": game.neutral,
        "count": len(position.rolls),
        "dice": list(position.values),
        "need": None if position.need is None else position.need.to_json(),
        "over": position.result is not None,
        "score": {"home": position.home_score, "away": position.away_score},
        "period": _period_text(position),
        "overtimes": overtimes,
        "undo_trip_to": position.last_trip_start(),
        "plays": _plays(position),
        "sheet": score_sheet(position),
        "box": {"home": home_box.to_json(), "away": away_box.to_json()},
        "odds": odds_state(game, position),
        "urls": urls,
    }
