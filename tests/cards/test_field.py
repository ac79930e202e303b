"""The all-time 96 field's team files: built by ``manage.py build_field``, loaded, playable.

The file checks need no database. The database tests share one ``load_teams`` of the whole
field (about 13 s), rolled back after the module.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from collections import Counter
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from cards.field import (
    AIMED_BY,
    BUILT_BY,
    ODDS_CACHE,
    calculator_row,
    merge_rosters,
    placeholder_name,
    read_field,
    read_printed,
    shared_key,
)
from cards.mapping import team_card, teams_for_play
from cards.oddscache import engine_version, odds_sources, read_odds_cache
from league.models import Game, Season
from league.tournaments import FIELDS, field_regions
from simulator import SeededDice
from simulator.vabg import play_game, preset
from simulator.vabg.cards import CARD_SOURCES, SLOT_NAMES, team_from_json
from tests.shared_data import shared_file

ROOT = Path(__file__).resolve().parents[2]
FIELD_CSV = ROOT / "fixtures" / "field" / "alltime96.csv"
ROSTERS_CSV = ROOT / "fixtures" / "field" / "rosters.csv"
PRINTED_CSV = ROOT / "fixtures" / "field" / "printed.csv"
TEAMS = ROOT / "fixtures" / "teams"
# The rulebook's hand-made teams (build_field keeps them).
HAND_MADE = {"kansas-2008.json", "kentucky-2012.json", "san-diego-state-2011.json"}
CONFERENCE_SPELLINGS: dict[tuple[str, int], str] = {}
PLACEHOLDER = re.compile(r"^(?P<label>.+ \d{4}) (?P<spot>PG|SG|SF|PF|C) \(to complete\)$")


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def field_rows() -> list[dict[str, str]]:
    return read_csv(FIELD_CSV)


def documents() -> dict[str, dict[str, Any]]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(TEAMS.glob("*.json"))}


def field_documents() -> dict[tuple[str, int], dict[str, Any]]:
    field = {(r["school"], int(r["season"])) for r in field_rows()}
    by_key = {(d["school"], d["season"]): d for d in documents().values()}
    return {key: doc for key, doc in by_key.items() if key in field}


def roster_names() -> dict[tuple[str, int], list[str]]:
    out: dict[tuple[str, int], list[str]] = {}
    for row in read_csv(ROSTERS_CSV):
        out.setdefault((row["school"], int(row["season"])), []).append(row["player"])
    return out


def is_placeholder(name: str) -> bool:
    return name.endswith("(to complete)")


# -- the files ----------------------------------------------------------------------------


def test_every_field_team_has_one_team_file_the_engine_accepts() -> None:
    docs = documents()
    keys = Counter((d["school"], d["season"]) for d in docs.values())
    assert [k for k, n in keys.items() if n > 1] == []  # one file per school and season
    field = {(r["school"], int(r["season"])): r for r in field_rows()}
    assert len(field) == 96
    assert set(field) <= set(keys), sorted(set(field) - set(keys))
    for name, doc in docs.items():
        card = team_from_json(doc)
        assert (card.school, card.season) == (doc["school"], doc["season"]), name
        row = field.get((card.school, card.season))
        if row is not None:
            spelled = CONFERENCE_SPELLINGS.get((card.school, card.season), row["conference"])
            assert card.conference == spelled, name


def test_the_rulebook_teams_keep_their_players_and_every_other_field_team_is_built() -> None:
    for name, doc in documents().items():
        built = doc.get("notes", "").startswith(BUILT_BY)
        assert built == (name not in HAND_MADE), name
        if name in HAND_MADE:  # one strength scale: their dunk numbers are aimed too
            assert AIMED_BY in doc["notes"], name
            assert any(p.get("printed") for p in doc["players"]), name


def test_every_team_starts_five_one_a_slot_and_holds_five_to_ten_players() -> None:
    for (school, season), doc in field_documents().items():
        players = doc["players"]
        assert 5 <= len(players) <= 10, (school, season)
        starters = sorted(p["slot"] for p in players if p["role"] == "starter")
        assert starters == [1, 2, 3, 4, 5], (school, season)


def test_no_player_is_twice_on_a_team_or_on_two_teams_of_a_school() -> None:
    by_school: dict[str, Counter[str]] = {}
    for (school, season), doc in field_documents().items():
        names = [p["name"] for p in doc["players"]]
        assert len(names) == len(set(names)), (school, season)
        by_school.setdefault(school, Counter()).update(names)
    for school, counted in by_school.items():
        assert [n for n, count in counted.items() if count > 1] == [], school


def test_every_card_source_is_published_calculated_or_estimated() -> None:
    counts: Counter[str] = Counter()
    for key, doc in field_documents().items():
        assert doc["card_source"] in CARD_SOURCES, key
        for player in doc["players"]:
            source = player.get("card_source", doc["card_source"])
            assert source in CARD_SOURCES, (key, player["name"])
            counts[source] += 1
    assert sum(counts.values()) >= 5 * 96


def rows_by_player() -> dict[tuple[str, int, str], dict[str, str]]:
    return {(r["school"], int(r["season"]), r["player"]): r for r in read_csv(ROSTERS_CSV)}


# What a card needs from the player's own season to be `calculated` (docs/cards.md §11).
OWN_STATISTICS = ("mpg", "orpg", "drpg", "spg", "bpg", "tov", "pf", "fg_pct", "ft_pct")


def test_every_card_source_says_honestly_where_its_values_came_from() -> None:
    rows = rows_by_player()
    counts: Counter[str] = Counter()
    for (school, season), doc in field_documents().items():
        if not doc["notes"].startswith(BUILT_BY):
            continue  # the rulebook's hand-made teams: every card estimated, printed values listed
        sources = set()
        for card in doc["players"]:
            source = card["card_source"]
            sources.add(source)
            counts[source] += 1
            # published only when every value is the author's: no card of the field is yet
            assert source in ("calculated", "estimated"), card["name"]
            assert (source == "estimated") == bool(card.get("filled")), card["name"]
            if is_placeholder(card["name"]):
                assert source == "estimated"
                continue
            if source == "calculated":  # every range from his own season's statistics
                row = rows[school, season, card["name"]]
                assert all(row[c] for c in OWN_STATISTICS), card["name"]
                assert row["line_source_url"], card["name"]
        team = "calculated" if sources == {"calculated"} else "estimated"
        assert doc["card_source"] == team, (school, season)
    assert counts["calculated"] >= 150  # the player seasons' full lines (178, 10 to a team)


def test_the_printed_facts_of_the_authors_cards_are_in_the_team_files() -> None:
    docs = field_documents()
    teams, players = read_printed(read_csv(PRINTED_CSV), read_field(FIELD_CSV), "printed.csv")
    for (school, season), fact in teams.items():
        doc = docs[school, int(season)]
        # one strength scale: quoted in the notes, the numbers aimed like every team's
        for column in ("dunk_top", "dunk_adjust"):
            if fact[column]:
                assert f"{column} {fact[column]}" in doc["notes"], (school, season, column)
        assert "like every team's, its dunk numbers are aimed" in doc["notes"]
        assert fact["source_url"] in doc["notes"]
    assert (docs["UCLA", 1972]["dunk_top"], docs["UCLA", 1972]["dunk_adjust"]) != (65, -7)
    for fact in players:
        doc = docs[fact["school"], int(fact["season"])]
        (card,) = [p for p in doc["players"] if p["name"] == fact["player"]]
        if fact["slot"]:
            assert card["slot"] == int(fact["slot"]), fact["player"]
        if fact["role"]:
            assert card["role"] == fact["role"], fact["player"]
    lineup = {p["name"]: (p["slot"], p["role"]) for p in docs["Indiana State", 1979]["players"]}
    assert lineup["Steve Reed"] == (1, "starter") and lineup["Larry Bird"] == (5, "starter")
    ucla = {p["name"] for p in docs["UCLA", 1972]["players"]}
    assert {"Andy Hill", "Larry Farmer", "Greg Lee", "Tommy Curtis"} <= ucla


def test_placeholders_stand_in_only_for_the_players_short_rosters_lack() -> None:
    rosters = roster_names()
    for (school, season), doc in field_documents().items():
        if not doc.get("notes", "").startswith(BUILT_BY):
            assert not any(is_placeholder(p["name"]) for p in doc["players"])
            continue
        real = rosters.get((school, season), [])
        placeholders = [p for p in doc["players"] if is_placeholder(p["name"])]
        others = [p["name"] for p in doc["players"] if not is_placeholder(p["name"])]
        # Never an invented name: every other player is on the team's roster in rosters.csv.
        assert set(others) <= set(real), (school, season)
        if len(real) >= 5:
            assert placeholders == [], (school, season)
            assert len(others) == min(len(real), 10), (school, season)
            continue
        assert sorted(others) == sorted(real), (school, season)
        assert len(placeholders) == 5 - len(real), (school, season)
        for card in placeholders:
            match = PLACEHOLDER.match(card["name"])
            assert match and match["label"] == f"{school} {season}", card["name"]
            assert card["role"] == "starter" and SLOT_NAMES[card["slot"]] == match["spot"]
            assert card["name"] == placeholder_name(school, season, card["slot"])
            assert card["card_source"] == "estimated"
            assert card["name"] in doc["notes"]  # the team says which spots to complete
        assert doc["card_source"] == "estimated"


def test_rosters_csv_holds_only_field_teams_each_player_with_a_source() -> None:
    field = {(r["school"], int(r["season"])) for r in field_rows()}
    rows = read_csv(ROSTERS_CSV)
    assert rows
    for row in rows:
        assert (row["school"], int(row["season"])) in field, row
        assert re.match(r"https?://", row["source_url"]), row
        assert row["player"].strip() and not is_placeholder(row["player"]), row


def same(a: str | None, b: str) -> bool:
    try:
        return float(a or "nan") == float(b)
    except ValueError:
        return a == b


def shared_inputs() -> tuple[list[dict[str, str]], list[dict[str, str]], list[dict[str, str]]]:
    """Return the shared rosters, the shared player seasons and cards_known.csv."""
    return (
        read_csv(shared_file("data/alltime96_rosters.csv")),
        read_csv(shared_file("data/alltime96_player_seasons.csv")),
        read_csv(shared_file("data/cards_known.csv")),
    )


def test_rosters_csv_is_the_shared_rosters_merged_with_player_seasons_and_printed_cards() -> None:
    rosters, seasons, _known = shared_inputs()
    field = read_field(FIELD_CSV)
    _teams, players = read_printed(read_csv(PRINTED_CSV), field, "printed.csv")
    found = read_csv(FIELD_CSV.with_name("found_players.csv"))
    header, rows, dropped = merge_rosters(rosters, seasons, players, field, found)
    with ROSTERS_CSV.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == header
        assert list(reader) == rows, "rerun `manage.py build_field --copy-rosters ...`"
    assert dropped == {"Missouri 1994": 10, "Michigan 1965?": 5}  # not the field's seasons


def test_every_shared_roster_value_is_kept_in_its_column_or_beside_it() -> None:
    rosters, _seasons, _known = shared_inputs()
    ours = {(r["school"], r["season"], r["player"]): r for r in read_csv(ROSTERS_CSV)}
    for row in rosters:
        key = shared_key(row["school"], row["season"])
        if key is None or (key[0], str(key[1]), row["player"]) not in ours:
            assert key not in {(r["school"], int(r["season"])) for r in field_rows()}, row
            continue
        merged = ours[key[0], str(key[1]), row["player"]]
        assert merged["source_url"] == row["source_url"]
        for column, value in row.items():
            if column in ("school", "season") or not value:
                continue
            kept = [v for v in (merged[column], merged.get(f"{column}_alt")) if same(v, value)]
            assert kept, (key, column)  # .47 and .470 are the same value
            if not same(merged[column], value):  # replaced: a player season, a card or found
                source = next(
                    s for s in ("line", "card", "found") if column in merged[f"{s}_columns"].split()
                )
                assert column in merged[f"{source}_columns"].split()
                assert re.match(r"https?://", merged[f"{source}_source_url"])


def test_every_player_season_is_in_rosters_csv_its_statistics_as_columns() -> None:
    _rosters, seasons, _known = shared_inputs()
    rows = read_csv(ROSTERS_CSV)
    mapping = {"position": "pos", "mp": "mpg", "pts": "ppg", "trb": "rpg", "orb": "orpg"}
    mapping |= {"drb": "drpg", "ast": "apg", "stl": "spg", "blk": "bpg"}
    mapping |= {"fga": "fga_pg", "fg3a": "fg3a_pg", "fta": "fta_pg"}
    full = 0
    for line in seasons:
        found = [
            r
            for r in rows
            if (r["school"], r["season"]) == (line["school"], line["season"])
            and line["player"] in (r["player"], r["line_as"])
        ]
        assert len(found) == 1, line["player"]
        row = found[0]
        assert row["line_source_url"] == line["source_url"]
        for column in ("g", "mp", "pts", "trb", "orb", "drb", "ast", "stl", "blk", "tov", "pf"):
            ours = mapping.get(column, column)
            if line[column]:
                assert float(row[ours]) == float(line[column]), (line["player"], column)
                assert ours in row["line_columns"].split()
        full += all(line[c] for c in ("g", "mp", "pts", "trb", "stl", "blk", "pf", "fg_pct"))
    assert full == 178  # the player seasons' full per-game lines (its .md)


def test_printed_csv_holds_only_facts_of_cards_known_csv() -> None:
    _rosters, _seasons, known = shared_inputs()

    def height(text: str) -> str:
        return text.replace("'", "-")

    for row in read_csv(PRINTED_CSV):
        theirs = [
            k
            for k in known
            if (k["team"], k["year"].rstrip("?")) == (row["school"], row["season"])
            and row["source_url"] in k["source_url"]
        ]
        if not row["player"]:  # a team line: its printed range 51-top and adjustment
            tops = {re.search(r"51-(\d+)", k["team_dunk_range"]) for k in theirs}
            adjusts = {re.match(r"-?\d+", k["adj_opp_dunk"]) for k in theirs}
            if row["dunk_top"]:
                assert row["dunk_top"] in {m[1] for m in tops if m}, row
            if row["dunk_adjust"]:
                assert row["dunk_adjust"] in {m[0] for m in adjusts if m}, row
            continue
        name = row["card_as"] or row["player"]
        (card,) = [k for k in theirs if k["player"] == name]
        if row["slot"]:
            assert card["position_slot"].startswith(row["slot"]), row
        for column in ("ppg", "rpg"):
            assert row[column] == card[column], (name, column)
        assert row["height"] == height(card["height"]), name


def test_shared_names_map_to_the_fields_spelling() -> None:
    assert shared_key("Texas Western (UTEP)", "1966") == ("UTEP", 1966)
    assert shared_key("Duke", "2011") == ("Duke", 2010)
    assert shared_key("Oklahoma A&M", "1946") == ("Oklahoma State", 1946)
    assert shared_key("Syracuse (candidate for '? ?' West #8)", "2003?") == ("Syracuse", 2003)
    assert shared_key("Seattle", "?") is None


@pytest.fixture(scope="session")
def rebuilt_field(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run ``build_field`` on the whole field once a session, beside the hand-made teams.

    It reads a copy of the committed odds cache (``fixtures/field/odds-cache.json``, the
    games the committed files were aimed with), so only the cards are calculated again (a
    few seconds); with another engine it computes about 14,000 coached games (minutes) and
    the test below says the cache is stale.
    """
    out = tmp_path_factory.mktemp("field")
    for name in HAND_MADE:
        shutil.copy(TEAMS / name, out / name)
    shutil.copy(ODDS_CACHE, out.parent / "odds-cache.json")
    args = ["--out", str(out), "--odds-cache", str(out.parent / "odds-cache.json")]
    call_command("build_field", *args, stdout=StringIO(), stderr=StringIO())
    return out


@pytest.mark.slow
def test_build_field_rebuilds_the_committed_files_exactly(rebuilt_field: Path) -> None:
    built = {p.name: p.read_text(encoding="utf-8") for p in rebuilt_field.glob("*.json")}
    committed = {name: (TEAMS / name).read_text(encoding="utf-8") for name in built}
    stale = sorted(n for n in built if built[n] != committed[n])
    assert stale == [], "rerun `manage.py build_field`: these files are out of date"
    assert len(built) == 96
    assert sorted(built) == sorted(p.name for p in TEAMS.glob("*.json"))


@pytest.mark.slow
def test_the_committed_odds_cache_holds_the_games_the_field_was_aimed_with(
    rebuilt_field: Path,
) -> None:
    # A stale cache (another engine, other cards) makes every rebuild, and this suite, solve
    # some 14,000 coached games again: refresh it with `manage.py build_field`.
    written = json.loads((rebuilt_field.parent / "odds-cache.json").read_text())
    committed = json.loads(ODDS_CACHE.read_text())
    assert written["engine"] == committed["engine"] == engine_version()
    assert written["games"].keys() == committed["games"].keys()


# -- build_field on a small field ------------------------------------------------------------


def small_field(tmp_path: Path, rosters: str, ratings: str | None = None) -> dict[str, str]:
    (tmp_path / "field.csv").write_text(
        "school,season,conference,region,seed,predicted_pts,predicted_allowed\n"
        "Alpha,1990,Big,West,1,,\nBeta,2003,Small,West,2,70,64\nGamma,1982,Big,East,1,,\n",
        encoding="utf-8",
    )
    (tmp_path / "rosters.csv").write_text(rosters, encoding="utf-8")
    (tmp_path / "out").mkdir()
    args = {
        "--field": str(tmp_path / "field.csv"),
        "--rosters": str(tmp_path / "rosters.csv"),
        "--ratings": str(tmp_path / "ratings.csv"),
        "--out": str(tmp_path / "out"),
    }
    if ratings is not None:
        (tmp_path / "ratings.csv").write_text(ratings, encoding="utf-8")
    return args


def build(args: dict[str, str]) -> str:
    out = StringIO()
    call_command("build_field", *[x for pair in args.items() for x in pair], stdout=out, stderr=out)
    return out.getvalue()


ALPHA = "".join(
    f"Alpha,1990,A{n},{pos},{height},,{role},10.0,https://example.org/a\n"
    for n, pos, height, role in (
        (1, "G", "6-1", "starter"),
        (2, "G", "6-4", "starter"),
        (3, "F", "6-7", "starter"),
        (4, "F", "6-8", "starter"),
        (5, "C", "6-11", "starter"),
        (6, "G", "6-2", "reserve"),
    )
)
BETA = "Beta,2003,Big Man,C,7-0,,,,https://example.org/b\nBeta,2003,Quick,PG,5-11,,,,https://example.org/b\n"
HEADER = "school,season,player,pos,height,class,role,ppg,source_url\n"


def test_build_field_fills_a_short_roster_with_placeholders_at_the_empty_spots(
    tmp_path: Path,
) -> None:
    output = build(small_field(tmp_path, HEADER + ALPHA + BETA))
    docs = {p.name: json.loads(p.read_text()) for p in (tmp_path / "out").glob("*.json")}
    assert sorted(docs) == ["alpha-1990.json", "beta-2003.json", "gamma-1982.json"]
    alpha = docs["alpha-1990.json"]
    assert [p["name"] for p in alpha["players"]] == ["A1", "A2", "A3", "A4", "A5", "A6"]
    beta = {p["slot"]: p["name"] for p in docs["beta-2003.json"]["players"]}
    assert beta == {
        1: "Quick",
        2: "Beta 2003 SG (to complete)",
        3: "Beta 2003 SF (to complete)",
        4: "Beta 2003 PF (to complete)",
        5: "Big Man",
    }
    gamma = [p["name"] for p in docs["gamma-1982.json"]["players"]]
    assert gamma == [f"Gamma 1982 {s} (to complete)" for s in ("PG", "SG", "SF", "PF", "C")]
    assert "only 2 players" in docs["beta-2003.json"]["notes"]
    assert "predicted 70-64" in docs["beta-2003.json"]["notes"]
    assert "no player" in docs["gamma-1982.json"]["notes"]
    assert "(to complete)" not in alpha["notes"]
    assert "3 team files" in output and "2 with 8 placeholder spots" in output
    for doc in docs.values():
        team_from_json(doc)


def test_the_odds_cache_is_kept_across_changes_to_what_the_odds_do_not_read() -> None:
    read = {p.relative_to(ROOT / "simulator").as_posix() for p in odds_sources()}
    # the calibration plays the coached game: the coach's exact odds and all they import
    assert {"vabg/coachodds.py", "vabg/odds.py", "vabg/engine.py", "vabg/cards.py"} <= read
    assert {"vabg/rules.py", "dice.py"} <= read  # followed through the engine's imports
    assert not any(p.startswith(("gridcourt/", "sixdice/")) for p in read)
    assert "cli.py" not in read and "vabg/sheet.py" not in read


def test_a_build_into_another_folder_reads_the_committed_odds_cache_and_never_rewrites_it(
    tmp_path: Path,
) -> None:
    """docs/field.md's "build elsewhere" (`build_field --out build/field`) replaced the
    committed cache with that build's games: built without the rulebook's three teams, it
    made the next plain rebuild take 28 s instead of 4 and showed in `git status`."""
    for name in HAND_MADE:
        shutil.copy(TEAMS / name, tmp_path / name)
    before = (ODDS_CACHE.stat().st_mtime_ns, ODDS_CACHE.read_bytes())
    out = StringIO()
    call_command("build_field", "--out", str(tmp_path), stdout=out, stderr=StringIO())
    assert (ODDS_CACHE.stat().st_mtime_ns, ODDS_CACHE.read_bytes()) == before
    assert f"{ODDS_CACHE} was read, not rewritten" in out.getvalue()
    built = {p.name: p.read_bytes() for p in tmp_path.glob("*.json")}
    assert built == {name: (TEAMS / name).read_bytes() for name in built} and len(built) == 96


def test_build_field_with_an_odds_cache_writes_the_same_files(tmp_path: Path) -> None:
    args = small_field(tmp_path, HEADER + ALPHA + BETA)
    build(args)
    plain = {p.name: p.read_bytes() for p in (tmp_path / "out").glob("*.json")}
    cache = tmp_path / "odds.json"
    for _run in range(2):  # the first run fills the cache, the second reads it
        build(args | {"--odds-cache": str(cache)})
        assert {p.name: p.read_bytes() for p in (tmp_path / "out").glob("*.json")} == plain
    doc = json.loads(cache.read_text())
    assert doc["engine"] == engine_version() and len(doc["games"]) >= 3
    assert read_odds_cache(cache) == {k: tuple(v) for k, v in doc["games"].items()}
    # written by another engine, or not JSON: nothing is read
    cache.write_text(json.dumps(doc | {"engine": "another"}))
    assert read_odds_cache(cache) == {}
    cache.write_text("{")
    assert read_odds_cache(cache) == {}
    build(args | {"--odds-cache": str(cache)})
    assert json.loads(cache.read_text())["games"] == doc["games"]
    # a cache that cannot be written is only a warning: the files are written
    output = build(args | {"--odds-cache": str(tmp_path / "field.csv" / "odds.json")})
    assert "the odds cache was not written" in output
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").glob("*.json")} == plain


def test_build_field_takes_each_rating_from_ratings_csv_as_srs_less_21(tmp_path: Path) -> None:
    args = small_field(tmp_path, HEADER + ALPHA)
    build(args)
    before = json.loads((tmp_path / "out" / "alpha-1990.json").read_text())
    (tmp_path / "ratings.csv").write_text(
        "school,season,srs,sos,margin,source_url,notes\n"
        "Alpha,1990,37,6,31,,\nBeta,2003,,,,,not found\nGamma,1982,,,10,,margin only\n",
        encoding="utf-8",
    )
    assert "ratings from" in build(args)
    after = json.loads((tmp_path / "out" / "alpha-1990.json").read_text())
    assert "No rating yet" in before["notes"]
    assert "rating +16.0 (the season's SRS 37 - 21)" in after["notes"]
    assert (after["dunk_top"], after["dunk_adjust"]) != (before["dunk_top"], before["dunk_adjust"])
    # Margin only: SRS = margin + SOS, the SOS borrowed from the field's seasons within 10 years.
    gamma = json.loads((tmp_path / "out" / "gamma-1982.json").read_text())
    assert "rating -5.0 (an estimate: the season's margin 10 + 6.00" in gamma["notes"]
    beta = json.loads((tmp_path / "out" / "beta-2003.json").read_text())
    assert "predicted 70-64" in beta["notes"]


def test_build_field_quotes_printed_dunk_numbers_and_aims_the_team_like_any(tmp_path: Path) -> None:
    args = small_field(tmp_path, HEADER + ALPHA)
    build(args)
    calibrated = json.loads((tmp_path / "out" / "alpha-1990.json").read_text())
    (tmp_path / "printed.csv").write_text(
        "school,season,player,card_as,slot,role,height,ppg,rpg,dunk_top,dunk_adjust,source_url,notes\n"
        "Alpha,1990,,,,,,,,60,-9,https://example.org/p,team line\n"
        "Alpha,1990,A5,,1,starter,,,,,,https://example.org/p,not read by a build\n",
        encoding="utf-8",
    )
    build(args | {"--printed": str(tmp_path / "printed.csv")})
    printed = json.loads((tmp_path / "out" / "alpha-1990.json").read_text())
    aimed = (calibrated["dunk_top"], calibrated["dunk_adjust"])
    assert (printed["dunk_top"], printed["dunk_adjust"]) == aimed != (60, -9)
    assert "The author printed dunk_top 60 and dunk_adjust -9" in printed["notes"]
    assert "https://example.org/p" in printed["notes"]
    assert printed["players"] == calibrated["players"]  # player facts go in by --copy-rosters


def test_a_player_seasons_attempts_a_game_reach_the_calculator_as_it_reads_them() -> None:
    row = {"g": "30", "fga": "120", "fgm": "60", "fga_pg": "14.4", "fg3a_pg": "5.1", "fta_pg": ""}
    out = calculator_row(row)
    assert float(out["fga"]) / 30 == pytest.approx(14.4) and out["fgm"] == ""
    assert float(out["fg3a"]) / 30 == pytest.approx(5.1) and out["fta"] == ""
    assert calculator_row({"g": "", "fga_pg": "7.5"})["fga"] == "7.5"  # a ratio only
    assert calculator_row({"g": "30", "fga": "120"}) == {"g": "30", "fga": "120"}


def test_build_field_refuses_a_ratings_row_of_a_team_not_in_the_field(tmp_path: Path) -> None:
    args = small_field(
        tmp_path, HEADER + ALPHA, ratings="school,season,srs\nAlpha,1990,x\nDelta,1999,20\n"
    )
    with pytest.raises(CommandError) as refused:
        build(args)
    assert "ratings.csv row 2, column srs: 'x' is not a number" in str(refused.value)
    assert "ratings.csv row 3: Delta 1999 is not in the field" in str(refused.value)
    assert list((tmp_path / "out").iterdir()) == []


def test_build_field_keeps_the_players_of_a_file_it_did_not_write(tmp_path: Path) -> None:
    args = small_field(tmp_path, HEADER + ALPHA)
    hand_made = json.loads((TEAMS / "kansas-2008.json").read_text()) | {
        "school": "Alpha",
        "season": 1990,
        "conference": "Other",
    }
    (tmp_path / "out" / "alpha-1990.json").write_text(json.dumps(hand_made))
    output = build(args)
    kept = json.loads((tmp_path / "out" / "alpha-1990.json").read_text())
    # its players are kept as they are; only its dunk numbers are aimed, and it says so
    assert kept["players"] == hand_made["players"]
    own = hand_made["notes"].split(f" {AIMED_BY}")[0]
    assert kept["notes"].startswith(own) and AIMED_BY in kept["notes"]
    assert "Players kept as they are (dunk numbers aimed): alpha-1990.json" in output
    assert "conference 'Other' differs from the field's 'Big'" in output
    # a rebuild from its own output writes the very same file
    before = (tmp_path / "out" / "alpha-1990.json").read_text()
    build(args)
    assert (tmp_path / "out" / "alpha-1990.json").read_text() == before


def test_build_field_refuses_a_roster_of_a_team_not_in_the_field_and_writes_nothing(
    tmp_path: Path,
) -> None:
    args = small_field(tmp_path, HEADER + ALPHA + "Delta,1999,D1,G,,,,,https://example.org/d\n")
    with pytest.raises(CommandError, match=r"rosters\.csv row 8: Delta 1999 is not a team of"):
        build(args)
    assert list((tmp_path / "out").iterdir()) == []


# -- the field in the database ------------------------------------------------------------


@pytest.fixture(scope="module")
def loaded_field(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """Load every fixture team once for the module's database tests, then roll it back."""
    with django_db_blocker.unblock(), transaction.atomic():
        out = StringIO()
        call_command("load_teams", stdout=out)
        yield out.getvalue()
        transaction.set_rollback(True)


@pytest.mark.slow
@pytest.mark.django_db
def test_load_teams_loads_the_field_in_four_regions_of_24(loaded_field: str) -> None:
    files = len(list(TEAMS.glob("*.json")))
    assert loaded_field.startswith(f"{files} teams: {files} created")
    regions = field_regions(FIELDS["alltime-96"][1])
    assert list(regions) == ["West", "East", "Midwest", "South"]
    assert [len(teams) for teams in regions.values()] == [24, 24, 24, 24]
    seeds = {(r["region"], int(r["seed"])): (r["school"], int(r["season"])) for r in field_rows()}
    for region, teams in regions.items():
        for seed, team in enumerate(teams, start=1):
            assert (team.school, team.season) == seeds[region, seed]
    assert len({t.pk for teams in regions.values() for t in teams}) == 96


@pytest.mark.slow
@pytest.mark.django_db
def test_every_loaded_field_team_plays_a_game(loaded_field: str) -> None:
    keys = {(r["school"], int(r["season"])) for r in field_rows()}
    cards = sorted(
        (team_card(t) for t in teams_for_play() if (t.school, t.season) in keys),
        key=lambda c: (c.school, c.season),
    )
    assert len(cards) == 96
    rules = preset("advanced")
    for seed, (home, away) in enumerate(zip(cards, [*cards[1:], cards[0]], strict=True)):
        result = play_game(home, away, SeededDice(seed), rules=rules, neutral=True)
        assert result.home.score != result.away.score
        for card, box in ((home, result.home), (away, result.away)):
            assert box.score == sum(line.pts for line in box.players)
            assert {line.name for line in box.players} <= {p.name for p in card.players}


@pytest.mark.slow
@pytest.mark.django_db
def test_create_tournament_draws_the_fields_first_round(loaded_field: str) -> None:
    out = StringIO()
    call_command("create_tournament", "L", "T", "--field", "alltime-96", "--seed", "1", stdout=out)
    cup = Season.objects.get(name="T")
    assert cup.entries.count() == 96
    first = Game.objects.filter(season=cup)
    assert first.count() == 32 and set(first.values_list("round", flat=True)) == {1}
    assert "96 teams" in out.getvalue() and "first round drawn (32 games)" in out.getvalue()


def test_build_field_names_a_bad_statistic_by_its_row_in_rosters_csv(tmp_path: Path) -> None:
    args = small_field(tmp_path, HEADER + ALPHA + BETA.replace(",,,,https", ",,,-3,https", 1))
    with pytest.raises(CommandError, match=r"rosters\.csv row 8, column ppg: '-3' must not be"):
        build(args)
    assert list((tmp_path / "out").iterdir()) == []
