"""The real seasons behind the cards: a player's line and a team's record and rating.

Read from the field's fixtures in the repository (``fixtures/field/rosters.csv`` and
``ratings.csv``, relative to ``settings.BASE_DIR``), once per process: they change only with
a commit. Every value comes with the source its row names; a value the file leaves empty is
not shown, never filled in.
"""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

FIELD = ("fixtures", "field")
RECORD = re.compile(r"\b(\d{1,2}-\d{1,2})\b")
RECORD_SHOWN = re.compile(r"(\d{1,2}-\d{1,2})(?: \((\d{1,2}-\d{1,2} [A-Za-z][\w .&-]*)\))?")
"""The part of a ``seasons.csv`` record a fan reads: won-lost, then the conference's
won-lost where it follows in brackets ("30-0 (14-0 Pac-8)")."""


def record_parts(text: str) -> tuple[str, str]:
    """Return the record of a ``seasons.csv`` row as a fan reads it ("32-7 (14-4 Pac-10)",
    "" when the text begins with none) and, when the text says more (what the sources
    print, how it was derived: "32-7 (14-4 Pac-10) - derived: 31-6 before the Final
    Four..."), the whole text, shown beside it as the sources give it."""
    text = text.strip()
    found = RECORD_SHOWN.match(text)
    if found is None:
        return "", text
    shown = found.group(1) + (f" ({found.group(2)})" if found.group(2) else "")
    return shown, "" if shown == text else text


PLAYER_COLUMNS = (
    ("g", "G"),
    ("mpg", "MPG"),
    ("ppg", "PPG"),
    ("rpg", "RPG"),
    ("apg", "APG"),
    ("spg", "SPG"),
    ("bpg", "BPG"),
    ("fg_pct", "FG%"),
    ("fg3_pct", "3P%"),
    ("ft_pct", "FT%"),
)
"""The real season's columns a player page shows, as the file names them."""


def _path(name: str) -> Path:
    return Path(settings.BASE_DIR).joinpath(*FIELD, name)


def _rows(name: str) -> list[dict[str, str]]:
    path = _path(name)
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _key(school: str, season: int | str) -> tuple[str, int]:
    return (school.strip().lower(), int(season))


@cache
def _players() -> dict[tuple[str, int], dict[str, dict[str, str]]]:
    teams: dict[tuple[str, int], dict[str, dict[str, str]]] = {}
    for row in _rows("rosters.csv"):
        team = teams.setdefault(_key(row["school"], row["season"]), {})
        for name in (row["player"], row.get("shared_as") or ""):
            if name:
                team.setdefault(name.strip().lower(), row)
    return teams


@cache
def _ratings() -> dict[tuple[str, int], dict[str, str]]:
    return {_key(row["school"], row["season"]): row for row in _rows("ratings.csv")}


@cache
def _seasons() -> dict[tuple[str, int], dict[str, str]]:
    # A season still unresolved reads like "1958? (best candidate)": no team has it.
    return {
        _key(row["school"], row["season"]): row
        for row in _rows("seasons.csv")
        if row["season"].isdigit()
    }


def _sources(*urls: str) -> list[str]:
    found: list[str] = []
    for value in urls:
        for url in (value or "").split(" ; "):
            url = url.strip()
            if url.startswith("http") and url not in found:
                found.append(url)
    return found


def player_real_season(*, school: str, season: int, name: str) -> dict[str, Any] | None:
    """Return a player's real season from the rosters file, or None if the file lacks him.

    ``{"stats": [(label, value)], "pos", "height", "class", "role", "notes", "sources"}``:
    only the columns the file fills in; the line's own source first, then the roster's.
    """
    row = _players().get(_key(school, season), {}).get(name.strip().lower())
    if row is None:
        return None
    stats = [(label, row[key]) for key, label in PLAYER_COLUMNS if row.get(key)]
    return {
        "stats": stats,
        "pos": row.get("pos", ""),
        "height": row.get("height", ""),
        "class": row.get("class", ""),
        "role": row.get("role", ""),
        "notes": row.get("line_notes") or row.get("notes", ""),
        "sources": _sources(row.get("line_source_url", ""), row.get("source_url", "")),
    }


def team_real_season(*, school: str, season: int) -> dict[str, Any] | None:
    """Return a team's real season from the ratings file, or None if the file lacks it.

    ``{"record", "record_as_given", "coach", "srs", "sos", "margin", "pts", "opp", "notes",
    "sources"}``. The record and coach come from ``seasons.csv`` (the field's resolved
    seasons, each with its evidence; :func:`record_parts` splits its text into the record
    and, when the text says more, the text as the sources give it); without a row there,
    the record is the won-lost the ratings' notes quote ("30-0"), "" when they quote none.
    """
    key = _key(school, season)
    row = _ratings().get(key)
    known = _seasons().get(key, {})
    if row is None and not known:
        return None
    row = row or {}
    record = RECORD.search(row.get("notes", ""))
    shown, as_given = record_parts(known.get("record", ""))
    return {
        "record": shown or (record.group(1) if record and not as_given else ""),
        "record_as_given": as_given,
        "coach": known.get("coach", ""),
        "srs": row.get("srs", ""),
        "sos": row.get("sos", ""),
        "margin": row.get("margin", ""),
        "pts": row.get("pts", ""),
        "opp": row.get("opp", ""),
        "notes": row.get("notes", ""),
        "sources": _sources(row.get("source_url", ""), known.get("evidence_url", "")),
    }
