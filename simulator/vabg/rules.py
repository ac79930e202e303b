"""The rule switches of one VABG game (vabg-rulings.md §0).

Every advanced rule is a field of :class:`GameRules`; :data:`BASIC` and
:data:`ADVANCED` are the two presets. Strategy choices (§10 and the fast-break
extra possession) are on only when ``strategy`` is set.

The rulings change only by a dated note. :data:`RULES_VERSION` counts those notes, a
stored game keeps its version with its switches (:meth:`GameRules.to_json`), and
:meth:`GameRules.from_json` plays an older game by the rules it was played with, or
refuses it with :class:`RulesVersionError` when this engine cannot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, fields, replace
from enum import StrEnum
from typing import NamedTuple

from simulator.jsonfile import shown

RULES_VERSION = 4
"""The revision of vabg-rulings.md this engine plays.

1: the rulings as first written (overtime of 5 possessions); 2: the note of 2026-11-23
(overtime of 10 possessions, §1); 3: the notes of 2026-11-26 (a pre-1987 center holds an
extra ball number only when the lineup on the floor gives him one of 6-8, §9) and issue 23
(the strategy choices of §8 and §10 are made by the exact coach: each choice the one with
the higher chance of winning, docs/engine.md "The coach", where fixed thresholds made them);
4: the shot-clock re-roll of a trip fouled on purpose turns any 6-8 over, claimed or not,
as §4 and §12 say of every re-roll (versions 1-3 played a claimed 6-8 there).
"""


class CoachKind(StrEnum):
    """Who makes the strategy choices of §8 and §10 when ``GameRules.strategy`` is on."""

    EXACT = "exact"
    """The exact coach: each choice by the exact odds (``coachodds.solve_coach``)."""
    THRESHOLDS = "thresholds"
    """The fixed thresholds of ``CoachPolicy`` (games stored before rules version 3)."""


_DEFAULTS_BEFORE: dict[int, dict[str, object]] = {
    2: {"overtime_possessions": 5},
    3: {"pre_1987_claimed_extra": False, "coach": CoachKind.THRESHOLDS},
    4: {"fouled_reroll_turnover": False},
}
"""For each version, the switches whose default it changed and their value before it."""


class RulesVersionError(ValueError):
    """Raise for stored rules this engine cannot play; the message says which and why."""


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
    pre_1987_claimed_extra: bool = True
    """§9: the d8-6 player's extra gain needs a 6-8 the lineup gives the center (the note
    of 2026-11-26); off = a center whose card lists an extra number (versions 1-2)."""
    fouled_reroll_turnover: bool = True
    """§4/§12: on the shot-clock re-roll of a trip fouled on purpose (§10) any 6-8 is the
    team turnover, claimed or not, as on every re-roll; off = a claimed 6-8 plays the fouled
    trip (versions 1-3)."""
    strategy: bool = False
    """§8/§10: the coach may foul, try for 3 and take fast-break extra possessions."""
    coach: CoachKind = CoachKind.EXACT
    """Who makes those choices when ``strategy`` is on (fixed thresholds before version 3)."""
    overtime_possessions: int = 10
    """§1: possessions per team in each overtime period (5 before the 2026-11-23 note)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise RulesVersionError(f"the rules switch {f.name} must be true or false")
        if self.coach not in tuple(CoachKind):
            raise RulesVersionError(
                f"the coach must be one of {', '.join(CoachKind)}, got {shown(self.coach)}"
            )
        object.__setattr__(self, "coach", CoachKind(self.coach))  # a stored "exact" reads back
        n = self.overtime_possessions
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 44:
            raise RulesVersionError(
                f"overtime_possessions must be a whole number 1-44, got {shown(n)}"
            )

    @property
    def name(self) -> str:
        """Return ``"basic"``, ``"advanced"`` (either may add ``"+strategy"``, and
        ``"(thresholds)"`` for the coach of games stored before version 3) or ``"custom"``.

        A preset as an older rules version had it is that preset too, so a stored game
        replayed by its own rules keeps its name.

        >>> GameRules.from_json({"version": 1}).name
        'advanced'
        """
        plain = replace(self, strategy=False, coach=CoachKind.EXACT)
        for preset_name, preset in PRESETS.items():
            for version in range(RULES_VERSION, 0, -1):
                if plain == replace(_as_in_version(preset, version), coach=CoachKind.EXACT):
                    if not self.strategy:
                        return preset_name
                    old = " (thresholds)" if self.coach == CoachKind.THRESHOLDS else ""
                    return f"{preset_name}+strategy{old}"
        return "custom"

    def to_json(self) -> dict[str, object]:
        """Return every switch by name, and the rules ``version`` they belong to."""
        return {"version": RULES_VERSION, **{f.name: getattr(self, f.name) for f in fields(self)}}

    @classmethod
    def from_json(cls, doc: Mapping[str, object]) -> GameRules:
        """Return the rules a stored game was played with (the inverse of :meth:`to_json`).

        A document with no ``version`` was stored before versions were kept: version 1.
        A switch it does not name takes the default of its version. Raise
        :class:`RulesVersionError` for a version newer than this engine's or a switch
        it does not know: such a game cannot be played again here.

        >>> GameRules.from_json({"version": 1}).overtime_possessions
        5
        >>> GameRules.from_json(ADVANCED.to_json()) == ADVANCED
        True
        >>> GameRules.from_json({"version": 2, "strategy": True}).coach
        <CoachKind.THRESHOLDS: 'thresholds'>
        """
        version = doc.get("version", 1)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise RulesVersionError(
                f"the rules version must be a whole number, got {shown(version)}"
            )
        if version > RULES_VERSION:
            raise RulesVersionError(
                f"played under rules version {version}, newer than this engine's "
                f"({RULES_VERSION}): it cannot be played again with these rules"
            )
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(doc) - set(known) - {"version"})
        if unknown:
            raise RulesVersionError(
                f"rules version {version} names switches this engine does not have: "
                + ", ".join(unknown)
            )
        values: dict[str, object] = {
            name: f.default for name, f in known.items() if f.default is not MISSING
        }
        values.update(_changed_since(version))
        values.update({k: v for k, v in doc.items() if k != "version"})
        return cls(**values)  # type: ignore[arg-type]


def _changed_since(version: int) -> dict[str, object]:
    """Return the switches a later version changed, with their value in ``version``."""
    values: dict[str, object] = {}
    # Latest change first, so a switch changed twice keeps the value of the earliest.
    for changed_in, before in sorted(_DEFAULTS_BEFORE.items(), reverse=True):
        if version < changed_in:
            values.update(before)
    return values


def _as_in_version(rules: GameRules, version: int) -> GameRules:
    """Return ``rules`` with the switches ``version`` had otherwise set as it had them."""
    return replace(rules, **_changed_since(version))  # type: ignore[arg-type]


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


def preset(name: str, *, strategy: bool = False, version: int = RULES_VERSION) -> GameRules:
    """Return the ``basic`` or ``advanced`` preset, with the strategy choices on if asked, as
    rules ``version`` had it (a table game keeps the version it began under).

    >>> preset("advanced", strategy=True, version=2).coach, preset("advanced").coach
    (<CoachKind.THRESHOLDS: 'thresholds'>, <CoachKind.EXACT: 'exact'>)
    """
    try:
        rules = PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown rules preset {name!r}: use basic or advanced") from None
    if not 1 <= version <= RULES_VERSION:
        raise RulesVersionError(
            f"rules version {version} is not one this engine plays (1 to {RULES_VERSION})"
        )
    return _as_in_version(replace(rules, strategy=strategy), version)


DUNK_TOP_MIN, DUNK_TOP_MAX = 34, 66
"""§3: the effective dunk top X is clamped to this range (and a card's dunk top lies in it)."""
DUNK_ADJUST_MIN, DUNK_ADJUST_MAX = -32, 32
"""§12: a card's dunk adjust lies in this range (with it any top reaches both ends of X)."""


def effective_dunk_top(dunk_top: int, dunk_adjust: int) -> int:
    """Return X (§3, §12): the carrier's dunk top plus the adjust of the defender in his
    slot, clamped to 34..66.

    >>> effective_dunk_top(60, -3), effective_dunk_top(40, -32), effective_dunk_top(66, 5)
    (57, 34, 66)
    """
    x = dunk_top + dunk_adjust
    return DUNK_TOP_MIN if x < DUNK_TOP_MIN else DUNK_TOP_MAX if x > DUNK_TOP_MAX else x


class DunkRow(NamedTuple):
    """What one effective dunk top X does (§3): the one table the engine and the cards read.

    ``dunks`` and ``stops`` are the 51-66 rolls that dunk or stop; ``steals`` and
    ``turnovers`` change the opponent's steal ranges and the offense's own turnover ranges,
    in numbers (negative = shorter), when the advanced rule is on.
    """

    dunks: tuple[int, ...]
    stops: tuple[int, ...]
    steals: int
    turnovers: int


# (opponent steals, own turnovers) for X = 57-59 and 41-43; from 60 up it is -2/-2,
# from 40 down +2/+2 (§3).
_DUNK_CHANGES = {57: (-1, 0), 58: (-1, -1), 59: (-2, -1), 43: (1, 0), 42: (1, 1), 41: (2, 1)}


def dunk_row(x: int) -> DunkRow:
    """Return the row of the dunk table (§3) for an effective top X, clamped to 34..66.

    >>> dunk_row(62)
    DunkRow(dunks=(51, 52, 53, 54, 55, 56, 61, 62), stops=(), steals=-2, turnovers=-2)
    >>> dunk_row(47)
    DunkRow(dunks=(), stops=(51, 52, 53), steals=0, turnovers=0)
    >>> dunk_row(38).stops
    (51, 52, 53, 54, 55, 56, 61, 62)
    """
    x = effective_dunk_top(x, 0)
    if x >= 61:
        dunks = (*range(51, 57), *range(61, x + 1))
    elif x >= 57:
        dunks = tuple(range(51, 57))
    else:
        dunks = tuple(range(51, x + 1))  # empty for X <= 50
    if 44 <= x <= 49:
        stops = tuple(range(51, 51 + 50 - x))  # the first 50-X numbers of 51-56
    elif x <= 43:
        stops = (*range(51, 57), *range(61, 61 + 39 - x + 1))  # 61..(61+39-X) for X <= 39
    else:
        stops = ()
    far = (-2, -2) if x >= 60 else (2, 2) if x <= 40 else (0, 0)
    steals, turnovers = _DUNK_CHANGES.get(x, far)
    return DunkRow(dunks, stops, steals, turnovers)


# -- the rules every part of the product reads alike (style guide §11, "one rule, one
# function"): the engine, the exact odds and the score sheet call these, never a copy.


def one_and_one(period: int, number: int) -> bool:
    """Return whether a d20 "foul" after a 33-36 foul is a one-and-one (§5): on numbers
    33 through 11 of regulation (period 0); otherwise, and in overtime, two shots.

    >>> [one_and_one(0, n) for n in (34, 33, 11, 10)], one_and_one(1, 20)
    ([False, True, True, False], False)
    """
    return period == 0 and 11 <= number <= 33


def chart_number(number: int) -> bool:
    """Return whether a miss at this possession number is rebounded by the chart (§7): even
    numbers and 1; on the other odd numbers a named defender takes it (when the chart
    rule is on at all).

    >>> [chart_number(n) for n in (44, 43, 2, 1)]
    [True, False, True, True]
    """
    return number % 2 == 0 or number == 1


REBOUND_CHART = {1: 4, 2: 4, 3: 4, 4: 3, 5: 3, 6: 2, 7: 2, 8: 1, 9: 0}
"""§7: the chart's d20 1-9 for the offense (11-19, less 10, for the defense) -> the floor
index of the player it names: 1-3 C, 4-5 PF, 6-7 SF, 8 SG, 9 PG."""

BEST_REBOUNDER = -1
"""What :func:`odd_number_rebounder` returns for "the best defensive rebounder"."""


def longest(ranges: Sequence[int]) -> int:
    """Return the floor index of the longest range (§7: the best rebounder), ties going to
    the lower slot.

    >>> longest([3, 5, 5, 1, 0])
    1
    """
    return ranges.index(max(ranges))


def odd_number_rebounder(number: int) -> int:
    """Return the floor index of the defender who rebounds a miss on an odd number other
    than 1 (§7), or :data:`BEST_REBOUNDER`: C on 43, 33, 23, 13, 3; PF on 41, 31, 21, 11;
    the best defensive rebounder on 39, 29, 19, 9; SF on 37, 27, 17, 7; SG on 35, 15; PG
    on 25, 5. Overtime reads the same table by number.

    >>> [odd_number_rebounder(n) for n in (43, 41, 39, 37, 35, 25)]
    [4, 3, -1, 2, 1, 0]
    """
    last = number % 10
    if last == 3:
        return 4
    if last == 1:
        return 3
    if last == 9:
        return BEST_REBOUNDER
    if last == 7:
        return 2
    return 1 if (number // 10) % 2 else 0  # 35, 15 -> SG; 25, 5 -> PG


def free_throw_rebounder(d20: int) -> int | None:
    """Return the floor index of the defender a missed last free throw goes to on the
    chart's d20 (§6): 6-9 the PF, 16-19 the C, with no d6 check; None where the chart
    reads as for any miss.

    >>> [free_throw_rebounder(d20) for d20 in (5, 6, 9, 10, 16, 19, 20)]
    [None, 3, 3, None, 4, 4, None]
    """
    if 6 <= d20 <= 9:
        return 3
    if 16 <= d20 <= 19:
        return 4
    return None


def halved_range(count: int) -> int:
    """Return a steal or block range of ``count`` numbers halved on a d8 of 6-8 (§4),
    rounding the count up: 11-15 -> 11-13, 11-20 -> 11-15, 21-22 -> 21-21.

    >>> [halved_range(c) for c in (5, 10, 11, 2, 0)]
    [3, 5, 6, 1, 0]
    """
    return (count + 1) // 2


def fast_break(slot: int, roll: int) -> bool:
    """Return whether the stealer in ``slot`` (1-5) fast-breaks after a steal on ``roll``
    (§8): a guard always, a forward on an odd roll (11, 13, 15, 31), a center never.

    >>> [fast_break(2, 12), fast_break(3, 12), fast_break(4, 31), fast_break(5, 11)]
    [True, False, True, False]
    """
    return slot <= 2 or (slot <= 4 and roll in (11, 13, 15, 31))


def changed_range(count: int, change: int) -> int:
    """Return a steal or turnover range of ``count`` numbers after §3's change of
    ``change`` numbers: a range that had a number keeps one, an empty one stays empty.

    >>> changed_range(4, -2), changed_range(1, -2), changed_range(0, 2), changed_range(2, 2)
    (2, 1, 0, 4)
    """
    if not count:
        return 0
    return max(1, count + change)


def tired_range(count: int, tired: int) -> int:
    """Return a defender's steal or block range of ``count`` numbers as he plays it (§2):
    one number shorter when he is tired (``tired`` 1), an empty range staying empty.

    >>> tired_range(3, 1), tired_range(0, 1), tired_range(3, 0)
    (2, 0, 3)
    """
    return count - 1 if tired and count else count


def foul_reach(count: int, tired: int) -> int:
    """Return the lowest 33-36 roll that is the defender's foul (§5): his card's range of
    ``count`` numbers ending at 36, one number longer when he is tired (§2).

    >>> foul_reach(2, 0), foul_reach(2, 1), foul_reach(0, 0)
    (35, 34, 37)
    """
    return 37 - count - tired


def free_throw_reach(top: int, tired: int) -> int:
    """Return the highest d20 that makes a free throw (§5): the card's top, one lower when
    the shooter is tired (§2: his d20 reads one higher).

    >>> free_throw_reach(14, 0), free_throw_reach(14, 1)
    (14, 13)
    """
    return top - tired


def steals_on(roll: int, count: int) -> bool:
    """Return whether an 11-66 ``roll`` is a steal for a range of ``count`` numbers from 11
    (§5): 11-16, or 31 for a range that reaches 21 (a count of 21: 11-20 and 31).

    >>> steals_on(13, 3), steals_on(14, 3), steals_on(31, 21), steals_on(22, 21)
    (True, False, True, False)
    """
    return (11 <= roll <= 16 or roll == 31) and roll - 10 <= count


def turns_over_on(roll: int, reach: int) -> bool:
    """Return whether an 11-66 ``roll`` is the carrier's turnover, his range covering 41
    to 40 + ``reach`` (:func:`turnover_reach`).

    >>> turns_over_on(42, 2), turns_over_on(43, 2), turns_over_on(12, 2)
    (True, False, False)
    """
    return 41 <= roll <= 46 and roll - 40 <= reach


class Stealer(NamedTuple):
    """A defender who may steal, and his steal range in numbers from 11."""

    who: int
    """His floor index (0-4, slot 1 first)."""
    numbers: int
    """His range: 11 to 10 + numbers (21: 11-20 and 31)."""


def fouling_stealer(counts: Sequence[int], idx: int, claimed: bool) -> Stealer:
    """Return who may steal on a trip the defense fouls on purpose (§10, seed "Go for
    Steal"), and his range: the carrier's defender at his range on a d8 of 1-5; on a
    claimed 6-8 (``claimed``) the defender with the longest range, ties to the carrier's
    own and then the lower slot, his range 4 longer when it passes 11-16.

    ``counts`` are the defenders' steal ranges as they play them (:func:`tired_range`),
    ``idx`` the carrier's floor index.

    >>> fouling_stealer([3, 7, 2, 1, 0], 0, False), fouling_stealer([3, 7, 2, 1, 0], 0, True)
    (Stealer(who=0, numbers=3), Stealer(who=1, numbers=11))
    """
    if not claimed:
        return Stealer(idx, counts[idx])
    thief = max(range(5), key=lambda i: (counts[i], i == idx, -i))
    count = counts[thief]
    return Stealer(thief, count + 4 if count > 6 else count)


def fouling_steal_31(counts: Sequence[int], idx: int, count: int) -> Stealer | None:
    """Return the stealer and his range on a 31 of a fouled trip when the steal goes past
    the chosen defender (§10): to the longest range if it reaches 11-20, else None.

    >>> fouling_steal_31([3, 10, 2, 1, 0], 0, 3), fouling_steal_31([3, 9, 2, 1, 0], 0, 3)
    (Stealer(who=1, numbers=21), None)
    """
    if max(counts) >= 10 and count < 21:
        return Stealer(max(range(5), key=lambda i: (counts[i], i == idx, -i)), 21)
    return None


def turnover_reach(count: int, change: int, tired: int) -> int:
    """Return how many of the rolls 41-46 are the carrier's turnover (§3, §5, §12): his
    card's count, §3's change (:func:`changed_range`), then one longer when he is tired
    (``tired`` 1), even from an empty range.

    >>> turnover_reach(3, -1, 0), turnover_reach(0, -2, 1), turnover_reach(1, -2, 1)
    (2, 1, 2)
    """
    return changed_range(count, change) + tired


def ball_claims(extras: Sequence[int]) -> dict[int, int]:
    """Return who claims the d8 numbers 6, 7 and 8 (§4): ``{number: floor index}``.

    ``extras`` are the extra ball numbers of the five on the floor, slot 1 first; each
    claims as many of the still-free numbers 6, 7, 8, in that order, as he has extras.
    A number nobody claims is left out.

    >>> ball_claims([1, 0, 2, 1, 1])
    {6: 0, 7: 2, 8: 2}
    """
    claims: dict[int, int] = {}
    free = 6
    for i, count in enumerate(extras):
        for _ in range(count):
            if free > 8:
                return claims
            claims[free] = i
            free += 1
    return claims


def ball_carriers(claims: Mapping[int, int], point_guard: bool) -> tuple[int | None, ...]:
    """Return who takes the ball on each d8 (§4), indexed by the d8 (entry 0 unused): 1-5
    the player in that slot, 6-8 whoever claims the number (:func:`ball_claims`) when slot
    1 can run the point; None where nobody does (the shot clock runs down).

    >>> ball_carriers({6: 0, 7: 2}, True)[1:], ball_carriers({6: 0}, False)[6:]
    ((0, 1, 2, 3, 4, 0, 2, None), (None, None, None))
    """
    taken = claims if point_guard else {}
    return (None, 0, 1, 2, 3, 4, taken.get(6), taken.get(7), taken.get(8))


def pre_1987_gains(
    *,
    center_made3: int,
    center_extras: int,
    claims: Mapping[int, int],
    point_guard: bool,
    claimed_extra: bool = True,
) -> tuple[int, int, int, int, int]:
    """Return how many 3-made numbers each of the five on the floor gains from a pre-1987
    center (§9), slot 1 first.

    His 3-made count n moves to the guards: n=1 the SG gains one, n=2 the PG and the SG
    one each, n>=3 the SG two and the PG one. If the center holds an extra ball number,
    whoever takes the d8 6 gains one more (not the center himself: his 3s are 2s).

    ``claims`` is :func:`ball_claims` of the lineup and ``point_guard`` whether slot 1 can
    run the point (without one no 6-8 goes to anybody, §4). With ``claimed_extra`` (the
    note of 2026-11-26, rules version 3) the center holds an extra number when one of
    6-8 actually goes to him in this lineup; without it (versions 1-2) when his card
    lists one (``center_extras``), and the 6 counts whoever claims it.

    >>> pre_1987_gains(center_made3=2, center_extras=1, claims={6: 0, 7: 2, 8: 3},
    ...                point_guard=True)
    (1, 1, 0, 0, 0)
    >>> pre_1987_gains(center_made3=2, center_extras=1, claims={6: 0, 7: 4},
    ...                point_guard=True)
    (2, 1, 0, 0, 0)
    """
    gains = [0, 0, 0, 0, 0]
    if center_made3 <= 0:
        return (0, 0, 0, 0, 0)
    gains[1] += 2 if center_made3 >= 3 else 1
    gains[0] += 0 if center_made3 == 1 else 1
    if claimed_extra:
        going = claims if point_guard else {}
        holds = 4 in going.values()
    else:
        going = claims
        holds = center_extras > 0
    taker = going.get(6)
    if holds and taker is not None and taker != 4:
        gains[taker] += 1
    return (gains[0], gains[1], gains[2], gains[3], gains[4])


EXTRA_POSSESSION_WITHIN = 5
"""§8: a trailing team that fast-breaks in the last this many numbers of a period may give
both teams one extra possession (the seed's limit)."""


def may_take_extra_possession(n: int) -> bool:
    """Return whether a fast break at number ``n`` may earn the extra possessions (§8)."""
    return n <= EXTRA_POSSESSION_WITHIN


def may_call_foul_round(n: int) -> bool:
    """Return whether an intentional foul may be called before number ``n`` (§10: the
    extra possessions 2a and 1a are played before 2 and 1 of any period)."""
    return n <= 2
