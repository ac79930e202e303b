"""The all-time 96 field's team files, built from its sources (docs/field.md).

Reads the field (``fixtures/field/alltime96.csv``), its rosters (``rosters.csv``: real
players and their season lines, each with its source) and, when it exists, ``ratings.csv``
(each team's real SRS), and runs the card calculator (docs/cards.md) for every team. A team
whose sources name fewer than five players gets its empty starting spots as placeholder
players, "Auburn 1984 C (to complete)", with the calculator's fill-in cards; a team file
that the builder did not write (the rulebook's hand-made teams) keeps its players, and only
its dunk numbers are aimed, like every team's.
:func:`merge_rosters` writes ``rosters.csv`` from the shared rosters, the shared player
seasons and printed.csv's player facts. ``manage.py build_field`` is the command's shell.
"""

from __future__ import annotations

import csv
import itertools
import json
import re
import statistics
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from django.conf import settings

from cards.calculator import (
    MAX_ROSTER,
    SLOTS,
    SeasonLine,
    StatsFileError,
    TeamContext,
    _size_score,
    team_dunk,
    teams_from_rows,
)
from cards.calibration import (
    SRS_OFFSET,
    ExactOdds,
    FirstGame,
    Fold,
    Odds,
    PairModel,
    Season,
    Seeded,
    aim,
    field_targets,
    first_games,
    fit_games,
    fit_model,
    folds,
    measure_games,
)
from cards.models import Team
from cards.oddscache import read_odds_cache, write_odds_cache
from cards.services import team_file_name
from simulator.vabg.cards import SLOT_NAMES, InvalidCardError, team_from_json

FIELD_DIR = Path(settings.BASE_DIR) / "fixtures" / "field"
TEAMS_DIR = Path(settings.BASE_DIR) / "fixtures" / "teams"
BUILT_BY = "Built by manage.py build_field"
"""How a team file written by this command starts its notes; any other file is kept."""
TO_COMPLETE = "(to complete)"
ROSTER_EXTRA_COLUMN = "shared_as"
SHARED_DATA = Path(settings.SHARED_DIR) / "data"
PLAYER_SEASONS = "alltime96_player_seasons.csv"
ODDS_CACHE = FIELD_DIR / "odds-cache.json"
"""The exact games the committed field was aimed with (build_field's default --odds-cache):
a rebuild by the same engine reads them instead of solving about 14,000 coached games."""
FOUND_PLAYERS = "found_players.csv"
"""Players found for the field's empty spots and short benches (fixtures/field/README.md)."""

# rosters.csv's columns (docs/field.md): the shared rosters' own, then what the merge adds.
ROSTER_COLUMNS = (
    "school", "season", "player", "pos", "height", "class", "role", "slot",
    "g", "mpg", "ppg", "rpg", "orpg", "drpg", "apg", "spg", "bpg", "tov", "pf",
    "fg_pct", "fg3_pct", "ft_pct", "fgm", "fga", "fg3m", "fg3a", "ftm", "fta",
    "fga_pg", "fg3a_pg", "fta_pg", "source_url", "notes", ROSTER_EXTRA_COLUMN,
    "line_source_url", "line_columns", "line_as", "line_notes",
    "card_source_url", "card_columns", "card_as", "found_source_url", "found_columns",
)  # fmt: skip
# A player season's columns (../shared/data/alltime96_player_seasons.csv) under rosters.csv's
# names; its attempts are a game's, so they get their own columns (fga_pg ...), apart from
# the shared rosters' season totals (fga ...).
LINE_COLUMNS = {
    "position": "pos", "height": "height", "class": "class", "g": "g", "mp": "mpg",
    "pts": "ppg", "trb": "rpg", "orb": "orpg", "drb": "drpg", "ast": "apg", "stl": "spg",
    "blk": "bpg", "tov": "tov", "pf": "pf", "fg_pct": "fg_pct", "fg3_pct": "fg3_pct",
    "ft_pct": "ft_pct", "fga": "fga_pg", "fg3a": "fg3a_pg", "fta": "fta_pg",
}  # fmt: skip
CARD_COLUMNS = ("slot", "role", "height", "ppg", "rpg")
"""The roster facts of the author's printed cards (printed.csv) a player row takes."""
ALT_COLUMNS = (
    "pos", "height", "class", "role", "g", "mpg", "ppg", "rpg", "apg", "spg", "bpg", "tov",
    "fg_pct", "fg3_pct", "ft_pct",
)  # fmt: skip
"""Columns where a player season or a printed card can replace the shared rosters' value;
the replaced value is kept in ``<column>_alt`` (its source is the row's ``source_url``)."""
# One player, two spellings, that a player season's notes do not flag ("project roster
# spells it ..." does the rest): Purdue 2018's senior forward, 14.6 ppg and 7.4 rpg in both.
LINE_SPELLINGS = {("Purdue", 2018, "Vince Edwards"): "Vincent Edwards"}
_ROSTER_SPELLING = re.compile(r"project roster spells it '(?P<name>.+?)'(?: \(|;|$)")

# The shared research file spells some teams differently (fixtures/field/README.md).
SHARED_SCHOOLS = {
    "Texas Western (UTEP)": "UTEP",
    "Loyola (Chicago)": "Loyola-Chicago",
    "Kansas St.": "Kansas State",
    "Oklahoma St.": "Oklahoma State",
    "Oklahoma A&M": "Oklahoma State",
}
# The alphabetical list prints "Duke 2011"; the field's East #9 is Duke 2010 (README).
SHARED_SEASONS = {("Duke", 2011): 2010}
_CANDIDATE = re.compile(r"\s*\(candidate[^)]*\)\s*$")


class FieldError(ValueError):
    """A field source that cannot be read or built; nothing was written."""


def placeholder_name(school: str, season: int, slot: int) -> str:
    """Name the placeholder of an empty starting spot, such as ``Syracuse 2003 C (to complete)``."""
    return f"{school} {season} {SLOT_NAMES[slot]} {TO_COMPLETE}"


def shared_key(school: str, season: str) -> tuple[str, int] | None:
    """Return a shared-file team as the field names it (``None`` when the season is no year).

    >>> shared_key("Texas Western (UTEP)", "1966"), shared_key("Duke", "2010?")
    (('UTEP', 1966), ('Duke', 2010))
    >>> shared_key("Syracuse (candidate for '? ?' West #8)", "2003?")
    ('Syracuse', 2003)
    """
    school = SHARED_SCHOOLS.get(school.strip(), school.strip())
    school = _CANDIDATE.sub("", school)
    year = re.fullmatch(r"\s*(\d{4})\s*\??\s*", season or "")
    if year is None:
        return None
    season_year = int(year.group(1))
    return school, SHARED_SEASONS.get((school, season_year), season_year)


@dataclass(frozen=True)
class FieldTeam:
    school: str
    season: int
    conference: str
    region: str
    seed: int
    predicted_pts: str
    predicted_allowed: str

    @property
    def label(self) -> str:
        return f"{self.school} {self.season}"


@dataclass(frozen=True)
class Built:
    """One team file of the field, written by build_field or kept as it was."""

    name: str
    team: dict[str, Any]
    kept: bool = False
    to_complete: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()


# -- reading and writing the field's files ------------------------------------------------


def read_csv(path: Path) -> list[dict[str, str]]:
    """Read a CSV file's rows keyed by its (trimmed, lower-case) header."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            if reader.fieldnames is None:
                raise FieldError(f"{path}: the file is empty; it needs a header row.")
            reader.fieldnames = [name.strip().lower() for name in reader.fieldnames]
            return [{k: (v or "") for k, v in row.items()} for row in reader]
    except OSError as exc:
        raise FieldError(f"{path}: cannot be read ({exc.strerror}).") from exc
    except (UnicodeDecodeError, csv.Error) as exc:
        raise FieldError(f"{path}: is not a UTF-8 CSV file ({exc}).") from exc


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Mapping[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(header), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def read_field(path: Path) -> dict[tuple[str, int], FieldTeam]:
    """Return the field's teams by school and season, in the file's order."""
    field: dict[tuple[str, int], FieldTeam] = {}
    for number, row in enumerate(read_csv(path), start=2):
        try:
            team = FieldTeam(
                school=row["school"].strip(),
                season=int(row["season"]),
                conference=row["conference"].strip(),
                region=row["region"].strip(),
                seed=int(row["seed"]),
                predicted_pts=row.get("predicted_pts", "").strip(),
                predicted_allowed=row.get("predicted_allowed", "").strip(),
            )
        except (KeyError, ValueError) as exc:
            raise FieldError(f"{path.name} row {number}: not a team of the field ({exc}).") from exc
        field[(team.school, team.season)] = team
    if not field:
        raise FieldError(f"{path}: no teams.")
    return field


def copy_rosters(
    shared: Sequence[Mapping[str, str]], field: Mapping[tuple[str, int], FieldTeam]
) -> tuple[list[str], list[dict[str, str]], dict[str, int]]:
    """Return the shared roster rows of the field's teams, named as the field names them.

    Each row keeps every column (its ``source_url`` too); ``shared_as`` records the school
    and season as the shared file wrote them when they differ. Rows of teams that are not in
    the field are counted by team in the third value, never copied.
    """
    if not shared:
        raise FieldError("the shared rosters file has no rows.")
    header = [c for c in shared[0] if c != ROSTER_EXTRA_COLUMN] + [ROSTER_EXTRA_COLUMN]
    rows: list[dict[str, str]] = []
    dropped: dict[str, int] = {}
    for row in shared:
        key = shared_key(row["school"], row["season"])
        if key is None or key not in field:
            label = f"{row['school']} {row['season']}"
            dropped[label] = dropped.get(label, 0) + 1
            continue
        copied = dict(row)
        as_shared = f"{row['school']} {row['season']}"
        copied.update(
            school=key[0],
            season=str(key[1]),
            shared_as="" if as_shared == f"{key[0]} {key[1]}" else as_shared,
        )
        rows.append(copied)
    order = {key: i for i, key in enumerate(field)}
    rows.sort(key=lambda r: order[(r["school"], int(r["season"]))])  # stable: players keep order
    return header, rows, dropped


def read_printed(
    rows: Sequence[Mapping[str, str]], field: Mapping[tuple[str, int], FieldTeam], source: str
) -> tuple[dict[tuple[str, int], dict[str, str]], list[dict[str, str]]]:
    """Split printed.csv into its team lines (by team) and its player facts.

    A team line (no ``player``) gives the author's printed ``dunk_top`` and/or
    ``dunk_adjust``; a player row his slot, role, height or season line as the author's cards
    print them. Every row needs a ``source_url``; a team not in the field, a team line twice,
    a player twice or a number that is not one refuses the file.
    """
    problems: list[str] = []
    teams: dict[tuple[str, int], dict[str, str]] = {}
    players: list[dict[str, str]] = []
    seen: set[tuple[str, int, str]] = set()
    for number, row in enumerate(rows, start=2):
        where = f"{source} row {number}"
        key = shared_key(row.get("school", ""), row.get("season", ""))
        if key is None or key not in field:
            problems.append(f"{where}: {row.get('school')} {row.get('season')} is not in the field")
            continue
        if not re.match(r"https?://", row.get("source_url", "")):
            problems.append(f"{where}: no source_url")
        columns = ("dunk_top", "dunk_adjust") if not row.get("player") else ("slot", "ppg", "rpg")
        for column in columns:
            text = row.get(column, "").strip()
            if text and not re.fullmatch(r"-?\d+(\.\d+)?", text):
                problems.append(f"{where}, column {column}: {text!r} is not a number")
        name = row.get("player", "").strip()
        if not name:
            if key in teams:
                problems.append(f"{where}: a second team line for {key[0]} {key[1]}")
            teams[key] = dict(row)
        elif (*key, name) in seen:
            problems.append(f"{where}: {name} of {key[0]} {key[1]} is there twice")
        else:
            seen.add((*key, name))
            players.append({**row, "school": key[0], "season": str(key[1]), "player": name})
    if problems:
        raise FieldError("Nothing was written:\n  " + "\n  ".join(problems))
    return teams, players


def _same(a: str, b: str) -> bool:
    """Say whether two cells hold the same value (numbers compared as numbers)."""
    try:
        return float(a) == float(b)
    except ValueError:
        return a.strip() == b.strip()


def _take(row: dict[str, str], values: Mapping[str, str], what: str) -> list[str]:
    """Put a source's values in a rosters.csv row; return the columns taken.

    A value replacing a different one of the shared rosters moves it to ``<column>_alt``.
    Two added sources disagreeing (a player season and a printed card) refuse the merge.
    """
    taken = []
    for column, text in values.items():
        value = (text or "").strip()
        if not value:
            continue
        old = row.get(column, "")
        if old and not _same(old, value):
            if column not in ALT_COLUMNS or row.get(f"{column}_alt"):
                raise FieldError(
                    f"{row['school']} {row['season']} {row['player']}: {what} gives {column} "
                    f"{value!r} where rosters.csv already has {old!r} from another added source"
                )
            row[f"{column}_alt"] = old
        row[column] = value
        taken.append(column)
    return taken


def merge_rosters(
    shared: Sequence[Mapping[str, str]],
    seasons: Sequence[Mapping[str, str]],
    printed_players: Sequence[Mapping[str, str]],
    field: Mapping[tuple[str, int], FieldTeam],
    found: Sequence[Mapping[str, str]] = (),
) -> tuple[list[str], list[dict[str, str]], dict[str, int]]:
    """Return rosters.csv: the shared rosters of the field, its player seasons and card facts.

    1. The shared rosters (``alltime96_rosters.csv``) of the field's teams, under the field's
       names (:func:`copy_rosters`); each row keeps its ``source_url`` and ``notes``.
    2. Each player season (``alltime96_player_seasons.csv``) joins its player's row (matched
       by name, or by the roster spelling its notes give: "project roster spells it ...") or
       adds a row. Its values go into the row's columns (its attempts a game into ``fga_pg``,
       ``fg3a_pg``, ``fta_pg``); ``line_columns`` lists them, ``line_source_url`` and
       ``line_notes`` give their source, ``line_as`` its spelling of the name when it differs.
    3. Each player fact of printed.csv (the author's cards, from ``cards_known.csv``) does the
       same with ``card_columns`` and ``card_source_url``, ``card_as`` the card's spelling.
    4. Each row of ``found_players.csv`` (players found for the field in 2026-11, the player
       seasons' columns and a ``role``) does the same with ``found_columns`` and
       ``found_source_url``: its role places a player found for a placeholder's spot.

    Where a player season or a card replaces a different value of the shared rosters, that
    value stays in ``<column>_alt`` (source: the row's ``source_url``). A new player's row
    takes its source's URL and notes as ``source_url`` and ``notes``. Players keep the order
    of their files (shared, then player seasons, then cards) within the field's team order.
    """
    _header, rows, dropped = copy_rosters(shared, field)
    index = {(r["school"], int(r["season"]), r["player"]): r for r in rows}

    def row_for(
        key: tuple[str, int], names: Sequence[str], url: str, notes: str
    ) -> tuple[dict[str, str], bool]:
        for name in names:
            if (*key, name) in index:
                return index[(*key, name)], False
        row = {
            "school": key[0],
            "season": str(key[1]),
            "player": names[-1],
            "source_url": url,
            "notes": notes,
        }
        index[(*key, names[-1])] = row
        rows.append(row)
        return row, True

    def in_field(line: Mapping[str, str]) -> tuple[str, int] | None:
        """Return a line's team as the field names it; count it as dropped when not one."""
        key = shared_key(line["school"], line["season"])
        if key is None or key not in field:
            label = f"{line['school']} {line['season']}"
            dropped[label] = dropped.get(label, 0) + 1
            return None
        return key

    for line in seasons:
        key = in_field(line)
        if key is None:
            continue
        name = line["player"].strip()
        spelled = _ROSTER_SPELLING.search(line.get("notes", ""))
        other = spelled["name"] if spelled else LINE_SPELLINGS.get((*key, name))
        names = [other, name] if other else [name]
        url, notes = line["source_url"].strip(), line.get("notes", "").strip()
        row, new = row_for(key, names, url, notes)
        taken = _take(
            row,
            {ours: line.get(theirs, "") for theirs, ours in LINE_COLUMNS.items()},
            "a player season",
        )
        row.update(
            line_source_url=url,
            line_columns=" ".join(taken),
            line_as="" if row["player"] == name else name,
            line_notes="" if new else notes,
        )
    for fact in printed_players:
        key = (fact["school"], int(fact["season"]))
        url, notes = fact["source_url"].strip(), fact.get("notes", "").strip()
        row, _new = row_for(key, [fact["player"]], url, notes)
        taken = _take(row, {c: fact.get(c, "") for c in CARD_COLUMNS}, "a printed card")
        row.update(
            card_source_url=url,
            card_columns=" ".join(taken),
            card_as=fact.get("card_as", "").strip(),
        )
    for line in found:
        key = in_field(line)
        if key is None:
            continue
        url, notes = line["source_url"].strip(), line.get("notes", "").strip()
        row, _new = row_for(key, [line["player"].strip()], url, notes)
        values = {ours: line.get(theirs, "") for theirs, ours in LINE_COLUMNS.items()}
        taken = _take(row, values | {"role": line.get("role", "")}, "a found player")
        row.update(found_source_url=url, found_columns=" ".join(taken))
    order = {key: i for i, key in enumerate(field)}
    rows.sort(key=lambda r: order[(r["school"], int(r["season"]))])  # stable: players keep order
    extra = [c for c in (shared[0] if shared else {}) if c not in ROSTER_COLUMNS]
    header = [*ROSTER_COLUMNS, *extra, *(f"{c}_alt" for c in ALT_COLUMNS)]
    return header, [{c: row.get(c, "") for c in header} for row in rows], dropped


def kept_files(
    out: Path, field: Mapping[tuple[str, int], FieldTeam]
) -> tuple[dict[tuple[str, int], Built], list[str]]:
    """Return the field's team files in ``out`` that build_field did not write.

    These (the rulebook's hand-made teams) keep their players; only their dunk numbers are
    aimed. A warning names each one whose conference differs from the field's.
    """
    kept: dict[tuple[str, int], Built] = {}
    warnings: list[str] = []
    for path in sorted(out.glob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise FieldError(f"Nothing was written: {path} is not a team file ({exc}).") from exc
        if not isinstance(doc, dict) or str(doc.get("notes", "")).startswith(BUILT_BY):
            continue
        school, season = doc.get("school"), doc.get("season")
        if not isinstance(school, str) or not isinstance(season, int):
            continue
        team = field.get((school, season))
        if team is None:
            continue
        if doc.get("conference") != team.conference:
            warnings.append(
                f"{path.name}: players kept as they are, but its conference "
                f"{doc.get('conference')!r} differs from the field's {team.conference!r} "
                "(alltime96.csv)"
            )
        kept[team.school, team.season] = Built(name=path.name, team=doc, kept=True)
    return kept, warnings


# -- building the teams ----------------------------------------------------------------------


@dataclass(frozen=True)
class Rating:
    """A team's net points a game against the field (0 = an average great team)."""

    value: float
    how: str


ERA_SOS_YEARS = 10
"""A margin-only team borrows the median SOS of the field's seasons this close to its own."""


def field_ratings(
    field: Mapping[tuple[str, int], FieldTeam],
    rating_rows: Sequence[Mapping[str, str]],
    source: str,
) -> dict[tuple[str, int], Rating]:
    """Return each rated team's rating from ``ratings.csv`` (fixtures/field/README.md).

    The ``rating`` column as it is (already net against the field); else the real ``srs``
    less 21 (cards.calibration.SRS_OFFSET); else, with only the season's ``margin``, margin
    + the median ``sos`` of the field's seasons within 10 years - 21 (SRS = margin + SOS,
    only SOS missing). A team with none of them is not rated. A row of a team not in the
    field, a team twice or a value that is no number refuses the file.
    """
    problems: list[str] = []
    values: dict[tuple[str, int], dict[str, float]] = {}
    for number, row in enumerate(rating_rows, start=2):
        where = f"{source} row {number}"
        key = shared_key(row.get("school", ""), row.get("season", row.get("year", "")))
        if key is None or key not in field:
            problems.append(f"{where}: {row.get('school')} {row.get('season')} is not in the field")
            continue
        if key in values:
            problems.append(f"{where}: {key[0]} {key[1]} is rated twice")
            continue
        values[key] = {}
        for column in ("rating", "srs", "sos", "margin"):
            text = (row.get(column) or "").strip().removesuffix("?")
            if not text:
                continue
            try:
                values[key][column] = float(text)
            except ValueError:
                problems.append(f"{where}, column {column}: {text!r} is not a number")
    if problems:
        raise FieldError("Nothing was written:\n  " + "\n  ".join(problems))
    ratings: dict[tuple[str, int], Rating] = {}
    for key, got in values.items():
        if "rating" in got:
            ratings[key] = Rating(got["rating"], f"{source}'s rating")
        elif "srs" in got:
            ratings[key] = Rating(
                got["srs"] - SRS_OFFSET, f"the season's SRS {got['srs']:g} - {SRS_OFFSET:g}"
            )
        elif "margin" in got:
            era = [
                v["sos"]
                for (_s, season), v in values.items()
                if "sos" in v and abs(season - key[1]) <= ERA_SOS_YEARS
            ]
            if era:
                sos = statistics.median(era)
                ratings[key] = Rating(
                    got["margin"] + sos - SRS_OFFSET,
                    f"an estimate: the season's margin {got['margin']:g} + {sos:.2f}, the median "
                    f"SOS of the field's {len(era)} seasons within {ERA_SOS_YEARS} years, "
                    f"- {SRS_OFFSET:g}",
                )
    return ratings


def team_rows(
    field: Mapping[tuple[str, int], FieldTeam],
    ratings: Mapping[tuple[str, int], Rating],
    targets: Mapping[tuple[str, int], tuple[float, float]] | None = None,
    scoring: Mapping[tuple[str, int], float] | None = None,
) -> list[dict[str, str]]:
    """Return the calculator's team context rows: the field's columns, rating, targets and
    the real season's points a game (its players' shares of them, docs/cards.md §3)."""
    targets = targets or {}
    scoring = scoring or {}
    return [
        {
            "school": t.school,
            "season": str(t.season),
            "conference": t.conference,
            "predicted_pts": t.predicted_pts,
            "predicted_allowed": t.predicted_allowed,
            "rating": f"{ratings[key].value:.2f}" if key in ratings else "",
            "team_ppg": f"{scoring[key]:g}" if key in scoring else "",
            "target_pts": f"{targets[key][0]:.2f}" if key in targets else "",
            "target_allowed": f"{targets[key][1]:.2f}" if key in targets else "",
        }
        for key, t in field.items()
    ]


def _float(text: str | None) -> float | None:
    text = (text or "").strip().removesuffix("?")
    try:
        return float(text) if text else None
    except ValueError:
        return None


def field_seasons(
    field: Mapping[tuple[str, int], FieldTeam],
    ratings: Mapping[tuple[str, int], Rating],
    rating_rows: Sequence[Mapping[str, str]],
) -> dict[str, Season]:
    """Return each field team's real season for the pair model, by label.

    The rating as :func:`field_ratings` gives it; points scored and allowed a game from
    ``ratings.csv``'s ``pts`` and ``opp`` (``opp`` = ``pts`` - ``margin`` when only the
    margin is given).
    """
    scoring: dict[tuple[str, int], tuple[float | None, float | None]] = {}
    for row in rating_rows:
        key = shared_key(row.get("school", ""), row.get("season", row.get("year", "")))
        if key is None:
            continue
        pts, opp, margin = (_float(row.get(c)) for c in ("pts", "opp", "margin"))
        if opp is None and pts is not None and margin is not None:
            opp = pts - margin
        scoring[key] = (pts, opp)
    out = {}
    for key, team in field.items():
        pts, opp = scoring.get(key, (None, None))
        rating = ratings[key].value if key in ratings else None
        out[team.label] = Season(season=team.season, rating=rating, pts=pts, opp=opp)
    return out


def field_games(field: Mapping[tuple[str, int], FieldTeam]) -> tuple[list[FirstGame], list[str]]:
    """Return the author's predicted first games of the field (cards.calibration.first_games)."""
    return first_games(
        [
            Seeded(
                label=t.label,
                season=t.season,
                region=t.region,
                seed=t.seed,
                predicted_pts=_float(t.predicted_pts),
                predicted_allowed=_float(t.predicted_allowed),
                inferred="?" in t.predicted_pts + t.predicted_allowed,
            )
            for t in field.values()
        ]
    )


def short_roster_slots(rows: Sequence[Mapping[str, str]]) -> list[int]:
    """Return a starting slot for each of fewer than five real players, nearest their size.

    Sizes are the calculator's (position and height, cards.md §9); the slots left over
    are the placeholders'. Ties keep the smaller slot for the player listed first.
    """
    sizes = [
        _size_score(SeasonLine(name=r["player"], pos=r.get("pos") or None, height=r.get("height")))
        for r in rows
    ]
    best = min(
        itertools.permutations(SLOTS, len(rows)),
        key=lambda slots: sum(abs(size - slot) for size, slot in zip(sizes, slots, strict=True)),
    )
    return list(best)


def build(
    *,
    field: Mapping[tuple[str, int], FieldTeam],
    roster_rows: Sequence[Mapping[str, str]],
    rating_rows: Sequence[Mapping[str, str]] | None,
    keep: Mapping[tuple[str, int], Built],
    sources: tuple[str, str, str] = ("rosters.csv", "alltime96.csv", "ratings.csv"),
    printed: Mapping[tuple[str, int], Mapping[str, str]] | None = None,
    store: MutableMapping[str, Odds] | None = None,
) -> list[Built]:
    """Calculate every field team not in ``keep``; return all 96 in the field's order.

    ``printed`` gives teams' printed dunk numbers (printed.csv's team lines): they replace
    the calibrated ones, and the team's notes say so. Nothing is written here; a problem in
    any file raises :class:`FieldError` naming them all. Every returned document passes
    ``team_from_json``.
    """
    printed = printed or {}
    rosters_name, field_name, ratings_name = sources
    by_team: dict[tuple[str, int], list[dict[str, str]]] = {key: [] for key in field}
    problems: list[str] = []
    for number, row in enumerate(roster_rows, start=2):
        try:
            key = (row["school"].strip(), int(row["season"]))
        except (KeyError, ValueError):
            key = ("", 0)
        if key not in by_team:
            problems.append(
                f"{rosters_name} row {number}: {row.get('school')} {row.get('season')} "
                f"is not a team of {field_name}"
            )
            continue
        by_team[key].append(dict(row))
    if roster_rows and not problems:
        try:  # first on the file as it is, so problems name its own rows
            teams_from_rows(roster_rows, source=rosters_name)
        except StatsFileError as exc:
            problems += exc.problems
    if problems:
        raise FieldError("Nothing was written:\n  " + "\n  ".join(problems))
    rows: list[dict[str, str]] = []
    to_complete: dict[tuple[str, int], tuple[int, ...]] = {}
    trimmed: dict[tuple[str, int], tuple[str, ...]] = {}
    for key, players in by_team.items():
        if key in keep:
            continue
        players, trimmed[key] = cards_first(players)
        rows += [calculator_row(p) for p in players]
        if len(players) < len(SLOTS):
            slots = short_roster_slots(players)
            for player, slot in zip(players, slots, strict=True):
                player.update(role="starter", slot=str(slot))
            empty = tuple(s for s in SLOTS if s not in slots)
            to_complete[key] = empty
            rows += [_placeholder_row(field[key], slot, bool(players)) for slot in empty]
    ratings = field_ratings(field, rating_rows or (), ratings_name)
    seasons = field_seasons(field, ratings, rating_rows or ())
    games, _unplaced = field_games(field)
    model = fit_model(games, seasons, [t.label for t in field.values()])
    context = team_rows(
        field,
        ratings,
        {key: model.targets(seasons[t.label]) for key, t in field.items()},
        {key: pts for key, t in field.items() if (pts := seasons[t.label].pts) is not None},
    )
    try:
        calculated = teams_from_rows(
            rows, team_rows=context, source=rosters_name, teams_source=field_name
        )
    except StatsFileError as exc:
        raise FieldError("Nothing was written:\n  " + "\n  ".join(exc.problems)) from exc
    results = {(r.team["school"], r.team["season"]): r for r in calculated.teams}
    built: list[Built] = []
    for key, team in field.items():
        if key in keep:
            # Its aim starts where a built team's does, from the calculator's estimate for its
            # own cards, never from numbers a former run aimed: the same sources always give
            # the same file (docs/field.md).
            kept = keep[key]
            targets = model.targets(seasons[team.label])
            ctx = TeamContext(
                school=team.school,
                season=team.season,
                rating=ratings[key].value if key in ratings else None,
                predicted_pts=_float(team.predicted_pts),
                predicted_allowed=_float(team.predicted_allowed),
                target_pts=targets[0],
                target_allowed=targets[1],
            )
            kept.team["dunk_top"], kept.team["dunk_adjust"] = team_dunk(kept.team["players"], ctx)
            built.append(kept)
            continue
        result = results[key]
        empty = to_complete.get(key, ())
        real = len(by_team[key])
        left_out = trimmed.get(key, ()) + result.left_out
        doc = dict(result.team)
        players = doc.pop("players")
        doc.pop("notes", None)
        fact = printed.get(key, {})
        doc["notes"] = _team_notes(
            team,
            real=real,
            empty=empty,
            left_out=left_out,
            rating=ratings.get(key),
            sources=sources if rating_rows is not None else sources[:2],
            printed=_printed_note(fact),
        )
        doc["players"] = players
        try:
            team_from_json(doc)
        except InvalidCardError as exc:
            problems += [f"{team.label}: {p}" for p in exc.problems]
        built.append(
            Built(
                name=team_file_name(Team(school=team.school, season=team.season)),
                team=doc,
                to_complete=tuple(placeholder_name(team.school, team.season, s) for s in empty),
                left_out=left_out,
            )
        )
    if not problems:
        _play_to_targets(built, field, seasons, games, model, store)
    names = [b.name for b in built]
    problems += [
        f"two teams would be written to {n}" for n in sorted(set(names)) if names.count(n) > 1
    ]
    if problems:
        raise FieldError("Nothing was written:\n  " + "\n  ".join(problems))
    return built


AIMED_BY = "Dunk numbers aimed by manage.py build_field"
"""How the sentence a kept file's notes get starts; a rebuild replaces it."""


def _play_to_targets(
    built: list[Built],
    field: Mapping[tuple[str, int], FieldTeam],
    seasons: Mapping[str, Season],
    games: Sequence[FirstGame],
    model: PairModel,
    store: MutableMapping[str, Odds] | None = None,
) -> None:
    """Set every team's dunk numbers by the exact odds (docs/calibration.md), in place.

    One strength scale (docs/field.md): every team, the rulebook's hand-made ones and those
    whose numbers the author printed included, is aimed at the pair model's points for and
    against the field (:func:`cards.calibration.aim`); then the teams of the author's
    predicted first games are fitted to his scores (:func:`cards.calibration.fit_games`).
    A kept file keeps its players; its notes say its numbers were aimed.
    """
    if len(built) < 2:
        return
    odds = ExactOdds((team_from_json(b.team) for b in built), store=store)
    labels = [field[key].label for key in field]
    free = {label: (True, True) for label in labels}
    targets = field_targets(model, seasons, labels, labels)
    dunks = aim(odds, odds.dunks(), targets, free, labels)
    dunks = fit_games(odds, games, dunks, free)
    fitted = {x for g in games for x in (g.first, g.second)}
    for key, b in zip(field, built, strict=True):
        label = field[key].label
        b.team["dunk_top"], b.team["dunk_adjust"] = dunks[label]
        aimed = targets[label]
        note = [
            f"By the exact odds its dunk numbers play {aimed[0]:.1f}-{aimed[1]:.1f} "
            "on average against the field, the pair model's figure "
            f"(docs/calibration.md: compression {model.compression:.2f} of the SRS "
            f"difference, scale {model.scale:.3f} of the real points)."
        ]
        if label in fitted:
            mine = [g for g in games if label in (g.first, g.second)]
            note.append(
                "Then fitted to the author's predicted first game"
                + ("s" if len(mine) > 1 else "")
                + ": "
                + "; ".join(f"{g.first} {g.first_pts:g}-{g.second_pts:g} {g.second}" for g in mine)
                + "."
            )
        notes = str(b.team.pop("notes", ""))
        players = b.team.pop("players")
        if b.kept:
            notes = notes.split(f" {AIMED_BY}")[0].split(AIMED_BY)[0].rstrip()
            note.insert(0, f"{AIMED_BY}, like every team's (one strength scale, docs/field.md).")
        b.team["notes"] = " ".join(x for x in [notes, *note] if x)
        b.team["players"] = players


def calculator_row(row: Mapping[str, str]) -> dict[str, str]:
    """Return a rosters.csv row as the calculator reads it (docs/cards.md §12).

    The calculator reads shots as season totals (``fga``...) divided by ``g``; a player
    season's attempts a game (``fga_pg``...) replace them: times ``g``, or as they are when
    ``g`` is unknown (then only their ratios count). The totals' makes go with them.
    """
    out = dict(row)
    per_game = {c: (row.get(f"{c}_pg") or "").strip() for c in ("fga", "fg3a", "fta")}
    if not any(per_game.values()):
        return out
    try:
        games = float(row.get("g") or 0)
    except ValueError:
        games = 0.0  # the calculator names the bad value
    for column, made in (("fga", "fgm"), ("fg3a", "fg3m"), ("fta", "ftm")):
        value = per_game[column]
        out[made] = ""
        out[column] = repr(float(value) * games) if value and games > 0 else value
    return out


def _number_or_zero(text: str | None) -> float:
    try:
        return float(text or 0)
    except ValueError:
        return 0.0


def cards_first(players: Sequence[dict[str, str]]) -> tuple[list[dict[str, str]], tuple[str, ...]]:
    """Keep the author's card players when a team has more than ten (a file holds ten).

    Only a team with a player of the author's cards (``card_source_url``) is trimmed here:
    his card players first, then the starters, then by minutes and points a game, as the
    calculator ranks its reserves. Return the players kept and the names left out.
    """
    if len(players) <= MAX_ROSTER or not any(p.get("card_source_url") for p in players):
        return list(players), ()
    ranked = sorted(
        range(len(players)),
        key=lambda i: (
            not players[i].get("card_source_url"),
            players[i].get("role") != "starter",
            -_number_or_zero(players[i].get("mpg")),
            -_number_or_zero(players[i].get("ppg")),
        ),
    )
    kept = set(ranked[:MAX_ROSTER])
    return (
        [p for i, p in enumerate(players) if i in kept],
        tuple(players[i]["player"] for i in ranked[MAX_ROSTER:]),
    )


def _printed_note(fact: Mapping[str, str]) -> str | None:
    parts = [
        f"{column} {fact[column].strip()}"
        for column in ("dunk_top", "dunk_adjust")
        if (fact.get(column) or "").strip()
    ]
    if not parts:
        return None
    return (
        f"The author printed {' and '.join(parts)} ({fact.get('notes', '').strip()}; "
        f"{fact.get('source_url', '').strip()}, fixtures/field/printed.csv); like every "
        "team's, its dunk numbers are aimed at its real season instead (one strength "
        "scale, docs/field.md)."
    )


def _placeholder_row(team: FieldTeam, slot: int, some_known: bool) -> dict[str, str]:
    named = "only some of its players" if some_known else "none of its players"
    return {
        "school": team.school,
        "season": str(team.season),
        "player": placeholder_name(team.school, team.season, slot),
        "pos": SLOT_NAMES[slot],
        "role": "starter",
        "slot": str(slot),
        "notes": (
            f"Not a real player: a spot a commissioner must complete. The sources found name "
            f"{named}; this card is the calculator's fill-in for a starter at "
            f"{SLOT_NAMES[slot]} (docs/cards.md §8, docs/field.md)."
        ),
    }


def _team_notes(
    team: FieldTeam,
    *,
    real: int,
    empty: Sequence[int],
    left_out: Sequence[str],
    rating: Rating | None,
    sources: Sequence[str],
    printed: str | None = None,
) -> str:
    files = ", ".join(f"fixtures/field/{s}" for s in sources)
    notes = [
        f"{BUILT_BY} from {files} with the card calculator (docs/cards.md, docs/field.md).",
        f"The all-time 96 field's {team.region} #{team.seed}.",
    ]
    # cards.md §10.1: the published prediction wins over the rating, which wins over 67-67.
    if team.predicted_pts and team.predicted_allowed:
        notes.append(
            f"The author predicted {team.predicted_pts}-{team.predicted_allowed} for its "
            "first game (docs/calibration.md)."
        )
    if rating is not None:
        notes.append(
            f"Dunk range aimed by its real season: rating {rating.value:+.1f} ({rating.how}), "
            "compressed as the author's predictions are."
        )
    else:
        notes.append("No rating yet: the dunk range aims at the field's average team.")
    if printed:
        notes.append(printed)
    if empty:
        names = ", ".join(f'"{placeholder_name(team.school, team.season, s)}"' for s in empty)
        found = f"only {real} player{'s' * (real != 1)}" if real else "no player"
        notes.append(
            f"To complete: the sources found name {found} of this team; placeholder starters "
            f"with the calculator's estimated fill-in cards stand in: {names}. A commissioner "
            "must replace them with the real players and their cards."
        )
    if left_out:
        notes.append("Left out (a team file holds 10): " + ", ".join(left_out) + ".")
    return " ".join(notes)


def _team_warnings(built: Built) -> list[str]:
    if built.kept:
        return []
    label = f"{built.team['school']} {built.team['season']}"
    out = []
    if built.to_complete:
        out.append(f"{label}: {len(built.to_complete)} spots to complete")
    if built.left_out:
        out.append(f"{label}: left out " + ", ".join(built.left_out))
    return out


def summary(built: Sequence[Built], out: Path, ratings: Path | None) -> str:
    """Say what was written: teams, placeholders and cards by source."""
    written = [b for b in built if not b.kept]
    sources: dict[str, int] = {}
    for b in written:
        for player in b.team["players"]:
            source = player.get("card_source", b.team.get("card_source", "estimated"))
            sources[source] = sources.get(source, 0) + 1
    short = [b for b in written if b.to_complete]
    cards = ", ".join(f"{n} {s}" for s, n in sorted(sources.items()))
    kept = ", ".join(b.name for b in built if b.kept) or "none"
    rated = f"ratings from {ratings}" if ratings else "no ratings file (every rating 0)"
    return (
        f"Wrote {len(written)} team files to {out}: {len(written) - len(short)} from real "
        f"rosters, {len(short)} with {sum(len(b.to_complete) for b in short)} placeholder "
        f"spots to complete; cards: {cards}; {rated}. Players kept as they are (dunk numbers "
        f"aimed): {kept}."
    )


@dataclass(frozen=True)
class FieldReport:
    """What :func:`field_files_write` did: lines to print and warnings to show."""

    lines: tuple[str, ...]
    warnings: tuple[str, ...]


def field_files_write(
    *,
    out: Path = TEAMS_DIR,
    field_path: Path = FIELD_DIR / "alltime96.csv",
    rosters_path: Path = FIELD_DIR / "rosters.csv",
    ratings_path: Path = FIELD_DIR / "ratings.csv",
    printed_path: Path | None = None,
    copy_rosters: Path | None = None,
    player_seasons: Path | None = None,
    odds_cache: Path | None = None,
    cache_written: bool = True,
    verbose: bool = False,
) -> FieldReport:
    """Build every team of the field and write the team files into ``out``.

    ``copy_rosters`` first rewrites ``rosters_path`` from the shared rosters merged with the
    player seasons (default :data:`PLAYER_SEASONS` beside it) and the printed player facts.
    Nothing is written unless every team builds (:class:`FieldError` names every problem).
    ``odds_cache`` gives the games computed before; it is rewritten with the games this
    build used unless ``cache_written`` is false (a build elsewhere reading the field's
    committed cache must not replace it with another field's games).
    """
    field = read_field(field_path)
    printed = printed_path or field_path.with_name("printed.csv")
    team_facts, player_facts = (
        read_printed(read_csv(printed), field, printed.name) if printed.exists() else ({}, [])
    )
    lines: list[str] = []
    warnings: list[str] = []
    if copy_rosters is not None:
        seasons = player_seasons or copy_rosters.with_name(PLAYER_SEASONS)
        found = field_path.with_name(FOUND_PLAYERS)
        header, rows, dropped = merge_rosters(
            read_csv(copy_rosters),
            read_csv(seasons),
            player_facts,
            field,
            read_csv(found) if found.exists() else (),
        )
        write_csv(rosters_path, header, rows)
        teams = len({(r["school"], r["season"]) for r in rows})
        lines.append(f"{rosters_path}: {len(rows)} players of {teams} teams of the field")
        warnings += [
            f"{label}: not a team of the field; {count} players left out"
            for label, count in sorted(dropped.items())
        ]
    rating_rows = read_csv(ratings_path) if ratings_path.exists() else None
    kept, kept_warnings = kept_files(out, field)
    warnings += kept_warnings
    store = read_odds_cache(odds_cache) if odds_cache is not None else None
    built = build(
        field=field,
        roster_rows=read_csv(rosters_path),
        rating_rows=rating_rows,
        keep=kept,
        sources=(rosters_path.name, field_path.name, ratings_path.name),
        printed=team_facts,
        store=store,
    )
    if odds_cache is not None and store is not None and cache_written:
        try:
            write_odds_cache(odds_cache, store.used())
        except OSError as exc:  # a cache only: the files are written all the same
            warnings.append(f"{odds_cache}: the odds cache was not written ({exc.strerror})")
    warnings += [w for b in built for w in _team_warnings(b)]
    out.mkdir(parents=True, exist_ok=True)
    for result in built:
        path = out / result.name
        path.write_text(json.dumps(result.team, indent=2, ensure_ascii=False) + "\n")
        if verbose:
            lines.append(str(path))
    lines.append(summary(built, out, ratings_path if rating_rows is not None else None))
    return FieldReport(lines=tuple(lines), warnings=tuple(warnings))


def field_holdout(
    *,
    field: Mapping[tuple[str, int], FieldTeam],
    roster_rows: Sequence[Mapping[str, str]],
    rating_rows: Sequence[Mapping[str, str]] | None,
    keep: Mapping[tuple[str, int], Built],
    printed: Mapping[tuple[str, int], Mapping[str, str]] | None = None,
    store: MutableMapping[str, Odds] | None = None,
) -> tuple[Fold, Fold]:
    """Measure the author's predicted games out of sample, the whole field rebuilt each time.

    The games are split in two halves that share no team (:func:`cards.calibration.folds`,
    fixed by the field file's order before anything is measured). For each half, every
    prediction of its teams is removed from the field, so it reaches no step of the build:
    not the pair model (fitted on the other half's games only), not a card's filled-in
    statistics (the team's net), not the opponents' aim, not any starting value. The whole
    field is built afresh from those sources (:func:`build`), and the half's games are then
    played exactly on it. A game with a team that has no rating is left out (it could only
    be aimed at the field's average).
    """
    ratings = field_ratings(field, rating_rows or (), "ratings.csv")
    seasons = field_seasons(field, ratings, rating_rows or ())
    games, _unplaced = field_games(field)
    order = [t.label for t in field.values()]
    out = []
    for test, train in (halves := folds(games, order), halves[::-1]):
        held = {x for g in test for x in (g.first, g.second)}
        blanked = {
            key: replace(t, predicted_pts="", predicted_allowed="") if t.label in held else t
            for key, t in field.items()
        }
        built = build(
            field=blanked,
            roster_rows=roster_rows,
            rating_rows=rating_rows,
            keep={key: replace(b, team=dict(b.team)) for key, b in keep.items()},
            printed=printed,
            store=store,
        )
        odds = ExactOdds((team_from_json(b.team) for b in built), store=store)
        measured = [g for g in test if _rated(seasons, g)]
        out.append(
            Fold(
                model=fit_model(train, seasons, order),
                fitted_on=tuple(train),
                results=tuple(measure_games(odds, measured, odds.dunks())),
                left_out=tuple(g for g in test if g not in measured),
            )
        )
    return out[0], out[1]


def _rated(seasons: Mapping[str, Season], game: FirstGame) -> bool:
    return all(seasons[x].rating is not None for x in (game.first, game.second))
