"""The tables a VABG trip is read from: what each 11-66 roll calls for at each effective
dunk top, and the d20 tables as the rules change them (§2, §3, §6, §10, §12).

The engine plays from these tables and the exact odds (:mod:`simulator.vabg.odds`) count
them; neither keeps a copy (style guide §11, "a public seam").
"""

from __future__ import annotations

from enum import IntEnum

from simulator.vabg.cards import FOULED, MADE2, MADE3, MISS2, MISS3, MISSED_CALL
from simulator.vabg.rules import DUNK_TOP_MAX, DUNK_TOP_MIN, dunk_row

FRESH_READS = tuple(range(21))
"""§2: the table index a d20 shot reads, by the rolled d20, for a fresh player."""
TIRED_READS = tuple(min(20, d20 + 1) for d20 in range(21))
"""§2: the same for a tired player: one higher, 20 at most."""

TRY_MISS = 6
"""The d20 code of a try-for-3 miss: the defense rebounds at once (seed, "Try for 3-pointer")."""

ROLLS = tuple(10 * tens + ones for tens in range(1, 7) for ones in range(1, 7))
"""The 36 equally likely 11-66 rolls (§5)."""


class RollKind(IntEnum):
    """What an 11-66 roll calls for (§3, §5): a steal, block, foul or turnover try (the
    player's range decides), a dunk, a stop, or nothing (the d20 is read)."""

    STEAL_TRY = 0
    BLOCK_TRY = 1
    FOUL_TRY = 2
    TURNOVER_TRY = 3
    DUNK = 4
    STOP = 5
    NOTHING = 6


def roll_kind(roll: int, x: int) -> RollKind:
    """Return what the 11-66 ``roll`` calls for against an effective dunk top ``x`` (§3, §5).

    >>> roll_kind(31, 50).name, roll_kind(55, 60).name, roll_kind(51, 47).name
    ('STEAL_TRY', 'DUNK', 'STOP')
    """
    return RollKind(ROLL_KINDS[x][roll])


def _kind(roll: int, dunks: frozenset[int], stops: frozenset[int]) -> RollKind:
    tens = roll // 10
    if tens == 1 or roll == 31:
        return RollKind.STEAL_TRY
    if tens == 2 or roll == 32:
        return RollKind.BLOCK_TRY
    if tens == 3:
        return RollKind.FOUL_TRY
    if tens == 4:
        return RollKind.TURNOVER_TRY
    if roll in dunks:
        return RollKind.DUNK
    if roll in stops:
        return RollKind.STOP
    return RollKind.NOTHING


# §3: the effective dunk top X, clamped to 34..66, decides dunks, stops and the
# steal/turnover changes (rules.dunk_row): precomputed once for every X.
ROLL_KINDS: list[tuple[int, ...]] = [()] * (DUNK_TOP_MAX + 1)
"""``ROLL_KINDS[x][roll]``: what the 11-66 ``roll`` calls for at effective dunk top X, a
:class:`RollKind` as its plain int (the engine compares it on every trip)."""
STEAL_CHANGES: dict[int, int] = {}
"""§3: by effective dunk top X, the change to the opponents' steal ranges, in numbers."""
TURNOVER_CHANGES: dict[int, int] = {}
"""§3: by effective dunk top X, the change to the offense's own turnover ranges."""
ROLLS_BY_KIND: dict[int, tuple[tuple[int, ...], ...]] = {}
"""``ROLLS_BY_KIND[x][kind]``: the 11-66 rolls of each :class:`RollKind` at top X."""
for _x in range(DUNK_TOP_MIN, DUNK_TOP_MAX + 1):
    _row = dunk_row(_x)
    _dunks, _stops = frozenset(_row.dunks), frozenset(_row.stops)
    ROLL_KINDS[_x] = tuple(int(_kind(roll, _dunks, _stops)) for roll in range(67))
    STEAL_CHANGES[_x], TURNOVER_CHANGES[_x] = _row.steals, _row.turnovers
    ROLLS_BY_KIND[_x] = tuple(
        tuple(roll for roll in ROLLS if ROLL_KINDS[_x][roll] == kind) for kind in RollKind
    )

_MISSES = (MISS3, MISS2, TRY_MISS)


def twenty_shot(d20: int, code: int, eligible: bool) -> bool:
    """Return whether a d20 shot is the §4/§12 "20 shot": a made 2.

    It is when the rolled d20 (not the tired read) is 20, the table reads a miss and the
    shooter is ``eligible``: left short of his extra ball numbers. Every d20 shot, never a
    free throw.

    >>> twenty_shot(20, MISS2, True), twenty_shot(20, MISS2, False), twenty_shot(19, MISS3, True)
    (True, False, False)
    """
    return d20 == 20 and eligible and code in _MISSES


def home_court(table: tuple[int, ...], court: int) -> tuple[int, ...]:
    """Apply §6/§12 home court to a d20 table: +1 gains a fouled number, -1 loses one."""
    if court == 0 or FOULED not in table:
        return table
    top = 20 - table[::-1].index(FOULED)
    if court < 0:
        return (*table[:top], MISSED_CALL, *table[top + 1 :])
    if top < 20:
        return (*table[: top + 1], FOULED, *table[top + 2 :])
    return table


def try3_table(table: tuple[int, ...]) -> tuple[int, ...]:
    """Apply "try for 3" (§10): k lowest 2-made numbers become 3s, k highest become misses
    (:data:`TRY_MISS`).

    k is capped so the 3-made range is at most doubled (an empty one cannot grow).
    """
    made3 = table.count(MADE3)
    twos = [i for i, code in enumerate(table) if code == MADE2 and i > 0]
    k = min(made3, len(twos) // 2)
    out = list(table)
    for i in twos[:k]:
        out[i] = MADE3
    for i in twos[len(twos) - k :] if k else []:
        out[i] = TRY_MISS
    return tuple(out)
