"""The author's tournament games on record (fixtures/field/author_games.csv), checked as
plain data against the field, and their recount (``league.fieldreport.author_record``), the
row docs/field.md prints beside the exact margins. No database."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from league.fieldreport import FieldTeam, author_check, author_record, chance_at_least, pair_odds
from simulator.vabg import read_team_file

FIELD_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "field"
COLUMNS = [
    "round",
    "winner",
    "loser",
    "winner_pts",
    "loser_pts",
    "margin",
    "overtime",
    "source_url",
    "notes",
]


def read(name: str) -> tuple[list[str], list[dict[str, str]]]:
    with (FIELD_DIR / name).open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), list(reader)


def seeds() -> dict[str, tuple[str, int]]:
    _, rows = read("alltime96.csv")
    return {f"{r['school']} {r['season']}": (r["region"], int(r["seed"])) for r in rows}


def test_every_game_on_record_is_a_game_the_field_s_bracket_plays_with_its_source():
    header, games = read("author_games.csv")
    assert header == COLUMNS
    field = seeds()
    winners = {g["winner"] for g in games if g["round"] == "1"}
    losers = {g["loser"] for g in games if g["round"] == "1"}
    for g in games:
        where = (g["winner"], g["loser"])
        assert g["winner"] in field and g["loser"] in field, where
        (region, top), (other, low) = field[g["winner"]], field[g["loser"]]
        assert region == other, where  # rounds 1 and 2 stay inside a region
        if g["round"] == "1":  # seeds 9-24: 9 v 24, 10 v 23 ...
            assert top >= 9 and low >= 9 and top + low == 33, where
        else:  # a seed of 1-8, with a bye, against a round-1 winner
            assert g["round"] == "2", where
            bye, played = sorted((top, low))
            assert bye <= 8 < played, where
            entrant = g["winner"] if top > 8 else g["loser"]
            assert entrant not in losers, f"{entrant} lost its round-1 game on record"
        if g["winner_pts"] and g["loser_pts"]:
            assert int(g["margin"]) == int(g["winner_pts"]) - int(g["loser_pts"]), where
        assert not g["margin"] or int(g["margin"]) > 0, where
        assert g["overtime"] in ("yes", "no", ""), where
        assert g["source_url"].startswith("http://www.pudnersports.com/"), where
    pairs = [frozenset((g["winner"], g["loser"])) for g in games]
    assert len(pairs) == len(set(pairs))
    assert {"Marquette 1977", "Notre Dame 1970", "Oregon 2017"} <= winners  # then round 2


def test_the_recount_reads_each_figure_from_the_games_that_give_it():
    def game(margin: str, overtime: str = "", pts: tuple[str, str] = ("", "")) -> dict[str, str]:
        return {"margin": margin, "overtime": overtime, "winner_pts": pts[0], "loser_pts": pts[1]}

    record = author_record(
        [
            game("1", "yes", ("80", "79")),
            game("3", "no"),
            game("8", "no", ("70", "62")),
            game("12"),
            game("", "yes"),  # an overtime whose score is not on record
        ]
    )
    assert (record.games, record.measured, record.timed, record.scored) == (5, 4, 4, 2)
    # The least margin half the games reach, as the exact law's median is read (3 of 1, 3,
    # 8, 12), not the midpoint 5.5.
    assert record.median == 3
    assert record.within_three == pytest.approx(2 / 4)
    assert record.within_nine == pytest.approx(3 / 4)
    assert record.overtime == pytest.approx(2 / 4)
    assert record.points == pytest.approx((80 + 79 + 70 + 62) / 4)


def test_the_games_on_record_give_the_author_s_median_margin_of_7():
    _, games = read("author_games.csv")
    record = author_record(games)
    assert (record.games, record.measured, record.median) == (32, 31, 7)
    assert record.overtime == pytest.approx(4 / 16)
    second = author_record([g for g in games if g["round"] == "2"])
    assert second.scored == 16 and second.points == pytest.approx(2214 / 32)


def test_the_chance_of_as_many_or_more_is_counted_over_every_way_to_get_there():
    assert chance_at_least([0.5, 0.5], 0) == 1.0
    assert chance_at_least([0.5, 0.5], 1) == pytest.approx(0.75)
    assert chance_at_least([0.5, 0.5], 2) == pytest.approx(0.25)
    assert chance_at_least([0.1, 0.2, 0.3], 3) == pytest.approx(0.1 * 0.2 * 0.3)


def test_a_game_on_record_is_set_against_the_exact_odds_of_its_pairing_either_way_round():
    teams = [
        FieldTeam(read_team_file(FIELD_DIR.parent / "teams" / f"{name}.json"), "South", seed)
        for name, seed in (("kentucky-2012", 7), ("kansas-2008", 1))
    ]
    odds = pair_odds(teams, {(1, 0)})  # the bracket lists Kansas 2008 first
    law = odds[1, 0]
    row = {"winner": "Kentucky 2012", "loser": "Kansas 2008", "margin": "2", "overtime": "yes"}
    check = author_check([row], teams, odds)
    near = sum(q for m, q in law.margin.items() if abs(m) <= 3)
    assert check.favourite_won == (law.p_away_win > 0.5)
    assert check.log_loss == pytest.approx(-math.log(law.p_away_win))
    assert (check.close, check.close_expected, check.close_tail) == (1, near, pytest.approx(near))
    assert (check.overtimes, check.overtime_expected) == (1, law.p_overtime)
    assert check.overtime_tail == pytest.approx(law.p_overtime)
    assert check.margins.median >= 1
