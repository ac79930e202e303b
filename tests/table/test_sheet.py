"""The engine at the table: the game so far is the dice so far (simulator/vabg/sheet.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulator.dice import DiceError, DieRefused, GameOverError, OrderedDice, ScriptedDice
from simulator.vabg import ADVANCED, BASIC, play_game, preset, read_team_file
from simulator.vabg.engine import rules_coach
from simulator.vabg.events import Trip
from simulator.vabg.sheet import replay, score_sheet
from tests.table.dice import rolled_game

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
HOME = read_team_file(FIXTURES / "kentucky-2012.json")
AWAY = read_team_file(FIXTURES / "kansas-2008.json")
STRATEGY = preset("advanced", strategy=True)


def ball_holders(why: str) -> dict[int, str | None]:
    """Read a d8 prompt's holders: ``d8 (who gets the ball: 1 A, ..., 6 A, 7/8 nobody
    (shot clock))`` or a re-roll's ``d8 (1 A, ..., 5 E; 6-8 a team turnover)``."""
    found = re.search(r"d8 \((?:who gets the ball: )?(.*)\), then d6 tens", why)
    assert found is not None, why
    words, _, turnover = found.group(1).partition("; ")
    holders: dict[int, str | None] = {d: None for d in (6, 7, 8)} if turnover else {}
    for word in words.split(", "):
        numbers, _, name = word.partition(" ")
        for d in numbers.split("/"):
            holders[int(d)] = None if name.startswith("nobody") else name
    assert set(holders) == set(range(1, 9)), why
    return holders


@pytest.mark.parametrize(
    ("rules", "neutral", "seed"),
    [(ADVANCED, False, 1), (ADVANCED, True, 2), (BASIC, False, 3), (STRATEGY, False, 4)],
    ids=["advanced", "neutral", "basic", "strategy"],
)
def test_after_every_die_the_sheet_asks_for_the_die_the_engine_rolls_next_and_says_why(
    rules, neutral, seed
):
    played, written = rolled_game(HOME, AWAY, seed, rules, neutral)
    # Solved once, as the table does for a game replayed die after die (with the strategy
    # choices on; None otherwise).
    coach = rules_coach(HOME, AWAY, rules=rules, neutral=neutral)
    told = []  # for each d8, who the prompt said takes the ball on the value then rolled
    for k in range(len(written.values)):
        need = replay(
            HOME, AWAY, written.values[:k], rules=rules, neutral=neutral, coach=coach
        ).need
        assert need is not None
        assert (need.index, need.die) == (k, written.dice[k])
        assert not need.why.startswith("the engine asks"), (k, need)
        if need.die == "d8":
            told.append(ball_holders(need.why).get(written.values[k], "?"))
    final = replay(HOME, AWAY, written.values, rules=rules, neutral=neutral)
    assert final.need is None and final.finished
    # Each d8 makes one trip of the engine's: its carrier is the one the prompt named.
    trips = [e.player for e in final.events if isinstance(e, Trip)]
    assert told == trips
    assert final.result is not None
    assert final.result.to_json()["events"] == played.to_json()["events"]
    assert final.result.home == played.home and final.result.away == played.away
    assert (final.home_score, final.away_score) == (played.home.score, played.away.score)


def test_a_trip_asks_d8_then_d6_tens_then_d6_ones_then_d20_naming_the_team_and_number():
    steps = []
    values: list[int] = []
    for value in (2, 3, 4, 1):
        need = replay(HOME, AWAY, values).need
        assert need is not None
        steps.append((need.die, need.step))
        values.append(value)
    assert steps == [("d8", "d8"), ("d6", "d6 tens"), ("d6", "d6 ones"), ("d20", "d20")]
    first = replay(HOME, AWAY, []).need
    assert first is not None and first.trip_start and first.team == "away"
    assert first.why.startswith("Kansas 2008 ball, possession 44: d8 (who gets the ball: 1 ")
    after = replay(HOME, AWAY, values)  # a d20 of 1: a made 3 for Kansas's shooting guard
    assert after.away_score == 23
    assert after.need is not None and after.need.trip_start
    assert (after.need.team, after.need.number) == ("home", 44)


def test_a_missed_shot_on_an_even_number_asks_rebound_d20_then_d6_and_names_the_rebounder():
    _played, written = rolled_game(HOME, AWAY, 5)
    seen = {}
    for k in range(len(written.values)):
        need = replay(HOME, AWAY, written.values[:k]).need
        assert need is not None
        seen.setdefault(need.step, need)
    rebound = seen["rebound d20"]
    assert rebound.die == "d20"
    assert rebound.why.startswith("rebound: d20") and rebound.why.endswith("then d6")
    assert seen["rebound d6"].die == "d6" and "rebound: d6" in seen["rebound d6"].why
    ft = seen["free throw 1"]
    assert ft.die == "d20" and "free throw 1 of" in ft.why and "made on 1-" in ft.why
    assert "putback d20" in seen and "card" in seen["putback d20"].why


def test_a_value_that_is_not_a_face_of_the_die_asked_for_is_refused_where_it_stands():
    with pytest.raises(DieRefused) as refused:
        replay(HOME, AWAY, [9])
    assert (refused.value.index, refused.value.need.die) == (0, "d8")
    assert "9 is not a face of a d8 (1-8)" in str(refused.value)
    with pytest.raises(DieRefused) as refused:
        replay(HOME, AWAY, [3, 4, 7, 17])
    assert (refused.value.index, refused.value.need.step) == (2, "d6 ones")
    with pytest.raises(DieRefused):
        replay(HOME, AWAY, [3, 4, 6, 21])
    with pytest.raises(DieRefused):
        replay(HOME, AWAY, [3, 0])
    assert replay(HOME, AWAY, [3, 4, 6, 20]).need is not None  # 20 is a face of a d20


def test_dice_past_the_end_of_the_game_are_refused():
    _played, written = rolled_game(HOME, AWAY, 8)
    with pytest.raises(GameOverError, match=f"over after {len(written.values)} dice; 2 more"):
        replay(HOME, AWAY, [*written.values, 1, 1])


def test_the_dice_file_of_a_game_at_the_table_replays_it_through_the_scripted_source():
    played, written = rolled_game(HOME, AWAY, 9)
    position = replay(HOME, AWAY, written.values)
    again = play_game(HOME, AWAY, ScriptedDice.from_json(position.dice_file()))
    assert again.to_json()["events"] == played.to_json()["events"]
    assert position.dice_file()["format"] == "vabg-dice/1"


def test_the_ordered_source_refuses_a_bad_face_and_names_the_die_it_ran_out_of():
    dice = OrderedDice([3, 9])
    assert dice.d8() == 3
    with pytest.raises(DiceError, match="roll 2 = 9 is not a face of a d6"):
        dice.d6()
    with pytest.raises(DiceError, match="a d20 was wanted after all 0 d20"):
        OrderedDice([]).d20()


def test_plays_give_each_trip_its_own_dice_and_events_and_undo_finds_the_trip_start():
    _played, written = rolled_game(HOME, AWAY, 11)
    position = replay(HOME, AWAY, written.values[:60])
    plays = position.plays()
    assert sum(len(p.rolls) for p in plays) == 60
    for play in plays:
        trips = [e for e in play.events if isinstance(e, Trip)]
        if len(play.rolls) >= 4:  # the trip event comes once its four dice are in
            assert trips and trips[0].d8 == play.rolls[0].value
            assert [r.value for r in play.rolls[:4]] == [
                trips[0].d8,
                trips[0].roll // 10,
                trips[0].roll % 10,
                trips[0].d20,
            ]
    start = position.last_trip_start()
    assert 0 < start <= 60
    back = replay(HOME, AWAY, written.values[:start])
    assert back.need is not None and back.need.trip_start


def test_the_score_sheet_marks_who_is_on_the_floor_points_and_fouls_by_number():
    played, written = rolled_game(HOME, AWAY, 12)
    sheet = score_sheet(replay(HOME, AWAY, written.values))
    assert [n["label"] for n in sheet["numbers"][:3]] == ["44", "43", "42"]
    for side, box in (("home", played.home), ("away", played.away)):
        team = sheet[side]
        assert team["numbers"][43]["score"] == box.periods[0]
        for row in team["players"]:
            line = box.line(row["name"])
            assert row["pts"] == line.pts
            assert row["pf"] == line.pf
            assert sum(c["pts"] for c in row["cells"]) + row["opening"] == line.pts
            assert sum(c["on"] for c in row["cells"][:44]) == min(line.poss, 44)
        on_floor = [sum(r["cells"][i]["on"] for r in team["players"]) for i in range(44)]
        assert on_floor == [5] * 44
    assert sheet["rebounds"]["43"] == "C" and sheet["rebounds"]["39"] == "best"


def test_a_one_and_one_is_asked_for_as_one_not_as_free_throw_1_of_1():
    whys: set[str] = set()
    # Every prefix of a game is replayed (some 460 a game): the seeds known to hold a
    # one-and-one with its second throw come first; the others are tried if they no longer do.
    for seed in (10, 11, *range(1, 10)):
        _played, written = rolled_game(HOME, AWAY, seed)
        for k in range(len(written.values)):
            need = replay(HOME, AWAY, written.values[:k]).need
            if need is not None and "one-and-one" in need.why:
                whys.add(need.why.split(": d20")[0])
            if len(whys) == 2:
                break
        if len(whys) == 2:
            break
    assert whys == {
        "the first free throw of a one-and-one (made: a second)",
        "the second free throw of the one-and-one",
    }
