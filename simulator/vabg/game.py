"""VABG on the game interface of :mod:`simulator.games`: a thin adapter, nothing more.

It calls :func:`simulator.vabg.play_game` and :func:`simulator.vabg.box_score` unchanged,
so a game played through ``find_game("vabg")`` is the same game, roll for roll, as one
played directly; the VABG ``GameResult`` rides along as :attr:`Result.native`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from simulator.dice import DiceSource
from simulator.games import (
    Column,
    Game,
    InvalidTeamError,
    Option,
    Result,
    Side,
    register,
)
from simulator.results import LINE_FIELDS, GameResult, TeamBox
from simulator.vabg.cards import InvalidCardError, TeamCard, team_from_json
from simulator.vabg.engine import play_game
from simulator.vabg.events import Event, event_from_json
from simulator.vabg.events import box_score as vabg_box_score
from simulator.vabg.render import render_box_score
from simulator.vabg.rules import ADVANCED, BASIC, RULES_VERSION, GameRules, preset

# The header of each counting stat of a VABG line (simulator.results.LINE_FIELDS order).
_LABELS = {
    "pts": ("PTS", "points"),
    "fgm": ("FGM", "field goals made"),
    "fga": ("FGA", "field goals attempted"),
    "tpm": ("3PM", "3-point goals made"),
    "tpa": ("3PA", "3-point goals attempted"),
    "ftm": ("FTM", "free throws made"),
    "fta": ("FTA", "free throws attempted"),
    "oreb": ("ORB", "offensive rebounds"),
    "dreb": ("DRB", "defensive rebounds"),
    "reb": ("TRB", "total rebounds"),
    "stl": ("STL", "steals"),
    "blk": ("BLK", "blocks"),
    "to": ("TOV", "turnovers"),
    "pf": ("PF", "personal fouls"),
    "poss": ("POSS", "possession numbers played"),
}


def _columns() -> tuple[Column, ...]:
    return tuple(Column(key, *_LABELS[key]) for key in LINE_FIELDS)


def _side(box: TeamBox) -> Side:
    return Side(box.school, box.season, box.score, box.periods, box)


class VabgGame(Game):
    """The Value Add Basketball Game (vabg-rulings.md), on the shared interface."""

    name = "vabg"
    title = "Value Add Basketball Game"
    label = "VABG"
    rules_version = RULES_VERSION
    options = (
        Option("preset", ("advanced", "basic"), "advanced", "rules preset (§0)"),
        Option("strategy", (False, True), False, "let the exact coach foul, try for 3, ..."),
    )
    rules_type = GameRules
    presets = {"advanced": ADVANCED, "basic": BASIC}
    columns = _columns()
    team_columns = (Column("team_turnovers", "TM TOV", "team turnovers (shot clock)"),)
    event_types = tuple(Event.__args__)
    neutral_matters = True
    has_odds = True
    odds_read_teams = True
    """Each pairing's exact odds read both cards (``simulator.vabg.odds``, the league's pair
    table)."""

    def make_rules(self, **options: Any) -> GameRules:
        """Return the named preset with the coach policy on or off."""
        values = self.check_options(options)
        return preset(values["preset"], strategy=values["strategy"])

    def rules_from_json(self, doc: Mapping[str, Any]) -> GameRules:
        """Return :meth:`GameRules.from_json` of the stored rules."""
        return GameRules.from_json(doc)

    def final_score_problems(self, home: int, away: int) -> list[str]:
        """Rulings §1: the game starts 20-20 and no play takes a point away, so a side
        under 20 cannot be how a game ends (a typed-in 3-1 was stored as final).

        >>> VabgGame().final_score_problems(3, 1)
        ['a VABG game starts 20-20 and no play takes a point away: home 3, away 1 cannot end one']
        >>> VabgGame().final_score_problems(71, 68)
        []
        """
        low = [f"{side} {score}" for side, score in (("home", home), ("away", away)) if score < 20]
        if not low:
            return []
        return [
            "a VABG game starts 20-20 and no play takes a point away: "
            f"{', '.join(low)} cannot end one"
        ]

    def read_team(self, data: object) -> TeamCard:
        """Return the ``vabg-team/1`` card; a bad card lists every problem."""
        try:
            return team_from_json(data)
        except InvalidCardError as exc:
            raise InvalidTeamError(exc.problems) from exc

    def play_rules(
        self, home: Any, away: Any, dice: DiceSource, rules: GameRules, *, neutral: bool
    ) -> Result:
        """Return :func:`play_game` of the two cards, wrapped in the shared result."""
        return self.wrap(play_game(home, away, dice, rules=rules, neutral=neutral))

    def wrap(self, result: GameResult) -> Result:
        """Return the shared result of a VABG ``GameResult`` (kept as ``native``)."""
        return Result(
            game=self.name,
            home=_side(result.home),
            away=_side(result.away),
            events=tuple(result.events),
            dice=result.dice,
            rules=result.rules,
            rules_version=RULES_VERSION,
            native=result,
        )

    def box_score(self, events: Iterable[Any], rules: Any = None) -> tuple[TeamBox, TeamBox]:
        """Return VABG's ``(home, away)`` team boxes rebuilt from the events alone."""
        ot = (rules or ADVANCED).overtime_possessions
        home, away, _ = vabg_box_score(events, ot_length=ot)
        return home, away

    def event_from_json(self, data: Mapping[str, Any]) -> Event:
        """Return a VABG event from its ``to_json()`` form."""
        return event_from_json(dict(data))

    def render(self, result: Result) -> str:
        """Return VABG's own text box score (``python -m simulator play``)."""
        return render_box_score(result.native)


GAME = register(VabgGame())
