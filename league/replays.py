"""How a stored game of grid court or six dice reads: its box score and its replay.

VABG's box score is ``league.presentation``'s (player lines in ``BoxLine`` rows); the other
games keep their own box score whole in ``GameResult.box``, as their engine rebuilt it
from the events, and their box-score columns come from the game interface
(``simulator.games``: ``columns`` for a player's or a piece's line, ``team_columns`` for
the team's figures). A game replays turn by turn through ``Game.replay_frames``: each
game's frames are built next to its engine (``simulator.sixdice.frames``: the pawn, the
ball, the Power Chip and the dice after each roll; ``simulator.gridcourt.frames``: the
pieces on the board), and :func:`game_replay` only picks the turn shown.

A VABG game's dice for its page's "Show the dice": :func:`vabg_dice` plays the stored game
once more over its seed or its table dice and returns every die in the order rolled, each
labelled as the table labels it (``simulator.vabg.dicelog``), kept in the cache per result.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache

from league.coaches import coach_for
from league.models import Game, GameResult
from league.presentation import dice_words
from simulator.dice import DiceSource, ScriptedDice, SeededDice
from simulator.games import Column, find_game
from simulator.vabg import GameRules, team_from_json
from simulator.vabg.dicelog import game_dice
from simulator.vabg.words import Die

logger = logging.getLogger(__name__)

AWAY, HOME = "away", "home"


# -- the box score ---------------------------------------------------------------------------


@dataclass
class TeamBox:
    """One team's half of another game's box score, read from ``GameResult.box``."""

    key: str
    label: str
    score: int
    lines: list[dict[str, Any]]
    """A piece's or a player's line (grid court's pieces); empty for six dice."""
    totals: dict[str, Any]
    figures: dict[str, Any]
    """The team columns' values, by key."""
    team_id: int = 0
    won: bool = False
    team_only: list[str] = field(default_factory=list)
    """What the totals count beyond the lines' sums, each as "STL 2": grid court's team
    steals and turnovers (a steal on a movement roll, a shot-clock violation), which no
    piece is credited with, so a Totals row that is not the column's sum says why."""


@dataclass
class GameBox:
    """Another game's box score: the columns its engine names and both teams, away first."""

    game: str
    title: str
    columns: tuple[Column, ...]
    team_columns: tuple[Column, ...]
    name_label: str
    sides: list[TeamBox]
    rules: dict[str, Any]
    dice: str
    legend: str = ""
    options: list[dict[str, str]] = field(default_factory=list)
    """The rule options played, each as ``{"label", "value", "help"}`` a fan can read."""

    @property
    def figure_rows(self) -> list[tuple[Column, list[Any]]]:
        """Return each team column with its value for the away then the home team."""
        return [
            (c, [side.figures.get(c.key, "") for side in self.sides]) for c in self.team_columns
        ]


def game_box(game: Game, result: GameResult) -> GameBox:
    """Return the box score of a final game other than VABG, in its game's own columns."""
    engine = find_game(game.game)
    sides = []
    for key, team, score in (
        (AWAY, game.away, result.away_score),
        (HOME, game.home, result.home_score),
    ):
        doc: dict[str, Any] = dict(result.box.get(key, {}))
        lines = [dict(line) for line in doc.get(engine.lines_key, [])] if engine.columns else []
        for line in lines:
            line["name"] = line.get(engine.name_key, "")
            line["cells"] = [line.get(c.key, "") for c in engine.columns]
        figures = {c.key: doc[c.key] for c in engine.team_columns if c.key in doc}
        totals = dict(doc.get("totals", {}))
        totals["cells"] = [totals.get(c.key, "") for c in engine.columns]
        other = result.home_score if key == AWAY else result.away_score
        side = TeamBox(key, str(team), score, lines, totals, figures, team.pk, score > other)
        for c in engine.columns:
            if lines and isinstance(totals.get(c.key), int | float):
                beyond = totals[c.key] - sum(_count(line.get(c.key)) for line in lines)
                if beyond:
                    side.team_only.append(f"{c.label} {beyond:g}")
        sides.append(side)
    dice = result.dice
    return GameBox(
        game=engine.name,
        title=engine.title,
        columns=engine.columns,
        team_columns=engine.team_columns,
        name_label=engine.name_key.capitalize(),
        sides=sides,
        rules={k: v for k, v in result.rules.items() if k != "version"},
        dice=dice_words(game, dice),
        legend=engine.replay_legend(),
        options=[
            {
                "label": option.name.replace("_", " "),
                "value": _option_text(result.rules.get(option.name, option.default)),
                "help": option.help,
            }
            for option in engine.options
        ],
    )


def _count(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


# -- the replay ------------------------------------------------------------------------------


@dataclass
class Replay:
    """A stored game's replay at one turn: the frame shown and where the others are.

    ``view`` is the game's own frames (``Game.replay_frames``: each game's frame building
    lives with its engine, e.g. ``simulator.sixdice.frames``), with what the page draws
    them on (six dice's court strip, grid court's board), read through this replay.
    """

    game: Game
    view: Any
    turn: int
    names: dict[str, str]

    @property
    def frames(self) -> list[Any]:
        frames: list[Any] = self.view.frames
        return frames

    @property
    def frame(self) -> Any:
        return self.frames[self.turn - 1]

    @property
    def previous(self) -> int | None:
        return self.turn - 1 if self.turn > 1 else None

    @property
    def next(self) -> int | None:
        return self.turn + 1 if self.turn < len(self.frames) else None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.view, name)  # the game's own drawing: sections, board...


def _names(game: Game) -> dict[str, str]:
    return {AWAY: str(game.away), HOME: str(game.home)}


def game_replay(game: Game, result: GameResult, turn: int) -> Replay:
    """Return the replay of a stored game at ``turn`` (clamped to the turns); a game
    without one (VABG) raises ``ValueError``."""
    engine = find_game(game.game)
    names = _names(game)
    view = engine.replay_frames(list(result.events), dict(result.rules), names)
    if view is None:
        raise ValueError(f"{engine.title} has no replay")
    frames = view.frames
    turn = max(1, min(turn, len(frames))) if frames else 0
    return Replay(game, view, turn, names)


gridcourt_replay = sixdice_replay = game_replay
"""The names the league's replay page calls: every game replays the same way."""


def play_by_play(game: Game, result: GameResult) -> list[tuple[int, str]]:
    """Return another game's play-by-play as ``(turn, text)`` lines (turn 0: no replay):
    the replay's own sentences, each under the roll it belongs to."""
    view = find_game(game.game).replay_frames(list(result.events), dict(result.rules), _names(game))
    if view is None:
        return []
    return [(f.number, note) for f in view.frames for note in f.notes]


# -- a VABG game's dice, in the order rolled ------------------------------------------------

DICE_CACHE_SECONDS = 30 * 24 * 3600
"""How long a stored game's dice stay in the cache: a stored result never changes (a retry
stores a new one, under a new key)."""


def vabg_dice(game: Game, result: GameResult) -> tuple[Die, ...]:
    """Return every die of a stored VABG game in the order rolled, each labelled as the
    table labels it and placed before the event it made (``dicelog.game_dice``).

    The game is played again over its seed or its table dice, from the team files and rules
    it was played with (about 10-20 ms; a coach policy's first solve for a pair more), once
    per result: the dice are kept in the cache. A game typed in (no events), or one this
    engine cannot play again exactly as stored, has none here: its page shows each trip's
    four dice, read from the events.
    """
    if not result.events:
        return ()
    key = f"game-dice:{result.pk}:{result.created_at.timestamp()}"
    kept = cache.get(key)
    if kept is not None:
        return tuple(Die(*die) for die in kept)
    dice = _played_dice(game, result)
    cache.set(key, [(d.step, d.value, d.event, d.die) for d in dice], DICE_CACHE_SECONDS)
    return dice


def _played_dice(game: Game, result: GameResult) -> tuple[Die, ...]:
    try:
        rules = GameRules.from_json(result.rules)
        home = team_from_json(result.home_team_file)
        away = team_from_json(result.away_team_file)
        stored = result.dice
        source: DiceSource = (
            SeededDice(stored["seed"])
            if stored.get("seed") is not None
            else ScriptedDice.from_json(stored)
        )
        coach = coach_for(home=home, away=away, rules=rules, neutral=game.neutral)
        return game_dice(
            home, away, source, rules=rules, neutral=game.neutral, coach=coach,
            events=result.events,
        )  # fmt: skip
    except ValueError as exc:  # old rules, a card the engine refuses now, other events
        logger.warning("game %s: its dice are not shown in order: %s", game.pk, exc)
        return ()
