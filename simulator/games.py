"""The games the simulator hosts, behind one small interface (like python-chess's variants).

Each game is a package under ``simulator/`` (``vabg/``, ``gridcourt/``, ``sixdice/``)
whose ``game`` module defines one :class:`Game` subclass and registers one instance of
it. :func:`find_game` returns a game by name, importing its module on first use, so
the command line and the league never name a game's own modules::

    >>> from simulator import SeededDice
    >>> game = find_game("vabg")
    >>> game.name, [o.name for o in game.options]
    ('vabg', ['preset', 'strategy'])

Every game offers the same surface:

- ``options`` and ``presets``: its rule options (name, allowed values, default) and
  named rule sets; ``make_rules(**options)`` builds rules from option values,
  ``rules_from_json(doc)`` gives back the rules a stored game was played with;
- ``read_team(data)``: its team input from a parsed JSON team file (VABG reads the whole
  card; a board game reads only ``school`` and ``season``, see :func:`team_name_from_json`);
- ``play(home, away, dice, rules) -> Result``: one game, every roll drawn from ``dice``
  (the rules defaulted and checked against ``rules_type`` here; each game's
  ``play_rules`` plays them);
- ``event_types`` and ``event_from_json``: its events, each a named tuple with ``to_json()``;
- ``box_score(events, rules) -> (home, away)``: its own box scores rebuilt from the events
  alone, the very function ``play`` uses;
- ``columns`` and ``team_columns``: the box-score columns of its own lines (a player's or a
  piece's line) and of its team-only figures, in the order a box score prints them.
- ``read_dice(doc)`` and ``render(result)``: a dice file holding only its ``dice_streams``,
  and a plain-text box score;
- ``board(rules)``: the grid a board game is played on (each cell's printed value, paint,
  inside the arc), for a page to draw; ``None`` for a game without one.
- ``sheet_rules(options, version)``, ``sheet(home, away, dice, rules=, neutral=)`` and
  ``replay_frames(events, rules, names)``: the game's own parts, kept in its package next
  to its engine (``sheet`` and ``frames`` modules): a game at the table after the dice
  typed so far (a :class:`simulator.sheets.Sheet`, the one protocol the table reads) and a
  stored game's replay, frame by frame (``None`` for a game without one), with
  ``replay_legend()``, what a fan needs to read its play-by-play.
- ``has_styles``, ``read_style(value)``, ``style_to_json(style)`` and
  ``describe_style(style)``: whether a team brings a coach's style into the game (a team
  file's ``styles.<game>``: the choices the seed leaves a player), read, written and put
  in words; ``read_team`` of such a game returns a :class:`StyledTeam`;
- ``has_odds``, ``odds_read_teams``, ``odds(rules)`` and ``win_probability(...)``: whether
  the game has odds at all, whether they read the teams (VABG's cards: the league's pair
  table), and, for a game whose teams carry nothing into play, the law of one game under
  its rules (:class:`MatchOdds`, exact or simulated with its standard error) and P(home
  wins) before each turn of a played one; the base class answers "no odds" (``None``).

:class:`Result` carries what every game has (both teams, scores, periods or none, the
events, the dice record, the rules and their version); each game's own box score stays
in its package and rides along in :attr:`Side.box` (and the game's own result, when it
has one, in :attr:`Result.native`). A game's fast paths stay inside its package: the
interface only wraps them.
"""

from __future__ import annotations

import importlib
import textwrap
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from simulator.dice import STREAMS, DiceFileError, DiceRecord, DiceSource, ScriptedDice
from simulator.jsonfile import JsonFileError, got, read_json_file, shown
from simulator.styles import StyleError

GAME_MODULES: dict[str, str] = {
    "vabg": "simulator.vabg.game",
    "gridcourt": "simulator.gridcourt.game",
    "sixdice": "simulator.sixdice.game",
}
"""Where each game's :class:`Game` lives; ``vabg`` is the default game."""

DEFAULT_GAME = "vabg"


class UnknownGameError(ValueError):
    """Raise for a game name the simulator does not host; the message lists the names."""


SETTINGS = ("rules", "strategy", "neutral", "options")
"""Every setting a new game may take beside its teams (:meth:`Game.settings`)."""


class InvalidOptionError(ValueError):
    """Raise for a rule option a game does not have or a value it does not allow."""


class InvalidTeamError(ValueError):
    """Raise for a team file a game cannot read; ``problems`` lists every problem."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("bad team file: " + "; ".join(self.problems))


@dataclass(frozen=True, slots=True)
class Option:
    """Describe one rule option: its name, the values it allows and its default."""

    name: str
    choices: tuple[Any, ...]
    default: Any
    help: str = ""


@dataclass(frozen=True, slots=True)
class Column:
    """Describe one box-score column: the key of a line's ``to_json()`` and its header."""

    key: str
    label: str
    title: str = ""
    """The long name (a page's tooltip); empty when the label says it all."""
    rate: bool = False
    """True for a rate (grid court's points per possession), not a count: a sum of it
    over games means nothing."""


@dataclass(frozen=True, slots=True)
class TeamName:
    """Name a team of a game without players: a school and a season are all."""

    school: str
    season: int

    @property
    def label(self) -> str:
        """Return ``"School Season"``."""
        return f"{self.school} {self.season}"


@dataclass(frozen=True, slots=True)
class StyledTeam(TeamName):
    """Name a team of a game without players, with the coach's style it plays (the game's
    own style object; for grid court ``None`` is the rulings' policy)."""

    style: Any = None


def team_name_from_json(data: object) -> TeamName:
    """Read the ``school`` and ``season`` of any JSON team file, ignoring every other key.

    >>> team_name_from_json({"school": "Kansas", "season": 2008, "players": []})
    TeamName(school='Kansas', season=2008)
    """
    if not isinstance(data, dict):
        raise InvalidTeamError(["a team file must be a JSON object"])
    problems = []
    school, season = data.get("school"), data.get("season")
    if not isinstance(school, str) or not school.strip():
        problems.append(f"school: must be a non-empty text, {got(data, 'school')}")
    if isinstance(season, bool) or not isinstance(season, int):
        problems.append(f"season: must be a whole number, {got(data, 'season')}")
    if problems:
        raise InvalidTeamError(problems)
    assert isinstance(school, str) and isinstance(season, int)
    return TeamName(school=school, season=season)


@dataclass(frozen=True, slots=True)
class Side:
    """Hold one team's side of any game's result; ``box`` is the game's own box score."""

    school: str
    season: int
    score: int
    periods: tuple[int, ...] = ()
    """Points by period, for a game that has periods; empty for one that has none."""
    box: Any = None
    """The game's own box score for this team (it has ``to_json()``), or ``None``."""

    @property
    def label(self) -> str:
        """Return ``"School Season"``."""
        return f"{self.school} {self.season}"

    def to_json(self) -> dict[str, Any]:
        """Return ``{"school", "season", "score", ...}`` with the game's own box-score keys."""
        doc: dict[str, Any] = {"school": self.school, "season": self.season, "score": self.score}
        if self.periods:
            doc["periods"] = list(self.periods)
        if self.box is not None:
            doc.update(self.box.to_json())
        return doc


@dataclass(frozen=True, slots=True)
class Result:
    """Hold a played game of any kind: what every game has, the rest in ``box``/``native``."""

    game: str
    home: Side
    away: Side
    events: tuple[Any, ...]
    dice: DiceRecord
    rules: Any
    """The game's rules object; it has ``to_json()``, which names its ``version``."""
    rules_version: int
    native: Any = None
    """The game's own result object when it has one (VABG's ``GameResult``), else ``None``."""
    choices: tuple[str, ...] = ()
    """The choices the sides played by hand made, in the order asked (``Game.has_hands``)."""
    hands: frozenset[str] = frozenset()
    """The sides (``"home"``, ``"away"``) that made their own choices at the table."""
    questions: int = 1
    """The version of the questions a side played by hand was asked
    (:attr:`Game.questions_version`): the one its ``choices`` answer."""

    @property
    def winner(self) -> Side:
        """Return the winning side (no game hosted here ends tied)."""
        return self.home if self.home.score > self.away.score else self.away

    @property
    def loser(self) -> Side:
        """Return the losing side."""
        return self.away if self.winner is self.home else self.home

    def to_json(self) -> dict[str, Any]:
        """Return the ``--json`` object of interchange.md ("Other games"), dice and rules too."""
        return {
            "game": self.game,
            "home": self.home.to_json(),
            "away": self.away.to_json(),
            "events": [e.to_json() for e in self.events],
            "dice": self.dice_to_json(),
            "rules": self.rules.to_json(),
        }

    def dice_to_json(self) -> dict[str, Any]:
        """Return where the dice came from (``DiceRecord.to_json()``) and, for a game played
        by hand, its ``choices``, ``hands`` and the version of the ``questions`` the choices
        answer (absent before versions were kept: 1): all a replay needs, choice for
        choice."""
        dice = self.dice.to_json()
        if self.hands:
            dice["choices"] = list(self.choices)
            dice["hands"] = sorted(self.hands)
            dice["questions"] = self.questions
        return dice


@dataclass(frozen=True, slots=True)
class BoardCell:
    """One cell of a board game's grid, as a page draws it."""

    row: int
    column: int
    value: int
    """The number printed on the cell (a shot from it needs at least this)."""
    paint: bool
    inside: bool
    """Inside the arc (a shot from it is worth 2, else 3)."""


@dataclass(frozen=True, slots=True)
class Board:
    """The grid a board game is played on: ``rows`` x ``width`` cells, row by row."""

    rows: int
    width: int
    cells: tuple[BoardCell, ...]


@dataclass(frozen=True, slots=True)
class MatchOdds:
    """The law of one game before it starts, the same for any two teams.

    ``final`` maps each final score ``(home, away)`` to its probability. ``method`` is
    ``"exact"`` (solved from the dice; ``standard_error`` 0) or ``"simulated"`` (``games``
    seeded games from ``seed``; ``standard_error`` is that of ``p_home_win``).
    """

    p_home_win: float
    final: Mapping[tuple[int, int], float]
    method: str
    standard_error: float = 0.0
    games: int = 0
    seed: int | None = None

    @property
    def p_away_win(self) -> float:
        """Return P(the visitor wins): no game hosted here ends tied."""
        return 1.0 - self.p_home_win

    def law(self, of: str) -> dict[int, float]:
        """Return the law of ``"home"`` score, ``"away"`` score or ``"margin"`` (home - away)."""
        out: dict[int, float] = {}
        for (home, away), p in self.final.items():
            key = home if of == "home" else away if of == "away" else home - away
            out[key] = out.get(key, 0.0) + p
        return dict(sorted(out.items()))

    @property
    def expected_home_pts(self) -> float:
        """Return the home team's expected final score."""
        return sum(h * p for (h, _), p in self.final.items())

    @property
    def expected_away_pts(self) -> float:
        """Return the visitor's expected final score."""
        return sum(a * p for (_, a), p in self.final.items())


class Game(ABC):
    """Describe one game the simulator hosts; subclass it once per game and register it."""

    name: ClassVar[str]
    """The registry name: ``vabg``, ``gridcourt``, ``sixdice``."""
    title: ClassVar[str]
    label: ClassVar[str] = ""
    """The game's name in a list of games (a form's choices): its :attr:`title` unless set."""
    table_note: ClassVar[str] = ""
    """What a player at the table needs to know before the first die (the new-game form)."""
    rules_version: ClassVar[int]
    """The revision of the game's rulings page this engine plays."""
    questions_version: ClassVar[int] = 1
    """The version of the questions a side played by hand is asked (a game that
    :attr:`has_hands`). Not a ruling: what the table asks and what it answers alone
    (a choice that can only lose is no longer asked, say). A game begun under an older
    version is played and replayed with its questions, since its stored choices answer
    them in order (:meth:`play`, :meth:`sheet`)."""
    options: ClassVar[tuple[Option, ...]]
    rules_type: ClassVar[type]
    """The class of the game's rules: :meth:`play` refuses any other."""
    presets: ClassVar[Mapping[str, Any]]
    """Named rule sets; the first is the default."""
    columns: ClassVar[tuple[Column, ...]]
    """The columns of one line of the game's box score (a player, a piece), in order."""
    team_columns: ClassVar[tuple[Column, ...]]
    """The team-only figures of the box score, in order (may be empty)."""
    event_types: ClassVar[tuple[type, ...]]
    """The game's event types; each is a named tuple with ``to_json()``."""
    neutral_matters: ClassVar[bool] = False
    """True when the game has a home advantage that a neutral site removes."""
    dice_streams: ClassVar[tuple[str, ...]] = tuple(STREAMS)
    """The dice the game reads; a dice file for it may hold only these streams."""
    lines_key: ClassVar[str] = "players"
    """Where a box score's ``to_json()`` lists its lines (``columns``); ``name_key`` names one."""
    name_key: ClassVar[str] = "name"

    has_odds: ClassVar[bool] = False
    """True when the game has odds: :meth:`odds`, or (``odds_read_teams``) the league's pair
    table of each pairing's own odds."""
    odds_read_teams: ClassVar[bool] = False
    """True when a game's odds depend on the two teams (VABG's cards); :meth:`odds` then
    answers ``None`` and the odds come from each pairing."""
    live_odds: ClassVar[bool] = False
    """True when :meth:`win_probability` answers for a played game (odds from any point of
    it); False: it answers ``None`` (no odds, or odds before the start only)."""

    def odds(self, rules: Any = None, home: Any = None, away: Any = None) -> MatchOdds | None:
        """Return the law of one game under ``rules`` (default: the first preset) between
        two teams as :meth:`read_team` reads them (their coach's styles; ``None``: a team of
        the default style), or ``None``: the game has no such odds (none at all, they read
        the cards, or none is known for these rules)."""
        return None

    def win_probability(
        self,
        events: Sequence[Mapping[str, Any]],
        rules: Any,
        home: Any = None,
        away: Any = None,
    ) -> list[tuple[int, float]] | None:
        """Return P(home wins) before each turn of a played game, from its stored events:
        ``(index of the event that starts the turn, P)``, the pre-game P first (index -1);
        ``None`` when the game has no such odds."""
        return None

    has_styles: ClassVar[bool] = False
    """True when a team brings a coach's style into the game (the choices its seed leaves a
    player, ``styles.<game>`` of a team file): :meth:`read_style` and the methods after it."""

    def read_style(self, value: object) -> Any:
        """Return the style a team file's ``styles.<game>`` value gives (``None``: the
        default style). Raise :class:`InvalidTeamError` naming every problem."""
        raise InvalidTeamError([f"styles.{self.name}: {self.title} has no coach styles"])

    def style_to_json(self, style: Any) -> Any:
        """Return a style as a team file writes it."""
        raise InvalidTeamError([f"styles.{self.name}: {self.title} has no coach styles"])

    def describe_style(self, style: Any) -> list[tuple[str, str]]:
        """Return each of a style's choices in words: ``(choice, what this team does)``."""
        return []

    def style_parameters(self) -> list[tuple[str, str, str]]:
        """Return what ``styles.<game>`` of a team file accepts: ``(parameter, the values it
        takes, its default as JSON)`` each (``"rulings"`` in place of the object plays the
        rulings' own policy); none for a game without styles."""
        return []

    def side_figures(self, box: Mapping[str, Any]) -> dict[str, int | float]:
        """Return a side's numbers in its stored box score (``to_json()``) by column key (an
        int a count, a float a rate): its lines' totals first (``totals``), then the team's
        own figures; a value that is not a number (JSON's true, a missing key) is left out."""
        out: dict[str, int | float] = {}
        if self.columns:
            totals = box.get("totals") or {}
            for c in self.columns:
                value = totals.get(c.key)
                if isinstance(value, (int, float)) and type(value) is not bool:
                    out[c.key] = value
        for c in self.team_columns:
            value = box.get(c.key)
            if isinstance(value, (int, float)) and type(value) is not bool and c.key not in out:
                out[c.key] = value
        return out

    @property
    def has_players(self) -> bool:
        """True when the box score's lines are a team's players (``lines_key`` "players"
        with ``columns``: VABG's cards); False for a game whose lines are pieces, or that
        has only team figures."""
        return self.lines_key == "players" and bool(self.columns)

    def default_rules(self) -> Any:
        """Return the rules of the first preset."""
        return next(iter(self.presets.values()))

    @abstractmethod
    def make_rules(self, **options: Any) -> Any:
        """Return the rules for these option values (the others at their defaults).

        Raise :class:`InvalidOptionError` naming an unknown option or a bad value.
        """

    @abstractmethod
    def rules_from_json(self, doc: Mapping[str, Any]) -> Any:
        """Return the rules a stored game was played with (the inverse of ``to_json()``)."""

    @abstractmethod
    def read_team(self, data: object) -> Any:
        """Return the game's team input from a parsed JSON team file.

        Raise :class:`InvalidTeamError` listing every problem.
        """

    def read_team_file(self, path: str | Path) -> Any:
        """Read a JSON team file and return :meth:`read_team` of it; errors name the file."""
        path = Path(path)
        try:
            data = read_json_file(path)
        except JsonFileError as exc:
            raise InvalidTeamError([str(exc)]) from exc
        try:
            return self.read_team(data)
        except InvalidTeamError as exc:
            raise InvalidTeamError([f"{path}: {p}" for p in exc.problems]) from exc

    def read_dice(self, data: object) -> ScriptedDice:
        """Return the script of a parsed ``vabg-dice/1`` file that holds only the game's dice
        (a stream of another die is named as such first, whatever its values: "gridcourt
        reads no d8", not "9 is not a face of a d8")."""
        extra = [
            s
            for s in STREAMS
            if isinstance(data, dict) and s not in self.dice_streams and data.get(s)
        ]
        dice = ScriptedDice.from_json(data) if not extra else None
        assert isinstance(data, dict)  # from_json refused anything else
        if extra:
            raise DiceFileError(
                [
                    f"{s}: {self.name} reads no {s}; its dice file holds only "
                    + ", ".join(self.dice_streams)
                    for s in extra
                ]
            )
        assert dice is not None
        return dice

    def play(
        self,
        home: Any,
        away: Any,
        dice: DiceSource,
        rules: Any = None,
        *,
        neutral: bool = False,
        choices: Sequence[str] = (),
        hands: Collection[str] = (),
        questions: int | None = None,
    ) -> Result:
        """Play one game (``away`` is the visitor) with every roll from ``dice``.

        ``rules`` defaults to :meth:`default_rules`; rules of another game are refused
        (:class:`InvalidOptionError`). ``neutral`` matters only to a game with a home
        advantage (:attr:`neutral_matters`). ``hands`` names the sides that made their own
        choices at the table, ``choices`` those choices in the order asked (a game that
        :attr:`has_hands`; a choice the rules forbid raises ``ValueError``), by the
        ``questions`` version they answer (``None``: today's :attr:`questions_version`).
        """
        if rules is None:
            rules = self.default_rules()
        if not isinstance(rules, self.rules_type):
            raise InvalidOptionError(
                f"{self.name} plays {self.rules_type.__name__}, got {type(rules).__name__}"
            )
        if hands or choices:
            if not self.has_hands:
                raise InvalidOptionError(f"{self.title} has no choices made by hand")
            return self.play_by_hand(
                home,
                away,
                dice,
                rules,
                choices=tuple(choices),
                hands=frozenset(hands),
                questions=self.questions_checked(questions),
            )
        return self.play_rules(home, away, dice, rules, neutral=neutral)

    has_hands: ClassVar[bool] = False
    """Whether a side can make its own choices at the table (:meth:`play_by_hand`, the
    ``choices`` and ``hands`` of :meth:`sheet`)."""

    def play_by_hand(
        self,
        home: Any,
        away: Any,
        dice: DiceSource,
        rules: Any,
        *,
        choices: tuple[str, ...],
        hands: frozenset[str],
        questions: int,
    ) -> Result:
        """Play one game whose ``hands`` sides made their own ``choices``, answering the
        ``questions`` of that version (a game that :attr:`has_hands` overrides this)."""
        raise InvalidOptionError(f"{self.title} has no choices made by hand")

    def questions_checked(self, questions: int | None) -> int:
        """Return the questions version ``questions`` (``None``: today's), refused with
        :class:`InvalidOptionError` when this engine does not know it.

        >>> find_game("sixdice").questions_checked(None) == find_game("sixdice").questions_version
        True
        >>> find_game("sixdice").questions_checked(9)
        Traceback (most recent call last):
        ...
        simulator.games.InvalidOptionError: Six dice to 21 has hand questions of versions 1-2, not 9
        """
        if questions is None:
            return self.questions_version
        if (
            isinstance(questions, bool)
            or not isinstance(questions, int)
            or not 1 <= questions <= self.questions_version
        ):
            raise InvalidOptionError(
                f"{self.title} has hand questions of versions 1-{self.questions_version}, "
                f"not {questions!r}"
            )
        return questions

    @abstractmethod
    def play_rules(
        self, home: Any, away: Any, dice: DiceSource, rules: Any, *, neutral: bool
    ) -> Result:
        """Play one game with the game's own rules (:meth:`play` has checked them)."""

    def settings(self) -> tuple[str, ...]:
        """Return the settings a new game, season or tournament of this kind takes beside
        its teams, in the order of :data:`SETTINGS`: ``rules`` (a preset), ``strategy``
        (a coach switch), ``neutral`` (a home court a neutral site removes) and ``options``
        (rule options besides those). The table and the league refuse the others.

        >>> find_game("vabg").settings(), find_game("sixdice").settings()
        (('rules', 'strategy', 'neutral'), ('options',))
        """
        names = {o.name for o in self.options}
        has = {
            "rules": "preset" in names,
            "strategy": "strategy" in names,
            "neutral": self.neutral_matters,
            "options": any(n not in ("preset", "strategy") for n in names),
        }
        return tuple(name for name in SETTINGS if has[name])

    def final_score_problems(self, home: int, away: int) -> list[str]:
        """Say why ``home``-``away`` (untied) cannot be how a game of this kind ends, for a
        score sheet typed in; none by default (VABG: any untied score)."""
        return []

    def board(self, rules: Any) -> Board | None:
        """Return the grid a game with these rules is played on; ``None`` for a game that
        has no board (VABG, six dice)."""
        return None

    # -- each game's own parts: the table's sheet and the replay's frames ----------------
    # A game keeps them in its own package, next to its engine: ``<package>.sheet``
    # (``sheet_rules``, ``open_sheet``) and ``<package>.frames`` (``replay_frames``). The
    # table and the league call these hooks and never name a game's modules.

    def sheet_rules(self, options: Mapping[str, Any], rules_version: int | None = None) -> Any:
        """Return the rules a game at the table plays: its rule ``options`` (as
        :attr:`options` names them) under ``rules_version`` (``None``: today's), so a game
        begun before a ruling changed is played to the end as it began.

        Raise ``ValueError`` saying why for options or a version the engine cannot play.
        """
        rules: Any = self._part("sheet").sheet_rules(self, options, rules_version)
        return rules

    def sheet(
        self,
        home: Any,
        away: Any,
        values: Sequence[int],
        *,
        rules: Any = None,
        neutral: bool = False,
        choices: Sequence[str] = (),
        hands: Collection[str] = (),
        questions: int | None = None,
    ) -> Any:
        """Return the game at the table after the dice ``values`` typed so far, in the
        order rolled: a :class:`simulator.sheets.Sheet` (what die is needed next, whose and
        why, or the choice a side makes; where undo goes back to; the page's state; the
        result once over; typed there, as ``simulator.sheets`` imports this module).

        ``home`` and ``away`` are teams as :meth:`read_team` reads them; ``rules``
        default to :meth:`default_rules`; ``hands`` are the sides that make their own
        ``choices`` (a game that :attr:`has_hands`), answering the ``questions`` of that
        version (``None``: today's). Raise
        :class:`simulator.dice.DieRefused` for a value that is not a face of the die wanted
        there, :class:`simulator.dice.GameOverError` for dice after the end of the game,
        and the ``simulator.sheets`` refusals of a choice.
        """
        extra: dict[str, Any] = {}
        if hands or choices:
            if not self.has_hands:
                raise InvalidOptionError(f"{self.title} has no choices made by hand")
            extra = {
                "choices": tuple(choices),
                "hands": frozenset(hands),
                "questions": self.questions_checked(questions),
            }
        return self._part("sheet").open_sheet(
            self,
            home,
            away,
            tuple(values),
            rules=self.default_rules() if rules is None else rules,
            neutral=neutral,
            **extra,
        )

    def replay_frames(
        self,
        events: Sequence[Mapping[str, Any]],
        rules: Mapping[str, Any],
        names: Mapping[str, str],
    ) -> Any:
        """Return a stored game turn by turn from its events and rules (their
        ``to_json()`` forms; ``names``: each side's name by ``"home"``/``"away"``): an
        object whose ``frames`` are one frame per roll (each with its ``number`` and
        ``notes``, the roll's sentences) with what a page draws them on; ``None`` for a
        game without a replay (VABG: its play-by-play is its score sheet)."""
        try:
            module = self._part("frames")
        except ModuleNotFoundError:
            return None
        return module.replay_frames(self, events, rules, names)

    def replay_legend(self) -> str:
        """Return what a fan needs to read the game's play-by-play (its frames module's
        ``LEGEND``: the dice faces, how a cell reads...); empty for a game without one."""
        try:
            legend: str = getattr(self._part("frames"), "LEGEND", "")
        except ModuleNotFoundError:
            return ""
        return legend

    def _part(self, part: str) -> ModuleType:
        """Return the module ``part`` of the game's own package."""
        package = type(self).__module__.rpartition(".")[0]
        try:
            return importlib.import_module(f"{package}.{part}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{package}.{part}":
                raise ModuleNotFoundError(
                    f"{self.name} has no {part} module ({package}.{part})", name=exc.name
                ) from exc
            raise

    @abstractmethod
    def box_score(self, events: Iterable[Any], rules: Any = None) -> tuple[Any, Any]:
        """Return the game's own ``(home, away)`` box scores rebuilt from its events alone."""

    @abstractmethod
    def event_from_json(self, data: Mapping[str, Any]) -> Any:
        """Return an event from its ``to_json()`` form (a stored play-by-play)."""

    def render(self, result: Result) -> str:
        """Return a plain-text box score: the final score, each team's lines and figures."""
        rules = ", ".join(f"{k} {v}" for k, v in result.rules.to_json().items() if k != "version")
        dice = result.dice.to_json()
        source = f"seed {dice['seed']}" if "seed" in dice else "scripted dice"
        out = [
            f"{result.away.label} {result.away.score}, {result.home.label} {result.home.score}",
            f"{self.title} ({rules}; {source})",
        ]
        for side, where in ((result.away, "visitor"), (result.home, "home")):
            doc = side.box.to_json() if side.box is not None else {}
            out += ["", f"{side.label} ({where}): {side.score}"]
            if self.columns and self.lines_key in doc:
                rows = [[self.name_key.upper(), *(c.label for c in self.columns)]]
                for line in [
                    *doc[self.lines_key],
                    {self.name_key: "Totals", **doc.get("totals", {})},
                ]:
                    rows.append(
                        [str(line.get(self.name_key, ""))]
                        + [str(line.get(c.key, "")) for c in self.columns]
                    )
                widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
                out += [
                    "  "
                    + "  ".join(
                        cell.rjust(w) if i else cell.ljust(w)
                        for i, (cell, w) in enumerate(zip(row, widths, strict=True))
                    )
                    for row in rows
                ]
            figures = [f"{c.label} {doc[c.key]}" for c in self.team_columns if c.key in doc]
            if figures:
                out.append("  " + ", ".join(figures))
        # What each short column name means, as the pages' headers say it on hover.
        key: dict[str, str] = {}
        for column in (*self.columns, *self.team_columns):
            if column.title and column.label not in key:
                key[column.label] = column.title
        if key:
            legend = "Key: " + "; ".join(f"{label} {title}" for label, title in key.items())
            out += ["", textwrap.fill(legend, 100, subsequent_indent="  ", break_on_hyphens=False)]
        return "\n".join(out)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return every option's value, defaults filled in; refuse unknown names and values."""
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise InvalidOptionError(
                f"{self.name} has no option {unknown[0]!r}: its options are "
                + (", ".join(known) or "none")
            )
        values = {}
        for name, option in known.items():
            value = options.get(name, option.default)
            if value not in option.choices or type(value) is not type(option.default):
                allowed = ", ".join(shown(c) for c in option.choices)
                raise InvalidOptionError(
                    f"{self.name} option {name} must be one of {allowed}, got {shown(value)}"
                )
            values[name] = value
        return values


_REGISTRY: dict[str, Game] = {}


def race_problems(
    title: str, target: int, home: int, away: int, *, may_end_short: bool
) -> list[str]:
    """Say why an untied score cannot end a game to ``target`` that the basket (or free
    throw) reaching it ends, a basket worth at most 3: the loser has at most ``target`` - 1,
    the winner at most ``target`` + 2, and at least ``target`` unless the game may end short
    of it.

    >>> race_problems("Six dice to 21", 21, 5, 3, may_end_short=False)
    ['a Six dice to 21 game is played to 21: the winner has 5']
    >>> race_problems("Grid court", 21, 23, 21, may_end_short=True)
    ['a Grid court game ends once a team reaches 21: the loser cannot have 21']
    """
    low, high = sorted((home, away))
    problems = []
    if low >= target:
        problems.append(
            f"a {title} game ends once a team reaches {target}: the loser cannot have {low}"
        )
    if high > target + 2:
        problems.append(
            f"a {title} game ends on the basket that reaches {target}, worth 3 at most: "
            f"the winner has {target + 2} at most, not {high}"
        )
    if high < target and not may_end_short:
        problems.append(f"a {title} game is played to {target}: the winner has {high}")
    return problems


class StyledGame(Game):
    """A game whose teams bring a coach's style (grid court, six dice): the style methods of
    the interface, read through the game's ``style`` module (``style_from_team``,
    ``style_to_json``, ``describe_style``; errors as :class:`simulator.styles.StyleError`)."""

    has_styles: ClassVar[bool] = True
    style_module: ClassVar[ModuleType]

    def read_style(self, value: object) -> Any:
        """Return the style of a team file's ``styles.<game>`` value."""
        return self._style_of({"styles": {self.name: value}})

    def style_to_json(self, style: Any) -> Any:
        """Return a style as a team file writes it."""
        return self.style_module.style_to_json(style)

    def describe_style(self, style: Any) -> list[tuple[str, str]]:
        """Return each of a style's choices in words."""
        described: list[tuple[str, str]] = self.style_module.describe_style(style)
        return described

    def style_parameters(self) -> list[tuple[str, str, str]]:
        """Return each parameter of the game's style, the values it takes and its default."""
        parameters: list[tuple[str, str, str]] = self.style_module.style_parameters()
        return parameters

    def read_team(self, data: object) -> StyledTeam:
        """Return the ``school``, ``season`` and style (``styles.<game>``: the game's default
        style when absent) of any JSON team file."""
        name = team_name_from_json(data)
        return StyledTeam(name.school, name.season, self._style_of(data))

    def _style_of(self, data: object) -> Any:
        try:
            return self.style_module.style_from_team(data)
        except StyleError as exc:
            raise InvalidTeamError(list(exc.problems)) from exc


def register(game: Game) -> Game:
    """Add a game to the registry (a game's ``game`` module calls this once) and return it."""
    if game.name in _REGISTRY and type(_REGISTRY[game.name]) is not type(game):
        raise ValueError(f"a game named {game.name!r} is already registered")
    _REGISTRY[game.name] = game
    return game


def game_names() -> tuple[str, ...]:
    """Return the names of the games the simulator knows, the default first."""
    return tuple(GAME_MODULES)


def game_choices() -> list[tuple[str, str]]:
    """Return ``(name, label)`` of every game, the default first: the choices of a form, a
    serializer or a model field that names a game (a game added to :data:`GAME_MODULES`
    is offered everywhere with no other change)."""
    return [(name, find_game(name).label or find_game(name).title) for name in game_names()]


def find_game(name: str) -> Game:
    """Return the registered game called ``name``; raise :class:`UnknownGameError` if none.

    >>> find_game("chess")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    simulator.games.UnknownGameError: no game named 'chess': use vabg, gridcourt or sixdice
    """
    game = _REGISTRY.get(name)
    if game is not None:
        return game
    module = GAME_MODULES.get(name)
    if module is not None:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name is None or not module.startswith(exc.name):
                raise  # the game's module is there but imports something missing
    if name not in _REGISTRY:
        names = list(GAME_MODULES)
        raise UnknownGameError(
            f"no game named {name!r}: use {', '.join(names[:-1])} or {names[-1]}"
        )
    return _REGISTRY[name]
