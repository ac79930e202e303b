"""The original 96-team all-time field (fixtures/field/alltime96.csv), checked as plain data.

No database: these tests read the CSV only. The last test compares the file with the facts
gathered in /work/shared/data/alltime96_teams.csv (skipped when that file is not there): every
region, seed and season printed there without a '?' must agree, apart from the corrections
listed in CORRECTIONS (each explained in fixtures/field/README.md).
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pytest

FIELD = Path(__file__).resolve().parent.parent / "fixtures" / "field" / "alltime96.csv"
SHARED = Path("/work/shared/data/alltime96_teams.csv")

COLUMNS = [
    "school",
    "season",
    "conference",
    "region",
    "seed",
    "predicted_pts",
    "predicted_allowed",
    "source_url",
    "status",
    "notes",
]
REGIONS = ("West", "East", "Midwest", "South")
STATUSES = {"confirmed", "derived", "chosen"}

# The shared research file names some schools differently; the field uses one name per school.
ALIASES = {
    "Texas Western (UTEP)": "UTEP",
    "Loyola (Chicago)": "Loyola-Chicago",
    "Kansas St.": "Kansas State",
    "Oklahoma St.": "Oklahoma State",
    "Oklahoma A&M": "Oklahoma State",
}
# Values printed in the shared file without a '?' that the field deliberately corrects.
CORRECTIONS = {
    # The alphabetical list prints 'Duke 2011'; the 2nd-round table, the card files and the
    # author's 21st-century list all have Duke 2010 as the East #9.
    ("Duke", "2011"): {"season": 2010},
}


def read_field() -> list[dict[str, str]]:
    with FIELD.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    return read_field()


def test_the_file_has_the_columns_and_96_rows(rows):
    with FIELD.open(newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle))
    assert header == COLUMNS
    assert len(rows) == 96


def test_four_regions_of_24_with_seeds_1_to_24_each_once(rows):
    assert Counter(row["region"] for row in rows) == dict.fromkeys(REGIONS, 24)
    for region in REGIONS:
        seeds = sorted(int(row["seed"]) for row in rows if row["region"] == region)
        assert seeds == list(range(1, 25)), region


def test_no_team_twice(rows):
    twice = [key for key, n in Counter((r["school"], r["season"]) for r in rows).items() if n > 1]
    assert twice == []


def test_seasons_are_years_and_half_the_field_is_21st_century(rows):
    seasons = [int(row["season"]) for row in rows]
    assert all(1939 <= s <= 2019 for s in seasons)
    # 'the 20th Century's 48 great teams will be added ... to the 21st Century's 48'
    assert sum(s >= 2000 for s in seasons) == 48


def test_every_row_has_a_status_and_a_source_or_notes(rows):
    for row in rows:
        assert row["status"] in STATUSES, row
        assert row["source_url"].strip() or row["notes"].strip(), row
        assert row["school"].strip() and row["conference"].strip(), row
        if row["status"] != "confirmed":
            assert row["notes"].strip(), row  # reasoning or choice written down


def test_sources_are_urls(rows):
    for row in rows:
        for url in filter(None, (u.strip() for u in row["source_url"].split(";"))):
            assert re.match(r"https?://", url), (row["school"], url)


def test_predicted_points_are_numbers_or_empty_in_pairs(rows):
    for row in rows:
        pts, allowed = row["predicted_pts"], row["predicted_allowed"]
        assert bool(pts) == bool(allowed), row
        if pts:
            assert 40 <= int(pts) <= 100 and 40 <= int(allowed) <= 100, row


def test_every_school_is_named_one_way(rows):
    schools = {row["school"] for row in rows}
    for alias, name in ALIASES.items():
        assert alias not in schools
        assert name in schools


def clean_int(text: str) -> int | None:
    text = text.strip()
    return int(text) if re.fullmatch(r"\d+", text) else None


def allowed_seeds(text: str) -> set[int] | None:
    """'12' -> {12}; '15 or 18' -> {15, 18}; anything with '?' -> None (unknown)."""
    if "?" in text or not text.strip():
        return None
    parts = [p.strip() for p in text.split(" or ")]
    if not all(re.fullmatch(r"\d+", p) for p in parts):
        return None
    return {int(p) for p in parts}


def shared_rows() -> list[dict[str, str]]:
    with SHARED.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.skipif(not SHARED.exists(), reason="the shared research data is not on this machine")
def test_the_known_rows_of_the_shared_file_agree(rows):
    checked = 0
    for known in shared_rows():
        school = ALIASES.get(known["school"], known["school"])
        if school == "?":
            # The unnamed West #8 of the shared file: the slot must still exist.
            assert any(r["region"] == "West" and r["seed"] == "8" for r in rows)
            continue
        fix = CORRECTIONS.get((known["school"], known["year"]), {})
        season = fix.get("season", clean_int(known["year"]))
        region = known["region"] if known["region"] in REGIONS else None
        seeds = allowed_seeds(known["seed"])
        candidates = [r for r in rows if r["school"] == school]
        if season is not None:
            candidates = [r for r in candidates if int(r["season"]) == season]
        else:
            if region is not None:
                candidates = [r for r in candidates if r["region"] == region]
            if seeds is not None and len(candidates) > 1:
                candidates = [r for r in candidates if int(r["seed"]) in seeds]
        assert len(candidates) == 1, (known["school"], known["year"], candidates)
        row = candidates[0]
        if region is not None:
            assert row["region"] == region, (known, row)
        if seeds is not None:
            assert int(row["seed"]) in seeds, (known, row)
        checked += 1
    assert checked >= 85
