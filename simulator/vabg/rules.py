"""The rule switches of one VABG game (vabg-rulings.md §0).

Every advanced rule is a field of :class:`GameRules`; :data:`BASIC` and
:data:`ADVANCED` are the two presets. Strategy choices (§10 and the fast-break
extra possession) are on only when ``strategy`` is set.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True, slots=True)
class GameRules:
    """Switch each advanced rule of vabg-rulings.md on or off."""

    advanced_rotation: bool = True
    """§2: stints follow the cards' "can play N of 44"; off = reserves 44-38, starters 37-1."""
    tired_players: bool = True
    """§2: a player past his N has every roll moved one step against him."""
    dunk_steal_turnover_changes: bool = True
    """§3: dunk ranges of 57+ or 43- change opponents' steals and own turnovers."""
    halved_any_defender: bool = True
    """§4: on a d8 of 6-8 steal/block ranges are halved and any defender may use them."""
    twenty_shot: bool = True
    """§4: a player left short of his extra ball numbers makes a 2 on a d20 of 20."""
    home_court: bool = True
    """§6: home fouled ranges gain a number, visitors lose one to a missed call (not neutral)."""
    rebound_chart: bool = True
    """§7: the rebounding chart; off = the shooter's defender gets every miss."""
    fast_breaks: bool = True
    """§8: guards (and forwards on odd steals) shoot a bonus d20 after a steal."""
    pre_1987_centers: bool = True
    """§9: before 1987 a center's 3s are 2s and his 3-made numbers move to the guards."""
    strategy: bool = False
    """§8/§10: the coach policy may foul, try for 3 and take fast-break extra possessions."""
    overtime_possessions: int = 5
    """§1: possessions per team in each overtime period."""

    @property
    def name(self) -> str:
        """Return ``"basic"``, ``"advanced"`` (either may add ``"+strategy"``) or ``"custom"``."""
        for preset_name, preset in PRESETS.items():
            if replace(self, strategy=False) == preset:
                return preset_name + ("+strategy" if self.strategy else "")
        return "custom"

    def to_json(self) -> dict[str, object]:
        """Return every switch by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


ADVANCED = GameRules()
BASIC = GameRules(
    advanced_rotation=False,
    tired_players=False,
    dunk_steal_turnover_changes=False,
    halved_any_defender=False,
    twenty_shot=False,
    home_court=False,
    rebound_chart=False,
    fast_breaks=False,
    pre_1987_centers=False,
)
PRESETS = {"basic": BASIC, "advanced": ADVANCED}


def preset(name: str, *, strategy: bool = False) -> GameRules:
    """Return the ``basic`` or ``advanced`` preset, with the coach policy on if asked."""
    try:
        rules = PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown rules preset {name!r}: use basic or advanced") from None
    return replace(rules, strategy=strategy)
