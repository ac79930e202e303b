"""Six dice played by hand: each side's choices (§4.5) answered by the players at the table.

The engine asks its policy five questions (``simulator.sixdice.policy``). At the table a
side can be played by hand: its questions are answered from the choices typed so far, one
token each, in the order the engine asks them; a side handed to the computer answers with
its coach style, as in the league. When the typed choices run out the game stops with
:class:`ChoiceNeeded` naming the question (like a dice script that runs out), and a token
the rules forbid is refused with :class:`ChoiceRefused` naming the rule.

The tokens, as the table's page and API send them and a stored game keeps them:

- a tie within a team's dice (§2.2, G6): the symbol, ``B``, ``P``, ``S`` or ``F``;
- Balls won with n < 6 (§2.3): ``advance`` or ``shoot``;
- a shot from inside the arc (§2.6): ``push`` (out to d 3 for a 3) or ``stay`` (a 2);
- a tied contest (§2.2, §2.6): ``chip`` (play the Power Chip and win it) or ``keep``;
- the Power Chip reroll (§2.11, option ``chip_reroll``): ``reroll:1,3,5`` (those dice) or
  ``keep``; asked only of a holder who trails (questions version 2, below).

**Versions of the questions** (``QUESTIONS_VERSION``; a stored game keeps the version its
choices answer, since they answer the questions in the order asked):

1. every question above, the reroll asked before every main roll and shot the holder
   plays with the chip (games begun before 2026-11-29);
2. the reroll is asked only when the holder trails: leading, a reroll can only lose the
   roll and hands the chip over; tied, it hands the chip over for a chance to win a tie
   that playing the chip wins for sure (§2.2). So the holder keeps the chip unasked, and
   a tie is then asked once, as the chip question.

    >>> from simulator.dice import ScriptedDice
    >>> from simulator.sixdice.engine import Table
    >>> from simulator.sixdice.policy import DEFAULT_POLICY
    >>> tie = [1, 1, 4, 4, 5, 6]  # two Balls, two Passes
    >>> hands = Hands(["B"], {"away", "home"}, DEFAULT_POLICY)
    >>> table = Table(ScriptedDice(d6=[1, 2, 3, 4, 5, 6, *tie, *tie, *tie]), policy=hands.policy)
    >>> table.step()  # the jump ball: Orange 3 Balls, White 2
    >>> table.step()  # the main roll: Orange answers B; White's tie is asked
    Traceback (most recent call last):
    ...
    simulator.hands.ChoiceNeeded: home must choose (play): B, P
    >>> hands.used
    1
"""

from __future__ import annotations

from collections.abc import Collection, Sequence, Set

from simulator.hands import ChoiceNeeded, Question, TokenStream
from simulator.sheets import ChoiceRefused
from simulator.sixdice.policy import (
    ADVANCE,
    MAIN_CONTEST,
    SHOOT,
    Contest,
    Policy,
    Tie,
)
from simulator.sixdice.rules import BALL, FREE_THROW, PASS, SHOT
from simulator.sixdice.state import ARC, AWAY, DEFENSE, HALF, HOME, GameState, other
from simulator.sixdice.style import Sides

__all__ = ["ChoiceNeeded", "Hands", "Question"]

PLAY_NAMES = {
    BALL: "Ball (advance)",
    PASS: "Pass (a No-Look Pass)",
    SHOT: "S (a shot)",
    FREE_THROW: "F (free throws)",
}
"""What each symbol does for the offense (the Dice Chart's first column)."""
DEFENSE_PLAY_NAMES = {
    BALL: "Ball (push back)",
    PASS: "Pass (a Deflected Pass)",
    SHOT: "S (a steal)",
    FREE_THROW: "F (free throws)",
}
"""...and for the defense (its second column: the S is a steal)."""
KEEP, CHIP, PUSH, STAY, REROLL = "keep", "chip", "push", "stay", "reroll:"
QUESTIONS_VERSION = 2
"""The version of the questions a side played by hand is asked (the module's docstring)."""


def _words(side: str) -> str:
    return "White" if side == HOME else "Orange"


class Hands(TokenStream):
    """The choices typed at the table, answered for the sides played by hand (``hands``);
    the other sides' questions go to ``computer`` (their coach styles)."""

    def __init__(
        self,
        choices: Sequence[object],
        hands: Collection[str],
        computer: Policy,
        *,
        questions: int = QUESTIONS_VERSION,
    ) -> None:
        super().__init__(choices, hands)
        if not 1 <= questions <= QUESTIONS_VERSION:
            raise ValueError(f"six dice's hand questions have versions 1-{QUESTIONS_VERSION}")
        self.questions = questions
        """The version of the questions asked (the module's docstring)."""
        self.computer = computer
        """The policy of the sides not played by hand (and of a pick that cannot matter)."""
        self.policy: Policy = Sides(
            _Hand(self, HOME) if HOME in self.hands else computer,
            _Hand(self, AWAY) if AWAY in self.hands else computer,
        )

    def answer(self, question: Question) -> str:
        """Return the next typed choice for ``question``, checked; raise when none is left."""
        token = self.token(question)
        if question.kind == "reroll" and token.startswith(REROLL):
            _reroll_dice(self.used, token, question)
        elif token not in {t for t, _ in question.options}:
            raise ChoiceRefused(self.used, token, question, _refusal(token, question))
        self.take()
        return token


def _refusal(token: str, question: Question) -> str:
    """Say why ``token`` does not answer ``question``, naming the rule."""
    allowed = ", ".join(t for t, _ in question.options)
    if question.kind == "play" and token in PLAY_NAMES:
        return (
            f"{token} is not one of the symbols tied for the most dice ({allowed}): {question.rule}"
        )
    return f"{token!r} does not answer {question.prompt!r}: answer {allowed} ({question.rule})"


def _reroll_dice(index: int, token: str, question: Question) -> frozenset[int]:
    body = token[len(REROLL) :]
    count = len(question.dice)
    try:
        dice = [int(part) for part in body.split(",")] if body else []
    except ValueError:
        dice = None
    if not dice or any(not 1 <= d <= count for d in dice) or len(set(dice)) != len(dice):
        raise ChoiceRefused(
            index,
            token,
            question,
            f"{token!r}: name the dice to reroll among your own, 1-{count}, each once "
            f"(reroll:1,3), or keep the chip ({question.rule})",
        )
    return frozenset(dice)


class _Hand:
    """The policy of a side played by hand: every question is a :class:`Question`."""

    def __init__(self, hands: Hands, side: str) -> None:
        self.hands = hands
        self.side = side

    def choose_play(self, tied: Tie, role: str, state: GameState) -> str:
        if tied.moot:  # it loses the roll whatever it picks: not worth a question
            return self.hands.computer.choose_play(tied, role, state)
        depth = state.depth
        role_words = "on defense" if role == DEFENSE else "on offense"
        names = DEFENSE_PLAY_NAMES if role == DEFENSE else PLAY_NAMES
        plays = " and ".join(names[p] for p in tied.plays)
        question = Question(
            self.side,
            "play",
            f"{_words(self.side)} {role_words} (d {depth}): your dice tie {plays} at "
            f"{tied.n} each. Which play?",
            f"§2.2 and G6: on a tie within a team, the team picks its play; n stays {tied.n}",
            tuple((p, names[p]) for p in tied.plays),
        )
        return self.hands.answer(question)

    def ball_action(self, n: int, state: GameState) -> str:
        depth = state.depth
        dunk = depth + n > HALF
        where = "a dunk" if dunk else f"to d {depth + n}"
        shot = "a 2 (inside the arc)" if depth >= ARC else "a 3 (outside the arc)"
        question = Question(
            self.side,
            "ball",
            f"{_words(self.side)} won the roll with {n} Balls at d {depth}: advance {n} "
            f"({where}) or shoot {shot}?",
            "§2.3: Ball with n < 6, the offense advances n sections or takes a shot",
            ((ADVANCE, f"Advance {n} ({where})"), (SHOOT, f"Shoot {shot}")),
        )
        return self.hands.answer(question)

    def push_out(self, state: GameState) -> bool:
        question = Question(
            self.side,
            "push",
            f"{_words(self.side)} shoots from d {state.depth}, inside the arc: shoot a 2 "
            "from here (+1 to your Balls) or move out to d 3 for a 3 (-1)?",
            "§2.6: inside the arc, the offense may first move the pawn to d 3 and shoot a 3",
            ((STAY, "Shoot a 2"), (PUSH, "Push out for a 3")),
        )
        return self.hands.answer(question) == PUSH

    def use_chip(self, contest: Contest, state: GameState) -> bool:
        what = "main roll" if contest.kind == MAIN_CONTEST else "shot"
        question = Question(
            self.side,
            "chip",
            f"The {what} is tied at {contest.value}. {_words(self.side)} holds the Power "
            "Chip: play it to win the tie (it goes to the opponent) or keep it (the "
            "opponent wins the tie)?",
            "§2.2: on an equal n the chip holder plays the chip or keeps it",
            ((CHIP, "Play the chip: win the tie"), (KEEP, "Keep the chip: lose the tie")),
        )
        return self.hands.answer(question) == CHIP

    def reroll(self, contest: Contest, state: GameState) -> Set[int]:
        what = "main roll" if contest.kind == MAIN_CONTEST else "shot"
        mine, theirs = contest.value, contest.opponent_value
        if mine >= theirs and self.hands.questions >= 2:
            return frozenset()  # leading or tied: keeping the chip is never worse (version 2)
        standing = "you lead" if mine > theirs else "you trail" if mine < theirs else "tied"
        question = Question(
            self.side,
            "reroll",
            f"The {what} stands {mine} to {theirs} ({standing}). {_words(other(self.side))} "
            f"rolled {' '.join(contest.opponent_faces)}. {_words(self.side)} holds the Power "
            "Chip: hand it over and reroll some of your dice once (an equal result then goes "
            "to the opponent), or keep it?",
            "§2.11: the chip holder may hand the chip over and reroll any of its own dice, once",
            ((KEEP, "Keep the chip"), (REROLL, "Reroll the dice named")),
            dice=tuple(zip(contest.dice, contest.faces, strict=True)),
        )
        token = self.hands.answer(question)
        return frozenset() if token == KEEP else _reroll_dice(self.hands.used - 1, token, question)
