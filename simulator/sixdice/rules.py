"""The rule options of a six-dice game (sixdice-rulings.md §1.1, §2.11) and its version.

Two options exist: ``faces``, what each value of a die shows (another printing of the
dice needs no code change), and ``chip_reroll``, the seed's advanced Power Chip rule.
:data:`STANDARD` and :data:`CHIP_REROLL` are the presets.

The rulings change only by a dated note. :data:`RULES_VERSION` counts those notes; a
stored game keeps its version with its rules (:meth:`SixDiceRules.to_json`), and
:meth:`SixDiceRules.from_json` gives back the rules it was played with, a reading a later
note changed included (``deflected_pass_penalty``), so it replays as it was played.
:meth:`SixDiceRules.pass_penalty` is the one place the one-fewer-die line is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields, replace

from simulator.jsonfile import shown

RULES_VERSION = 2
"""The revision of sixdice-rulings.md this engine plays.

1: the rulings as first written (a winning Pass of either kind cost the team that lost it a
die); 2: the note of 2026-11-26 on G10 (the one-fewer-die line follows a No-Look Pass only).
"""

BALL, PASS, SHOT, FREE_THROW = "B", "P", "S", "F"
"""The four symbols: Ball, Pass, S (Shot or Steal) and Free Throw."""
SYMBOLS = (BALL, PASS, SHOT, FREE_THROW)

LETTER_VALUES = {BALL: 1, PASS: 4, SHOT: 5, FREE_THROW: 6}
"""§5: a dice file may write the d6 stream as letters, read as these values."""


NO_LOOK, DEFLECTED = "no-look", "deflected"
"""The two winning Passes of the chart: the offense's No-Look Pass, the defense's Deflected."""

_DEFAULTS_BEFORE: dict[int, dict[str, object]] = {
    2: {"deflected_pass_penalty": True},
}
"""For each version, the readings whose default it changed and their value before it."""


class InvalidRulesError(ValueError):
    """Raise for rule options the engine cannot play; the message names the option."""


@dataclass(frozen=True, slots=True)
class SixDiceRules:
    """Hold the rule options of one six-dice game.

    >>> SixDiceRules().face(4), SixDiceRules().name
    ('P', 'standard')
    """

    faces: str = "BBBPSF"
    """§1.1: the symbol shown by a die reading 1, 2, ... 6 (three Balls, P, S, F)."""
    chip_reroll: bool = False
    """§2.11: the chip holder may hand the chip over to reroll any of its dice, once."""
    deflected_pass_penalty: bool = False
    """G10 as first written: a Deflected Pass also cost the offense a die (games of rules
    version 1). Off since the note of 2026-11-26; not an option a new game can choose."""

    def __post_init__(self) -> None:
        faces = self.faces
        if not isinstance(faces, str) or len(faces) != 6 or set(faces) - set(SYMBOLS):
            raise InvalidRulesError(
                "faces must be six letters from B, P, S, F (one per die value 1-6), "
                f"got {shown(faces)}"
            )
        # A jump ball is won on Balls: with none, or nothing else, it is tied for ever.
        if BALL not in faces or faces == BALL * 6:
            raise InvalidRulesError(
                f"faces must show a Ball on some values and not on all, got {shown(faces)}"
            )
        for name in ("chip_reroll", "deflected_pass_penalty"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise InvalidRulesError(f"{name} must be true or false, got {shown(value)}")

    def face(self, value: int) -> str:
        """Return the symbol a die reading ``value`` (1-6) shows."""
        return self.faces[value - 1]

    def pass_penalty(self, kind: str) -> bool:
        """Return whether a winning Pass of ``kind`` costs the team that lost it a die (G10).

        The one-fewer-die line stands in the offense's column of the chart: a No-Look Pass
        penalizes the defense; a Deflected Pass penalizes no one (under rules version 1 it
        penalized the offense). The penalized team rolls one die fewer on its next roll of
        any kind (§2.9).

        >>> STANDARD.pass_penalty(NO_LOOK), STANDARD.pass_penalty(DEFLECTED)
        (True, False)
        >>> SixDiceRules.from_json({"version": 1}).pass_penalty(DEFLECTED)
        True
        """
        if kind == NO_LOOK:
            return True
        if kind == DEFLECTED:
            return self.deflected_pass_penalty
        raise ValueError(f"a Pass is {NO_LOOK} or {DEFLECTED}, got {kind!r}")

    @property
    def name(self) -> str:
        """Return the preset's name, or ``"custom"``.

        A preset as an older rules version had it is that preset too, so a stored game
        replayed by its own rules keeps its name.

        >>> SixDiceRules.from_json({"version": 1, "chip_reroll": True}).name
        'chip-reroll'
        """
        for name, rules in PRESETS.items():
            for version in range(RULES_VERSION, 0, -1):
                if replace(rules, **_changed_since(version)) == self:  # type: ignore[arg-type]
                    return name
        return "custom"

    def to_json(self) -> dict[str, object]:
        """Return every option by name and the rules ``version``."""
        return {"version": RULES_VERSION, **{f.name: getattr(self, f.name) for f in fields(self)}}

    @classmethod
    def from_json(cls, doc: Mapping[str, object]) -> SixDiceRules:
        """Return the rules a stored game was played with (the inverse of :meth:`to_json`).

        A reading it does not name takes the value of its version: a game stored under
        version 1 plays the Deflected Pass's penalty. A document with no version is read
        as this engine's (every stored six-dice game has kept its version).

        >>> SixDiceRules.from_json(CHIP_REROLL.to_json()) == CHIP_REROLL
        True
        >>> SixDiceRules.from_json({"version": 1, "faces": "BBBPSF", "chip_reroll": False})
        SixDiceRules(faces='BBBPSF', chip_reroll=False, deflected_pass_penalty=True)
        """
        version = doc.get("version", RULES_VERSION)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise InvalidRulesError(
                f"the rules version must be a whole number, got {shown(version)}"
            )
        if version > RULES_VERSION:
            raise InvalidRulesError(
                f"played under six-dice rules version {version}, newer than this engine's "
                f"({RULES_VERSION}): it cannot be played again with these rules"
            )
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(doc) - known - {"version"})
        if unknown:
            raise InvalidRulesError("unknown six-dice rule options: " + ", ".join(unknown))
        values: dict[str, object] = {
            f.name: f.default for f in fields(cls) if f.default is not MISSING
        }
        values.update(_changed_since(version))
        values.update({k: v for k, v in doc.items() if k != "version"})
        return cls(**values)  # type: ignore[arg-type]


def _changed_since(version: int) -> dict[str, object]:
    """Return the readings a later version changed, with their value in ``version``."""
    values: dict[str, object] = {}
    # Latest change first, so a reading changed twice keeps the value of the earliest.
    for changed_in, before in sorted(_DEFAULTS_BEFORE.items(), reverse=True):
        if version < changed_in:
            values.update(before)
    return values


STANDARD = SixDiceRules()
CHIP_REROLL = SixDiceRules(chip_reroll=True)
PRESETS = {"standard": STANDARD, "chip-reroll": CHIP_REROLL}


def preset(name: str) -> SixDiceRules:
    """Return the ``standard`` or ``chip-reroll`` preset."""
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidRulesError(
            f"unknown six-dice rules preset {name!r}: use " + " or ".join(PRESETS)
        ) from None
