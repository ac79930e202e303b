"""A six-dice coach's style: the choices seed 002 leaves to a team, as policy parameters.

The seed leaves a team these choices and no others: which play to make on a tie within
its own dice ("select the best play option"), to advance or "Take a Shot" with a Ball
win, to "push the Player Pawn outside the arc" for a 3, and whether to use the Power Chip
on a tie ("If the team with the Power Chip prefers to keep it for a future use...").
A style sets three of them, never a die:

- ``threes``: ``"never"`` (advance with a Ball won outside the arc, never push out: the
  rulings' §4.2), ``"top"`` (shoot a 3 with a Ball won at the top of the arc, d 3, when it
  cannot dunk), ``"outside"`` (shoot a 3 with any Ball won outside the arc that cannot
  dunk) or ``"always"`` (``"outside"``, and push out for a 3 from inside the arc too).
- ``inside``: with a Ball won inside the arc that cannot dunk, ``"shoot"`` the 2 (§4.2)
  or ``"drive"``: advance toward the net for a dunk on a later roll.
- ``chip``: ``"always"`` play it to win a tie (§4.3) or save it for ``"shots"`` (keep it
  on a tied main roll, play it on a tied shot).

The answers read only the depth, the dice won and the contest, never the score, so the
exact odds (:mod:`simulator.sixdice.odds`) solve a game between any two styles.
:data:`DEFAULT_STYLE` plays §4 exactly, and ``"rulings"`` in a team file means it too.

>>> SixDiceStyle.from_json({"threes": "some"}).threes
Traceback (most recent call last):
...
simulator.styles.StyleError: threes: must be one of never, top, outside, always, got "some"
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Set
from dataclasses import dataclass, fields
from typing import Any

from simulator.jsonfile import shown
from simulator.sixdice.policy import (
    ADVANCE,
    DEFAULT_POLICY,
    SHOOT,
    SHOT_CONTEST,
    Contest,
    DefaultPolicy,
    Policy,
    Tie,
)
from simulator.sixdice.state import ARC, AWAY, DEFENSE, HALF, HOME, GameState, other
from simulator.styles import StyleError as StyleError  # re-exported: callers catch it here
from simulator.styles import style_from_json

RULINGS_NAME = "rulings"
CHOICES: dict[str, tuple[str, ...]] = {
    "threes": ("never", "top", "outside", "always"),
    "inside": ("shoot", "drive"),
    "chip": ("always", "shots"),
}
TOP = 3
"""The top of the arc: the last depth outside it (§1.2)."""


@dataclass(frozen=True, slots=True)
class SixDiceStyle:
    """Hold one team's six-dice style (see the module's text for each parameter)."""

    threes: str = "never"
    inside: str = "shoot"
    chip: str = "always"

    def __post_init__(self) -> None:
        problems = [
            f"{name}: must be one of {', '.join(allowed)}, got {shown(getattr(self, name))}"
            for name, allowed in CHOICES.items()
            if getattr(self, name) not in allowed
        ]
        if problems:
            raise StyleError(problems)

    def to_json(self) -> dict[str, Any]:
        """Return every parameter by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, doc: object) -> SixDiceStyle:
        """Return the style of a team file's ``styles.sixdice`` object; a parameter left out
        takes its default. Raise :class:`StyleError` naming every problem."""
        return style_from_json(cls, doc, "six-dice")

    def describe(self) -> list[tuple[str, str]]:
        """Return each parameter as a reader sees it: ``(name, what it does here)``."""
        threes = {
            "never": "never: advances with a Ball won outside the arc",
            "top": "top: shoots a 3 with a Ball won at the top of the arc",
            "outside": "outside: shoots a 3 with any Ball won outside the arc",
            "always": "always: shoots 3s outside the arc and pushes out for them inside",
        }[self.threes]
        inside = {
            "shoot": "shoot: takes the 2 with a Ball won inside the arc",
            "drive": "drive: advances toward the net with a Ball won inside the arc",
        }[self.inside]
        chip = {
            "always": "always: plays the Power Chip on any tie",
            "shots": "shots: keeps the Power Chip for tied shots",
        }[self.chip]
        return [("3-point appetite", threes), ("inside the arc", inside), ("Power Chip", chip)]


DEFAULT_STYLE = SixDiceStyle()


class StylePolicy(DefaultPolicy):
    """Play a :class:`SixDiceStyle`: §4's choices where the style does not change them."""

    def __init__(self, style: SixDiceStyle = DEFAULT_STYLE) -> None:
        self.style = style

    def ball_action(self, n: int, state: GameState) -> str:
        """Dunk if d+n > 7; else shoot or drive inside the arc, shoot a 3 or advance outside."""
        d = state.depth
        if d + n > HALF:
            return ADVANCE
        if d >= ARC:
            return SHOOT if self.style.inside == "shoot" else ADVANCE
        threes = self.style.threes
        if threes in ("outside", "always") or (threes == "top" and d == TOP):
            return SHOOT
        return ADVANCE

    def push_out(self, state: GameState) -> bool:
        """Push out for a 3 only with the ``"always"`` appetite."""
        return self.style.threes == "always"

    def use_chip(self, contest: Contest, state: GameState) -> bool:
        """Play the chip on any tie, or only on a tied shot."""
        return self.style.chip == "always" or contest.kind == SHOT_CONTEST


class Sides:
    """Ask each team's own policy the questions the rules leave to that team.

    The engine and the exact odds ask one policy object; this one hands a question on to
    the policy of the team that answers it: the tied team (by role), the offense (the
    Ball action, pushing out) or the chip holder (the chip, the reroll).
    """

    def __init__(self, home: Policy, away: Policy) -> None:
        self.policies = {HOME: home, AWAY: away}

    def _offense(self, state: GameState) -> Policy:
        assert state.offense is not None
        return self.policies[state.offense]

    def choose_play(self, tied: Tie, role: str, state: GameState) -> str:
        assert state.offense is not None
        team = other(state.offense) if role == DEFENSE else state.offense
        return self.policies[team].choose_play(tied, role, state)

    def ball_action(self, n: int, state: GameState) -> str:
        return self._offense(state).ball_action(n, state)

    def push_out(self, state: GameState) -> bool:
        return self._offense(state).push_out(state)

    def use_chip(self, contest: Contest, state: GameState) -> bool:
        return self.policies[contest.side].use_chip(contest, state)

    def reroll(self, contest: Contest, state: GameState) -> Set[int]:
        return self.policies[contest.side].reroll(contest, state)


@functools.cache
def policy_for(style: SixDiceStyle | None) -> Policy:
    """Return the policy that plays ``style`` (``None`` or the default: §4's own)."""
    return DEFAULT_POLICY if style is None or style == DEFAULT_STYLE else StylePolicy(style)


def game_policy(home: SixDiceStyle | None, away: SixDiceStyle | None) -> Policy:
    """Return one policy for the engine that answers each team with its own style."""
    if home == away:
        return policy_for(home)
    return Sides(policy_for(home), policy_for(away))


def style_from_team(doc: object) -> SixDiceStyle:
    """Return the style a team file's ``styles`` key gives six dice: its parameters, or the
    default (§4's policy) when the key, the game in it, or ``"rulings"`` says so."""
    styles = doc.get("styles") if isinstance(doc, Mapping) else None
    if styles is None:
        return DEFAULT_STYLE
    if not isinstance(styles, Mapping):
        raise StyleError([f"styles: must be an object by game, got {shown(styles)}"])
    value = styles.get("sixdice")
    if value is None or value == RULINGS_NAME:
        return DEFAULT_STYLE
    try:
        return SixDiceStyle.from_json(value)
    except StyleError as exc:
        raise StyleError(
            [
                f"styles.sixdice: {p}" if p.startswith("must") else f"styles.sixdice.{p}"
                for p in exc.problems
            ]
        ) from exc


def style_to_json(style: SixDiceStyle) -> Any:
    """Return a style as a team file writes it."""
    return style.to_json()


def style_parameters() -> list[tuple[str, str, str]]:
    """Return what a team file's ``styles.sixdice`` object accepts: ``(parameter, the values
    it takes, its default)`` each; ``"rulings"`` instead of the object plays §4."""
    return [
        (
            name,
            "one of " + ", ".join(map(json.dumps, allowed)),
            json.dumps(getattr(DEFAULT_STYLE, name)),
        )
        for name, allowed in CHOICES.items()
    ]


def describe_style(style: SixDiceStyle) -> list[tuple[str, str]]:
    """Return a style's choices in words."""
    return style.describe()
