"""Play the six-dice game to 21 as sixdice-rulings.md settles it.

:class:`Table` plays a game one phase at a time (a jump ball, a main roll with all that
follows it, or a whole inbound race) from any position, which is how the rulings'
scripted scenarios are replayed. :func:`play_game` plays a whole game between two teams.
Every die is read from one ``d6`` stream in the order of §5.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simulator.dice import DiceRecord, DiceScriptExhausted, DiceSource
from simulator.games import TeamName
from simulator.sixdice.events import (
    Advance,
    ChipReroll,
    Dice,
    Dunk,
    End,
    Event,
    FreeThrow,
    InboundRound,
    JumpBall,
    MainRoll,
    Pass,
    Push,
    Score,
    Shot,
    SixDiceBox,
    Start,
    Steal,
    box_score,
)
from simulator.sixdice.policy import (
    ADVANCE,
    DEFAULT_POLICY,
    MAIN_CONTEST,
    SHOOT,
    SHOT_CONTEST,
    Contest,
    Policy,
    PolicyError,
    Tie,
)
from simulator.sixdice.rules import (
    BALL,
    DEFLECTED,
    FREE_THROW,
    NO_LOOK,
    PASS,
    SHOT,
    STANDARD,
    SYMBOLS,
    SixDiceRules,
)
from simulator.sixdice.state import (
    ARC,
    AWAY,
    DEFENSE,
    HALF,
    HOME,
    INBOUND,
    JUMP,
    MAIN,
    OFFENSE,
    OVER,
    TARGET,
    GameState,
    depth_of,
    other,
    section_of,
    under_basket,
)

MAX_MAIN_ROLLS = 10_000
"""§3: a guard against bugs; with any faces the rules allow a game ends long before."""
MAX_ROUNDS = 10_000
"""The same guard for one jump ball's rerolls or one inbound race's rounds."""
ALL_DICE = (1, 2, 3, 4, 5, 6)
FREE_THROW_BALLS = 3
"""§2.7: at least 3 Balls makes a free throw."""

Reading = tuple[int, tuple[str, ...], int]
_READINGS: dict[str, dict[Dice, Reading]] = {}
"""For each ``faces`` option, what each roll seen so far shows, by its sorted values: a
cache of at most 714 rolls (462 of six dice, 252 of five) per printing of the dice."""


class ScriptRanOut(DiceScriptExhausted):
    """Raise when a scripted game wants a roll its script does not have; name the roll (§5)."""

    def __init__(self, used: int, what: str, side: str, main_rolls: int) -> None:
        super().__init__("d6", used)
        self.what, self.side = what, side
        team = "Orange" if side == AWAY else "White"
        rolls = "main roll" if main_rolls == 1 else "main rolls"
        when = f", {main_rolls} {rolls} into the game," if main_rolls else ""
        self.args = (
            f"the dice script ran out: {team}'s dice for the {what}{when} were wanted "
            f"after all {used} d6 rolls were used",
        )


class EndlessGameError(ValueError):
    """Raise when a game passes the guard of §3 (10,000 main rolls); a bug, never a game."""


@dataclass(frozen=True, slots=True)
class SixDiceResult:
    """Hold a played six-dice game: both box scores, the events and the dice that made it."""

    home: SixDiceBox
    away: SixDiceBox
    events: tuple[Event, ...]
    dice: DiceRecord
    rules: SixDiceRules
    game: str = "sixdice"

    @property
    def winner(self) -> SixDiceBox:
        """Return the side that reached 21."""
        return self.home if self.home.score > self.away.score else self.away

    @property
    def loser(self) -> SixDiceBox:
        """Return the other side."""
        return self.away if self.winner is self.home else self.home

    @property
    def main_rolls(self) -> int:
        """Return how many main rolls the game took."""
        return sum(1 for e in self.events if type(e) is MainRoll)

    def to_json(self) -> dict[str, Any]:
        """Return the ``--json`` object of interchange.md ("Other games"), dice and rules too."""
        return {
            "game": self.game,
            "home": self.home.to_json(),
            "away": self.away.to_json(),
            "events": [e.to_json() for e in self.events],
            "dice": self.dice.to_json(),
            "rules": self.rules.to_json(),
        }


class Table:
    """Play a six-dice game from a position, one phase at a time.

    >>> from simulator.dice import ScriptedDice
    >>> table = Table(ScriptedDice(d6=[1, 2, 3, 4, 5, 6, 1, 1, 4, 4, 5, 6]))
    >>> table.step()  # the jump ball: Orange 3 Balls, White 2
    >>> table.state.offense, table.state.section, table.state.chip
    ('away', 8, 'home')
    """

    def __init__(
        self,
        dice: DiceSource,
        *,
        rules: SixDiceRules = STANDARD,
        policy: Policy = DEFAULT_POLICY,
        start: GameState | None = None,
    ) -> None:
        start = GameState() if start is None else start.check()
        self.rules = rules
        self.policy = policy
        self.events: list[Event] = []
        self.main_rolls = 0
        self._d6: Callable[[], int] = dice.d6
        self._face = {value: rules.face(value) for value in ALL_DICE}
        if len(_READINGS) > 64:  # other printings are for tests; keep the cache small
            _READINGS.clear()
        self._readings = _READINGS.setdefault(rules.faces, {})
        self._phase = start.phase
        self._offense = start.offense
        self._section = start.section
        self._chip = start.chip
        self._score = {AWAY: start.away_score, HOME: start.home_score}
        self._penalty = set(start.penalty)
        self._wanted = ("jump ball", AWAY)
        """The roll being read, to name it if a script runs out (§5)."""

    @property
    def state(self) -> GameState:
        """Return the position now."""
        return GameState(
            self._phase,
            self._offense,
            self._section,
            self._chip,
            self._score[AWAY],
            self._score[HOME],
            frozenset(self._penalty),
        )

    @property
    def wanted(self) -> tuple[str, str]:
        """Return the roll being read (or last read): what it is for and whose dice (§5).

        Each roll sets a new tuple, so a reader of the dice can tell where a roll begins
        (``simulator.sixdice.sheet``, the game at the table).
        """
        return self._wanted

    @property
    def over(self) -> bool:
        """Return whether a team has reached 21."""
        return self._phase == OVER

    def play(self) -> None:
        """Play phases until a team reaches 21."""
        while self._phase != OVER:
            self.step()

    def step(self) -> None:
        """Play one phase: the jump ball, a main roll and what follows, or an inbound race."""
        try:
            if self._phase == JUMP:
                self._jump_ball()
            elif self._phase == MAIN:
                self._main_roll()
            elif self._phase == INBOUND:
                self._inbound_race()
        except DiceScriptExhausted as exc:
            raise ScriptRanOut(exc.used, *self._wanted, self.main_rolls) from exc

    # -- dice --------------------------------------------------------------------------

    def _roll(self, side: str, what: str) -> Dice:
        """Roll a team's available dice: five when a penalty is pending, which it serves."""
        self._wanted = (what, side)
        d6 = self._d6
        if side in self._penalty:
            self._penalty.discard(side)  # §2.2: die 6 sits out and the penalty is cleared
            return (d6(), d6(), d6(), d6(), d6())
        return (d6(), d6(), d6(), d6(), d6(), d6())

    def _read(self, dice: Dice) -> Reading:
        """Return what a roll shows: its Balls, the symbols tied for most, and n."""
        key = tuple(sorted(dice))  # the same dice in any order read the same
        reading = self._readings.get(key)
        if reading is None:
            faces = [self._face[v] for v in dice]
            counts = {s: faces.count(s) for s in SYMBOLS}
            n = max(counts.values())
            reading = (counts[BALL], tuple(s for s in SYMBOLS if counts[s] == n), n)
            self._readings[key] = reading
        return reading

    def _balls(self, dice: Dice) -> int:
        return self._read(dice)[0]

    def _play_of(self, role: str, dice: Dice, rival: Dice | None = None) -> tuple[str, int]:
        """Return a team's play and n (§2.2), asking the policy on a tie within the team
        (telling it the other team's n, read from ``rival``'s dice)."""
        _, tied, n = self._read(dice)
        if len(tied) == 1:
            return tied[0], n
        rival_n = None if rival is None else self._read(rival)[2]
        play = self.policy.choose_play(Tie(tied, n, rival_n), role, self.state)
        if play not in tied:
            raise PolicyError(f"choose_play must pick one of {', '.join(tied)}, got {play!r}")
        return play, n  # G6: n stays the count of the chosen symbol

    # -- scoring -----------------------------------------------------------------------

    def _score_points(self, side: str, points: int) -> bool:
        """Credit points; return whether the game is over (§3: at once, even between FTs)."""
        self._score[side] += points
        self.events.append(Score(side, points, self._score[AWAY], self._score[HOME]))
        if self._score[side] >= TARGET:
            self._phase = OVER
            self.events.append(End(side, self._score[AWAY], self._score[HOME]))
            return True
        return False

    def _inbound_by(self, side: str) -> None:
        """§2.5, G11: ``side`` inbounds from under the basket it defends; the race is a phase."""
        self._phase = INBOUND
        self._offense = side
        self._section = under_basket(side)

    # -- the phases --------------------------------------------------------------------

    def _jump_ball(self) -> None:
        for _ in range(MAX_ROUNDS):
            away, home = self._roll(AWAY, "jump ball"), self._roll(HOME, "jump ball")
            a, h = self._balls(away), self._balls(home)
            if a == h:  # G5: a tied jump ball is rolled again
                self.events.append(JumpBall(away, home, a, h, None, None))
                continue
            winner = AWAY if a > h else HOME
            self._offense = winner
            self._section = section_of(winner, 1)
            self._chip = other(winner)  # the defense starts with the chip
            self._phase = MAIN
            self.events.append(JumpBall(away, home, a, h, winner, self._section))
            return
        raise EndlessGameError(f"the jump ball was tied {MAX_ROUNDS} times")

    def _contest(
        self,
        kind: str,
        dice: dict[str, Dice],
        value: Callable[[str, Dice], int],
    ) -> tuple[str, bool]:
        """Decide a main roll or a shot: return the winner and whether the chip won it.

        §2.11: with ``chip_reroll`` the holder may first hand the chip over and reroll
        some of its dice, once; an equal result then goes to the opponent. Otherwise a
        tie goes to the holder if it plays the chip (handing it over), else to the
        opponent (§2.2, G16).
        """
        holder = self._chip
        assert holder is not None
        rival = other(holder)
        values = {side: value(side, dice[side]) for side in dice}
        if self.rules.chip_reroll:
            chosen = self.policy.reroll(self._contest_view(kind, holder, dice, values), self.state)
            if chosen:
                rolled = range(1, len(dice[holder]) + 1)
                if not set(chosen) <= set(rolled) or not all(type(i) is int for i in chosen):
                    raise PolicyError(
                        f"reroll must name dice the holder rolled ({rolled.start}-"
                        f"{rolled.stop - 1}), got {sorted(chosen, key=repr)!r}"
                    )
                self._chip = rival
                before = dice[holder]
                after = list(before)
                self._wanted = ("chip reroll", holder)
                for die in sorted(chosen):  # §5: rerolled dice are read in die order
                    after[die - 1] = self._d6()
                dice[holder] = tuple(after)
                self.events.append(
                    ChipReroll(holder, kind, tuple(sorted(chosen)), before, dice[holder])
                )
                values[holder] = value(holder, dice[holder])
                return (holder if values[holder] > values[rival] else rival), False
        if values[holder] != values[rival]:
            return (holder if values[holder] > values[rival] else rival), False
        play = self.policy.use_chip(self._contest_view(kind, holder, dice, values), self.state)
        if not isinstance(play, bool):
            raise PolicyError(f"use_chip must answer true or false, got {play!r}")
        if play:
            self._chip = rival
            return holder, True
        return rival, False

    def _contest_view(
        self, kind: str, side: str, dice: dict[str, Dice], values: dict[str, int]
    ) -> Contest:
        rival = other(side)
        face = self._face
        return Contest(
            kind,
            side,
            dice[side],
            tuple(face[v] for v in dice[side]),
            values[side],
            dice[rival],
            tuple(face[v] for v in dice[rival]),
            values[rival],
        )

    def _main_roll(self) -> None:
        self.main_rolls += 1
        if self.main_rolls > MAX_MAIN_ROLLS:
            raise EndlessGameError(f"no team reached {TARGET} in {MAX_MAIN_ROLLS} main rolls")
        offense = self._offense
        assert offense is not None and self._section is not None
        defense = other(offense)
        depth = depth_of(offense, self._section)
        dice = {offense: self._roll(offense, "main roll")}  # §5: the offense's, then the defense's
        dice[defense] = self._roll(defense, "main roll")
        plays: dict[str, tuple[str, int]] = {}

        def n_of(side: str, rolled: Dice) -> int:
            role = OFFENSE if side == offense else DEFENSE
            plays[side] = self._play_of(role, rolled, dice[other(side)])
            return plays[side][1]

        winner, chip = self._contest(MAIN_CONTEST, dice, n_of)
        (away_play, away_n), (home_play, home_n) = plays[AWAY], plays[HOME]
        self.events.append(
            MainRoll(
                self.main_rolls,
                offense,
                depth,
                dice[AWAY],
                dice[HOME],
                away_play,
                away_n,
                home_play,
                home_n,
                winner,
                chip,
            )
        )
        play, n = plays[winner]
        if winner == offense:
            self._offense_wins(play, n, depth)
        else:
            self._defense_wins(play, n, depth)

    def _offense_wins(self, play: str, n: int, depth: int) -> None:
        """§2.3."""
        offense = self._offense
        assert offense is not None
        if play == BALL:
            if n == 6:  # G8: a slam dunk needs all six dice
                self.events.append(Dunk(offense, "slam"))
                if not self._score_points(offense, 2):
                    self._inbound_by(other(offense))
                return
            action = self.policy.ball_action(n, self.state)
            if action == ADVANCE:
                self._advance(BALL, n, depth)
            elif action == SHOOT:
                self._shot()
            else:
                raise PolicyError(f"ball_action must answer advance or shoot, got {action!r}")
        elif play == PASS:
            self._pass(offense, NO_LOOK)
            self._advance(PASS, 3, depth)
        elif play == SHOT:
            self._shot()
        else:
            self._free_throws(offense)

    def _defense_wins(self, play: str, n: int, depth: int) -> None:
        """§2.4."""
        offense = self._offense
        assert offense is not None
        defense = other(offense)
        if play == BALL:
            self._push(BALL, n, depth)
        elif play == PASS:
            self._pass(defense, DEFLECTED)
            self._push(PASS, 3, depth)
        elif play == SHOT:
            self._offense = defense
            self._section = section_of(defense, 1)
            self.events.append(Steal(defense, "s", self._section))
        elif play == FREE_THROW:
            self._free_throws(defense)  # G12: then the offense inbounds from its own end

    def _pass(self, team: str, kind: str) -> None:
        """Record ``team``'s winning Pass; the team that lost it may roll a die fewer (G10)."""
        loser = other(team)
        penalized = loser if self.rules.pass_penalty(kind) else None
        self.events.append(Pass(team, kind, penalized))
        if penalized is not None:
            self._penalty.add(penalized)  # §2.9: penalties never stack

    def _advance(self, play: str, sections: int, depth: int) -> None:
        offense = self._offense
        assert offense is not None
        if depth + sections > HALF:  # G9: past the last section is the net; excess is lost
            self.events.append(Dunk(offense, "ball" if play == BALL else "pass"))
            if not self._score_points(offense, 2):
                self._inbound_by(other(offense))
            return
        self._section = section_of(offense, depth + sections)
        self.events.append(Advance(offense, play, sections, self._section))

    def _push(self, play: str, sections: int, depth: int) -> None:
        offense = self._offense
        assert offense is not None
        defense = other(offense)
        self._section = section_of(offense, depth - sections)
        self.events.append(Push(defense, play, sections, self._section))
        if depth - sections <= 0:  # G7: a steal where the pawn was pushed, at d n-d+1
            self._offense = defense
            self.events.append(Steal(defense, "push", self._section))

    def _shot(self) -> None:
        """§2.6: both teams roll; the offense gets +1 inside the arc, -1 outside."""
        offense = self._offense
        assert offense is not None and self._section is not None
        defense = other(offense)
        depth = depth_of(offense, self._section)
        pushed_out = False
        if depth >= ARC:
            answer = self.policy.push_out(self.state)
            if not isinstance(answer, bool):
                raise PolicyError(f"push_out must answer true or false, got {answer!r}")
            if answer:
                pushed_out, depth = True, ARC - 1
                self._section = section_of(offense, depth)
        inside = depth >= ARC
        dice = {offense: self._roll(offense, "shot")}
        dice[defense] = self._roll(defense, "shot")

        def total(side: str, rolled: Dice) -> int:
            balls = self._balls(rolled)
            if side == offense:
                return balls + 1 if inside else balls - 1
            return balls

        winner, chip = self._contest(SHOT_CONTEST, dice, total)
        made = winner == offense
        points = 2 if inside else 3
        self.events.append(
            Shot(
                offense,
                points,
                depth,
                self._section,
                pushed_out,
                dice[AWAY],
                dice[HOME],
                total(offense, dice[offense]),
                total(defense, dice[defense]),
                made,
                chip,
            )
        )
        if made and self._score_points(offense, points):
            return
        self._inbound_by(defense)

    def _free_throws(self, shooter: str) -> None:
        """§2.7: the shooter alone rolls; 3 Balls make it and earn a second; at most 2."""
        for number in (1, 2):
            dice = self._roll(shooter, "first free throw" if number == 1 else "second free throw")
            balls = self._balls(dice)
            made = balls >= FREE_THROW_BALLS
            self.events.append(FreeThrow(shooter, number, dice, balls, made))
            if not made:
                break
            if self._score_points(shooter, 1):
                return  # G13: the second free throw is never rolled
        self._inbound_by(other(shooter))

    def _inbound_race(self) -> None:
        """§2.8, G14: rounds of one inbounder roll and one defense roll, until one side wins."""
        team = self._offense
        assert team is not None
        defense = other(team)
        standing = list(ALL_DICE)  # the defense's dice not yet set aside
        moved = 0
        for number in range(1, MAX_ROUNDS + 1):
            rolled = self._roll(team, f"inbound race, round {number}")
            if defense in self._penalty:  # §2.9: die 6 sits out the first round only
                self._penalty.discard(defense)
                rolling = [die for die in standing if die != 6]
            else:
                rolling = standing
            self._wanted = (f"inbound race, round {number}", defense)
            defense_dice = tuple(self._d6() for _ in rolling)
            caught = {
                die for die, v in zip(rolling, defense_dice, strict=True) if self._face[v] == SHOT
            }
            standing = [die for die in standing if die not in caught]
            balls = self._balls(rolled)
            moved += balls
            set_aside = len(ALL_DICE) - len(standing)
            dice = {team: rolled, defense: defense_dice}
            if moved >= HALF:  # G14: crossing wins a round the steal also completes
                self._section = section_of(team, 1)
                self._phase = MAIN
                result = "crossed"
            elif not standing:  # G15: the steal happens where the pawn stands
                self._section = section_of(defense, HALF - moved)
                self._offense = defense
                self._phase = MAIN
                result = "steal"
            else:
                self._section = section_of(team, moved + 1 - HALF)  # d 1 at 7 moved
                result = ""
            self.events.append(
                InboundRound(
                    team,
                    number,
                    dice[AWAY],
                    dice[HOME],
                    balls,
                    moved,
                    set_aside,
                    self._section,
                    result,
                )
            )
            if result == "steal":
                self.events.append(Steal(defense, "inbound", self._section))
            if result:
                return
        raise EndlessGameError(f"an inbound race lasted {MAX_ROUNDS} rounds")


def play_game(
    home: TeamName,
    away: TeamName,
    dice: DiceSource,
    *,
    rules: SixDiceRules = STANDARD,
    policy: Policy = DEFAULT_POLICY,
) -> SixDiceResult:
    """Play one six-dice game to 21; ``away`` is Orange, ``home`` White (§1.3).

    The game has no players: a team is a school and a season
    (:func:`simulator.games.team_name_from_json` reads them from any team file).

    >>> from simulator.dice import SeededDice
    >>> from simulator.games import TeamName
    >>> result = play_game(TeamName("Duke", 2010), TeamName("Butler", 2010), SeededDice(1))
    >>> max(result.home.score, result.away.score) >= 21 > min(result.home.score, result.away.score)
    True
    """
    table = Table(dice, rules=rules, policy=policy)
    table.events.append(Start(home.school, home.season, away.school, away.season))
    table.play()
    events = tuple(table.events)
    home_box, away_box = box_score(events)
    return SixDiceResult(home_box, away_box, events, dice.record(), rules)
