"""The author's printed card values against the calculator's (docs/cards.md §14).

Every card value the author printed whose inputs are known is listed here with the words
that print it: the rulebook's worked examples (``../shared/seeds/000_*``: Kentucky 2012,
Kansas 2008, San Diego State 2011) and ``../shared/data/cards_known.csv``. The inputs are
the players' season lines of ``../shared/data/alltime96_player_seasons.csv`` (or, for a
few cards_known rows, the percentage the author states beside the printed value). The
cards are calculated with the printed slot orders and lineups, and :func:`compare`
returns one row per printed value: printed against calculated.

Pure like the calculator: the callers pass the files' paths (the test reads them with
``tests.shared_data.shared_file``, ``manage.py printed_cards`` from ``SHARED_DIR``).
"""

from __future__ import annotations

import csv
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cards.calculator import (
    SLOTS,
    SeasonLine,
    TeamContext,
    card_for,
    d20_column,
    d20_counts,
    team_file,
)

RULEBOOK = "../shared/seeds/000_867a72a29b463770.txt"
CARDS_KNOWN = "../shared/data/cards_known.csv"
PLAYER_SEASONS = "../shared/data/alltime96_player_seasons.csv"

FIELDS = (
    "extra_ball", "steal", "block", "turnover", "d20_fouled", "d20_made", "free_throw",
    "off_reb", "def_reb",
)  # fmt: skip
"""The compared values, each a count of numbers (a range 11-15 is 5 steal numbers)."""
FIELD_LABELS = {
    "extra_ball": "extra ball numbers (6-8)",
    "steal": "steal numbers (11..)",
    "block": "block numbers (21..)",
    "turnover": "turnover numbers (41..)",
    "d20_fouled": "d20 fouled faces",
    "d20_made": "d20 made faces",
    "free_throw": "free throw (1..N)",
    "off_reb": "off. rebound (1..N)",
    "def_reb": "def. rebound (1..N)",
}


@dataclass(frozen=True, slots=True)
class Printed:
    """One value the author printed on a card, with the words that print it."""

    school: str
    season: int
    player: str
    field: str
    value: int
    quote: str
    source: str = RULEBOOK


def _rb(school: str, season: int, player: str, field: str, value: int, quote: str) -> Printed:
    return Printed(school, season, player, field, value, quote)


# The rulebook's worked examples (quoted as the seed spells them; its dashes are lost,
# so "1114" is 11-14 and "16" is 1-6).
RULEBOOK_VALUES: tuple[Printed, ...] = (
    _rb("Kentucky", 2012, "Marquis Teague", "extra_ball", 1, "Marquis Teague does have a 7 (1&7)"),
    _rb("Kentucky", 2012, "Doron Lamb", "extra_ball", 0,
        "the next player Lamb does not have a 6, 7 and/or 8"),
    _rb("Kentucky", 2012, "Doron Lamb", "block", 1, "Doron Lamb's block range of 2121"),
    _rb("Kentucky", 2012, "Michael Kidd-Gilchrist", "extra_ball", 1,
        "Michael KiddGilchrist (4&7)"),
    _rb("Kentucky", 2012, "Terrence Jones", "extra_ball", 1, "Terrance Jones (5&7)"),
    _rb("Kentucky", 2012, "Anthony Davis", "extra_ball", 1,
        "Both Anthony Davis and Darnell Arthur ... have a \"5&7\""),
    _rb("Kentucky", 2012, "Anthony Davis", "block", 11, "Anthony Davis block range is 21 to 31"),
    _rb("Kentucky", 2012, "Anthony Davis", "turnover", 0,
        "Anthony Davis turned the ball over so rarely that his range is 4140"),
    _rb("Kentucky", 2012, "Anthony Davis", "d20_fouled", 5,
        "Anthony Davis has a foul range of 10 to 14"),
    _rb("Kentucky", 2012, "Anthony Davis", "off_reb", 6,
        "his Off Reb 16 is better than any other Kentucky player's"),
    _rb("Kentucky", 2012, "Anthony Davis", "def_reb", 6, "his Def Reb 16"),
    _rb("Kansas", 2008, "Russell Robinson", "extra_ball", 0,
        "Russell Robinson does ONLY has a \"1\""),
    _rb("Kansas", 2008, "Mario Chalmers", "extra_ball", 1, "Mario Chalmers does (1&7)"),
    _rb("Kansas", 2008, "Mario Chalmers", "steal", 10, "Mario Chalmers' 1120 range"),
    _rb("Kansas", 2008, "Brandon Rush", "extra_ball", 1,
        "Brandon Rush also has an extra number (1&7)"),
    _rb("Kansas", 2008, "Brandon Rush", "steal", 5,
        "the Rush's steal range would have still been the normal 1115"),
    _rb("Kansas", 2008, "Darnell Jackson", "extra_ball", 1,
        "the 4th player Darnell Johnson also has an extra number (5&7)"),
    _rb("Kansas", 2008, "Darrell Arthur", "extra_ball", 1,
        "Both Anthony Davis and Darnell Arthur ... have a \"5&7\""),
    _rb("Kansas", 2008, "Darrell Arthur", "off_reb", 6,
        "Darnell Arther because his Offensive Rebound range is higher at 16"),
    _rb("Kansas", 2008, "Darrell Arthur", "def_reb", 4, "since his Def Reb range is 14"),
    _rb("San Diego State", 2011, "D.J. Gay", "steal", 4, "his 11 to 14 steals"),
    _rb("San Diego State", 2011, "D.J. Gay", "off_reb", 0, "DJ's 1 to 0 range"),
    _rb("San Diego State", 2011, "D.J. Gay", "def_reb", 2,
        "Both have a slightly better chance of 1 to 2 out of 6 on defense"),
    _rb("San Diego State", 2011, "Chase Tapley", "steal", 6, "his 11 to 16 in steals"),
    _rb("San Diego State", 2011, "Chase Tapley", "off_reb", 1,
        "Tapley's 1 to 1 offensive rebound"),
    _rb("San Diego State", 2011, "Chase Tapley", "def_reb", 2,
        "Both have a slightly better chance of 1 to 2 out of 6 on defense"),
    _rb("San Diego State", 2011, "Billy White", "steal", 5,
        "the 1115 range for both Kawhi and Billy White"),
    _rb("San Diego State", 2011, "Kawhi Leonard", "extra_ball", 1,
        "Kawhi Leonard shows a \"5 and 8\""),
    _rb("San Diego State", 2011, "Kawhi Leonard", "steal", 5,
        "the 1115 range for both Kawhi and Billy White"),
    _rb("San Diego State", 2011, "Kawhi Leonard", "off_reb", 6, "both are 1 to 6 on offense"),
    _rb("San Diego State", 2011, "Kawhi Leonard", "def_reb", 7, "Kawhi is a 1 to 7"),
    _rb("San Diego State", 2011, "Malcolm Thomas", "block", 6, "Thomas 21 to 26 block range"),
    _rb("San Diego State", 2011, "Malcolm Thomas", "off_reb", 6, "both are 1 to 6 on offense"),
    _rb("San Diego State", 2011, "Malcolm Thomas", "def_reb", 5, "he is 1 to 5"),
)  # fmt: skip

LINEUPS: dict[tuple[str, int], tuple[str, ...]] = {
    ("Kentucky", 2012): (
        "Marquis Teague", "Doron Lamb", "Michael Kidd-Gilchrist", "Terrence Jones",
        "Anthony Davis",
    ),
    ("Kansas", 2008): (
        "Russell Robinson", "Mario Chalmers", "Brandon Rush", "Darnell Jackson",
        "Darrell Arthur",
    ),
    ("San Diego State", 2011): (
        "D.J. Gay", "Chase Tapley", "Billy White", "Kawhi Leonard", "Malcolm Thomas",
    ),
}  # fmt: skip
"""The rulebook's starters, slot 1 to 5 ("1 The player you put on the top ... Marquis
Teague"; "DJ Gay is the point guard (1) ... Tapley is the shooting guard (2)"; Kawhi flipped
"to the 4 and Malcolm Thomas to the 5")."""


@dataclass(frozen=True, slots=True)
class Row:
    """One printed value against the calculated one (counts of numbers)."""

    school: str
    season: int
    player: str
    slot: int | None
    field: str
    printed: int
    calculated: int
    inputs: str
    quote: str
    source: str

    @property
    def error(self) -> int:
        """Return calculated minus printed, in numbers."""
        return self.calculated - self.printed

    @property
    def kind(self) -> str:
        """Return ``ball`` for the extra ball numbers, ``range`` for every other value."""
        return "ball" if self.field == "extra_ball" else "range"


@dataclass(frozen=True, slots=True)
class NotCompared:
    """A printed value of cards_known.csv whose inputs are not known, and why."""

    school: str
    season: str
    player: str
    value: str
    why: str


# -- inputs ----------------------------------------------------------------------------------


def _num(text: str | None) -> float | None:
    text = (text or "").strip().removesuffix("?")
    return float(text) if text else None


def season_lines(path: Path, school: str, season: int) -> list[SeasonLine]:
    """Return a team's season lines from ``alltime96_player_seasons.csv`` (all per game)."""
    with path.open(newline="", encoding="utf-8") as f:
        rows = [
            r for r in csv.DictReader(f) if r["school"] == school and r["season"] == str(season)
        ]
    out = []
    for r in rows:
        values = {
            key: _num(r.get(column))
            for key, column in (
                ("g", "g"), ("mpg", "mp"), ("ppg", "pts"), ("rpg", "trb"), ("orpg", "orb"),
                ("drpg", "drb"), ("apg", "ast"), ("spg", "stl"), ("bpg", "blk"), ("tov", "tov"),
                ("pf", "pf"), ("fg_pct", "fg_pct"), ("fg3_pct", "fg3_pct"),
                ("ft_pct", "ft_pct"), ("fga", "fga"), ("fg3a", "fg3a"), ("fta", "fta"),
            )
        }  # fmt: skip
        out.append(
            SeasonLine(
                name=r["player"],
                pos=r.get("position") or None,
                height=r.get("height") or None,
                **values,  # type: ignore[arg-type]  # each column parsed to its field's type
            )
        )
    return out


def lineup_team(path: Path, school: str, season: int) -> dict[str, tuple[int, dict[str, Any]]]:
    """Calculate a printed team with its printed lineup; return name -> (slot, card)."""
    lines = season_lines(path, school, season)
    starters = LINEUPS[(school, season)]
    by_name = {ln.name: ln for ln in lines}
    missing = [name for name in starters if name not in by_name]
    if missing:
        raise ValueError(f"{school} {season}: no season line for {', '.join(missing)}")
    placed = []
    for ln in lines:
        if ln.name in starters:
            placed.append(_with(ln, slot=starters.index(ln.name) + 1, role="starter"))
        else:
            placed.append(_with(ln, role="reserve"))
    result = team_file(placed, TeamContext(school=school, season=season))
    return {c["name"]: (c["slot"], c) for c in result.team["players"]}


def _with(line: SeasonLine, **changes: Any) -> SeasonLine:
    return replace(line, **changes)


def card_value(card: Mapping[str, Any], field: str) -> int:
    """Return a card's value of a compared field, as a count of numbers."""
    if field == "steal":
        return int(card["steal_top"]) - 10
    if field == "block":
        return int(card["block_top"]) - 20
    if field == "turnover":
        return int(card["turnover_top"]) - 40
    if field == "d20_fouled":
        return d20_counts(card["d20"])[2]
    if field == "d20_made":
        m3, m2, *_ = d20_counts(card["d20"])
        return m3 + m2
    if field == "free_throw":
        return int(card["free_throw_top"])
    return int(card[field])


# -- cards_known.csv -------------------------------------------------------------------------

_RANGE = re.compile(r"^\s*(\d+)\s*-\s*(\d+)")
_PCT = re.compile(r"\((\d+)%\)")


def known_rows(path: Path) -> tuple[list[Row], list[NotCompared]]:
    """Compare the card values of ``cards_known.csv`` whose inputs the author states.

    A free-throw range printed with its percentage ("1-16 (80%)") is calculated from that
    percentage; a d20 column printed with the player's FG% in the row ("hit 80% of FG") has
    its made faces calculated from that FG% and the printed fouled faces. Any other printed
    card value is listed as not compared, with the reason.
    """
    rows: list[Row] = []
    skipped: list[NotCompared] = []
    with path.open(newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["player"].startswith("("):
                continue  # team lines: the team's dunk values (item 3 calibrates them)
            school, season, player = r["team"], r["year"], r["player"]
            slot = _slot(r["position_slot"])
            where = f"{CARDS_KNOWN} ({r['source_url'].split(' ;')[0]})"
            ft = r["ft_range"].strip()
            if ft:
                m, pct = _RANGE.match(ft), _PCT.search(ft)
                if m and pct:
                    printed = int(m.group(2))
                    line = SeasonLine(name=player, slot=slot or 3, ft_pct=int(pct.group(1)) / 100)
                    card = card_for(line, TeamContext(school=school, season=int(season))).card
                    rows.append(
                        Row(school, int(season), player, slot, "free_throw", printed,
                            card_value(card, "free_throw"), f"FT% {pct.group(1)}% (the author)",
                            f"ft_range {ft}", where)
                    )  # fmt: skip
                else:
                    skipped.append(NotCompared(school, season, player, f"FT {ft}", "no FT% given"))
            made, fouled = r["d20_make_any"].strip(), r["d20_fouled"].strip()
            fg = re.search(r"hit (\d+)% of FG", r["other"])
            if made and fouled and fg:
                mm, fm = _RANGE.match(made), _RANGE.match(fouled)
                if mm and fm:
                    n_made = int(mm.group(2)) - int(mm.group(1)) + 1
                    n_fouled = int(fm.group(2)) - int(fm.group(1)) + 1
                    faces = d20_column(
                        fg=int(fg.group(1)) / 100, ftr=0.0, share3=0.0, p3=0.0,
                        pre_1987=False, fouled=n_fouled,
                    )  # fmt: skip
                    m3, m2, *_ = d20_counts(faces)
                    rows.append(
                        Row(school, int(season), player, slot, "d20_made", n_made, m3 + m2,
                            f"FG% {fg.group(1)}% (the author), fouled faces {n_fouled} (printed)",
                            f"make {made}, fouled {fouled}", where)
                    )  # fmt: skip
            for column, label in (
                ("block_range", "block"), ("possessions_can_play", "can play"),
                ("steal_range", "steal"), ("turnover_range", "turnover"),
                ("off_reb", "off reb"), ("def_reb", "def reb"),
            ):  # fmt: skip
                if r[column].strip():
                    skipped.append(
                        NotCompared(school, season, player, f"{label} {r[column].strip()}",
                                    "the player's season line is not in the shared data")
                    )  # fmt: skip
            if r["ball_numbers"].strip():
                skipped.append(
                    NotCompared(school, season, player, f"ball {r['ball_numbers'].strip()}",
                                "only the slot number is printed (no extra number to compare)")
                )  # fmt: skip
    return rows, skipped


def _slot(text: str) -> int | None:
    m = re.match(r"\s*(\d)", text or "")
    return int(m.group(1)) if m and int(m.group(1)) in SLOTS else None


# -- the comparison ---------------------------------------------------------------------------


def rulebook_rows(seasons: Path) -> list[Row]:
    """Return the rulebook's printed values against the cards calculated from the seasons."""
    teams: dict[tuple[str, int], dict[str, tuple[int, dict[str, Any]]]] = {}
    rows = []
    for p in RULEBOOK_VALUES:
        key = (p.school, p.season)
        if key not in teams:
            teams[key] = lineup_team(seasons, p.school, p.season)
        slot, card = teams[key][p.player]
        rows.append(
            Row(p.school, p.season, p.player, slot, p.field, p.value, card_value(card, p.field),
                f"season line ({PLAYER_SEASONS})", p.quote, p.source)
        )  # fmt: skip
    return rows


def compare(seasons: Path, known: Path) -> tuple[list[Row], list[NotCompared]]:
    """Return every printed value whose inputs are known against the calculated one."""
    rows = rulebook_rows(seasons)
    more, skipped = known_rows(known)
    return rows + more, skipped


@dataclass(frozen=True, slots=True)
class Rates:
    """Match rates of a set of rows."""

    n: int
    exact: int
    within_one: int
    mean_error: float
    mean_abs_error: float

    @property
    def exact_rate(self) -> float:
        return self.exact / self.n if self.n else 0.0

    @property
    def within_one_rate(self) -> float:
        return self.within_one / self.n if self.n else 0.0


def rates(rows: Iterable[Row]) -> Rates:
    """Return exact and within-one counts and the mean (absolute) error of ``rows``."""
    rows = list(rows)
    errors = [r.error for r in rows]
    return Rates(
        n=len(rows),
        exact=sum(e == 0 for e in errors),
        within_one=sum(abs(e) <= 1 for e in errors),
        mean_error=statistics.fmean(errors) if errors else 0.0,
        mean_abs_error=statistics.fmean(abs(e) for e in errors) if errors else 0.0,
    )


def by_field(rows: Sequence[Row]) -> dict[str, Rates]:
    """Return :func:`rates` per compared field (fields without rows left out)."""
    return {
        f: rates(r for r in rows if r.field == f) for f in FIELDS if any(r.field == f for r in rows)
    }


# -- range lengths by slot --------------------------------------------------------------------

SPREAD_FIELDS = ("steal", "block", "turnover")


def spreads(
    seasons: Path, field: Sequence[Mapping[str, Any]] = ()
) -> dict[str, dict[str, dict[int, list[int]]]]:
    """Return steal, block and turnover range lengths by slot, for the report's tables.

    ``printed``: the printed values; ``same cards``: the calculator's for those players;
    ``player seasons``: the starters the calculator makes from every team of
    ``alltime96_player_seasons.csv`` with five full lines (slots by size, cards.md §9);
    ``fill-in``: a starter of each slot with no statistics (2010, cards.md §8);
    ``96-team field``: the starters of ``field``, team files as build_field writes them.
    """
    names = ["printed", "same cards", "player seasons", "fill-in"]
    if field:
        names.append("96-team field")
    out: dict[str, dict[str, dict[int, list[int]]]] = {
        name: {f: {s: [] for s in SLOTS} for f in SPREAD_FIELDS} for name in names
    }
    for team in field:
        for card in team["players"]:
            if card["role"] == "starter":
                for fld in SPREAD_FIELDS:
                    out["96-team field"][fld][card["slot"]].append(card_value(card, fld))
    for r in rulebook_rows(seasons):
        if r.field in SPREAD_FIELDS and r.slot:
            out["printed"][r.field][r.slot].append(r.printed)
            out["same cards"][r.field][r.slot].append(r.calculated)
    with seasons.open(newline="", encoding="utf-8") as f:
        keys = sorted({(r["school"], int(r["season"])) for r in csv.DictReader(f)})
    for school, season in keys:
        lines = [ln for ln in season_lines(seasons, school, season) if _full(ln)]
        if len(lines) < 5:
            continue
        result = team_file(lines, TeamContext(school=school, season=season))
        for card in result.team["players"]:
            if card["role"] == "starter":
                for fld in SPREAD_FIELDS:
                    out["player seasons"][fld][card["slot"]].append(card_value(card, fld))
    ctx = TeamContext(school="Fill-in", season=2010)
    for slot in SLOTS:
        card = card_for(SeasonLine(name=f"slot {slot}", slot=slot, role="starter"), ctx).card
        for fld in SPREAD_FIELDS:
            out["fill-in"][fld][slot].append(card_value(card, fld))
    return out


def _full(line: SeasonLine) -> bool:
    return all(
        getattr(line, k) is not None for k in ("mpg", "ppg", "spg", "bpg", "tov", "fga", "fta")
    )


# -- the report ------------------------------------------------------------------------------

BEGIN = "<!-- printed-cards report: begin (manage.py printed_cards --write) -->"
END = "<!-- printed-cards report: end -->"


def _range_text(field: str, n: int) -> str:
    if field == "steal":
        return f"11-{10 + n}"
    if field == "block":
        return f"21-{20 + n}"
    if field == "turnover":
        return f"41-{40 + n}"
    if field in ("off_reb", "def_reb", "free_throw"):
        return f"1-{n}"
    return str(n)


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "0/0"


def _spread_cell(values: Sequence[int]) -> str:
    if not values:
        return ""
    return f"{statistics.fmean(values):.1f} ({min(values)}-{max(values)}, n={len(values)})"


def report(seasons: Path, known: Path, field: Sequence[Mapping[str, Any]] = ()) -> str:
    """Return the Markdown report of docs/cards.md §14 (between :data:`BEGIN` and :data:`END`).

    ``field`` is the 96-team field's team files (``fixtures/teams``), when given.
    """
    rows, skipped = compare(seasons, known)
    book = [r for r in rows if r.source == RULEBOOK]
    lines = [BEGIN, ""]
    a, b_ball, b_range = (
        rates(rows),
        rates(r for r in book if r.kind == "ball"),
        rates(r for r in book if r.kind == "range"),
    )
    book_all = rates(book)
    lines += [
        "| set | values | exact | within one |",
        "| --- | --- | --- | --- |",
        f"| rulebook examples, all | {book_all.n} | {_pct(book_all.exact, book_all.n)} "
        f"| {_pct(book_all.within_one, book_all.n)} |",
        f"| rulebook, extra ball numbers | {b_ball.n} | {_pct(b_ball.exact, b_ball.n)} "
        f"| {_pct(b_ball.within_one, b_ball.n)} |",
        f"| rulebook, ranges | {b_range.n} | {_pct(b_range.exact, b_range.n)} "
        f"| {_pct(b_range.within_one, b_range.n)} |",
        f"| with cards_known.csv (stated inputs) | {a.n} | {_pct(a.exact, a.n)} "
        f"| {_pct(a.within_one, a.n)} |",
        "",
        "Error per field (calculated minus printed, in numbers):",
        "",
        "| field | values | exact | within one | mean error | mean abs. error |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for fld, rt in by_field(rows).items():
        lines.append(
            f"| {FIELD_LABELS[fld]} | {rt.n} | {_pct(rt.exact, rt.n)} | "
            f"{_pct(rt.within_one, rt.n)} | {rt.mean_error:+.2f} | {rt.mean_abs_error:.2f} |"
        )
    lines += [
        "",
        "Every value, printed against calculated:",
        "",
        "| team | player | slot | field | printed | calculated | error |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        lines.append(
            f"| {r.school} {r.season} | {r.player} | {r.slot or ''} | {FIELD_LABELS[r.field]} | "
            f"{_range_text(r.field, r.printed)} | {_range_text(r.field, r.calculated)} | "
            f"{r.error:+d} |"
        )
    lines += [
        "",
        "Printed values of cards_known.csv not compared:",
        "",
    ]
    lines += [f"- {s.school} {s.season} {s.player}: {s.value} ({s.why})" for s in skipped]
    lines += [
        "",
        "Range lengths by slot, mean (least-most, count): the printed cards; the calculator "
        "for the same players; the starters it makes from every team of "
        "`alltime96_player_seasons.csv` with five full lines; a starter with no statistics "
        "(the fill-in, season 2010)"
        + (
            f"; the starters of the field's {len(field)} team files as `manage.py "
            "build_field` writes them with this calculator."
            if field
            else "."
        ),
        "",
    ]
    spread = spreads(seasons, field)
    for fld in SPREAD_FIELDS:
        lines += [
            f"| {fld} numbers | slot 1 | slot 2 | slot 3 | slot 4 | slot 5 |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for name, table in spread.items():
            cells = " | ".join(_spread_cell(table[fld][s]) for s in SLOTS)
            lines.append(f"| {name} | {cells} |")
        lines.append("")
    lines.append(END)
    return "\n".join(lines) + "\n"


def replace_report(doc: str, text: str) -> str:
    """Return ``doc`` with the text between :data:`BEGIN` and :data:`END` replaced."""
    start, end = doc.find(BEGIN), doc.find(END)
    if start < 0 or end < 0:
        raise ValueError("docs/cards.md has no printed-cards report markers")
    return doc[:start] + text.rstrip("\n") + doc[end + len(END) :]
