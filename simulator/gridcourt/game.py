"""Grid court on the game interface of :mod:`simulator.games`."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any, ClassVar

from simulator.dice import DiceSource
from simulator.games import (
    Board,
    BoardCell,
    Column,
    MatchOdds,
    Option,
    Result,
    StyledGame,
    StyledTeam,
    TeamName,
    race_problems,
    register,
)
from simulator.gridcourt import style
from simulator.gridcourt.court import ROWS, court
from simulator.gridcourt.engine import play_game
from simulator.gridcourt.events import Event, GridTeamBox, box_score, event_from_json
from simulator.gridcourt.hand import Hands
from simulator.gridcourt.odds import styled_odds, table_odds
from simulator.gridcourt.rules import PRESETS, RULES_VERSION, STANDARD, TARGET, GridRules
from simulator.gridcourt.style import (
    DEFAULT_STYLE,
    policy_for,
)
from simulator.hands import play_by_hand


class GridCourtGame(StyledGame):
    """The grid-court board game to 21 (gridcourt-rulings.md)."""

    name = "gridcourt"
    title = "Grid court"
    table_note = (
        "Type the dice (1-6). A side played by hand makes its moves on the drawn court: where "
        "its pieces stand after a reset, whether an open piece shoots, every step of a roll "
        "(the legal steps are marked); a side left to the computer moves by its team's coach "
        "style."
    )
    rules_version = RULES_VERSION
    options = (
        Option("width", (14, 13), 14, "columns of the grid"),
        Option("level", (0, 1, 2), 0, "added to every value below 12 (the printed grids)"),
        Option("pieces", (3, 4, 5), 5, "pieces a team"),
    )
    rules_type = GridRules
    presets = PRESETS
    columns = (
        Column("pts", "PTS", "points"),
        Column("fgm", "FGM", "shots made"),
        Column("fga", "FGA", "shots taken"),
        Column("tpm", "3PM", "3-point shots made"),
        Column("tpa", "3PA", "3-point shots taken"),
        Column("oreb", "ORB", "offensive rebounds"),
        Column("dreb", "DRB", "defensive rebounds"),
        Column("stl", "STL", "steals"),
        Column("to", "TOV", "turnovers"),
        Column("three_sec", "3SEC", "paint violations"),
    )
    team_columns = (
        Column("team_stl", "TM STL", "steals on movement rolls"),
        Column("team_to", "TM TOV", "movement-roll steals and shot-clock violations"),
        Column("shot_clock_violations", "SCV", "shot-clock violations"),
        Column("possessions", "POSS", "possessions"),
        Column("ppp", "PPP", "points per possession", rate=True),
        Column("off_rolls", "OFF", "offensive rolls"),
        Column("def_rolls", "DEF", "defensive rolls"),
        Column("steps", "STEPS", "steps moved"),
        Column("open_declined", "DECL", "open shots declined"),
        Column("oreb_chances", "ORB CH", "misses with a piece in the paint"),
    )
    event_types = Event.__args__
    dice_streams = ("d6",)
    lines_key = "pieces"
    name_key = "piece"
    has_odds = True

    def odds(self, rules: Any = None, home: Any = None, away: Any = None) -> MatchOdds | None:
        """Return the simulated odds of ``rules`` between the two teams' styles, with the
        standard error: the stored run of a printed level when both play the default
        style, else a run of its own (``simulator.gridcourt.odds``): rules with no stored
        run (a width, level or number of pieces of the commissioner's own) are run too,
        never read from another level's."""
        rules = STANDARD if rules is None else rules
        home_style = DEFAULT_STYLE if home is None else _style(home)
        away_style = DEFAULT_STYLE if away is None else _style(away)
        if home_style == DEFAULT_STYLE and away_style == DEFAULT_STYLE:
            stored = table_odds(rules)
            if stored is not None:
                return stored
        return styled_odds(rules, home_style, away_style)

    def make_rules(self, **options: Any) -> GridRules:
        """Return the rules for a width, level and number of pieces."""
        return GridRules(**self.check_options(options))

    def rules_from_json(self, doc: Mapping[str, Any]) -> GridRules:
        """Return :meth:`GridRules.from_json` of the stored rules."""
        return GridRules.from_json(doc)

    style_module: ClassVar[ModuleType] = style

    def play_rules(
        self, home: Any, away: Any, dice: DiceSource, rules: GridRules, *, neutral: bool
    ) -> Result:
        """Play one game to 21, each team with its own style (a plain :class:`TeamName`
        plays the default style); ``neutral`` changes nothing."""
        return play_game(
            home,
            away,
            dice,
            rules,
            home_policy=policy_for(_style(home)),
            away_policy=policy_for(_style(away)),
        )

    has_hands = True

    def play_by_hand(
        self,
        home: Any,
        away: Any,
        dice: DiceSource,
        rules: GridRules,
        *,
        choices: tuple[str, ...],
        hands: frozenset[str],
        questions: int,
    ) -> Result:
        """Play one game to 21 whose ``hands`` sides made their own ``choices``
        (:mod:`simulator.gridcourt.hand`; its questions have one version), the other sides
        their styles; raise ``ValueError`` for a choice the rules forbid, one missing or
        one left over."""
        played = Hands(
            choices,
            hands,
            {"home": policy_for(_style(home)), "away": policy_for(_style(away))},
        )
        result = play_by_hand(
            lambda: play_game(
                home,
                away,
                dice,
                rules,
                home_policy=played.policy("home"),
                away_policy=played.policy("away"),
            ),
            played,
        )
        return dataclasses.replace(result, choices=choices, hands=hands, questions=questions)

    def final_score_problems(self, home: int, away: int) -> list[str]:
        # Rulings §3: the basket reaching 21 ends the game, and at turn 2,000 the leader
        # wins short of it (the safety net).
        return race_problems(self.title, TARGET, home, away, may_end_short=True)

    def board(self, rules: GridRules) -> Board:
        """Return the printed grid of the rules' width and level (§1.1, §1.2)."""
        grid = court(rules.width, rules.level)
        return Board(
            rows=ROWS,
            width=grid.width,
            cells=tuple(
                BoardCell(row, column, grid.value[i], grid.paint[i], grid.inside[i])
                for i, (row, column) in enumerate(grid.cells)
            ),
        )

    def box_score(
        self, events: Iterable[Any], rules: Any = None
    ) -> tuple[GridTeamBox, GridTeamBox]:
        """Return the ``(home, away)`` box scores rebuilt from the events alone (§7)."""
        return box_score(events)

    def event_from_json(self, data: Mapping[str, Any]) -> Event:
        """Return a grid-court event from its ``to_json()`` form."""
        return event_from_json(data)


def _style(team: TeamName) -> Any:
    return team.style if isinstance(team, StyledTeam) else DEFAULT_STYLE


GAME = register(GridCourtGame())
