"""The card calculator: hand-worked cards, valid team files, each range's direction, the command.

Every expected value below is worked by hand from the formulas of ``docs/cards.md``
(section numbers in the comments); ``_r`` is rounding half up.
"""

from __future__ import annotations

import doctest
import io
import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cards.calculator
from cards.calculator import (
    ENGINE_TRIP,
    MEAN_DUNK_ADJUST,
    SeasonLine,
    TeamContext,
    card_for,
    d20_column,
    d20_counts,
    defensive_points_saved,
    dunk_top_for,
    era_for,
    extra_ball,
    points_per_trip,
    team_dunk,
    team_file,
)
from cards.calibration import PairModel, Season
from simulator import SeededDice
from simulator.vabg import play_game
from simulator.vabg.cards import TeamCard, team_from_json


def test_the_calculator_imports_no_django() -> None:
    code = "import sys, cards.calculator; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_calculators_examples_hold() -> None:
    assert doctest.testmod(cards.calculator).failed == 0


# -- four hand-worked cards ------------------------------------------------------------------


def test_a_guard_with_every_statistic_gets_a_calculated_card() -> None:
    line = SeasonLine(
        name="A. Guard", slot=1, role="starter", pos="PG", height="6-1", mpg=30, ppg=15,
        fga=12, fta=5, fg3a=5, fg_pct=0.45, fg3_pct=0.40, ft_pct=0.80, tov=1.5, spg=2.1,
        bpg=0.2, pf=2.1, orpg=0.5, drpg=3.0, apg=5.0,
    )  # fmt: skip
    result = card_for(line, TeamContext(school="Example", season=2010, pace=70))
    card = result.card
    # §2 on the floor: 70 x 30/40 = 52.5 possessions a game
    # §3 used = FGA + 0.44 FTA + TOV = 12 + 2.2 + 1.5 = 15.7; touches 15.7 + 5 assists + 0.5
    # offensive rebounds = 21.2, 21.2/52.5 = 0.404 a possession: 0.29 to 0.45 -> 1 extra
    assert card["extra_ball"] == 1
    # §7 66 x 30/40 - 11 = 38.5 -> 39
    assert card["can_play"] == 39
    # §4.1 steal 1 + 330 x 2.1/52.5 = 1 + 13.2 -> 1 + 13 numbers, 11-24
    assert card["steal_top"] == 24
    # §4.2 block 1 + 150 x 0.2/52.5 = 1 + 0.57 -> 2 numbers, 21-22
    assert card["block_top"] == 22
    # §4.3 foul 36 x 2.1/52.5 = 1.44 -> 1 number, 36-36
    assert card["foul_from"] == 36
    # §4.4 turnover 60 x (1.5/15.7 - 0.02) = 60 x 0.0755 = 4.53 -> 5 numbers, 41-45
    assert card["turnover_top"] == 45
    # §5.1 FTA/FGA = 5/12; trips 0.5 x 5/12 = 0.2083; fouled 20 x 0.2083/1.2083 = 3.45 -> 3;
    # 17 shots; made 17 x 0.45 = 7.65 -> 8, missed 9; 3PA share 5/12:
    # 3s made 17 x 5/12 x 0.40 = 2.83 -> 3, 3s missed 17 x 5/12 x 0.60 = 4.25 -> 4
    assert card["d20"] == {
        "3PM": "1-3",
        "2PM": "4-8",
        "FOUL": "9-11",
        "3PX": "12-15",
        "2PX": "16-20",
    }
    # §5.3 20 x 0.80 = 16
    assert card["free_throw_top"] == 16
    # §6 era 2010: FG% 0.49 x 0.655 + 0.3475 x 0.345 = 0.4408; misses a trip
    # 0.85 x 0.5592 + 0.85 x 0.44 x 0.365 x 0.31 x 0.5 = 0.4965; available 52.5 x 0.4965 = 26.06;
    # offensive 58 x (0.5/26.06 - 0.012) = 0.42 -> 0; defensive 21 x 3.0/26.06 + 0.3 = 2.72 -> 3
    assert (card["off_reb"], card["def_reb"]) == (0, 3)
    assert card["positions"] == [1]
    assert result.source == card["card_source"] == "calculated"
    assert result.filled == ()


def test_a_center_gets_the_printed_davis_shape_from_davis_like_statistics() -> None:
    line = SeasonLine(
        name="A. Center", slot=5, role="starter", pos="C", mpg=32, ppg=14.2, fga=8, fta=5,
        fg3a=0, fg_pct=0.62, ft_pct=0.71, tov=1.0, spg=1.4, bpg=4.6, pf=2.0, orpg=3.0, drpg=7.0,
    )  # fmt: skip
    card = card_for(line, TeamContext(school="Example", season=2012, pace=65)).card
    # §2 on the floor: 65 x 32/40 = 52 possessions
    # §5.1 FTA/FGA = 0.625; trips 0.3125; fouled 20 x 0.3125/1.3125 = 4.76 -> 5 (10-14);
    # 15 shots; made 15 x 0.62 = 9.3 -> 9; no 3s. Davis 2012 prints 1-9, 10-14, 15-20.
    assert card["d20"] == {"3PM": None, "2PM": "1-9", "FOUL": "10-14", "3PX": None, "2PX": "15-20"}
    # §4.2 block 1 + 150 x 4.6/52 = 1 + 13.27 -> 14 numbers, 21-34 (Davis prints 21-31:
    # the box-score scale of §4 lengthens every range)
    assert card["block_top"] == 34
    # §5.3 20 x 0.71 = 14.2 -> 14 (Davis prints 1-14)
    assert card["free_throw_top"] == 14
    # §3 used 8 + 0.44 x 5 + 1 = 11.2; touches 11.2 + 1.25 assists (§8 slot 5 fill-in: 1.6 per
    # 40 x 32/40 x 65/66.5) + 3 offensive rebounds = 15.45, /52 = 0.297 -> 1 extra (Davis 5&7)
    assert card["extra_ball"] == 1
    # §4.1 steal 1 + 330 x 1.4/52 = 1 + 8.88 -> 10 numbers; §4.3 foul 36 x 2/52 = 1.38 -> 1
    assert (card["steal_top"], card["foul_from"]) == (20, 36)
    # §4.4 turnover 60 x (1/11.2 - 0.02) = 4.16 -> 4 numbers, 41-44 (Davis prints 41-40)
    assert card["turnover_top"] == 44
    # §6 era 2012: FG% 0.49 x 0.649 + 0.3465 x 0.351 = 0.4396; misses a trip 0.4976;
    # available 52 x 0.4976 = 25.88; offensive 58 x (3/25.88 - 0.012) = 6.03 -> 6 (Davis 6);
    # defensive 21 x 7/25.88 + 0.3 = 5.98 -> 6 (Davis 6)
    assert (card["off_reb"], card["def_reb"]) == (6, 6)
    # §7 66 x 32/40 - 11 = 41.8 -> 42
    assert card["can_play"] == 42


def test_a_pre_1987_guard_makes_one_shot_in_five_a_three() -> None:
    line = SeasonLine(
        name="An Old Guard", slot=2, role="starter", pos="G", mpg=35, ppg=20, fga=16, fta=5,
        fg_pct=0.50, ft_pct=0.80, tov=3, spg=2.8, bpg=0.3, pf=2.8, orpg=1.5, drpg=4.5, apg=4.0,
    )  # fmt: skip
    result = card_for(line, TeamContext(school="Example", season=1972, pace=80))
    card = result.card
    # §2 on the floor: 80 x 35/40 = 70
    # §5.2 FTA/FGA = 5/16; trips 0.15625; fouled 20 x 0.15625/1.15625 = 2.70 -> 3; 17 shots;
    # made 17 x 0.5 = 8.5 -> 9; 3s made 9 x 1/5 = 1.8 -> 2, 2s made 7;
    # 3PA share 0.2/0.75 = 0.2667 at 0.75 x 0.5 = 37.5%: 3s missed 17 x 0.2667 x 0.625 = 2.83 -> 3
    assert card["d20"] == {
        "3PM": "1-2",
        "2PM": "3-9",
        "FOUL": "10-12",
        "3PX": "13-15",
        "2PX": "16-20",
    }
    # §3 used 16 + 2.2 + 3 = 21.2; touches (21.2 + 4 + 1.5)/70 = 0.381 -> 1 extra
    assert card["extra_ball"] == 1
    # §4 steal 1 + 330 x 2.8/70 = 1 + 13.2 -> 14; block 1 + 150 x 0.3/70 = 1 + 0.64 -> 2;
    # foul 36 x 2.8/70 = 1.44 -> 1; turnover 60 x (3/21.2 - 0.02) = 7.29 -> 6 at most
    assert (card["steal_top"], card["block_top"], card["foul_from"], card["turnover_top"]) == (
        24, 22, 36, 46,
    )  # fmt: skip
    # §6 era 1972: FG% 0.471, FT% 0.683, FTA/FGA 0.386; misses a trip
    # 0.85 x 0.529 + 0.374 x 0.386 x 0.317 x 0.5 = 0.4725; available 70 x 0.4725 = 33.08;
    # offensive 58 x (1.5/33.08 - 0.012) = 1.93 -> 2; defensive 21 x 4.5/33.08 + 0.3 = 3.16 -> 3
    assert (card["off_reb"], card["def_reb"]) == (2, 3)
    # §7 66 x 35/40 - 11 = 46.75 -> 47; §5.3 16; a listed G in slot 2 can also play the point
    assert (card["can_play"], card["free_throw_top"], card["positions"]) == (47, 16, [2, 1])
    assert result.source == "calculated"


def test_a_reserve_with_only_points_and_rebounds_is_filled_in_and_marked_estimated() -> None:
    line = SeasonLine(name="A. Reserve", slot=4, role="reserve", ppg=4.0, rpg=2.0)
    result = card_for(line, TeamContext(school="Example", season=2000, rating=10))
    card = result.card
    # §8 era 2000: FG2% 0.485, FT% 0.685, pace 68.5, FTA/FGA 0.365, 3PA share 0.315, 3P% 0.35;
    # minutes 40 x 18/66 = 10.91; on the floor 68.5 x 10.91/40 = 18.68
    # FG% = era 0.4425 + 0.03 (slot 4) + 0.002 x 10 - 0.02 (reserve) = 0.4725
    # FT% = 0.685 - 0.03 = 0.655; FTA/FGA = 0.365 x 1.15 = 0.4198
    # 3PA share 0.315 x 0.55 = 0.1733; 3P% 0.35 - 0.02 = 0.33
    # FGA = 4/(2 x 0.4725 + 0.1733 x 0.33 + 0.4198 x 0.655) = 4/1.2771 = 3.132; FTA 1.315
    # per-40 fill-ins a game: x 10.91/40 x 68.5/66.5 = 0.2809 (§8)
    # TOV 2.3 x 0.2809 = 0.646; used 3.132 + 0.579 + 0.646 = 4.357; assists 1.9 x 0.2809
    # = 0.534; offensive rebounds 2.0 x 0.32 = 0.64; touches 5.531/18.68 = 0.296 -> 1 extra
    assert card["extra_ball"] == 1
    # per possession the fill-ins cancel minutes and pace: steal 1 + 330 x 1.3/66.5 = 1 + 6.45
    # -> 7; block 1 + 150 x 1.5/66.5 = 1 + 3.38 -> 4; foul 36 x 3.8/66.5 = 2.06 -> 2;
    # turnover 60 x (0.646/4.357 - 0.02) = 7.70 -> 6 at most
    assert (card["steal_top"], card["block_top"], card["foul_from"], card["turnover_top"]) == (
        17, 24, 35, 46,
    )  # fmt: skip
    # §5.1 trips 0.2099; fouled 20 x 0.2099/1.2099 = 3.47 -> 3; 17 shots; made 8.03 -> 8;
    # 3s made 17 x 0.1733 x 0.33 = 0.97 -> 1; 3s missed 17 x 0.1733 x 0.67 = 1.97 -> 2
    assert card["d20"] == {"3PM": "1", "2PM": "2-8", "FOUL": "9-11", "3PX": "12-13", "2PX": "14-20"}
    # §5.3 20 x 0.655 = 13.1 -> 13
    assert card["free_throw_top"] == 13
    # §6 offensive 2.0 x 0.32 = 0.64, defensive 1.36; misses a trip 0.4954; available
    # 18.68 x 0.4954 = 9.26; 58 x (0.64/9.26 - 0.012) = 3.31 -> 3; 21 x 1.36/9.26 + 0.3 = 3.38 -> 3
    assert (card["off_reb"], card["def_reb"]) == (3, 3)
    # §7 no minutes: a reserve can play 7 of 44
    assert card["can_play"] == 7
    assert result.source == card["card_source"] == "estimated"
    assert card["filled"] == [
        "apg", "bpg", "fg3_pct", "fg3a", "fg_pct", "ft_pct", "fta", "mpg", "orpg", "pf", "spg",
        "tov",
    ]  # fmt: skip


def test_the_d20_reproduces_cacoks_published_column() -> None:
    # The author: Cacok (80% FG) makes on 1-13, is fouled on 14-17, misses on 18-20;
    # 4 fouled faces of 20 need trips/(1 + trips) = 0.2, i.e. FTA/FGA = 0.5.
    assert d20_column(fg=0.80, ftr=0.5, share3=0.0, p3=0.0, pre_1987=False) == {
        "3PM": None, "2PM": "1-13", "FOUL": "14-17", "3PX": None, "2PX": "18-20",
    }  # fmt: skip


@pytest.mark.parametrize(("ft_pct", "top"), [(0.80, 16), (0.70, 14), (0.575, 12), (0.0, 0)])
def test_the_free_throw_range_is_ft_percent_on_a_d20(ft_pct: float, top: int) -> None:
    # The author: Bibby 80% -> 1-16, Walton and Hill 70% -> 1-14 (§5.3)
    line = SeasonLine(name="Shooter", ppg=10, ft_pct=ft_pct)
    assert card_for(line, TeamContext(school="X", season=1972)).card["free_throw_top"] == top


def test_stamina_follows_the_rulebook_average_starter_and_reserve() -> None:
    # 48 of 66 possessions is 29.09 minutes -> 37 of 44; 18 of 66 is 10.91 minutes -> 7
    ctx = TeamContext(school="X", season=2015)
    starter = card_for(SeasonLine(name="S", ppg=10, mpg=40 * 48 / 66), ctx, role="starter")
    reserve = card_for(SeasonLine(name="R", ppg=3, mpg=40 * 18 / 66), ctx, role="reserve")
    assert (starter.card["can_play"], reserve.card["can_play"]) == (37, 7)


def test_published_values_are_kept_and_a_fully_printed_card_is_published() -> None:
    printed = {
        "extra_ball": 1, "can_play": 37, "steal_top": 13, "block_top": 31, "foul_from": 36,
        "turnover_top": 40, "free_throw_top": 14, "off_reb": 6, "def_reb": 6,
        "d20": {"3PM": None, "2PM": "1-9", "FOUL": "10-14", "3PX": None, "2PX": "15-20"},
    }  # fmt: skip
    line = SeasonLine(name="Anthony Davis", slot=5, ppg=14.2, printed=printed)
    result = card_for(line, TeamContext(school="Kentucky", season=2012))
    assert {k: result.card[k] for k in printed} == printed
    assert result.source == "published"
    partly = card_for(
        SeasonLine(name="Anthony Davis", slot=5, ppg=14.2, printed={"d20.FOUL": "10-14"}),
        TeamContext(school="Kentucky", season=2012),
    )
    assert partly.card["d20"]["FOUL"] == "10-14"
    assert partly.source == "estimated"


# -- team files ----------------------------------------------------------------------------


def roster(n: int, *, season_stats: bool = True) -> list[SeasonLine]:
    """Return ``n`` season lines, five named starters first, some with full statistics."""
    lines = []
    for i in range(n):
        slot = i % 5 + 1
        starter = i < 5
        full = season_stats and i % 2 == 0
        lines.append(
            SeasonLine(
                name=f"Player {i + 1}",
                role="starter" if starter else "reserve" if i < 8 else None,
                pos=("PG", "SG", "SF", "PF", "C")[slot - 1],
                height=f"6-{slot + 1}",
                mpg=(32 if starter else 12) if full else None,
                ppg=(14 - slot) if starter else 3.5 if i < 9 else None,
                rpg=2.0 + slot if full else None,
                fg_pct=0.42 + slot / 50 if full else None,
                ft_pct=0.75 if full else None,
                spg=1.0 if full else None,
            )
        )
    return lines


@pytest.mark.parametrize("season", [1940, 1952, 1966, 1986, 1987, 1991, 2012, 2025])
@pytest.mark.parametrize("size", [5, 8, 10])
def test_every_calculated_team_file_passes_the_engine(season: int, size: int) -> None:
    ctx = TeamContext(school="Example", season=season, conference="Big X", rating=5)
    result = team_file(roster(size), ctx)
    team = team_from_json(result.team)
    assert len(team.players) == size
    assert team.label == f"Example {season}"
    assert result.team["card_source"] == "estimated"


def test_a_roster_longer_than_ten_keeps_the_reserves_who_play_most() -> None:
    lines = roster(12)
    result = team_file(lines, TeamContext(school="Example", season=2001))
    team_from_json(result.team)
    assert len(result.team["players"]) == 10
    # Players 10-12 have neither minutes nor points: the three reserves who play least.
    assert set(result.left_out) <= {"Player 10", "Player 11", "Player 12"}
    assert len(result.left_out) == 2


def test_a_team_without_five_players_is_refused_with_its_name() -> None:
    with pytest.raises(ValueError, match=r"Example 1950: a team needs at least 5 players, got 4"):
        team_file(roster(4), TeamContext(school="Example", season=1950))


def test_a_team_with_two_players_of_one_name_is_refused() -> None:
    lines = roster(6)
    lines[5] = SeasonLine(name="Player 1", ppg=2)
    with pytest.raises(ValueError, match=r"the name 'Player 1' is used twice"):
        team_file(lines, TeamContext(school="Example", season=1950))


def test_starters_are_slotted_smallest_to_biggest_and_the_point_guard_can_run_the_point() -> None:
    lines = [
        SeasonLine(name="Tall", role="starter", height="7-0", ppg=10),
        SeasonLine(name="Short", role="starter", height="5-10", ppg=10),
        SeasonLine(name="Forward", role="starter", pos="F", ppg=10),
        SeasonLine(name="Wing", role="starter", pos="SF", height="6-6", ppg=10),
        SeasonLine(name="Big", role="starter", pos="C", height="6-9", ppg=10),
    ]
    cards = team_file(lines, TeamContext(school="X", season=1960)).team["players"]
    assert [c["name"] for c in cards] == ["Short", "Wing", "Forward", "Big", "Tall"]
    assert {0, 1} & set(cards[0]["positions"])


def test_the_era_baselines_follow_the_authors_two_point_percentages() -> None:
    # "1940s under 30%, 1950s under 40%, 1960s about 45%, 1970s under 50%, 1980s about 50%"
    def decade(start: int) -> float:
        return sum(era_for(y).fg2 for y in range(start, start + 10)) / 10

    assert decade(1940) < 0.30
    assert decade(1950) < 0.40
    assert abs(decade(1960) - 0.45) < 0.015
    assert decade(1970) < 0.50
    assert abs(decade(1980) - 0.50) < 0.015
    assert not era_for(1986).three_point_line and era_for(1987).three_point_line


# -- properties: each range moves one way with its statistic (docs/cards.md §3-§7) ------------

EXAMPLES = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow]
)  # examples: the profile

pct = st.floats(0.0, 1.0, allow_nan=False)
seasons = st.integers(1930, 2030)
slots = st.integers(1, 5)
roles = st.sampled_from(["starter", "reserve"])


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | strategy


def per_game(hi: float) -> st.SearchStrategy[float]:
    return st.floats(0.0, hi, allow_nan=False)


@st.composite
def season_lines(draw: st.DrawFn, name: str = "Player") -> SeasonLine:
    """Draw a season line with any mix of known and missing statistics, each in range."""
    return SeasonLine(
        name=name,
        slot=draw(maybe(slots)),
        role=draw(maybe(roles)),
        pos=draw(maybe(st.sampled_from(["PG", "G", "SG", "G/F", "F", "PF", "F/C", "C", "X"]))),
        height=draw(maybe(st.sampled_from(["5-9", "6-2", "6-6", "6-9", "7-1", "?"]))),
        mpg=draw(maybe(per_game(40))),
        ppg=draw(maybe(per_game(45))),
        rpg=draw(maybe(per_game(25))),
        orpg=draw(maybe(per_game(8))),
        drpg=draw(maybe(per_game(16))),
        spg=draw(maybe(per_game(5))),
        bpg=draw(maybe(per_game(7))),
        tov=draw(maybe(per_game(7))),
        pf=draw(maybe(per_game(5))),
        fg_pct=draw(maybe(pct)),
        fg3_pct=draw(maybe(pct)),
        ft_pct=draw(maybe(pct)),
        fga=draw(maybe(per_game(30))),
        fg3a=draw(maybe(per_game(15))),
        fta=draw(maybe(per_game(15))),
        fta_rate=draw(maybe(st.floats(0.0, 1.5, allow_nan=False))),
        three_rate=draw(maybe(pct)),
    )


@st.composite
def contexts(draw: st.DrawFn) -> TeamContext:
    return TeamContext(
        school="Example",
        season=draw(seasons),
        pace=draw(maybe(st.floats(50, 100, allow_nan=False))),
        rating=draw(maybe(st.floats(-30, 30, allow_nan=False))),
        predicted_pts=draw(maybe(st.floats(40, 110, allow_nan=False))),
        predicted_allowed=draw(maybe(st.floats(40, 110, allow_nan=False))),
    )


def full_line(**changes: Any) -> SeasonLine:
    """Return a line with every statistic known, so one change moves one range only."""
    base = SeasonLine(
        name="Player", slot=3, role="starter", mpg=30, ppg=14, orpg=2, drpg=4, spg=1.2,
        bpg=0.8, tov=2.0, pf=2.5, fg_pct=0.48, fg3_pct=0.36, ft_pct=0.72, fga=11, fg3a=3,
        fta=4,
    )  # fmt: skip
    return replace(base, **changes)


def two(lo: float, hi: float) -> st.SearchStrategy[tuple[float, float]]:
    """Draw two values in ``lo..hi``, smaller first."""
    pair = st.tuples(st.floats(lo, hi, allow_nan=False), st.floats(lo, hi, allow_nan=False))
    return pair.map(sorted).map(tuple)


def card(ctx: TeamContext, **changes: Any) -> dict[str, Any]:
    return card_for(full_line(**changes), ctx).card


def made(d20: dict[str, str | None]) -> tuple[int, int, int]:
    """Return the made faces, the 3s made and the points the made faces are worth."""
    m3, m2, *_ = d20_counts(d20)
    return m3 + m2, m3, 3 * m3 + 2 * m2


@EXAMPLES
@given(two(0, 1), pct, pct, st.floats(0, 1.5, allow_nan=False), st.booleans())
def test_a_better_shooter_never_gets_a_worse_d20_column(
    fgs: tuple[float, float], share3: float, p3: float, ftr: float, pre_1987: bool
) -> None:
    (m3w, m2w, fw, _, _), (m3b, m2b, fb, _, _) = (
        d20_counts(d20_column(fg=fg, ftr=ftr, share3=share3, p3=p3, pre_1987=pre_1987))
        for fg in fgs
    )
    # the made faces, the 3s and the 2s made never drop; the fouled slice ignores FG%
    assert m3b + m2b >= m3w + m2w and m3b >= m3w and m2b >= m2w and fb == fw


@EXAMPLES
@given(contexts(), two(0.15, 0.85))
def test_a_better_field_goal_percentage_never_loses_made_faces_on_a_card(
    ctx: TeamContext, fgs: tuple[float, float]
) -> None:
    worse, better = (made(card(ctx, fg_pct=fg)["d20"]) for fg in fgs)
    assert all(b >= w for b, w in zip(better, worse, strict=True))


@EXAMPLES
@given(contexts(), two(0, 1))
def test_a_better_free_throw_shooter_never_gets_a_lower_free_throw_top(
    ctx: TeamContext, fts: tuple[float, float]
) -> None:
    worse, better = (card(ctx, ft_pct=ft)["free_throw_top"] for ft in fts)
    assert better >= worse


@EXAMPLES
@given(contexts(), two(0, 5))
def test_more_steals_never_shorten_the_steal_range(
    ctx: TeamContext, spgs: tuple[float, float]
) -> None:
    fewer, more = (card(ctx, spg=spg)["steal_top"] for spg in spgs)
    assert more >= fewer


@EXAMPLES
@given(contexts(), two(0, 7))
def test_more_blocks_never_shorten_the_block_range(
    ctx: TeamContext, bpgs: tuple[float, float]
) -> None:
    fewer, more = (card(ctx, bpg=bpg)["block_top"] for bpg in bpgs)
    assert more >= fewer


@EXAMPLES
@given(contexts(), two(0, 5))
def test_more_fouls_never_narrow_the_foul_range(ctx: TeamContext, pfs: tuple[float, float]) -> None:
    fewer, more = (card(ctx, pf=pf)["foul_from"] for pf in pfs)
    assert more <= fewer  # the range is foul_from..36


@EXAMPLES
@given(contexts(), two(0, 7))
def test_more_turnovers_never_shorten_the_turnover_range(
    ctx: TeamContext, tovs: tuple[float, float]
) -> None:
    fewer, more = (card(ctx, tov=tov)["turnover_top"] for tov in tovs)
    assert more >= fewer


@EXAMPLES
@given(contexts(), two(0, 8), two(0, 16), two(0, 25))
def test_more_rebounds_never_lower_the_rebound_ranges(
    ctx: TeamContext,
    orpgs: tuple[float, float],
    drpgs: tuple[float, float],
    rpgs: tuple[float, float],
) -> None:
    fewer, more = (card(ctx, orpg=o) for o in orpgs)
    assert more["off_reb"] >= fewer["off_reb"] and more["def_reb"] == fewer["def_reb"]
    fewer, more = (card(ctx, drpg=d) for d in drpgs)
    assert more["def_reb"] >= fewer["def_reb"] and more["off_reb"] == fewer["off_reb"]
    # only the total known: both ends grow with it
    fewer, more = (card(ctx, orpg=None, drpg=None, rpg=r) for r in rpgs)
    assert more["off_reb"] >= fewer["off_reb"] and more["def_reb"] >= fewer["def_reb"]


@EXAMPLES
@given(contexts(), two(0, 40), roles)
def test_more_minutes_never_lower_stamina(
    ctx: TeamContext, mpgs: tuple[float, float], role: str
) -> None:
    fewer, more = (card(ctx, mpg=m, role=role)["can_play"] for m in mpgs)
    assert more >= fewer


@EXAMPLES
@given(contexts(), two(0.5, 30), two(0, 1))
def test_higher_usage_never_gives_fewer_ball_numbers(
    ctx: TeamContext, fgas: tuple[float, float], usages: tuple[float, float]
) -> None:
    assert extra_ball(usages[1]) >= extra_ball(usages[0])
    # more shots a game in the same minutes is a higher usage
    fewer, more = (card_for(full_line(fga=fga, fg3a=0, fta=0), ctx) for fga in fgas)
    assert more.usage >= fewer.usage
    assert more.card["extra_ball"] >= fewer.card["extra_ball"]


@EXAMPLES
@given(contexts(), season_lines())
def test_any_season_line_in_range_gives_a_card_inside_the_file_bounds(
    ctx: TeamContext, line: SeasonLine
) -> None:
    result = card_for(line, ctx)
    c = result.card
    assert 0 <= c["extra_ball"] <= 2 and 0 <= c["can_play"] <= 66
    assert 10 <= c["steal_top"] <= 30 and 20 <= c["block_top"] <= 40
    assert 33 <= c["foul_from"] <= 37 and 40 <= c["turnover_top"] <= 46
    assert 0 <= c["free_throw_top"] <= 20
    assert 0 <= c["off_reb"] <= 20 and 0 <= c["def_reb"] <= 20
    assert sum(d20_counts(c["d20"])) == 20
    assert c["card_source"] == ("estimated" if result.filled else "calculated")


@settings(EXAMPLES, max_examples=60)
@given(contexts(), st.lists(season_lines(), min_size=5, max_size=13))
def test_any_roster_in_range_gives_a_team_file_the_engine_accepts(
    ctx: TeamContext, lines: list[SeasonLine]
) -> None:
    lines = [replace(ln, name=f"Player {i}") for i, ln in enumerate(lines)]
    team = team_from_json(team_file(lines, ctx).team)
    assert len(team.players) == min(len(lines), 10)
    assert all(team.starter(slot) for slot in range(1, 6))
    assert 34 <= team.dunk_top <= 66 and -32 <= team.dunk_adjust <= 32


# -- manage.py calculate_cards (docs/cards.md §12) --------------------------------------------

ROSTER_HEADER = (
    "school,season,player,pos,height,class,role,g,mpg,ppg,rpg,apg,spg,bpg,tov,fg_pct,fg3_pct,"
    "ft_pct,fgm,fga,fg3m,fg3a,ftm,fta,source_url,notes"
)  # the columns of alltime96_rosters.csv, in its order


def write_csv(path: Path, header: str, rows: list[str]) -> Path:
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def example_rows() -> list[str]:
    """Return Example State 1999 (six players, one with season totals) and Old Tech 1960?."""
    return [
        "Example State,1999,Ann Guard,PG,6-1,Sr,starter,30,31.0,14.2,3.1,5.0,1.9,0.1,2.4,45.2,38.0,81.0,,,,,,,http://example.org/a,captain",
        "Example State,1999,Bo Wing,SG,6-4,Jr,starter,,,12.0,,,,,,,,,,,,,,,,",
        "Example State,1999,Cy Forward,F,6-7,So,starter,,,9.5,6.0,,,,,.510,,.700,,,,,,,,",
        "Example State,1999,Di Big,PF,6-9,Sr,starter,,,8.0,7.5,,,,,,,,,,,,,,,",
        # season totals: 200 of 250 from the field, 125 free throws in 25 games (Cacok's shape)
        "Example State,1999,Ed Center,C,6-11,Sr,starter,25,,20.0,9.0,,,2.5,,,,,200,250,0,0,80,125,,",
        "Example State,1999,Fa Bench,G,6-0,Fr,reserve,,,3.0,,,,,,,,,,,,,,,,",
        "Old Tech,1960?,Gus One,G,,,,,,10,,,,,,,,,,,,,,,,",
        "Old Tech,1960?,Hal Two,G,,,,,,9,,,,,,,,,,,,,,,,",
        "Old Tech,1960?,Ike Three,F,,,,,,8,,,,,,,,,,,,,,,,",
        "Old Tech,1960?,Jim Four,F,,,,,,7,,,,,,,,,,,,,,,,",
        "Old Tech,1960?,Kip Five,C,,,,,,6,,,,,,,,,,,,,,,,",
    ]


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("calculate_cards", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_writes_one_valid_team_file_per_school_and_season(tmp_path: Path) -> None:
    stats = write_csv(tmp_path / "stats.csv", ROSTER_HEADER, example_rows())
    out_dir = tmp_path / "teams"
    stdout, _ = run(str(stats), "--out", str(out_dir))
    names = sorted(p.name for p in out_dir.iterdir())
    assert names == ["example-state-1999.json", "old-tech-1960.json"]
    assert stdout.split() == [
        str(out_dir / "example-state-1999.json"),
        str(out_dir / "old-tech-1960.json"),
    ]
    doc = json.loads((out_dir / "example-state-1999.json").read_text())
    team = team_from_json(doc)
    assert (team.school, team.season, len(team.players)) == ("Example State", 1999, 6)
    ann = next(p for p in doc["players"] if p["name"] == "Ann Guard")
    # a percentage (81.0) reads as 0.81: 20 x 0.81 = 16.2 -> 16; class, source and notes kept
    assert ann["free_throw_top"] == 16 and (ann["slot"], ann["role"]) == (1, "starter")
    assert (ann["class"], ann["source"], ann["notes"]) == ("Sr", "http://example.org/a", "captain")
    ed = next(p for p in doc["players"] if p["name"] == "Ed Center")
    # totals over 25 games: 10 FGA and 5 FTA a game, 80% -> Cacok's 1-13, 14-17, 18-20
    assert ed["d20"] == {"3PM": None, "2PM": "1-13", "FOUL": "14-17", "3PX": None, "2PX": "18-20"}
    assert doc["card_source"] == "estimated"
    old = team_from_json(json.loads((out_dir / "old-tech-1960.json").read_text()))
    assert old.season == 1960  # "1960?" is an inferred season, used as it is


def test_the_command_refuses_a_bad_file_naming_every_row_and_column(tmp_path: Path) -> None:
    rows = example_rows()
    rows[1] = rows[1].replace(",12.0,", ",twelve,")
    rows[2] = rows[2].replace(".510", "151")
    rows[3] = rows[3].replace(",starter,", ",captain,")
    rows.append("Example State,1999,Ann Guard,G,,,,,,2,,,,,,,,,,,,,,,,")
    rows.append("Example State,1999,Lou Miss,G,,,,10,,2,,,,,,,,,50,40,,,,,,")
    rows.append("Example State,?,Mo Year,G,,,,,,2,,,,,,,,,,,,,,,,")
    stats = write_csv(tmp_path / "stats.csv", ROSTER_HEADER, rows)
    out_dir = tmp_path / "teams"
    with pytest.raises(CommandError) as caught:
        run(str(stats), "--out", str(out_dir))
    message = str(caught.value)
    assert message.startswith("Nothing was written:")
    assert "stats.csv row 3, column ppg: 'twelve' is not a number" in message
    assert "stats.csv row 4, column fg_pct: '151' is above 100%" in message
    assert "stats.csv row 5, column role: 'captain' is not starter, reserve or empty" in message
    assert (
        "stats.csv row 13, column player: 'Ann Guard' is already on Example State 1999 (row 2)"
        in message
    )
    assert "stats.csv row 14, column fgm: 50 made is more than 40 attempted" in message
    assert "stats.csv row 15, column season: '?' is not a year" in message
    assert not out_dir.exists()


def test_the_command_names_a_missing_required_column(tmp_path: Path) -> None:
    stats = write_csv(tmp_path / "stats.csv", "school,player,ppg", ["Example State,Ann,3"])
    with pytest.raises(
        CommandError, match=r"stats.csv row 1: there is no column season \(or year\)"
    ):
        run(str(stats), "--out", str(tmp_path))


def test_the_command_refuses_team_values_that_differ_between_rows(tmp_path: Path) -> None:
    header = "school,year,name,ppg,conference"
    rows = [f"Example State,1999,P{i},5,{'Big X' if i else 'Small Y'}" for i in range(5)]
    stats = write_csv(tmp_path / "stats.csv", header, rows)
    with pytest.raises(
        CommandError,
        match=r"row 3, column conference: 'Big X' differs from 'Small Y' given for Example "
        r"State 1999 in row 2",
    ):
        run(str(stats), "--out", str(tmp_path))


def test_a_team_with_fewer_than_five_players_is_skipped_with_a_warning(tmp_path: Path) -> None:
    rows = [*example_rows()[:6], "Tiny U,2001,Solo,G,,,,,,10,,,,,,,,,,,,,,,,"]
    stats = write_csv(tmp_path / "stats.csv", ROSTER_HEADER, rows)
    _, stderr = run(str(stats), "--out", str(tmp_path / "teams"))
    assert "Tiny U 2001: skipped, a team needs at least 5 players and stats.csv has 1" in stderr
    assert [p.name for p in (tmp_path / "teams").iterdir()] == ["example-state-1999.json"]


def test_the_teams_file_gives_each_team_its_conference_and_predicted_scores(
    tmp_path: Path,
) -> None:
    stats = write_csv(tmp_path / "stats.csv", ROSTER_HEADER, example_rows())
    teams = write_csv(
        tmp_path / "teams.csv",
        "school,year,conference,region,seed,predicted_pts,predicted_allowed",
        ["Example State,1999,Big X,East,1,80,60", "Old Tech,1960,Old 5,West,24,60,75"],
    )
    run(str(stats), "--teams", str(teams), "--out", str(tmp_path / "a"))
    run(str(stats), "--out", str(tmp_path / "b"))
    strong = json.loads((tmp_path / "a" / "example-state-1999.json").read_text())
    plain = json.loads((tmp_path / "b" / "example-state-1999.json").read_text())
    assert strong["conference"] == "Big X" and "conference" not in plain
    # predicted 80-60 against the field's 67-67: a longer dunk range, a stronger adjustment
    assert strong["dunk_top"] > plain["dunk_top"] and strong["dunk_adjust"] < plain["dunk_adjust"]
    weak = json.loads((tmp_path / "a" / "old-tech-1960.json").read_text())
    assert weak["conference"] == "Old 5" and weak["dunk_adjust"] > plain["dunk_adjust"]


def test_the_command_says_when_the_file_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"missing.csv: cannot be read"):
        run(str(tmp_path / "missing.csv"))
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(CommandError, match=r"empty.csv: the file is empty; it needs a header row"):
        run(str(empty))


# -- the dunk range against the engine (docs/cards.md §10) ------------------------------------


def test_played_margins_follow_the_predicted_scores_the_dunk_ranges_were_set_from() -> None:
    def team(pts: float, allowed: float) -> TeamCard:
        ctx = TeamContext(
            school=f"T{pts:g}", season=1995, predicted_pts=pts, predicted_allowed=allowed
        )
        return team_from_json(team_file(roster(10), ctx).team)

    middle = team(67, 67)
    rng = random.Random(4)

    def margin(side: TeamCard, games: int = 400) -> float:
        total = 0
        for _ in range(games):
            game = play_game(side, middle, SeededDice(rng.randrange(1 << 30)), neutral=True)
            total += game.home.score - game.away.score
        return total / games

    # 74-60 against 67-67: it scores 74 + (67 - 67), allows 67 + (60 - 67) = 60: by 14.
    # The bounds allow the calibration's known excess on defence (docs/cards.md §13).
    strong, weak = margin(team(74, 60)), margin(team(60, 74))
    assert 10 <= strong <= 21
    assert -19 <= weak <= -9
    assert abs(margin(team(67, 67))) <= 3


# -- target_pts / target_allowed: what build_field aims the dunk range at ---------------------
#
# build_field sets a team's targets from the pair model (cards.calibration.PairModel):
#     pts = scale / 4 x (T_team + T_field) + compression / 2 x (rating - field rating)
#     allowed = the same common part - the same half margin
# T being a season's points scored plus allowed a game. The cases below are worked by hand.


@pytest.fixture(scope="module")
def field_cards() -> list[dict[str, Any]]:
    """One team's cards, made without any target: team_dunk reads them as they are."""
    result = team_file(roster(10), TeamContext("Target U", 1995))
    cards: list[dict[str, Any]] = result.team["players"]
    return cards


def test_the_pair_models_targets_are_the_hand_worked_figures() -> None:
    # the author's compression 0.64, a team 8 better than the field, 150 points both ways
    # against the field's 134: 0.25 x (150 + 134) = 71.0 common, 0.32 x 8 = 2.56 either side
    model = PairModel(compression=0.64, scale=1.0, rating_mean=0.0, tempo_mean=134.0)
    assert model.targets(Season(1995, rating=8, pts=80, opp=70)) == (
        pytest.approx(73.56), pytest.approx(68.44),
    )  # fmt: skip
    # compression 1 on a field-average tempo is the calculator's own default: 67 +- rating / 2
    full = PairModel(compression=1.0, scale=1.0, rating_mean=0.0, tempo_mean=134.0)
    assert full.targets(Season(1995, rating=8, pts=70, opp=64)) == (71.0, 63.0)


def test_targets_come_before_the_predicted_score_and_the_rating(
    field_cards: list[dict[str, Any]],
) -> None:
    by_rating = team_dunk(field_cards, TeamContext("Target U", 1995, rating=8))  # 71 / 63
    targeted = TeamContext(
        "Target U", 1995, rating=-5, predicted_pts=80, predicted_allowed=60,
        target_pts=71.0, target_allowed=63.0,
    )  # fmt: skip
    assert team_dunk(field_cards, targeted) == by_rating
    assert (
        team_dunk(field_cards, replace(targeted, target_pts=None, target_allowed=None))
        == (
            team_dunk(
                field_cards, TeamContext("Target U", 1995, predicted_pts=80, predicted_allowed=60)
            )
        )
        != by_rating
    )
    # each target stands alone: the other figure falls back to the predicted score
    only_pts = replace(targeted, target_allowed=None)
    assert team_dunk(field_cards, only_pts) == team_dunk(
        field_cards, TeamContext("Target U", 1995, predicted_pts=71, predicted_allowed=60)
    )
    only_allowed = replace(targeted, target_pts=None)
    assert team_dunk(field_cards, only_allowed) == team_dunk(
        field_cards, TeamContext("Target U", 1995, predicted_pts=80, predicted_allowed=63)
    )


def test_the_dunk_numbers_follow_the_pair_models_targets(
    field_cards: list[dict[str, Any]],
) -> None:
    pts, allowed = 73.56, 68.44  # the hand-worked pair model figures above

    def dunk(target_pts: float, target_allowed: float) -> tuple[int, int]:
        ctx = TeamContext("Target U", 1995, target_pts=target_pts, target_allowed=target_allowed)
        return team_dunk(field_cards, ctx)

    top, adjust = dunk(pts, allowed)
    # the top: what the cards' own trips lack of (73.56 - 20) / 44 points a trip (cards.md §10.2)
    trip, read = (ENGINE_TRIP[0] + ENGINE_TRIP[1] * v for v in points_per_trip(field_cards))
    assert top == dunk_top_for((pts - 20) / 44 - trip, read) - MEAN_DUNK_ADJUST
    # the adjustment: one number for every 44/36 points the defence allows below the field's
    # 67, less what its steal and block ranges save already
    saved = defensive_points_saved(field_cards)
    assert adjust == MEAN_DUNK_ADJUST - round((67 - allowed - saved) / (44 / 36))
    # allowing 2 x 44/36 points more moves the adjustment up 2 numbers and leaves the top
    assert dunk(pts, allowed + 2 * 44 / 36) == (top, adjust + 2)
    assert dunk(pts, allowed - 3 * 44 / 36) == (top, adjust - 3)
    # more points aimed at: a longer dunk range, the adjustment unmoved
    higher, same = dunk(pts + 4, allowed)
    assert higher > top and same == adjust
    assert dunk(pts - 4, allowed)[0] < top


def test_the_teams_file_target_columns_set_the_dunk_range_as_build_field_writes_them(
    tmp_path: Path,
) -> None:
    stats = write_csv(tmp_path / "stats.csv", ROSTER_HEADER, example_rows())
    teams = write_csv(
        tmp_path / "teams.csv",
        "school,year,conference,target_pts,target_allowed",  # build_field's team_rows
        ["Example State,1999,Big X,73.56,68.44", "Old Tech,1960,Old 5,,"],
    )
    run(str(stats), "--teams", str(teams), "--out", str(tmp_path / "a"))
    run(str(stats), "--out", str(tmp_path / "b"))
    aimed = json.loads((tmp_path / "a" / "example-state-1999.json").read_text())
    plain = json.loads((tmp_path / "b" / "example-state-1999.json").read_text())
    assert aimed["players"] == plain["players"]  # targets move only the dunk numbers
    ctx = TeamContext("Example State", 1999, target_pts=73.56, target_allowed=68.44)
    assert (aimed["dunk_top"], aimed["dunk_adjust"]) == team_dunk(aimed["players"], ctx)
    assert (plain["dunk_top"], plain["dunk_adjust"]) == team_dunk(
        plain["players"], TeamContext("Example State", 1999)
    )  # 67 / 67
    assert aimed["dunk_top"] > plain["dunk_top"] and aimed["dunk_adjust"] > plain["dunk_adjust"]
    old = [json.loads((tmp_path / d / "old-tech-1960.json").read_text()) for d in "ab"]
    assert old[0]["dunk_top"] == old[1]["dunk_top"]  # empty targets: the field's average
