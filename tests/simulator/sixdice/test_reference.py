"""A second six-dice game, written from the rulings' text alone, plays the engine's games.

:class:`Reference` is an independent implementation of sixdice-rulings.md §1-§5 with the
default policies of §4, written from the text (the seed's chart and the rulings), not from
the engine: its own state (the depth as the offense sees it, no sections), its own reading
of the dice, its own rules in the order the text gives them. G10 as the note of 2026-11-26
reads it: the one-fewer-die line follows a No-Look Pass only; ``deflected_penalty`` plays
the reading of rules version 1 (both Passes), which games stored before the note keep.

Both play the same seeded d6 stream; each writes a trace of what it read and what followed
(every roll's dice in die order, each Pass with whom it penalized, each steal and score).
The traces must be equal, roll for roll and die for die.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from simulator import SeededDice
from simulator.dice import DiceRecord
from simulator.games import TeamName
from simulator.sixdice import SixDiceRules, play_game
from simulator.sixdice.events import (
    ChipReroll,
    FreeThrow,
    InboundRound,
    JumpBall,
    MainRoll,
    Pass,
    Score,
    Shot,
    Steal,
)

ORANGE, WHITE = "away", "home"  # §1.3: Orange is team 1, the visitor
OTHER = {ORANGE: WHITE, WHITE: ORANGE}
COURT = 7  # §1.2: d 1 is past the half-court line, d 7 under the basket
Trace = list[tuple[Any, ...]]


class GameOver(Exception):
    """A team reached 21: nothing more is read (§3)."""


class Reference:
    """Play one game to 21 from the rulings' text, with the default policies of §4."""

    def __init__(
        self,
        d6: Callable[[], int],
        *,
        faces: str = "BBBPSF",
        chip_reroll: bool = False,
        deflected_penalty: bool = False,
    ) -> None:
        self.d6, self.faces = d6, faces
        self.chip_reroll, self.deflected_penalty = chip_reroll, deflected_penalty
        self.score = {ORANGE: 0, WHITE: 0}
        self.short: set[str] = set()  # teams rolling one die fewer next (§2.9)
        self.offense = ""
        self.depth = 0  # the offense's depth d
        self.chip = ""
        self.trace: Trace = []

    # -- dice -------------------------------------------------------------------------------
    def roll(self, team: str) -> tuple[int, ...]:
        """§2.2, §2.9: six dice, or five (die 6 sits out) when a penalty is pending."""
        count = 5 if team in self.short else 6
        self.short.discard(team)
        return tuple(self.d6() for _ in range(count))

    def symbols(self, dice: tuple[int, ...]) -> list[str]:
        return [self.faces[v - 1] for v in dice]

    def balls(self, dice: tuple[int, ...]) -> int:
        return self.symbols(dice).count("B")

    # -- the game ---------------------------------------------------------------------------
    def play(self) -> Trace:
        try:
            self.jump_ball()
            while True:
                self.main_roll()
        except GameOver:
            return self.trace

    def add(self, team: str, points: int) -> None:
        self.score[team] += points
        self.trace.append(("score", team, points))
        if self.score[team] >= 21:
            raise GameOver

    def jump_ball(self) -> None:
        """§2.1, G5: both roll six dice, Orange first; more Balls takes the ball."""
        while True:
            orange, white = self.roll(ORANGE), self.roll(WHITE)
            self.trace.append(("jump", orange, white))
            if self.balls(orange) != self.balls(white):
                break
        self.offense = ORANGE if self.balls(orange) > self.balls(white) else WHITE
        self.depth = 1
        self.chip = OTHER[self.offense]  # "defense starts with the chip"

    def pick(self, dice: tuple[int, ...], offense: bool) -> tuple[str, int]:
        """§2.2 and the tie policy of §4.1: a team's play and n."""
        shown = self.symbols(dice)
        n = max(shown.count(s) for s in "BPSF")
        tied = [s for s in "BPSF" if shown.count(s) == n]
        if len(tied) == 1:
            return tied[0], n
        d = self.depth
        if offense:
            if "B" in tied and d + n > COURT:
                return "B", n
            if "P" in tied and d + 3 > COURT:
                return "P", n
            order = "BSPF" if d >= 4 else "PBFS"
        else:
            ball_steals, pass_steals = "B" in tied and n >= d, "P" in tied and d <= 3
            if ball_steals and pass_steals:
                return ("B" if n > 3 else "P"), n
            if ball_steals or pass_steals:
                return ("B" if ball_steals else "P"), n
            order = "SFPB"
        return next(s for s in order if s in tied), n

    def tie_break(self) -> str:
        """§2.2, §4.3: the holder always plays the chip to win a tie, and hands it over."""
        holder = self.chip
        self.chip = OTHER[holder]
        return holder

    def main_roll(self) -> None:
        offense, defense = self.offense, OTHER[self.offense]
        o_dice = self.roll(offense)  # §5: the offense's dice, then the defense's
        d_dice = self.roll(defense)
        o_play, o_n = self.pick(o_dice, True)
        d_play, d_n = self.pick(d_dice, False)
        chip = o_n == d_n
        winner = (offense if o_n > d_n else defense) if not chip else self.tie_break()
        dice = {offense: o_dice, defense: d_dice}
        self.trace.append(("main", dice[ORANGE], dice[WHITE], winner, chip))
        if winner == offense:
            self.offense_wins(o_play, o_n)
        else:
            self.defense_wins(d_play, d_n)

    def offense_wins(self, play: str, n: int) -> None:
        """The chart's offense column (§2.3), the policy of §4.2."""
        if play == "B":
            if n == 6:
                self.add(self.offense, 2)  # a slam dunk
                self.inbound(OTHER[self.offense])
            elif self.depth + n > COURT or self.depth < 4:
                self.move(n)
            else:
                self.shot()
        elif play == "P":
            # "Opposing team rolls 1 less die on the next roll": the No-Look Pass's line.
            self.short.add(OTHER[self.offense])
            self.trace.append(("pass", self.offense, "no-look", OTHER[self.offense]))
            self.move(3)
        elif play == "S":
            self.shot()
        else:
            self.free_throws(self.offense)

    def move(self, sections: int) -> None:
        """Advance; past d 7 is the net: a dunk (G9), and the other team inbounds (§2.5)."""
        if self.depth + sections > COURT:
            self.add(self.offense, 2)
            self.inbound(OTHER[self.offense])
        else:
            self.depth += sections

    def defense_wins(self, play: str, n: int) -> None:
        """The chart's defense column (§2.4)."""
        defense = OTHER[self.offense]
        if play == "B":
            self.push(n)
        elif play == "P":
            # G10 (2026-11-26): a Deflected Pass carries no die penalty; version 1 read the
            # line as following both Passes, so the offense lost a die.
            penalized = self.offense if self.deflected_penalty else None
            if penalized is not None:
                self.short.add(penalized)
            self.trace.append(("pass", defense, "deflected", penalized))
            self.push(3)
        elif play == "S":
            self.trace.append(("steal", defense, "s"))
            self.offense, self.depth = defense, 1
        else:
            self.free_throws(defense)
            # G12: the offense keeps the ball but inbounds from its own end (free_throws
            # has already handed the inbound to the shooter's opponent, the offense).

    def push(self, sections: int) -> None:
        """Push back; past the half-court line it is a steal where the pawn stops (G7)."""
        if self.depth - sections >= 1:
            self.depth -= sections
            return
        defense = OTHER[self.offense]
        self.trace.append(("steal", defense, "push"))
        self.offense, self.depth = defense, sections - self.depth + 1

    def shot(self) -> None:
        """§2.6 with §4.2 (never push out for a 3) and §4.4 (the reroll when behind)."""
        offense, defense = self.offense, OTHER[self.offense]
        inside = self.depth >= 4
        dice = {offense: list(self.roll(offense))}
        dice[defense] = list(self.roll(defense))

        def total(team: str) -> int:
            balls = self.balls(tuple(dice[team]))
            if team == offense:
                return balls + 1 if inside else balls - 1
            return balls

        holder, rival = self.chip, OTHER[self.chip]
        chip = False
        if self.chip_reroll and total(holder) < total(rival):
            chosen = [i for i, v in enumerate(dice[holder]) if self.faces[v - 1] != "B"]
            before = tuple(dice[holder])
            for i in chosen:  # §5: rerolled dice are read in die order
                dice[holder][i] = self.d6()
            self.chip = rival
            self.trace.append(("reroll", holder, before, tuple(dice[holder])))
            winner = holder if total(holder) > total(rival) else rival  # "you lose the tie"
        elif total(offense) != total(defense):
            winner = offense if total(offense) > total(defense) else defense
        else:
            winner, chip = self.tie_break(), True
        made = winner == offense
        points = 2 if inside else 3
        self.trace.append(
            ("shot", offense, points, tuple(dice[ORANGE]), tuple(dice[WHITE]), made, chip)
        )
        if made:
            self.add(offense, points)
        self.inbound(defense)

    def free_throws(self, shooter: str) -> None:
        """§2.7, G13: 3 Balls score and earn a second; then the opponent inbounds."""
        for _ in range(2):
            dice = self.roll(shooter)
            made = self.balls(dice) >= 3
            self.trace.append(("ft", shooter, dice, made))
            if not made:
                break
            self.add(shooter, 1)
        self.inbound(OTHER[shooter])

    def inbound(self, team: str) -> None:
        """§2.8, G14, G15: rounds until the pawn crosses (it wins a tie) or six S's steal."""
        defense = OTHER[team]
        standing = [1, 2, 3, 4, 5, 6]  # the defense's dice not set aside
        moved, rounds = 0, 0
        while True:
            rounds += 1
            mine = self.roll(team)
            rolling = standing
            if defense in self.short:  # its die 6 sits out the first round only
                self.short.discard(defense)
                rolling = [die for die in standing if die != 6]
            theirs = tuple(self.d6() for _ in rolling)
            standing = [
                die for die, v in zip(rolling, theirs, strict=True) if self.faces[v - 1] != "S"
            ] + [die for die in standing if die not in rolling]
            standing.sort()
            moved += self.balls(mine)
            dice = {team: mine, defense: theirs}
            if moved >= COURT:
                result = "crossed"
            elif not standing:
                result = "steal"
            else:
                result = ""
            self.trace.append(("inbound", team, rounds, dice[ORANGE], dice[WHITE], result))
            if result == "crossed":
                self.offense, self.depth = team, 1
                return
            if result == "steal":
                self.trace.append(("steal", defense, "inbound"))
                self.offense, self.depth = defense, COURT - moved
                return


def engine_trace(events: Any) -> Trace:
    """Return the same trace read from the engine's events alone."""
    trace: Trace = []
    for e in events:
        if isinstance(e, JumpBall):
            trace.append(("jump", e.away, e.home))
        elif isinstance(e, MainRoll):
            trace.append(("main", e.away, e.home, e.winner, e.chip))
        elif isinstance(e, Pass):
            trace.append(("pass", e.team, e.kind, e.penalized))
        elif isinstance(e, Steal):
            trace.append(("steal", e.team, e.kind))
        elif isinstance(e, ChipReroll):
            trace.append(("reroll", e.team, e.before, e.after))
        elif isinstance(e, Shot):
            trace.append(("shot", e.team, e.points, e.away, e.home, e.made, e.chip))
        elif isinstance(e, FreeThrow):
            trace.append(("ft", e.team, e.dice, e.made))
        elif isinstance(e, InboundRound):
            trace.append(("inbound", e.team, e.round, e.away, e.home, e.result))
        elif isinstance(e, Score):
            trace.append(("score", e.team, e.points))
    return trace


class Counting:
    """A seeded d6 stream that counts what it hands out."""

    def __init__(self, seed: int) -> None:
        self.dice, self.read = SeededDice(seed), 0

    def d6(self) -> int:
        self.read += 1
        return self.dice.d6()

    def d8(self) -> int:
        raise AssertionError("six dice reads only d6 rolls")

    d20 = d8

    def record(self) -> DiceRecord:
        return self.dice.record()


def pairs(
    seeds: range, rules: SixDiceRules, reference: dict[str, Any]
) -> Iterator[tuple[int, Trace, int, Trace, int]]:
    """Yield each seed's reference trace and dice read, and the engine's."""
    home, away = TeamName("White", 2026), TeamName("Orange", 2026)
    for seed in seeds:
        ours = Counting(seed)
        trace = Reference(ours.d6, **reference).play()
        theirs = Counting(seed)
        result = play_game(home, away, theirs, rules=rules)
        yield seed, trace, ours.read, engine_trace(result.events), theirs.read


V1 = SixDiceRules.from_json({"version": 1, "faces": "BBBPSF", "chip_reroll": False})


@pytest.mark.parametrize(
    ("seeds", "rules", "reference"),
    [
        (range(400), SixDiceRules(), {}),
        (range(400, 550), SixDiceRules(chip_reroll=True), {"chip_reroll": True}),
        (range(550, 650), SixDiceRules(faces="BBPPSF"), {"faces": "BBPPSF"}),
        (range(650, 800), V1, {"deflected_penalty": True}),
    ],
    ids=["standard", "chip-reroll", "other-faces", "rules-version-1"],
)
def test_an_implementation_from_the_rulings_text_plays_the_same_games_die_for_die(
    seeds: range, rules: SixDiceRules, reference: dict[str, Any]
) -> None:
    for seed, trace, read, expected, engine_read in pairs(seeds, rules, reference):
        assert trace == expected, f"seed {seed}"
        assert read == engine_read, f"seed {seed}"


def test_after_the_g10_note_no_deflected_pass_penalizes_anyone_and_every_no_look_pass_does():
    passes = [
        step
        for _, trace, _, _, _ in pairs(range(100), SixDiceRules(), {})
        for step in trace
        if step[0] == "pass"
    ]
    deflected = [p for p in passes if p[2] == "deflected"]
    no_look = [p for p in passes if p[2] == "no-look"]
    assert deflected and no_look
    assert {p[3] for p in deflected} == {None}
    assert all(p[3] == OTHER[p[1]] for p in no_look)
