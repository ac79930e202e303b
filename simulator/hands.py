"""A game played by hand: the choices typed at the table, answered in the order asked.

A game whose sides may make their own choices (``Game.has_hands``: grid court, six dice)
keeps its questions in its own package (``simulator/gridcourt/hand.py``,
``simulator/sixdice/hand.py``); what they share is here: a :class:`Question` as the table
shows it, the typed tokens read one by one (:class:`TokenStream`, which stops the game
with :class:`ChoiceNeeded` when none is left), and :func:`play_by_hand`, which plays a whole
game over its tokens and refuses one missing or left over.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from simulator.sheets import ChoiceRefused, NoChoiceWanted

SIDES = ("home", "away")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Question:
    """A choice the rules leave to a side played by hand, as the table asks it.

    ``options`` are the tokens it takes with their words (a token built on the page, a
    placing or a roll's steps, is described by ``board``; a six-dice reroll names its
    ``dice``); ``rule`` names the rule that gives the side the choice.
    """

    side: str
    kind: str
    prompt: str
    rule: str
    options: tuple[tuple[str, str], ...] = ()
    board: Mapping[str, Any] = field(default_factory=dict)
    dice: tuple[tuple[int, str], ...] = ()
    """A reroll's dice: (value, face), die 1 first."""

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "kind": self.kind,
            "prompt": self.prompt,
            "rule": self.rule,
            "options": [{"token": t, "label": label} for t, label in self.options],
            "board": dict(self.board),
            "dice": [{"die": i, "value": v, "face": f} for i, (v, f) in enumerate(self.dice, 1)],
        }


class ChoiceNeeded(Exception):
    """Raise when the game waits for a side's choice and no typed choice is left."""

    def __init__(self, question: Question, used: int) -> None:
        self.question = question
        self.used = used
        tokens = ", ".join(token for token, _ in question.options)
        super().__init__(
            f"{question.side} must choose ({question.kind})" + (f": {tokens}" if tokens else "")
        )


@dataclass(frozen=True, slots=True)
class Choices:
    """The choices typed at the table, the sides that make them by hand (``hands``) and
    the version of the questions they answer (``Game.questions_version``)."""

    tokens: tuple[str, ...] = ()
    hands: frozenset[str] = frozenset()
    questions: int = 1


NO_CHOICES = Choices()


class TokenStream:
    """The typed choices, handed out one a question, in the order the engine asks."""

    def __init__(self, choices: Sequence[object], hands: Collection[str]) -> None:
        unknown = sorted(set(hands) - set(SIDES), key=repr)
        if unknown:
            raise ValueError(f"hands must name home or away, got {unknown!r}")
        self.choices = tuple(choices)
        self.hands = frozenset(hands)
        self.used = 0

    def token(self, question: Question) -> str:
        """Return the next typed choice for ``question`` (not yet taken: :meth:`take`
        does); raise :class:`ChoiceNeeded` when none is left."""
        if self.used >= len(self.choices):
            raise ChoiceNeeded(question, self.used)
        token = self.choices[self.used]
        if not isinstance(token, str):
            raise ChoiceRefused(self.used, token, question, f"{token!r} is not a choice")
        return token

    def take(self) -> None:
        """Count the token just checked as answered."""
        self.used += 1

    def refuse(self, token: str, question: Question, why: str) -> ChoiceRefused:
        """Return the refusal of ``token``: why, and the rule that gives the choice."""
        return ChoiceRefused(self.used, token, question, f"{token!r}: {why} ({question.rule})")


def play_by_hand(play: Callable[[], T], stream: TokenStream) -> T:
    """Play a whole game over the typed choices; raise :class:`NoChoiceWanted` when they run
    out before its end or some are left after it."""
    try:
        result = play()
    except ChoiceNeeded as exc:
        raise NoChoiceWanted(
            exc.used, f"the choices ran out: {exc.question.prompt} was asked"
        ) from exc
    left = len(stream.choices) - stream.used
    if left:
        raise NoChoiceWanted(stream.used, f"{left} choices are left after the game")
    return result
