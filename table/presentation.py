"""What the score sheet page and the API show of a game at the table, as JSON-ready data."""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

from django.urls import reverse

from league.coaches import coach_for
from simulator.games import find_game
from simulator.gridcourt import sheet as grid_sheet
from simulator.gridcourt.events import Score as GridScore
from simulator.gridcourt.events import box_score as grid_box_score
from simulator.sixdice import sheet as six_sheet
from simulator.sixdice.events import Score as SixScore
from simulator.vabg import TeamCard, box_score
from simulator.vabg.coachodds import CoachLiveOdds
from simulator.vabg.events import FreeThrow, PeriodEnd, Shot, Steal, Trip
from simulator.vabg.liveodds import LiveOdds
from simulator.vabg.render import describe
from simulator.vabg.sheet import Position, number_label, score_sheet
from table.models import TableGame
from table.services import vabg_rules

_ODDS: OrderedDict[str, LiveOdds | CoachLiveOdds] = OrderedDict()
_ODDS_KEPT = 32  # games whose trip laws stay in memory (about 4 ms to build one)


def _live_odds(game: TableGame, home: TeamCard, away: TeamCard) -> LiveOdds | CoachLiveOdds:
    """Return the game's live odds, built once per process for its cards and rules."""
    rules = vabg_rules(game)
    doc = [game.home_team_file, game.away_team_file, rules.to_json(), game.neutral]
    key = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()
    odds = _ODDS.get(key)
    if odds is None:
        odds = (
            CoachLiveOdds(
                home,
                away,
                rules=rules,
                neutral=game.neutral,
                coach=coach_for(home=home, away=away, rules=rules, neutral=game.neutral),
            )
            if game.strategy
            else LiveOdds(home, away, rules=rules, neutral=game.neutral)
        )
        _ODDS[key] = odds
        while len(_ODDS) > _ODDS_KEPT:
            _ODDS.popitem(last=False)
    _ODDS.move_to_end(key)
    return odds


def odds_state(game: TableGame, position: Position) -> dict[str, Any]:
    """Return P(home wins) now, from the exact trip laws (with the coach policy on, its
    exact backward program), at the start of the current number's regular trip: an extra
    or fouled possession of the policy is inside the trip it follows or precedes."""
    labels = {"home": position.home_card.label, "away": position.away_card.label}
    odds = _live_odds(game, position.home_card, position.away_card)
    pregame = odds.p_home_win(0, 0, 0)
    if position.result is not None:
        p_home = 1.0 if position.result.home.score > position.result.away.score else 0.0
        as_of = "final"
    else:
        regular = [t for t in position.trips if t.kind == ""]
        trip = regular[-1]
        done = odds.trips_in(trip.period) - 2 * trip.number + (trip.team == "home")
        owed = False
        if isinstance(odds, CoachLiveOdds) and trip.team == "home" and len(regular) > 1:
            # §8: the home team stole on the visitor's trip, still trails and took the
            # extra trips.
            visitor = regular[-2]
            owed = odds.home_takes_extra(trip.period, trip.number, trip.home - trip.away) and any(
                isinstance(e, Steal) and e.fast_break and e.team == "home"
                for e in position.events[visitor.first_event : trip.first_event]
            )
        p_home = odds.p_home_win(trip.period, done, trip.home - trip.away, owed=owed)
        where = number_label(trip.period, trip.number)
        as_of = f"before {labels[trip.team]}'s trip {where} ({trip.away}-{trip.home})"
    return {
        "available": True,
        "p_home": p_home,
        "p_away": 1.0 - p_home,
        "pregame_home": pregame,
        "as_of": as_of,
        "note": "Exact, from the dice math (docs/odds.md), at the start of the current trip"
        + (", the coach policy included." if game.strategy else "."),
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


def _urls(game: TableGame) -> dict[str, Any]:
    urls: dict[str, Any] = {
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
    return urls


POLICY_NOTES = {
    "gridcourt": "Type only the dice: each team moves by its coach style (where to set up, "
    "when to shoot, every step; shown on its team page), as in the league's simulated "
    "games. Moves by hand are not taken at the table.",
    "sixdice": "Type only the dice: each team plays its coach style (which symbol on a "
    "tie, when to play the Power Chip, shoot or advance; shown on its team page), as in the "
    "league's simulated games.",
}


def _roll_dice(values: tuple[int, ...], faces: str) -> list[dict[str, Any]]:
    return [
        {"die": "d6", "value": v, "step": "", "face": faces[v - 1] if faces else ""} for v in values
    ]


def board_state(
    game: TableGame, position: grid_sheet.Position | six_sheet.Position
) -> dict[str, Any]:
    """Return the page's state of a grid-court or six-dice game, for the page and the API."""
    engine = find_game(game.game)
    labels = position.labels()
    plays: list[dict[str, Any]] = []
    faces = ""
    pieces: dict[str, Any] | None = None
    boxes: tuple[Any, Any]
    if isinstance(position, grid_sheet.Position):
        boxes = grid_box_score(position.events)
        score = {"home": 0, "away": 0}
        for n, turn in enumerate(position.turns, 1):
            lines = [
                text for e in turn.events if (text := grid_sheet.describe(e, labels)) is not None
            ]
            for e in turn.events:
                if isinstance(e, GridScore):
                    score = {"home": e.home, "away": e.away}
            plays.append(
                {
                    "label": f"roll {n}",
                    "team": turn.team,
                    "team_label": labels[turn.team],
                    "kind": turn.role,
                    "dice": _roll_dice(turn.dice, ""),
                    "lines": [f"{turn.role} roll", *lines],
                    **score,
                }
            )
        pieces = {
            "offense": position.offense,
            "home": [list(c) for c in position.cells["home"]],
            "away": [list(c) for c in position.cells["away"]],
        }
    else:
        boxes = position.boxes()
        faces = position.rules.faces
        score = {"home": 0, "away": 0}
        for n, roll in enumerate(position.rolls, 1):
            lines = roll.lines(position.rules)
            for event in roll.events:
                if isinstance(event, SixScore):
                    score = {"home": event.home, "away": event.away}
            plays.append(
                {
                    "label": f"roll {n}",
                    "team": roll.team,
                    "team_label": f"{labels[roll.team]} ({six_sheet.COLOURS[roll.team]})",
                    "kind": roll.what,
                    "dice": _roll_dice(roll.dice, faces),
                    "lines": [roll.what, *lines],
                    **score,
                }
            )
    need = position.need
    if position.result is not None:
        period = "Final"
    else:
        assert need is not None
        period = f"Next: {need.step}"
    return {
        "id": game.pk,
        "game": game.game,
        "game_title": engine.title,
        "options": dict(game.options),
        "status": game.status,
        "status_text": game.get_status_display(),
        "home": {"label": labels["home"], "team_id": game.home_id},
        "away": {"label": labels["away"], "team_id": game.away_id},
        "rules": game.rules,
        "strategy": False,
        "neutral": False,
        "count": len(position.values),
        "dice": list(position.values),
        "need": None if need is None else need.to_json(),
        "over": position.result is not None,
        "score": dict(position.score),
        "period": period,
        "overtimes": 0,
        "undo_trip_to": position.last_roll_start(),
        "plays": plays,
        "sheet": None,
        "pieces": pieces,
        "faces": faces,
        "policy_note": POLICY_NOTES[game.game],
        "box": {
            "columns": [{"key": c.key, "label": c.label, "title": c.title} for c in engine.columns],
            "team_columns": [
                {"key": c.key, "label": c.label, "title": c.title} for c in engine.team_columns
            ],
            "lines_key": engine.lines_key,
            "name_key": engine.name_key,
            "home": boxes[0].to_json(),
            "away": boxes[1].to_json(),
        },
        "odds": {
            "available": False,
            "note": f"No live win probability in {engine.title.lower()}: the exact odds are "
            "solved for VABG only.",
        },
        "urls": _urls(game),
    }


def table_state(
    game: TableGame, position: Position | grid_sheet.Position | six_sheet.Position
) -> dict[str, Any]:
    """Return everything the score sheet page shows, for the page and the API alike."""
    if not isinstance(position, Position):
        return board_state(game, position)
    home_box, away_box, overtimes = box_score(
        position.events, ot_length=position.rules.overtime_possessions
    )
    urls = _urls(game)
    return {
        "id": game.pk,
        "game": game.game,
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
