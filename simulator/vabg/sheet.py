"""Play a VABG game at the table, one die at a time: the live score sheet (docs/table.md).

At the table the dice are rolled in the order vabg-rulings.md §11 fixes (d8, d6 tens,
d6 ones, d20 for every trip, then each further roll only when the rules need it) and
written down as one list of values. The game so far is those values: :func:`replay` plays
the engine's own game over them through an :class:`~simulator.dice.OrderedDice` and stops
where the engine asks for a die the list does not have yet. The :class:`Position` it
returns holds the events so far, the score, every roll with what it was for, and the
:class:`Need`: which die the engine wants next and why ("rebound: d20, then d6").

Nothing is re-implemented: the engine's :class:`~simulator.vabg.engine.GameState` plays the
game; its ``trip=`` and ``fouling_trip=`` callbacks (the seam :mod:`simulator.vabg.odds`
uses) only note where each trip starts and play it on, and
what a die is for is read from the events emitted before it and the dice drawn since. A
finished game is played once more by :func:`~simulator.vabg.engine.play_game` over the
same dice, split into the ``vabg-dice/1`` streams, so its result is exactly the engine's.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simulator.dice import (
    STREAMS,
    DiceScriptExhausted,
    DieRefused,
    GameOverError,
    OrderedDice,
    ScriptedDice,
)
from simulator.games import Game, Result
from simulator.results import GameResult
from simulator.sheets import PositionSheet
from simulator.vabg.cards import TeamCard
from simulator.vabg.coaching import Coach
from simulator.vabg.coachodds import CoachLiveOdds
from simulator.vabg.engine import (
    REGULATION,
    GameState,
    Player,
    Side,
    play_game,
    rules_coach,
)
from simulator.vabg.events import (
    AWAY,
    HOME,
    Block,
    Event,
    Foul,
    FreeThrow,
    Opening,
    PeriodEnd,
    Rebound,
    Shot,
    Steal,
    Trip,
    TripKind,
    Turnover,
    box_score,
)
from simulator.vabg.liveodds import LiveOdds
from simulator.vabg.render import describe
from simulator.vabg.rules import (
    ADVANCED,
    BEST_REBOUNDER,
    REBOUND_CHART,
    RULES_VERSION,
    CoachKind,
    GameRules,
    dunk_row,
    effective_dunk_top,
    free_throw_rebounder,
    odd_number_rebounder,
    preset,
)
from simulator.vabg.tables import RollKind, roll_kind

if TYPE_CHECKING:
    from simulator.vabg.game import VabgGame

SLOT_NAMES = ("PG", "SG", "SF", "PF", "C")


@dataclass(frozen=True, slots=True)
class Need:
    """The die the engine wants next, and what for.

    ``step`` is short ("d6 tens", "rebound d20", "free throw 2 of 2"); ``why`` says it in a
    sentence, naming the player and what comes after ("rebound: d20, then d6"). ``period``,
    ``number`` and ``team`` (``"home"``/``"away"``, the side with the ball) place the roll on
    the score sheet; ``trip_start`` is true for the d8 that starts a trip (not a re-roll).
    """

    die: str
    faces: int
    step: str
    why: str
    period: int
    number: int
    team: str
    trip_start: bool
    index: int

    def to_json(self) -> dict[str, Any]:
        """Return the need as a JSON-ready dict."""
        return {
            "die": self.die,
            "faces": self.faces,
            "step": self.step,
            "why": self.why,
            "period": self.period,
            "number": self.number,
            "team": self.team,
            "trip_start": self.trip_start,
            "index": self.index,
        }


@dataclass(frozen=True, slots=True)
class Roll:
    """One die as entered: its value, which die it was and what it was for."""

    die: str
    value: int
    step: str
    trip: int
    """The index of the trip it belongs to in :attr:`Position.trips`."""


@dataclass(frozen=True, slots=True)
class TripStart:
    """Where a trip began: the engine called its trip here.

    ``index`` counts the trips of ``period`` before this one (re-rolls and extra
    possessions included: they are trips the engine plays); ``first_event`` and
    ``first_roll`` are where its events and dice start; ``home`` and ``away`` the score
    when it began.
    """

    period: int
    number: int
    team: str
    kind: str
    index: int
    first_event: int
    first_roll: int
    home: int
    away: int


@dataclass(frozen=True, slots=True)
class Play:
    """One trip as the table sees it: the dice rolled for it and the events they made."""

    trip: TripStart
    rolls: tuple[Roll, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Position:
    """A game at the table after the dice entered so far."""

    home_card: TeamCard
    away_card: TeamCard
    rules: GameRules
    neutral: bool
    rolls: tuple[Roll, ...]
    events: tuple[Event, ...]
    trips: tuple[TripStart, ...]
    home_score: int
    away_score: int
    need: Need | None
    result: GameResult | None
    rotation: dict[str, tuple[tuple[str, ...], ...]]
    """Per side, the five on the floor (slot 1 first) for each regulation number, 44 first."""
    starters: dict[str, tuple[str, ...]]

    @property
    def finished(self) -> bool:
        """Tell whether the game is over (then :attr:`result` is the engine's result)."""
        return self.result is not None

    @property
    def values(self) -> tuple[int, ...]:
        """Return the dice entered, in order."""
        return tuple(r.value for r in self.rolls)

    def dice_file(self) -> dict[str, Any]:
        """Return the ``vabg-dice/1`` document of the dice rolled so far."""
        script: dict[str, list[int]] = {name: [] for name in STREAMS}
        for roll in self.rolls:
            script[roll.die].append(roll.value)
        return {"format": "vabg-dice/1", **script}

    def plays(self) -> list[Play]:
        """Return the game trip by trip: each trip's dice and its events.

        A substitution (``Enter``) is given to the trip it comes before; every other event
        to the trip that made it.
        """
        out: list[Play] = []
        events = self.events
        bounds = [t.first_event for t in self.trips] + [len(events)]
        moved: list[Event] = []
        by_trip: list[list[Roll]] = [[] for _ in self.trips]
        for roll in self.rolls:
            if 0 <= roll.trip < len(by_trip):
                by_trip[roll.trip].append(roll)
        for i, trip in enumerate(self.trips):
            chunk = list(events[bounds[i] : bounds[i + 1]])
            mine = moved + [e for e in chunk if type(e).__name__ != "Enter"]
            moved = [e for e in chunk if type(e).__name__ == "Enter"]
            out.append(Play(trip, tuple(by_trip[i]), tuple(mine)))
        return out

    def last_trip_start(self) -> int:
        """Return how many dice were entered before the current (or last) trip began;
        undoing a trip goes back to there."""
        if self.need is not None and self.need.trip_start:
            starts = [t for t in self.trips if t.kind != "reroll"]
            if len(starts) >= 2:
                return starts[-2].first_roll
            return 0
        for trip in reversed(self.trips):
            if trip.kind != "reroll":
                return trip.first_roll
        return 0


class _TableDice(OrderedDice):
    """The entered values, read as the game asks; each roll's purpose noted as it is drawn."""

    __slots__ = ("need", "purpose", "steps")

    def __init__(self, values: Sequence[int], purpose: Callable[[str, int], Need]) -> None:
        super().__init__(values)
        self.purpose = purpose
        self.steps: list[str] = []  # what each roll was for
        self.need: Need | None = None

    def _next(self, die: str) -> int:
        need = self.purpose(die, len(self.draws))
        index = len(self.draws)
        if index >= len(self._values):
            self.need = need
            return super()._next(die)  # raises DiceScriptExhausted
        value = self._values[index]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= need.faces:
            raise DieRefused(index, value, need)
        self.steps.append(need.step)
        return super()._next(die)


class _Table:
    """One replay: the engine's game, its dice, and where each trip began."""

    def __init__(
        self,
        home: TeamCard,
        away: TeamCard,
        values: Sequence[int],
        rules: GameRules,
        neutral: bool,
        coach: Coach,
    ) -> None:
        self.dice = _TableDice(values, self.purpose)
        self.trips: list[TripStart] = []
        self.roll_trip: list[int] = []
        self.dice_marks: list[int] = []
        self._in_period: dict[int, int] = {}  # trips started in each period

        def on_trip(off: Side, de: Side, n: int, kind: TripKind = TripKind.PLAIN) -> None:
            self._start(off, n, kind)
            game.play_trip(off, de, n, kind)

        def on_fouling_trip(off: Side, de: Side, n: int, kind: TripKind = TripKind.FOUL) -> None:
            self._start(off, n, kind)
            game.play_fouling_trip(off, de, n, kind)

        self.game = game = GameState(
            home, away, self.dice, rules, neutral, {HOME: None, AWAY: None}, coach,
            trip=on_trip, fouling_trip=on_fouling_trip,
        )  # fmt: skip

    def _start(self, off: Side, n: int, kind: str) -> None:
        game = self.game
        index = self._in_period.get(game.period, 0)
        self._in_period[game.period] = index + 1
        self.trips.append(
            TripStart(
                game.period,
                n,
                off.key,
                kind,
                index,
                len(game.events),
                len(self.dice.draws),
                game.home.score,
                game.away.score,
            )
        )

    # -- what a die is for ------------------------------------------------------------------

    def purpose(self, die: str, index: int) -> Need:
        """Return the need for the die the engine is asking for now."""
        game = self.game
        events = game.events
        draws = self.dice.draws
        self.roll_trip.append(len(self.trips) - 1)
        self.dice_marks.append(len(events))
        # The dice drawn since the last event: a trip's four, or a rebound's d20. The marks
        # only grow (events are never taken back in a replay), so they are the last draws
        # whose mark is the number of events now: read backwards, not the whole game again.
        marks, now = self.dice_marks, len(events)
        first = len(draws)
        while first and marks[first - 1] == now:
            first -= 1
        since = [d for d, _ in draws[first:]]
        last = events[-1] if events else None
        trip = self.trips[-1] if self.trips else None
        team = trip.team if trip else AWAY
        period = trip.period if trip else 0
        number = trip.number if trip else REGULATION
        labels = {HOME: game.home.team.label, AWAY: game.away.team.label}

        def need(step: str, why: str, start: bool = False, side: str = team) -> Need:
            return Need(die, STREAMS[die], step, why, period, number, side, start, index)

        if die == "d8":
            off = game.home if team == HOME else game.away
            if isinstance(last, Trip) and last.player is None and not since:
                if (
                    trip is not None
                    and trip.kind == "reroll"
                    and not game.rules.fouled_reroll_turnover
                ):
                    # Before rules version 4 a trip fouled on purpose re-rolled as one:
                    # 6-8 went as on its first d8, and only nobody again turned over.
                    holders = _ball_holders(off, nobody="a team turnover")
                else:
                    holders = _ball_holders(off, reroll=True)
                return need(
                    "shot-clock re-roll d8",
                    f"shot clock: nobody took the ball on the d8 of {last.d8}; roll all four "
                    f"again: d8 ({holders}), then d6 tens, d6 ones, d20",
                )
            where = _number_label(period, number, trip.kind if trip else "")
            what = f"{labels[team]} ball, possession {where}"
            if trip is not None and trip.kind == "foul":
                other = labels[AWAY if team == HOME else HOME]
                what += f" ({other} fouls on purpose)"
            return need(
                "d8",
                f"{what}: d8 (who gets the ball: {_ball_holders(off)}), then d6 tens, d6 ones, d20",
                start=True,
            )
        after_reroll = isinstance(last, Trip) and last.player is None
        prefix = "re-roll " if after_reroll else ""
        if die == "d6" and since == ["d8"]:
            return need(f"{prefix}d6 tens", "11-66 roll: d6 tens (then the d6 ones, then the d20)")
        if die == "d6" and since == ["d8", "d6"]:
            return need(f"{prefix}d6 ones", "11-66 roll: d6 ones (then the d20)")
        if die == "d20" and since == ["d8", "d6", "d6"]:
            carrier = self._carrier(team, draws[-3][1], after_reroll, trip)
            if carrier is None:
                return need(
                    f"{prefix}d20",
                    "the carrier's d20 (read when the 11-66 roll leaves it to the card)",
                )
            roll = 10 * draws[-2][1] + draws[-1][1]
            return need(
                f"{prefix}d20",
                f"d20 for {carrier.name}{_tired(carrier)}: " + self._roll_read(team, carrier, roll),
            )
        if die == "d6" and since == ["d20"]:
            return self._rebound_d6(need, draws[-1][1])
        if die == "d20" and not since:
            found = self._d20_need(need, labels)
            if found is not None:
                return found
        return need(die, f"the engine asks for a {die}")

    def _roll_read(self, team: str, carrier: Player, roll: int) -> str:
        """Say what the trip's 11-66 ``roll`` leaves to the carrier's d20 (§3, §5): rolled
        with the others on every trip, it is read by his card unless the roll decides the
        trip first."""
        de = self.game.away if team == HOME else self.game.home
        off = self.game.home if team == HOME else self.game.away
        defender = de.lineup[off.lineup.index(carrier)]
        kind = roll_kind(roll, effective_dunk_top(carrier.dunk_top, defender.dunk_adjust))
        return {
            RollKind.STEAL_TRY: f"{roll} is a steal try (if no defender's range holds it, "
            "his card reads this die)",
            RollKind.BLOCK_TRY: f"{roll} is a block try (if no defender's range holds it, "
            "his card reads this die)",
            RollKind.FOUL_TRY: f"{roll} is a foul try (fouled, this die is his shot's; else "
            "his card reads it)",
            RollKind.TURNOVER_TRY: f"{roll} is a turnover try (if his range does not hold it, "
            "his card reads this die)",
            RollKind.DUNK: f"{roll} is a dunk (this die only tells whether his card makes it a 3)",
            RollKind.STOP: f"{roll} is a stop (this die is rolled with the others, not read)",
            RollKind.NOTHING: f"{roll}: his card reads this die",
        }[kind]

    def _carrier(self, team: str, d8: int, reroll: bool, trip: TripStart | None) -> Player | None:
        """Return who carries the ball on this d8 (§4), whose d20 is read; ``None`` when
        nobody takes it, or on a trip fouled on purpose (its d20 is not read)."""
        if trip is None or trip.kind in ("foul", "reroll"):
            return None  # a fouling trip (or its re-roll, also a trip of the engine's)
        off = self.game.home if team == HOME else self.game.away
        if d8 <= 5:
            return off.lineup[d8 - 1]
        idx = None if reroll else off.carriers[d8]
        return None if idx is None else off.lineup[idx]

    def _player(self, name: str) -> Player | None:
        for side in (self.game.home, self.game.away):
            for p in side.players:
                if p.name == name:
                    return p
        return None

    def _d20_need(self, need: Callable[..., Need], labels: dict[str, str]) -> Need | None:
        events = self.game.events
        last = events[-1]
        if isinstance(last, Foul) and last.shots:
            if last.kind == "one-and-one":  # a second only if this one is made
                what = "the first free throw of a one-and-one (made: a second)"
            else:
                what = f"free throw 1 of {1 if last.kind == 'and-one' else last.shots}"
            return need(
                "free throw 1",
                f"{what}: d20 for {last.fouled}{self._ft_range(last.fouled)}",
            )
        if isinstance(last, FreeThrow):
            foul = next(e for e in reversed(events) if isinstance(e, Foul))
            taken = 0
            for e in reversed(events):
                if not isinstance(e, FreeThrow):
                    break
                taken += 1
            more = (
                (foul.kind == "one-and-one" and taken == 1 and last.made)
                or (foul.kind not in ("and-one", "one-and-one") and taken < foul.shots)
            ) and foul.fouled == last.player
            if more:
                total = 2 if foul.kind == "one-and-one" else foul.shots
                what = (
                    "the second free throw of the one-and-one"
                    if foul.kind == "one-and-one"
                    else f"free throw {taken + 1} of {total}"
                )
                return need(
                    f"free throw {taken + 1}",
                    f"{what}: d20 for {last.player}{self._ft_range(last.player)}",
                )
            return need(
                "rebound d20",
                "rebound of a missed free throw: d20 (6-9 the defensive PF, 16-19 the "
                "defensive C, no d6 check), then d6",
            )
        if isinstance(last, Shot) and not last.made:
            return need("rebound d20", "rebound: d20 (1-9 the offense first, 11-19 the defense, "
                        "10 or 20 the best rebounder), then d6")  # fmt: skip
        if isinstance(last, Rebound) and last.offensive:
            return need(
                "putback d20",
                f"putback: d20 for {last.player}{_tired(self._player(last.player))}, on his "
                "card (no 11-66 roll: no turnover possible)",
            )
        if isinstance(last, Turnover) and len(events) >= 2:
            steal = events[-2]
            if isinstance(steal, Steal) and steal.fast_break:
                return need(
                    "fast break d20",
                    f"fast break: d20 for {steal.player}{_tired(self._player(steal.player))}, "
                    f"on his card, a bonus shot for {labels[steal.team]}",
                    side=steal.team,
                )
        return None

    def _ft_range(self, name: str) -> str:
        """Return " (tired: +1), made on 1-13" and the like for a free-throw shooter."""
        p = self._player(name)
        if p is None:
            return ""
        if not p.ft_top:
            return f"{_tired(p)}, never made"
        if p.tired:  # his d20 reads one higher: made on one number fewer (§2)
            return f"{_tired(p)}, made on 1-{p.ft_reach} (his card's 1-{p.ft_top})"
        return f", made on 1-{p.ft_top}"

    def _rebound_d6(self, need: Callable[..., Need], d20: int) -> Need:
        events = self.game.events
        last = events[-1]
        free_throw = isinstance(last, FreeThrow)
        shooter_team = getattr(last, "team", HOME)
        off = self.game.home if shooter_team == HOME else self.game.away
        de = self.game.away if off is self.game.home else self.game.home
        if d20 in (10, 20):
            why = f"rebound: d6 (rolled, not read: the d20 of {d20} gives the ball to the best "
            why += "rebounder on the floor)"
        elif free_throw and (given := free_throw_rebounder(d20)) is not None:
            who = SLOT_NAMES[given]
            why = f"rebound: d6 (rolled, not read: the d20 of {d20} gives the defensive {who} "
            why += "the missed free throw)"
        elif d20 < 10:
            p = off.lineup[REBOUND_CHART[d20]]
            why = (
                f"rebound: d6, {p.name}'s chance: 1-{p.off_reb} his offensive rebound, "
                "otherwise the defender in his slot's"
            )
        else:
            p = de.lineup[REBOUND_CHART[d20 - 10]]
            why = (
                f"rebound: d6, {p.name}'s chance: 1-{p.def_reb} his defensive rebound, "
                "otherwise the opponent in his slot's"
            )
        return need("rebound d6", why)


def period_name(period: int) -> str:
    """Return a period as the table names it, as ``Final (2OT)`` does: ``regulation``,
    ``OT``, ``2OT``, ``3OT``..."""
    if period == 0:
        return "regulation"
    return "OT" if period == 1 else f"{period}OT"


def _tired(player: Player | None) -> str:
    """Return " (tired: +1)" for a tired player (§2: his d20 reads one higher), else ""."""
    return " (tired: +1)" if player is not None and player.tired else ""


def _ball_holders(off: Any, *, reroll: bool = False, nobody: str = "shot clock") -> str:
    """Say who takes the ball on each d8 in the lineup on the floor now (§4): 1-5 the
    slots, 6-8 whoever the lineup gives the number to (the engine's own ``carriers``), or
    nobody (``nobody`` says what follows). A plain trip's shot-clock re-roll gives 6-8 to
    nobody: a team turnover."""
    lineup = off.lineup
    words = [f"{d} {lineup[d - 1].name}" for d in range(1, 6)]
    if reroll:
        return ", ".join(words) + "; 6-8 a team turnover"
    held = [(d, off.carriers[d]) for d in (6, 7, 8)]
    words += [f"{d} {lineup[i].name}" for d, i in held if i is not None]
    missing = [str(d) for d, i in held if i is None]
    if missing:
        words.append(f"{'/'.join(missing)} nobody ({nobody})")
    return ", ".join(words)


def _number_label(period: int, number: int, kind: str = "") -> str:
    """Return a possession number as the score sheet writes it: 44, 2a, OT 10, 2OT 1."""
    text = f"{number}a" if kind in ("extra", "foul") else str(number)
    if period == 0:
        return text
    return f"{period_name(period)} {text}"


def number_label(period: int, number: int, kind: str = "") -> str:
    """Return a possession number as the score sheet writes it: ``44``, ``2a``, ``OT 10``,
    ``2OT 1`` (the overtime first, as ``Final (2OT)`` names it)."""
    return _number_label(period, number, kind)


def period_end_line(event: PeriodEnd, labels: Mapping[str, str]) -> str:
    """Return the play-by-play's line for the end of a period: a tie goes on to the next
    overtime; any other score ends the game (the final score, the winner first)."""
    away, home = labels["away"], labels["home"]
    if event.home == event.away:
        return (
            f"End of {period_name(event.period)}: tied {event.away}-{event.home}, "
            f"{period_name(event.period + 1)} next."
        )
    ot = "" if event.period == 0 else f" ({period_name(event.period)})"
    return f"Game over{ot}: {away} {event.away}, {home} {event.home}."


def replay(
    home: TeamCard,
    away: TeamCard,
    values: Sequence[int],
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = False,
    coach: Coach | None = None,
) -> Position:
    """Play the game over the values entered so far and return where it stands.

    With the strategy choices on, ``coach`` makes them (without one, the rules' coach,
    solved here: a caller replaying one game die after die passes it solved once).

    Raise :class:`DieRefused` for a value that is not a face of the die the game asks for
    there, :class:`GameOverError` for values past the end of the game, and the engine's
    own errors (an ``EndlessGameError``, a ``RotationError``) as they come.
    """
    if coach is None:
        coach = rules_coach(home, away, rules=rules, neutral=neutral)
    table = _Table(home, away, values, rules, neutral, coach)
    game = table.game
    result: GameResult | None = None
    need: Need | None = None
    try:
        game.play()
    except DiceScriptExhausted:
        need = table.dice.need
        assert need is not None, "the exhausted die was noted before it was asked for"
    if need is None:
        if table.dice.unused:
            raise GameOverError(len(table.dice.draws), table.dice.unused)
        script = table.dice.record().script or {}
        result = play_game(
            home, away, ScriptedDice(**script), rules=rules, neutral=neutral, coach=coach
        )
        assert list(result.events) == game.events, "the engine replays its own dice the same"
    rolls = tuple(
        Roll(die, value, table.dice.steps[i], table.roll_trip[i])
        for i, (die, value) in enumerate(table.dice.draws)
    )
    rotation = {
        side.key: tuple(tuple(p.name for p in lineup) for lineup in side.rotation)
        for side in (game.home, game.away)
    }
    starters = {side.key: tuple(p.name for p in side.starters) for side in (game.home, game.away)}
    return Position(
        home_card=home,
        away_card=away,
        rules=rules,
        neutral=neutral,
        rolls=rolls,
        events=tuple(game.events),
        trips=tuple(table.trips),
        home_score=game.home.score,
        away_score=game.away.score,
        need=need,
        result=result,
        rotation=rotation,
        starters=starters,
    )


# -- the score sheet -------------------------------------------------------------------------


def tired_by_number(position: Position) -> dict[str, list[frozenset[str]]]:
    """Return, per side, who is tired at each number of the sheet (44..1, then each
    overtime's played or under way): §2, a player who has played more possessions than
    his card's "can play N of 44" is tired from possession N+1 of his own count on.

    Counted as the engine counts them, from the rotation (each number the five on the
    floor, a player listed twice in a five counting twice) and in overtime the starters,
    the count running on from regulation; the engine's own reading (``Player.tired``) is
    the same at every trip (the tests check it). Empty sets when the rules have no tired
    players (basic).
    """
    periods = max((t.period for t in position.trips), default=0)
    ot = position.rules.overtime_possessions * periods
    out: dict[str, list[frozenset[str]]] = {}
    for side, card in ((AWAY, position.away_card), (HOME, position.home_card)):
        fives = [*position.rotation[side], *([position.starters[side]] * ot)]
        if not position.rules.tired_players:
            out[side] = [frozenset()] * len(fives)
            continue
        can_play = {p.name: p.can_play for p in card.players}
        count = dict.fromkeys(can_play, 0)
        tired: set[str] = set()
        columns = []
        for five in fives:
            for name in five:
                count[name] += 1
                if count[name] > can_play[name]:
                    tired.add(name)
            columns.append(frozenset(tired))
        out[side] = columns
    return out


def score_sheet(position: Position) -> dict[str, Any]:
    """Return the score sheet laid out like the printed one, as JSON-ready data.

    For each side: the possession numbers in order (44..1, then each overtime's), with the
    points scored on each and the running score; and one row per player, reserves above
    the starter of their slot as the cards are stacked, with the 20-20 opening credit,
    and per number whether he is on the floor, his points and his fouls.
    """
    rules = position.rules
    ot_length = rules.overtime_possessions
    periods = max((t.period for t in position.trips), default=0)
    numbers: list[tuple[int, int]] = [(0, n) for n in range(REGULATION, 0, -1)]
    for period in range(1, periods + 1):
        numbers += [(period, n) for n in range(ot_length, 0, -1)]
    column = {key: i for i, key in enumerate(numbers)}
    current = None
    if position.need is not None:
        current = (position.need.period, position.need.number)
    numbers_json = [{"period": p, "number": n, "label": _number_label(p, n)} for p, n in numbers]
    tired = tired_by_number(position)
    sheet: dict[str, Any] = {
        "numbers": numbers_json,
        "current": None if current is None else column.get(current),
    }
    for side, card in ((AWAY, position.away_card), (HOME, position.home_card)):
        pts = [0] * len(numbers)
        played = [False] * len(numbers)
        rows: dict[str, dict[str, Any]] = {}
        order = sorted(card.players, key=lambda p: (p.slot, p.is_starter, card.players.index(p)))
        for p in order:
            rows[p.name] = {
                "name": p.name,
                "slot": p.slot,
                "position": SLOT_NAMES[p.slot - 1],
                "starter": p.is_starter,
                "opening": 0,
                "pts": 0,
                "pf": 0,
                "can_play": p.can_play,
                "tired_from": None,
                "cells": [
                    {"on": False, "pts": 0, "pf": 0, "ball": False, "tired": False} for _ in numbers
                ],
            }
        for i, five in enumerate(position.rotation[side]):
            for name in five:
                rows[name]["cells"][i]["on"] = True
        for period in range(1, periods + 1):
            for n in range(ot_length, 0, -1):
                for name in position.starters[side]:
                    rows[name]["cells"][column[(period, n)]]["on"] = True
        for i, names in enumerate(tired[side]):
            for name in names:
                cell = rows[name]["cells"][i]
                if cell["on"]:
                    cell["tired"] = True
                    if rows[name]["tired_from"] is None:
                        rows[name]["tired_from"] = numbers_json[i]["label"]
        for e in position.events:
            if isinstance(e, Opening):
                if e.team == side:
                    rows[e.player]["opening"] = e.pts
                    rows[e.player]["pts"] += e.pts
                    rows[e.player]["pf"] += e.pf
                continue
            if getattr(e, "team", None) != side or not hasattr(e, "number"):
                continue
            at = column.get((e.period, e.number))  # type: ignore[union-attr]
            if at is None:
                continue
            if isinstance(e, Trip):
                played[at] = True
                if e.player is not None:
                    rows[e.player]["cells"][at]["ball"] = True
            elif isinstance(e, Shot | FreeThrow) and e.made:
                value = e.value if isinstance(e, Shot) else 1
                pts[at] += value
                rows[e.player]["pts"] += value
                rows[e.player]["cells"][at]["pts"] += value
            elif isinstance(e, Foul):
                rows[e.player]["pf"] += 1
                rows[e.player]["cells"][at]["pf"] += 1
            elif isinstance(e, Block | Steal):
                pass
        running = 20
        cells = []
        for i in range(len(numbers)):
            running += pts[i]
            cells.append({"pts": pts[i], "score": running, "played": played[i]})
        sheet[side] = {
            "label": card.label,
            "dunk_top": card.dunk_top,
            "dunk_adjust": card.dunk_adjust,
            "versus": _versus(
                card,
                position.home_card if side == AWAY else position.away_card,
                rules.dunk_steal_turnover_changes,
            ),
            "score": position.home_score if side == HOME else position.away_score,
            "numbers": cells,
            "players": list(rows.values()),
        }
    odd = {n: odd_number_rebounder(n) for n in range(REGULATION - 1, 2, -2)}
    sheet["rebounds"] = {
        str(n): "best" if who == BEST_REBOUNDER else SLOT_NAMES[who] for n, who in odd.items()
    }
    return sheet


def _rolls(rolls: Sequence[int]) -> str:
    """Return 11-66 rolls as runs: "51-54", "51-56, 61-62"."""
    runs: list[list[int]] = []
    for roll in rolls:
        if runs and roll == runs[-1][-1] + 1:  # 56 and 61 apart: two runs
            runs[-1].append(roll)
        else:
            runs.append([roll])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in runs)


def _versus(card: TeamCard, other: TeamCard, changes: bool) -> str:
    """Say what a team's 51-66 rolls do against ``other`` (§3), as the rulebook has the
    score sheet's top say it: the effective dunk top (its top plus the other's adjust),
    the dunks and stops it gives, and the steal and turnover changes (advanced rules).
    A player whose card has a top or adjust of his own differs; the team's are shown."""
    x = effective_dunk_top(card.dunk_top, other.dunk_adjust)
    row = dunk_row(x)
    said = [f"Against {other.label} (adjust {other.dunk_adjust:+d}): dunk top {x}"]
    said.append(f"dunks on {_rolls(row.dunks)}" if row.dunks else "no dunks")
    if row.stops:
        said.append(f"stopped on {_rolls(row.stops)}")
    if changes and (row.steals or row.turnovers):
        said.append(
            f"{other.label}'s steal ranges {row.steals:+d}, own turnover ranges {row.turnovers:+d}"
        )
    return "; ".join(said)


# -- the table's sheet (``Game.sheet``: the protocol of ``simulator.sheets``) ----------------

_KEPT = 32
"""Games whose solved coach and live odds stay in memory (about 4 ms to build one)."""
_COACHES: OrderedDict[str, Coach] = OrderedDict()
_ODDS: OrderedDict[str, LiveOdds | CoachLiveOdds] = OrderedDict()
_LOCK = threading.Lock()


def _key(home: TeamCard, away: TeamCard, rules: GameRules, neutral: bool) -> str:
    doc = [home.to_json(), away.to_json(), rules.to_json(), neutral]
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def _kept(cache: OrderedDict[str, Any], key: str, build: Callable[[], Any]) -> Any:
    """Return ``cache[key]``, built once per process (the least recently used dropped)."""
    with _LOCK:
        value = cache.get(key)
        if value is not None:
            cache.move_to_end(key)
            return value
    value = build()  # outside the lock: two threads may both build it, the same
    with _LOCK:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > _KEPT:
            cache.popitem(last=False)
    return value


def table_coach(home: TeamCard, away: TeamCard, rules: GameRules, neutral: bool) -> Coach:
    """Return the coach the rules name for a game at the table (``rules_coach``), the exact
    one solved once per process for these cards, rules and court."""
    if not rules.strategy or rules.coach != CoachKind.EXACT:
        return rules_coach(home, away, rules=rules, neutral=neutral)  # nothing to solve
    coach: Coach = _kept(
        _COACHES,
        _key(home, away, rules, neutral),
        lambda: rules_coach(home, away, rules=rules, neutral=neutral),
    )
    return coach


def _live_odds(position: Position) -> LiveOdds | CoachLiveOdds:
    """Return the game's live odds, built once per process for its cards and rules."""
    home, away, rules, neutral = (
        position.home_card,
        position.away_card,
        position.rules,
        position.neutral,
    )

    def build() -> LiveOdds | CoachLiveOdds:
        if rules.strategy:
            coach = table_coach(home, away, rules, neutral)
            return CoachLiveOdds(home, away, rules=rules, neutral=neutral, coach=coach)
        return LiveOdds(home, away, rules=rules, neutral=neutral)

    odds: LiveOdds | CoachLiveOdds = _kept(_ODDS, _key(home, away, rules, neutral), build)
    return odds


def odds_state(position: Position) -> dict[str, Any]:
    """Return P(home wins) now, from the exact trip laws (with the coach policy on, its
    exact backward program), at the start of the current number's regular trip: an extra
    or fouled possession of the policy is inside the trip it follows or precedes."""
    labels = {"home": position.home_card.label, "away": position.away_card.label}
    odds = _live_odds(position)
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
        + (", the coach policy included." if position.rules.strategy else "."),
    }


_UNREAD_TURNOVERS = frozenset({"steal", "turnover", "stopped"})
"""A trip's turnovers made on the 11-66 roll, before any card's d20 is read."""


def _d20_read(after: Sequence[Any]) -> bool:
    """Return whether the trip's d20 was read on the carrier's card (where his being tired
    reads it one higher), from the events that follow the trip: not after a steal, a block,
    a stop or a turnover of the 11-66 roll (vabg-rulings §3-§6), which end the trip first."""
    for event in after:
        if isinstance(event, Steal | Block):
            return False
        if isinstance(event, Turnover):
            return event.cause not in _UNREAD_TURNOVERS
        if isinstance(event, Shot):
            return event.how not in ("blocked", "stopped")
        if isinstance(event, Foul):
            return True  # a 33-36 foul's d20 (and-one, one-and-one or shots), or the card's
        if isinstance(event, Trip | PeriodEnd):
            break
    return False


def _plays(position: Position) -> list[dict[str, Any]]:
    labels = {"home": position.home_card.label, "away": position.away_card.label}
    score = {"home": 20, "away": 20}
    tired = tired_by_number(position)
    ot_length = position.rules.overtime_possessions

    def is_tired(period: int, number: int, team: str, name: str | None) -> bool:
        at = REGULATION - number
        if period:
            at = REGULATION + (period - 1) * ot_length + ot_length - number
        names = tired[team]
        return name is not None and at < len(names) and name in names[at]

    out = []
    for play in position.plays():
        lines = []
        for at, event in enumerate(play.events):
            if isinstance(event, Shot) and event.made:
                score[event.team] += event.value
            elif isinstance(event, FreeThrow) and event.made:
                score[event.team] += 1
            if isinstance(event, PeriodEnd):
                lines.append(period_end_line(event, labels))
                continue
            if isinstance(event, Trip):
                who = event.player or "nobody takes the ball (shot clock)"
                again = " (re-roll)" if event.kind == "reroll" else ""
                read = ""
                fouled_on_purpose = play.trip.kind in ("foul", "reroll")  # its d20 is not read
                tired_now = is_tired(event.period, event.number, event.team, event.player)
                if tired_now and not fouled_on_purpose and _d20_read(play.events[at + 1 :]):
                    read = f" (tired: +1, read as {min(20, event.d20 + 1)})"
                lines.append(
                    f"d8 {event.d8}{again}: {who}; 11-66 {event.roll}; d20 {event.d20}{read}"
                )
                continue
            text = describe(event, labels)
            if text is not None:
                d20_read = isinstance(event, FreeThrow) or (
                    isinstance(event, Shot) and event.how not in ("blocked", "stopped")
                )  # his d20 was read
                if d20_read and is_tired(event.period, event.number, event.team, event.player):  # type: ignore[union-attr]
                    text += " (tired: d20 +1)"
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
        return "Final" + (f" ({period_name(ot)})" if ot else "")
    need = position.need
    assert need is not None
    label = position.home_card.label if need.team == "home" else position.away_card.label
    return f"Possession {number_label(need.period, need.number)}, {label} ball"


@dataclass(frozen=True, slots=True)
class VabgSheet(PositionSheet):
    """A VABG game at the table: a :class:`simulator.sheets.Sheet` over a
    :class:`Position` (its page: the printed score sheet and the exact live odds)."""

    game: VabgGame
    position: Position

    @property
    def score(self) -> dict[str, int]:
        return {"home": self.position.home_score, "away": self.position.away_score}

    @property
    def undo_trip_to(self) -> int:
        return self.position.last_trip_start()

    @property
    def waiting_for(self) -> str:
        return "" if self.need is None else f"the {self.need.step}"

    def result(self) -> Result | None:
        result = self.position.result
        return None if result is None else self.game.wrap(result)

    def state(self) -> dict[str, Any]:
        position = self.position
        home_box, away_box, overtimes = box_score(
            position.events, ot_length=position.rules.overtime_possessions
        )
        return {
            "labels": {"home": position.home_card.label, "away": position.away_card.label},
            "strategy": position.rules.strategy,
            "neutral": position.neutral,
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
            "odds": odds_state(position),
        }


def sheet_rules(game: Game, options: Mapping[str, Any], rules_version: int | None) -> GameRules:
    """Return a VABG game's rules at the table (``Game.sheet_rules``): its preset and
    strategy switch as its rules version had them, so a game begun before a ruling changed
    is replayed to the end as it was rolled (one begun before version 3, with the strategy
    on: the fixed thresholds' coach)."""
    values = game.check_options(options)
    return preset(
        values["preset"], strategy=values["strategy"], version=rules_version or RULES_VERSION
    )


def open_sheet(
    game: VabgGame,
    home: TeamCard,
    away: TeamCard,
    values: Sequence[int],
    *,
    rules: GameRules,
    neutral: bool = False,
) -> VabgSheet:
    """Return the VABG game after ``values`` (``Game.sheet``), the coach solved once."""
    coach = table_coach(home, away, rules, neutral)
    return VabgSheet(game, replay(home, away, values, rules=rules, neutral=neutral, coach=coach))
