"""A grid-court coach's style: the choices seed 001 leaves to a player, as policy parameters.

The seed lets a player choose where to place the pieces (outside the arc), which piece
shoots and when ("announce their intent to shoot"), and how to spend each roll's steps.
It sets no rule about any of them, so a style changes only those choices, never a die:

- ``threes`` (50-200, percent): how much a 3-point shot is worth to the coach beside its
  expected points. 100 weighs a shot by its expected points alone; 150 values a 3 half as
  much again, so its shooters look for 3s and take them; 50 keeps to the 2s.
- ``patience`` (20-80, percent): the shot a team waits for on its first roll of a
  possession, as a share of the best shot on the court at the game's level; it settles
  for half of that on its second roll and takes any open shot on its last (the third,
  §2.12). Low is a fast team that shoots early, high a patient one.
- ``crashers`` (0-2): how many pieces (from piece N down) run to the paint for the
  offensive rebound, spending one roll there at a time (§2.11).
- ``trap`` (true or false): the defense's choice to close the exits of a piece that has
  spent a roll in the paint, so it cannot leave in time (a paint violation, §2.11),
  instead of covering the best shots first.

:data:`DEFAULT_STYLE` is the product's default: a coach a player would recognise, who
values a shot by its expected points, asks less of a shot as the clock runs down and
sends two pieces to the offensive glass (it beat every other style measured,
docs/engine.md). The deterministic policy of gridcourt-rulings.md §4, which the
conformance tests pin, is :data:`simulator.gridcourt.policy.DEFAULT_POLICY`; a team file
names it ``"rulings"`` (:func:`policy_for` of ``None``). Everything here is pure.

>>> GridStyle.from_json({"threes": 150})
GridStyle(threes=150, patience=50, crashers=2, trap=False)
>>> GridStyle.from_json({"threes": 300})
Traceback (most recent call last):
...
simulator.styles.StyleError: threes: must be an integer from 50 to 200, got 300
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from simulator.gridcourt.court import Court
from simulator.gridcourt.policy import DEFAULT_POLICY, LAST_ROLL, DefaultPolicy, Policy
from simulator.gridcourt.state import GridState
from simulator.jsonfile import shown
from simulator.styles import StyleError as StyleError  # re-exported: callers catch it here
from simulator.styles import style_from_json

RULINGS_NAME = "rulings"
"""A team file's ``"styles": {"gridcourt": "rulings"}`` plays the rulings' §4 policy."""

BOUNDS: dict[str, tuple[int, int]] = {"threes": (50, 200), "patience": (20, 80), "crashers": (0, 2)}


@dataclass(frozen=True, slots=True)
class GridStyle:
    """Hold one team's grid-court style (see the module's text for each parameter)."""

    threes: int = 100
    patience: int = 50
    crashers: int = 2
    trap: bool = False

    def __post_init__(self) -> None:
        problems = []
        for name, (lo, hi) in BOUNDS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                problems.append(f"{name}: must be an integer from {lo} to {hi}, got {shown(value)}")
        if not isinstance(self.trap, bool):
            problems.append(f"trap: must be true or false, got {shown(self.trap)}")
        if problems:
            raise StyleError(problems)

    def to_json(self) -> dict[str, Any]:
        """Return every parameter by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, doc: object) -> GridStyle:
        """Return the style of a team file's ``styles.gridcourt`` object; a parameter left
        out takes its default. Raise :class:`StyleError` naming every problem."""
        return style_from_json(cls, doc, "grid-court")

    def describe(self) -> list[tuple[str, str]]:
        """Return each parameter as a reader sees it: ``(name, what it does here)``."""
        threes = (
            "values a 3 by its expected points"
            if self.threes == 100
            else f"values a 3 at {self.threes}% of its expected points"
        )
        return [
            ("3-point appetite", f"{self.threes}: {threes}"),
            (
                "patience",
                f"{self.patience}: waits for {self.patience}% of the court's best shot on the "
                "first roll, half that on the second, any open shot on the last",
            ),
            ("crashers", f"{self.crashers} piece{'s' * (self.crashers != 1)} to the paint"),
            ("trap", "closes the paint's exits" if self.trap else "covers the best shots"),
        ]


DEFAULT_STYLE = GridStyle()


class StylePolicy(DefaultPolicy):
    """Play a :class:`GridStyle`: §4's placement, movement and defense, weighed by it."""

    def __init__(self, style: GridStyle = DEFAULT_STYLE) -> None:
        self.style = style
        self.crashers = style.crashers
        self.trap = style.trap

    def shot_values(self, court: Court) -> tuple[int, ...]:
        """Return E of every cell, a 3's weighed by the style's appetite (in 36ths x 100)."""
        return _weighted(court, self.style.threes)

    def announce(self, state: GridState) -> int | None:
        """Return the best open piece when its shot is worth the roll of the shot clock."""
        court = state.court
        values = self.shot_values(court)
        best: tuple[int, int, int] | None = None
        for piece in state.open_pieces():
            cell = state.pos[state.offense][piece - 1]
            key = (-values[cell], court.value[cell], piece)
            if best is None or key < best:
                best = key
        if best is None or best[0] == 0:
            return None
        if state.clock >= LAST_ROLL:
            return best[2]  # the last legal roll: any open shot beats a violation
        wanted = max(values) * self.style.patience // 100
        if state.clock == 1:
            wanted //= 2
        return best[2] if -best[0] >= wanted else None


@functools.cache
def _weighted(court: Court, threes: int) -> tuple[int, ...]:
    return tuple(
        e * (threes if points == 3 else 100)
        for e, points in zip(court.shot_value, court.points, strict=True)
    )


@functools.cache
def policy_for(style: GridStyle | None) -> Policy:
    """Return the policy that plays ``style`` (``None``: the rulings' §4 policy)."""
    return DEFAULT_POLICY if style is None else StylePolicy(style)


def style_from_team(doc: object) -> GridStyle | None:
    """Return the style a team file's ``styles`` key gives grid court: its parameters, the
    default style when the key (or the game in it) is absent, ``None`` for ``"rulings"``."""
    styles = doc.get("styles") if isinstance(doc, Mapping) else None
    if styles is None:
        return DEFAULT_STYLE
    if not isinstance(styles, Mapping):
        raise StyleError([f"styles: must be an object by game, got {shown(styles)}"])
    value = styles.get("gridcourt")
    if value is None:
        return DEFAULT_STYLE
    if value == RULINGS_NAME:
        return None
    try:
        return GridStyle.from_json(value)
    except StyleError as exc:
        raise StyleError([_under("styles.gridcourt", p) for p in exc.problems]) from exc


def _under(where: str, problem: str) -> str:
    return f"{where}: {problem}" if problem.startswith("must") else f"{where}.{problem}"


def style_to_json(style: GridStyle | None) -> Any:
    """Return a style as a team file writes it (``"rulings"`` for the rulings' policy)."""
    return RULINGS_NAME if style is None else style.to_json()


def style_parameters() -> list[tuple[str, str, str]]:
    """Return what a team file's ``styles.gridcourt`` object accepts: ``(parameter, the
    values it takes, its default)`` each; ``"rulings"`` instead of the object plays §4."""
    accepted = {name: f"an integer from {lo} to {hi}" for name, (lo, hi) in BOUNDS.items()}
    accepted["trap"] = "true or false"
    return [
        (f.name, accepted[f.name], json.dumps(getattr(DEFAULT_STYLE, f.name)))
        for f in fields(GridStyle)
    ]


def describe_style(style: GridStyle | None) -> list[tuple[str, str]]:
    """Return a style's choices in words (``None``: the rulings' policy)."""
    if style is None:
        return [("policy", "the rulings' deterministic policy (gridcourt-rulings.md §4)")]
    return style.describe()
