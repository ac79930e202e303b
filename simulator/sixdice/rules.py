"""The rule options of a six-dice game (sixdice-rulings.md §1.1, §2.11).

Two options exist: ``faces``, what each value of a die shows (another printing of the
dice needs no code change), and ``chip_reroll``, the seed's advanced Power Chip rule.
:data:`STANDARD` and :data:`CHIP_REROLL` are the presets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

RULES_VERSION = 1
"""The revision of sixdice-rulings.md this engine plays (1: the rulings as first written)."""

BALL, PASS, SHOT, FREE_THROW = "B", "P", "S", "F"
"""The four symbols: Ball, Pass, S (Shot or Steal) and Free Throw."""
SYMBOLS = (BALL, PASS, SHOT, FREE_THROW)

LETTER_VALUES = {BALL: 1, PASS: 4, SHOT: 5, FREE_THROW: 6}
"""§5: a dice file may write the d6 stream as letters, read as these values."""


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

    def __post_init__(self) -> None:
        faces = self.faces
        if not isinstance(faces, str) or len(faces) != 6 or set(faces) - set(SYMBOLS):
            raise InvalidRulesError(
                f"faces must be six letters from B, P, S, F (one per die value 1-6), got {faces!r}"
            )
        # A jump ball is won on Balls: with none, or nothing else, it is tied for ever.
        if BALL not in faces or faces == BALL * 6:
            raise InvalidRulesError(
                f"faces must show a Ball on some values and not on all, got {faces!r}"
            )
        if not isinstance(self.chip_reroll, bool):
            raise InvalidRulesError(f"chip_reroll must be true or false, got {self.chip_reroll!r}")

    def face(self, value: int) -> str:
        """Return the symbol a die reading ``value`` (1-6) shows."""
        return self.faces[value - 1]

    @property
    def name(self) -> str:
        """Return the preset's name, or ``"custom"``."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return "custom"

    def to_json(self) -> dict[str, object]:
        """Return every option by name and the rules ``version``."""
        return {"version": RULES_VERSION, **{f.name: getattr(self, f.name) for f in fields(self)}}

    @classmethod
    def from_json(cls, doc: Mapping[str, object]) -> SixDiceRules:
        """Return the rules a stored game was played with (the inverse of :meth:`to_json`).

        >>> SixDiceRules.from_json(CHIP_REROLL.to_json()) == CHIP_REROLL
        True
        """
        version = doc.get("version", RULES_VERSION)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise InvalidRulesError(f"the rules version must be a whole number, got {version!r}")
        if version > RULES_VERSION:
            raise InvalidRulesError(
                f"played under six-dice rules version {version}, newer than this engine's "
                f"({RULES_VERSION}): it cannot be played again with these rules"
            )
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(doc) - known - {"version"})
        if unknown:
            raise InvalidRulesError("unknown six-dice rule options: " + ", ".join(unknown))
        values = {k: v for k, v in doc.items() if k != "version"}
        return cls(**values)  # type: ignore[arg-type]


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
