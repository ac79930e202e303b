"""Play the grid-court game as gridcourt-rulings.md settles it.

:class:`Table` plays a game one turn (one roll) at a time from any position, which is
how the rulings' scripted scenarios are replayed; :func:`play_game` plays a whole game
between two teams. Every die is read from the ``d6`` stream in the order of §5: two for
an offensive turn, one for a defensive turn, nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from simulator.dice import DiceScriptExhausted, DiceSource
from simulator.games import Result, Side, TeamName
from simulator.gridcourt.court import Cell
from simulator.gridcourt.events import (
    AWAY,
    DEFENSE,
    HOME,
    OFFENSE,
    PAINT,
    SHOT_CLOCK,
    Announce,
    End,
    Event,
    Rebound,
    Reset,
    Roll,
    Score,
    Shot,
    Start,
    Steal,
    Step,
    Violation,
    box_score,
    other,
)
from simulator.gridcourt.policy import DEFAULT_POLICY, Policy, PolicyError
from simulator.gridcourt.rules import MAX_TURNS, RULES_VERSION, STANDARD, TARGET, GridRules
from simulator.gridcourt.state import GridState, InvalidStateError

SHOT_CLOCK_ROLLS = 3
"""§2.12: the offense's third movement roll without a shot is a violation."""
PAINT_LIMIT = 2
"""§2.11: a paint count of 2 is a violation."""


class GameOverError(ValueError):
    """Raise when a turn is asked of a game that has ended."""


class ScriptRanOut(DiceScriptExhausted):
    """Raise when a scripted game wants a roll its script does not have; name the roll (§5).

    >>> from simulator.dice import ScriptedDice
    >>> table = Table(ScriptedDice(d6=[3]))
    >>> table.start()
    >>> try:
    ...     table.turn()
    ... except ScriptRanOut as exc:
    ...     print(exc.what, exc.used)
    the away team's offensive roll (its second d6) of turn 1 1
    """

    def __init__(self, used: int, what: str) -> None:
        super().__init__("d6", used)
        self.what = what
        self.args = (
            f"the dice script ran out: {what} was wanted after all {used} d6 rolls were used",
        )


class Table:
    """Play a grid-court game turn by turn, keeping its state and its events.

    >>> from simulator.dice import ScriptedDice
    >>> table = Table(ScriptedDice(d6=[4, 4]))
    >>> table.start()
    >>> table.turn()  # the opening roll: A1 shoots from (1,1), 8 >= 8
    >>> table.state.score
    {'home': 0, 'away': 3}
    """

    def __init__(
        self,
        dice: DiceSource,
        rules: GridRules = STANDARD,
        *,
        home_policy: Policy = DEFAULT_POLICY,
        away_policy: Policy = DEFAULT_POLICY,
        names: Mapping[str, str] | None = None,
    ) -> None:
        self.dice = dice
        self.names = dict(names or {})
        """Each side's team as an error names it ("Kentucky 2012"; else "the home team")."""
        self.rules = rules
        self.state = GridState(rules)
        self.policies: dict[str, Policy] = {HOME: home_policy, AWAY: away_policy}
        self.events: list[Event] = []

    # -- positions ---------------------------------------------------------------------

    def start(self) -> None:
        """Begin a game (§2.1): team 1, the visitor, is on offense and rolls first."""
        self.state.offense = self.state.roller = AWAY
        self.reset()

    def set_position(
        self,
        *,
        offense: str,
        home: Sequence[Cell],
        away: Sequence[Cell],
        roller: str | None = None,
        clock: int = 0,
        paint_counts: Mapping[int, int] | None = None,
        score: Mapping[str, int] | None = None,
    ) -> None:
        """Set up any position (a scripted scenario): pieces, clock, counts and scores.

        ``roller`` is who rolls next (the offense by default).
        """
        if offense not in (HOME, AWAY):
            raise InvalidStateError(f"offense must be home or away, got {offense!r}")
        if not 0 <= clock < SHOT_CLOCK_ROLLS:
            raise InvalidStateError(f"clock must be 0, 1 or 2, got {clock!r}")
        s = self.state
        s.place(list(home), list(away))
        s.offense = offense
        s.roller = offense if roller is None else roller
        s.clock = clock
        s.paint_counts = [0] * s.pieces
        for piece, count in (paint_counts or {}).items():
            s.paint_counts[piece - 1] = count
        s.score = {HOME: 0, AWAY: 0, **(score or {})}

    def reset(self) -> None:
        """Clear the board and place both teams (§2.2): offense outside the arc, then defense."""
        s = self.state
        court = s.court
        s.pos = {HOME: [], AWAY: []}
        s.occupied = set()
        s.clock = 0
        s.paint_counts = [0] * s.pieces
        offense, defense = s.offense, s.defense
        for role, team in ((OFFENSE, offense), (DEFENSE, defense)):
            cells = list(self.policies[team].place(role, s))
            if len(cells) != s.pieces:
                raise PolicyError(f"place({role}) gave {len(cells)} cells for {s.pieces} pieces")
            placed = []
            for cell in cells:
                if not court.on_board(cell):
                    raise PolicyError(f"place({role}) put a piece off the board at {cell!r}")
                i = court.index(cell)
                if court.inside[i] != (role == DEFENSE):
                    where = "inside" if role == DEFENSE else "outside"
                    raise PolicyError(f"place({role}): {cell!r} is not {where} the arc")
                if i in s.occupied:
                    raise PolicyError(f"place({role}): {cell!r} is taken")
                s.occupied.add(i)
                placed.append(i)
            s.pos[team] = placed
        self.events.append(Reset(offense, s.cells(HOME), s.cells(AWAY)))

    # -- turns -------------------------------------------------------------------------

    def play(self) -> None:
        """Play turns until the game ends (§3)."""
        while not self.state.over:
            self.turn()

    def turn(self) -> None:
        """Play the next roll: the team that did not make the last roll makes it (§2.3)."""
        s = self.state
        if s.over:
            raise GameOverError("the game is over: no more dice are read")
        team = s.roller
        if team == s.offense:
            self._offensive_turn()
        else:
            self._defensive_turn()
        s.turns += 1
        s.roller = other(team)
        if s.turns >= MAX_TURNS and s.score[HOME] != s.score[AWAY]:
            s.over = True  # §3: the safety net; a tie there goes to the next basket
        if s.over:
            winner = HOME if s.score[HOME] > s.score[AWAY] else AWAY
            self.events.append(End(s.score[HOME], s.score[AWAY], winner, s.turns))

    def _d6(self, team: str, what: str) -> int:
        """Read the next d6, or name the roll a script that ran out wanted (§5)."""
        try:
            return self.dice.d6()
        except DiceScriptExhausted as exc:
            who = self.names.get(team, f"the {team} team")
            roll = f"{who}'s {what} of turn {self.state.turns + 1}"
            raise ScriptRanOut(exc.used, roll) from exc

    def _defensive_turn(self) -> None:
        s = self.state
        team = s.defense
        d = self._d6(team, "defensive roll (its d6)")
        self.events.append(Roll(team, DEFENSE, (d,), s.clock))
        self._move(team, DEFENSE, self.policies[team].defense_steps(s, d), d)

    def _offensive_turn(self) -> None:
        s = self.state
        team = s.offense
        open_pieces = s.open_pieces()
        shooter = self.policies[team].announce(s)
        if shooter is not None:
            if shooter not in open_pieces:
                raise PolicyError(f"announce: piece {shooter!r} is not an open {team} piece")
            self.events.append(Announce(team, shooter, s.cell(team, shooter)))
        first = self._d6(team, "offensive roll (its first d6)")
        second = self._d6(team, "offensive roll (its second d6)")
        t = first + second
        self.events.append(Roll(team, OFFENSE, (first, second), s.clock, open_pieces))
        if t == 2:
            self._steal(shooter)
        elif shooter is not None:
            self._shot(shooter, t)
        else:
            self._move(team, OFFENSE, self.policies[team].offense_steps(s, t), t)
            s.clock += 1
            self._after_movement()

    def _steal(self, shooter: int | None) -> None:
        # §2.10, §7: on a shot roll the defender nearest the shooter steals (ties: lower number).
        s = self.state
        stealer = None
        if shooter is not None:
            row = s.court.chebyshev[s.pos[s.offense][shooter - 1]]
            defense = s.pos[s.defense]
            stealer = min(range(1, s.pieces + 1), key=lambda p: row[defense[p - 1]])
        self.events.append(Steal(s.defense, stealer, shooter))
        self._change_possession()

    def _shot(self, shooter: int, t: int) -> None:
        s = self.state
        court = s.court
        team = s.offense
        cell = s.pos[team][shooter - 1]
        v, points = court.value[cell], court.points[cell]
        in_paint = s.in_paint(team)
        k = len(in_paint)
        made = t >= v
        self.events.append(Shot(team, shooter, court.cells[cell], v, t, k, points, made))
        if made:
            s.score[team] += points
            self.events.append(Score(s.score[HOME], s.score[AWAY]))
            if s.score[team] >= TARGET:
                s.over = True  # §3: the basket that reaches 21 ends the game
            else:
                self.reset()  # §2.8: make it, take it
        elif k >= 1 and v - k <= t <= v - 1:
            # §2.9, §7: the offense piece in the paint on the lowest value rebounds.
            piece = min(in_paint, key=lambda p: (s.value(team, p), p))
            self.events.append(Rebound(team, piece, True))
            s.clock = 0
            s.paint_counts = [0] * s.pieces
        else:
            defense = s.defense
            piece = min(range(1, s.pieces + 1), key=lambda p: (s.value(defense, p), p))
            self.events.append(Rebound(defense, piece, False))
            self._change_possession()

    def _after_movement(self) -> None:
        # §2.11, §2.12: the paint check, then the shot clock; both at once is a paint violation.
        s = self.state
        paint = s.court.paint
        counts = [
            c + 1 if paint[i] else 0 for c, i in zip(s.paint_counts, s.pos[s.offense], strict=True)
        ]
        s.paint_counts = counts
        violators = [p for p, c in enumerate(counts, 1) if c >= PAINT_LIMIT]
        if violators:
            self.events.append(Violation(s.offense, PAINT, violators[0]))
        elif s.clock >= SHOT_CLOCK_ROLLS:
            self.events.append(Violation(s.offense, SHOT_CLOCK, None))
        else:
            return
        s.offense = s.defense
        self.reset()

    def _change_possession(self) -> None:
        s = self.state
        s.offense = s.defense
        s.clock = 0
        s.paint_counts = [0] * s.pieces

    def _move(self, team: str, role: str, steps: Sequence[tuple[int, Cell]], allowed: int) -> None:
        """Check and make a policy's steps (§2.6): refuse any the rules forbid."""
        s = self.state
        court = s.court
        what = "offense_steps" if role == OFFENSE else "defense_steps"
        if len(steps) > allowed:
            raise PolicyError(f"{what}: {len(steps)} steps, the roll allows {allowed}")
        pos = s.pos[team]
        for piece, to in steps:
            if not isinstance(piece, int) or not 1 <= piece <= s.pieces:
                raise PolicyError(f"{what}: there is no piece {piece!r}")
            if not court.on_board(to):
                raise PolicyError(f"{what}: piece {piece} cannot leave the board to {to!r}")
            here = pos[piece - 1]
            there = court.index(to)
            neighbours = court.orthogonal[here] if role == OFFENSE else court.king[here]
            if there not in neighbours:
                raise PolicyError(
                    f"{what}: piece {piece} cannot step from {court.cells[here]} to {to}"
                )
            if there in s.occupied:
                raise PolicyError(f"{what}: piece {piece} cannot step onto {to}: it is taken")
            s.occupied.discard(here)
            s.occupied.add(there)
            pos[piece - 1] = there
            self.events.append(Step(team, piece, court.cells[here], to))


def play_game(
    home: TeamName,
    away: TeamName,
    dice: DiceSource,
    rules: GridRules = STANDARD,
    *,
    home_policy: Policy = DEFAULT_POLICY,
    away_policy: Policy = DEFAULT_POLICY,
) -> Result:
    """Play one grid-court game to 21 (``away`` is team 1 and starts) and return its result.

    The box scores are rebuilt from the events alone (§7).
    """
    table = Table(
        dice,
        rules,
        home_policy=home_policy,
        away_policy=away_policy,
        names={HOME: f"{home.school} {home.season}", AWAY: f"{away.school} {away.season}"},
    )
    table.events.append(Start(home.school, home.season, away.school, away.season))
    table.start()
    table.play()
    events = tuple(table.events)
    home_box, away_box = box_score(events)
    return Result(
        game="gridcourt",
        home=Side(home.school, home.season, home_box.score, (), home_box),
        away=Side(away.school, away.season, away_box.score, (), away_box),
        events=events,
        dice=dice.record(),
        rules=rules,
        rules_version=RULES_VERSION,
    )
