"""VABG card types and the ``vabg-team/1`` team file (``interchange.md``).

The Django side builds these frozen types from its models; the command line
builds them from team files with :func:`team_from_json`, which reports every
problem of a file at once, naming the player and the field.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator.jsonfile import (
    JsonFileError,
    format_problem,
    got,
    kind,
    read_json_file,
    shown,
)
from simulator.vabg.rules import DUNK_ADJUST_MAX, DUNK_ADJUST_MIN, DUNK_TOP_MAX, DUNK_TOP_MIN

TEAM_FORMAT = "vabg-team/1"
D20_KEYS = ("3PM", "2PM", "FOUL", "3PX", "2PX")
CARD_SOURCES = ("published", "calculated", "estimated")
ROLES = ("starter", "reserve")
SLOT_NAMES = {1: "PG", 2: "SG", 3: "SF", 4: "PF", 5: "C"}

# Outcome codes of a d20 table, in the order of D20_KEYS.
MADE3, MADE2, FOULED, MISS3, MISS2 = range(5)
# Extra code used by home-court tables: the referee missed the call (a turnover).
MISSED_CALL = 5

Range = tuple[int, int]


class InvalidCardError(ValueError):
    """Raise for a card or team that breaks the ``vabg-team/1`` rules; lists every problem."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True, slots=True)
class D20Column:
    """Split 1-20 into the five shot outcomes of a card's right column (``None`` = absent)."""

    made3: Range | None
    made2: Range | None
    fouled: Range | None
    miss3: Range | None
    miss2: Range | None
    codes: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The outcome code of each roll (index 0 unused), computed once."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "codes", self.table())

    def ranges(self) -> tuple[Range | None, ...]:
        """Return the five ranges in ``D20_KEYS`` order."""
        return (self.made3, self.made2, self.fouled, self.miss3, self.miss2)

    def table(self) -> tuple[int, ...]:
        """Return the outcome code for each roll; index 0 is unused.

        >>> D20Column((1, 3), (4, 8), (9, 11), (12, 16), (17, 20)).table()[1:5]
        (0, 0, 0, 1)
        """
        out = [-1] * 21
        for code, rng in enumerate(self.ranges()):
            if rng is not None:
                for roll in range(rng[0], rng[1] + 1):
                    out[roll] = code
        return tuple(out)

    def to_json(self) -> dict[str, str | None]:
        """Return the ``d20`` object of a team file."""
        return {key: _range_text(rng) for key, rng in zip(D20_KEYS, self.ranges(), strict=True)}


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """Hold one printed VABG player card; ranges are stored by their open end."""

    name: str
    slot: int
    role: str
    positions: tuple[int, ...]
    extra_ball: int
    can_play: int
    steal_top: int
    block_top: int
    foul_from: int
    turnover_top: int
    d20: D20Column
    free_throw_top: int
    off_reb: int
    def_reb: int
    height: str | None = None
    ppg: float | None = None
    dunk_top: int | None = None
    dunk_adjust: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def is_starter(self) -> bool:
        """Tell whether the card starts in its slot."""
        return self.role == "starter"

    @property
    def can_run_point(self) -> bool:
        """Tell whether 0 or 1 is among the suggested positions (vabg-rulings.md §4)."""
        return 0 in self.positions or 1 in self.positions

    def ball_numbers(self) -> str:
        """Return the ball numbers as a printed card shows them, such as ``"5&7"``."""
        extras = {0: "", 1: "&7", 2: " 6&8"}[self.extra_ball]
        return f"{self.slot}{extras}"

    def to_json(self) -> dict[str, Any]:
        """Return the player object of a team file, unknown keys kept."""
        out: dict[str, Any] = dict(self.extra)
        out.update(
            name=self.name,
            slot=self.slot,
            role=self.role,
            positions=list(self.positions),
            extra_ball=self.extra_ball,
            can_play=self.can_play,
        )
        if self.height is not None:
            out["height"] = self.height
        if self.ppg is not None:
            out["ppg"] = self.ppg
        out.update(
            steal_top=self.steal_top,
            block_top=self.block_top,
            foul_from=self.foul_from,
            turnover_top=self.turnover_top,
            d20=self.d20.to_json(),
            free_throw_top=self.free_throw_top,
            off_reb=self.off_reb,
            def_reb=self.def_reb,
        )
        if self.dunk_top is not None:
            out["dunk_top"] = self.dunk_top
        if self.dunk_adjust is not None:
            out["dunk_adjust"] = self.dunk_adjust
        return out


@dataclass(frozen=True, slots=True)
class TeamCard:
    """Hold a team: its dunk range and adjustment and its player cards in file order."""

    school: str
    season: int
    dunk_top: int
    dunk_adjust: int
    players: tuple[PlayerCard, ...]
    conference: str | None = None
    card_source: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        problems = _team_rules(self)
        if problems:
            raise InvalidCardError(problems)

    @property
    def label(self) -> str:
        """Return the team's name as fans say it: ``"Kentucky 2012"``."""
        return f"{self.school} {self.season}"

    def starter(self, slot: int) -> PlayerCard:
        """Return the starter in a slot (1-5)."""
        return next(p for p in self.players if p.slot == slot and p.is_starter)

    def reserves(self, slot: int) -> tuple[PlayerCard, ...]:
        """Return a slot's reserves in the order they play."""
        return tuple(p for p in self.players if p.slot == slot and not p.is_starter)

    def player(self, name: str) -> PlayerCard:
        """Return the player with this name, or raise ``KeyError``."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(f"{self.label} has no player named {name!r}")

    def to_json(self) -> dict[str, Any]:
        """Return the team as a ``vabg-team/1`` document, unknown keys kept."""
        out: dict[str, Any] = dict(self.extra)
        out.update(format=TEAM_FORMAT, school=self.school, season=self.season)
        if self.conference is not None:
            out["conference"] = self.conference
        out.update(dunk_top=self.dunk_top, dunk_adjust=self.dunk_adjust)
        if self.card_source is not None:
            out["card_source"] = self.card_source
        out["players"] = [p.to_json() for p in self.players]
        return out


# -- reading and validating team files ---------------------------------------------------

_DUNK_BOUNDS = {
    "dunk_top": (DUNK_TOP_MIN, DUNK_TOP_MAX),
    "dunk_adjust": (DUNK_ADJUST_MIN, DUNK_ADJUST_MAX),
}
TEAM_BOUNDS = {"season": (1800, 2200), **_DUNK_BOUNDS}
"""A team file's whole-number fields and their bounds (interchange.md)."""
_PLAYER_INT_BOUNDS = {
    "slot": (1, 5),
    "extra_ball": (0, 2),
    "can_play": (0, 66),
    "steal_top": (10, 30),
    "block_top": (20, 40),
    "foul_from": (33, 37),
    "turnover_top": (40, 46),
    "free_throw_top": (0, 20),
    "off_reb": (0, 20),
    "def_reb": (0, 20),
}
_PLAYER_OPTIONAL_INT_BOUNDS = _DUNK_BOUNDS
CARD_BOUNDS = {**_PLAYER_INT_BOUNDS, **_PLAYER_OPTIONAL_INT_BOUNDS}
"""A player card's whole-number fields and their bounds (interchange.md)."""
TEAM_KEYS = frozenset(
    {
        "format",
        "school",
        "season",
        "conference",
        "dunk_top",
        "dunk_adjust",
        "card_source",
        "players",
    }
)
"""The keys of a team file's team object; any other is kept as written and not read."""
PLAYER_KEYS = frozenset({*CARD_BOUNDS, "name", "role", "positions", "height", "ppg", "d20"})
"""The keys of a team file's player object; any other is kept as written and not read."""


def _one_slip(typed: str, key: str) -> bool:
    """Tell whether ``typed`` is ``key`` with one typing slip: in other capitals, a letter
    changed, added or left out, or two neighbouring letters swapped."""
    a, b = typed.casefold(), key.casefold()
    if a == b:
        return True
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )  # fmt: skip
    short, long = sorted((a, b), key=len)
    return len(long) == len(short) + 1 and any(
        long[:i] + long[i + 1 :] == short for i in range(len(long))
    )


def key_slips(keys: Iterable[str], known: Collection[str], who: str = "") -> list[str]:
    """Say of each key not in ``known`` that is one typing slip from a known one ("pgg" for
    "ppg") that it is not read: unknown keys are ignored (and kept as written,
    interchange.md), so a misspelt optional field would otherwise be lost without a word.
    ``who`` begins each line ("player 3 (Name): ")."""
    said = []
    for key in keys:
        if key in known:
            continue
        near = sorted(k for k in known if _one_slip(key, k))
        if near:
            said.append(
                f'{who}"{key}" is not a team-file field and is not read: did you mean "{near[0]}"?'
            )
    return said


def team_key_slips(team: TeamCard) -> list[str]:
    """Return :func:`key_slips` of a team read from a file: its own unknown keys' and each
    player's."""
    said = key_slips(team.extra, TEAM_KEYS)
    for i, player in enumerate(team.players, start=1):
        said += key_slips(player.extra, PLAYER_KEYS, f"{_who(i, player.name)}: ")
    return said


def read_team_file(path: str | Path) -> TeamCard:
    """Read and validate a ``vabg-team/1`` file; raise :class:`InvalidCardError` on any problem."""
    path = Path(path)
    try:
        data = read_json_file(path)
    except JsonFileError as exc:
        raise InvalidCardError([str(exc)]) from exc
    try:
        return team_from_json(data)
    except InvalidCardError as exc:
        raise InvalidCardError([f"{path}: {p}" for p in exc.problems]) from exc


def team_from_json(data: object) -> TeamCard:
    """Build a :class:`TeamCard` from a parsed team file, reporting every problem at once."""
    if not isinstance(data, dict):
        raise InvalidCardError(["a team file must be a JSON object"])
    problems: list[str] = []
    if wrong := format_problem(data, TEAM_FORMAT, "a team file"):
        problems.append(wrong)
    school = data.get("school")
    if not isinstance(school, str) or not school.strip():
        problems.append(f"school: must be a non-empty text, {got(data, 'school')}")
    ints = {key: _int(data, key, lo, hi, "", problems) for key, (lo, hi) in TEAM_BOUNDS.items()}
    conference = _optional_text(data, "conference", "", problems)
    source = data.get("card_source")
    if source is not None and source not in CARD_SOURCES:
        problems.append(
            f"card_source: must be one of {', '.join(CARD_SOURCES)}, got {shown(source)}"
        )
    raw_players = data.get("players")
    players: list[PlayerCard] = []
    if raw_players is None:
        problems.append("players is missing: a team file lists its players")
    elif not isinstance(raw_players, list):
        problems.append(f"players: must be a list, got {kind(raw_players)}")
    else:
        for i, raw in enumerate(raw_players, start=1):
            card = _player_from_json(raw, i, problems)
            if card is not None:
                players.append(card)
    if problems:
        # Cross-player rules still help when single fields are wrong: read each raw
        # player's name, slot and role where they are usable, so every problem shows; and a
        # key one slip from a field ("stael_top") may be why a field is missing.
        problems.extend(key_slips(data, TEAM_KEYS))
        if isinstance(raw_players, list):
            problems.extend(_roster_problems([_roster_entry(raw) for raw in raw_players]))
            for i, raw in enumerate(raw_players, start=1):
                if isinstance(raw, dict):
                    problems.extend(key_slips(raw, PLAYER_KEYS, f"{_who(i, raw.get('name'))}: "))
        raise InvalidCardError(problems)
    assert isinstance(school, str)
    return TeamCard(
        school=school.strip(),
        season=ints["season"],
        dunk_top=ints["dunk_top"],
        dunk_adjust=ints["dunk_adjust"],
        players=tuple(players),
        conference=conference,
        card_source=source,
        extra={k: v for k, v in data.items() if k not in TEAM_KEYS},
    )


def _who(index: int, name: object) -> str:
    """Name a player of a file in its messages: "player 3 (Brandon Rush)", or "player 3"."""
    return f"player {index} ({name})" if isinstance(name, str) and name else f"player {index}"


def _player_from_json(raw: object, index: int, problems: list[str]) -> PlayerCard | None:
    if not isinstance(raw, dict):
        problems.append(f"player {index}: must be an object, got {kind(raw)}")
        return None
    name = raw.get("name")
    who = _who(index, name)
    before = len(problems)
    if not isinstance(name, str) or not name.strip():
        problems.append(f"{who}: name must be a non-empty text, {got(raw, 'name')}")
    ints = {
        key: _int(raw, key, lo, hi, f"{who}: ", problems)
        for key, (lo, hi) in _PLAYER_INT_BOUNDS.items()
    }
    overrides = {
        key: _int(raw, key, lo, hi, f"{who}: ", problems) if raw.get(key) is not None else None
        for key, (lo, hi) in _PLAYER_OPTIONAL_INT_BOUNDS.items()
    }
    role = raw.get("role")
    if role not in ROLES:
        problems.append(f'{who}: role must be "starter" or "reserve", {got(raw, "role")}')
    positions = raw.get("positions")
    if (
        not isinstance(positions, list)
        or not positions
        or any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= 5 for p in positions)
        or len(set(positions)) != len(positions)
    ):
        problems.append(
            f"{who}: positions must be a non-empty list of distinct numbers 0-5, "
            + got(raw, "positions")
        )
    height = _optional_text(raw, "height", f"{who}: ", problems)
    ppg = raw.get("ppg")
    if ppg is not None and (
        isinstance(ppg, bool) or not isinstance(ppg, int | float) or not 0 <= ppg <= 200
    ):
        problems.append(f"{who}: ppg must be a number of points per game, got {shown(ppg)}")
    d20 = _d20_from_json(raw.get("d20"), who, problems)
    if len(problems) > before:
        return None
    assert isinstance(name, str) and isinstance(positions, list) and d20 is not None
    return PlayerCard(
        name=name.strip(),
        role=str(role),
        positions=tuple(positions),
        height=height,
        ppg=None if ppg is None else float(ppg),
        d20=d20,
        extra={k: v for k, v in raw.items() if k not in PLAYER_KEYS},
        slot=ints["slot"],
        extra_ball=ints["extra_ball"],
        can_play=ints["can_play"],
        steal_top=ints["steal_top"],
        block_top=ints["block_top"],
        foul_from=ints["foul_from"],
        turnover_top=ints["turnover_top"],
        free_throw_top=ints["free_throw_top"],
        off_reb=ints["off_reb"],
        def_reb=ints["def_reb"],
        dunk_top=overrides["dunk_top"],
        dunk_adjust=overrides["dunk_adjust"],
    )


def _d20_from_json(raw: object, who: str, problems: list[str]) -> D20Column | None:
    if not isinstance(raw, dict):
        problems.append(
            f"{who}: d20 must be an object with {', '.join(D20_KEYS)}, got {shown(raw)}"
        )
        return None
    ranges: list[Range | None] = []
    ok = True
    for key in D20_KEYS:
        if key not in raw:
            problems.append(
                f"{who}: d20 has no {key} (use null for an outcome the card does not have)"
            )
            ok = False
            ranges.append(None)
            continue
        text = raw[key]
        if text is None:
            ranges.append(None)
            continue
        rng = _parse_range(text)
        if rng is None:
            problems.append(f'{who}: d20 {key} must be "a-b" or "a" within 1-20, got {shown(text)}')
            ok = False
        ranges.append(rng)
    if not ok:
        return None
    column = D20Column(*ranges)
    coverage = _d20_coverage_problems(column)
    if coverage:
        problems.extend(f"{who}: {p}" for p in coverage)
        return None
    return column


def _d20_coverage_problems(column: D20Column) -> list[str]:
    seen: dict[int, list[str]] = {n: [] for n in range(1, 21)}
    for key, rng in zip(D20_KEYS, column.ranges(), strict=True):
        if rng is not None:
            for n in range(rng[0], rng[1] + 1):
                seen[n].append(key)
    out = []
    missing = [n for n, keys in seen.items() if not keys]
    if missing:
        what = "leave " + _numbers_text(missing) + " uncovered"
        out.append(f"the d20 ranges {what}")
    # One line for each set of ranges that overlap, naming all the numbers they share.
    twice: dict[tuple[str, ...], list[int]] = {}
    for n, keys in seen.items():
        if len(keys) > 1:
            twice.setdefault(tuple(keys), []).append(n)
    for ranges, numbers in twice.items():
        out.append(
            f"the d20 ranges cover {_numbers_text(numbers)} more than once ({' and '.join(ranges)})"
        )
    return out


_RosterEntry = tuple[str | None, int | None, bool]


def _roster_entry(raw: object) -> _RosterEntry:
    """Return what the roster rules need of a raw player: name, slot, starter (or None)."""
    if not isinstance(raw, dict):
        return None, None, False
    name = raw.get("name")
    slot = raw.get("slot")
    usable = slot in range(1, 6) and not isinstance(slot, bool)
    usable = usable and raw.get("role") in ROLES
    return (
        name.strip() if isinstance(name, str) and name.strip() else None,
        slot if usable else None,
        raw.get("role") == "starter",
    )


def _roster_rules(players: Sequence[PlayerCard]) -> list[str]:
    return _roster_problems([(p.name, p.slot, p.is_starter) for p in players])


def _roster_problems(players: Sequence[_RosterEntry]) -> list[str]:
    problems = []
    if not 5 <= len(players) <= 10:
        problems.append(f"players: a roster holds 5 to 10 players, this one has {len(players)}")
    names: dict[str, list[int]] = {}
    for number, (name, _, _) in enumerate(players, start=1):
        if name is not None:
            names.setdefault(name, []).append(number)
    for name, numbers in names.items():
        if len(numbers) > 1:
            where = ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"
            problems.append(
                f"players: the name {name!r} is used {len(numbers)} times (players {where})"
            )
    for slot in range(1, 6):
        starters = [n or "?" for n, s, starter in players if s == slot and starter]
        if not starters and all(s is not None for _, s, _ in players):
            # (a player whose slot cannot be read may be the missing starter)
            problems.append(f"players: slot {slot} ({SLOT_NAMES[slot]}) has no starter")
        elif len(starters) > 1:
            problems.append(
                f"players: slot {slot} ({SLOT_NAMES[slot]}) has {len(starters)} starters "
                f"({', '.join(starters)})"
            )
    return problems


def _team_rules(team: TeamCard) -> list[str]:
    problems = []
    for key, (lo, hi) in TEAM_BOUNDS.items():
        value = getattr(team, key)
        if not lo <= value <= hi:
            problems.append(f"{key}: must be {lo} to {hi}, got {value}")
    problems.extend(_roster_rules(team.players))
    for p in team.players:
        for key, (lo, hi) in _PLAYER_INT_BOUNDS.items():
            value = getattr(p, key)
            if not lo <= value <= hi:
                problems.append(f"player {p.name}: {key} must be {lo} to {hi}, got {value}")
        problems.extend(f"player {p.name}: {x}" for x in _d20_coverage_problems(p.d20))
    return problems


def _int(
    data: Mapping[str, object], key: str, lo: int, hi: int, who: str, problems: list[str]
) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        if key not in data:
            problems.append(f"{who}{key} is missing")
        else:
            problems.append(f"{who}{key} must be a whole number {lo} to {hi}, got {shown(value)}")
        return lo
    if not lo <= value <= hi:
        problems.append(f"{who}{key} must be {lo} to {hi}, got {value}")
    return value


def _optional_text(
    data: Mapping[str, object], key: str, who: str, problems: list[str]
) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        problems.append(f"{who}{key} must be text, got {shown(value)}")
        return None
    return value


def _parse_range(text: object) -> Range | None:
    if not isinstance(text, str):
        return None
    parts = text.strip().split("-")
    # ASCII digits only: "²".isdigit() is true but int("²") fails.
    if len(parts) > 2 or not all(re.fullmatch(r"[0-9]+", p.strip()) for p in parts):
        return None
    lo, hi = int(parts[0]), int(parts[-1])
    if not 1 <= lo <= hi <= 20:
        return None
    return lo, hi


def _range_text(rng: Range | None) -> str | None:
    if rng is None:
        return None
    return str(rng[0]) if rng[0] == rng[1] else f"{rng[0]}-{rng[1]}"


def _numbers_text(numbers: Sequence[int]) -> str:
    runs: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(runs)


def d20_coverage_problems(column: D20Column) -> list[str]:
    """Return how a d20 column fails to cover 1-20 exactly once, in the card's own terms.

    >>> d20_coverage_problems(D20Column((1, 3), (4, 8), (9, 11), (12, 16), (18, 20)))
    ['the d20 ranges leave 17 uncovered']
    """
    return _d20_coverage_problems(column)
