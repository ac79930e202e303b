"""``python -m simulator play ... --game gridcourt`` as interchange.md ("Other games") says.

Each test runs the command in a subprocess, the way a script would, and reads only its
exit status, stdout and stderr.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "teams"
HOME = FIXTURES / "kentucky-2012.json"
AWAY = FIXTURES / "kansas-2008.json"
BAD_INPUT = 2


def simulator(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "simulator", "play", HOME, AWAY, "--game", "gridcourt", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def play_json(*args: object) -> dict[str, Any]:
    done = simulator(*args, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


def refused(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == BAD_INPUT, (done.returncode, done.stderr)
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    return done.stderr


def test_json_has_the_game_both_teams_with_their_piece_lines_and_the_events():
    doc = play_json("--seed", "7", "--width", "13", "--level", "1", "--pieces", "4")
    assert doc["game"] == "gridcourt"
    assert (doc["home"]["school"], doc["home"]["season"]) == ("Kentucky", 2012)
    assert (doc["away"]["school"], doc["away"]["season"]) == ("Kansas", 2008)
    assert max(doc["home"]["score"], doc["away"]["score"]) >= 21
    for team in (doc["home"], doc["away"]):
        assert [p["piece"] for p in team["pieces"]] == [1, 2, 3, 4]
        assert sum(p["pts"] for p in team["pieces"]) == team["score"]
    assert doc["events"][-1]["type"] == "end"
    assert doc["rules"] == {"version": 1, "width": 13, "level": 1, "pieces": 4}
    assert doc["dice"] == {"seed": 7}


def test_the_same_seed_prints_the_same_game():
    assert play_json("--seed", "11") == play_json("--seed", "11")


def test_a_dice_file_of_d6_rolls_replays_the_game_those_rolls_made(tmp_path):
    seeded = play_json("--seed", "5")
    rolls = [d for e in seeded["events"] if e["type"] == "roll" for d in e["dice"]]
    dice = tmp_path / "dice.json"
    dice.write_text(json.dumps({"format": "vabg-dice/1", "d6": rolls}))
    replayed = play_json("--dice", dice)
    assert replayed["events"] == seeded["events"]
    assert replayed["dice"] == {"format": "vabg-dice/1", "d8": [], "d6": rolls, "d20": []}


def test_a_dice_file_that_runs_out_names_the_roll_wanted(tmp_path):
    dice = tmp_path / "dice.json"
    dice.write_text(json.dumps({"format": "vabg-dice/1", "d6": [4, 4, 1, 5, 6]}))
    message = refused(simulator("--dice", dice))
    # The roll (gridcourt-rulings.md §5): whose, which die of it, which turn.
    assert message.rstrip("\n") == (
        f"error: {dice}: the dice script ran out: Kentucky 2012's defensive roll (its d6) "
        "of turn 4 was wanted after all 5 d6 rolls were used"
    )


def test_the_text_box_score_names_both_teams_and_the_options():
    done = simulator("--seed", "3", "--level", "2")
    assert done.returncode == 0, done.stderr
    assert "Grid court (width 14, level 2, pieces 5; seed 3)" in done.stdout
    assert "Kansas 2008 (visitor)" in done.stdout
    assert "3SEC" in done.stdout
    # Each short column name is said in words once, under the box score (a trial could not
    # tell SCV, DECL or ORB CH apart).
    key = " ".join(done.stdout.split("Key: ", 1)[1].split())
    for said in ("SCV shot-clock violations", "DECL open shots declined",
                 "ORB CH misses with a piece in the paint", "3SEC paint violations"):  # fmt: skip
        assert said in key, said


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--width", "12"], "gridcourt option width must be one of 14, 13, got 12"),
        (["--pieces", "6"], "gridcourt option pieces must be one of 3, 4, 5, got 6"),
        (["--neutral"], "--neutral is a vabg option, not a gridcourt one"),
        (["--strategy"], "--strategy is a vabg option, not a gridcourt one"),
    ],
)
def test_options_the_game_does_not_have_are_refused_by_name(args, message):
    assert message in refused(simulator(*args))


def test_a_dice_file_with_other_dice_than_d6_is_refused(tmp_path):
    dice = tmp_path / "dice.json"
    dice.write_text(json.dumps({"format": "vabg-dice/1", "d6": [3, 4], "d20": [5]}))
    assert "d20: gridcourt reads no d20" in refused(simulator("--dice", dice))
    # A d8 stream is named as a stream it does not read, not as a d8 value out of range.
    dice.write_text(json.dumps({"format": "vabg-dice/1", "d6": [3, 4], "d8": [9]}))
    said = refused(simulator("--dice", dice))
    assert "d8: gridcourt reads no d8" in said and "not a face" not in said


def test_a_team_file_without_a_school_is_refused(tmp_path):
    team = tmp_path / "team.json"
    team.write_text(json.dumps({"season": 2001}))
    done = subprocess.run(
        [sys.executable, "-m", "simulator", "play", team, AWAY, "--game", "gridcourt"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "school: must be a non-empty text, but it is missing" in refused(done)


def test_grid_options_are_refused_for_vabg():
    done = subprocess.run(
        [sys.executable, "-m", "simulator", "play", HOME, AWAY, "--level", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "--level is not a vabg option" in refused(done)


def test_a_team_file_s_style_is_played_and_a_bad_one_refused(tmp_path: Path) -> None:
    def run(home: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        path = tmp_path / "home.json"
        path.write_text(json.dumps(home))
        return subprocess.run(
            [sys.executable, "-m", "simulator", "play", path, AWAY, "--game", "gridcourt",
             "--seed", "3", "--json"],
            cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip

    base = json.loads(HOME.read_text())
    plain = json.loads(run(base).stdout)
    keen = json.loads(run({**base, "styles": {"gridcourt": {"threes": 200, "crashers": 0}}}).stdout)
    assert plain["events"] != keen["events"]  # the same dice, other choices
    message = refused(run({**base, "styles": {"gridcourt": {"threes": 500}}}))
    assert "styles.gridcourt.threes: must be an integer from 50 to 200, got 500" in message


def test_a_dice_file_of_thousands_of_bad_dice_names_the_first_and_counts_the_rest(tmp_path):
    """A trial's file of six-dice letters given to grid court printed every one of its
    3,000 problems on one 130 KB line."""
    dice = tmp_path / "letters.json"
    dice.write_text(json.dumps({"format": "vabg-dice/1", "d6": list("SBF" * 1000)}))
    message = refused(simulator("--dice", dice))
    assert message.startswith(
        f'error: {dice}: bad dice file: d6[0] (roll 1) = "S" is not a face of a d6'
    )
    assert message.rstrip("\n").endswith("and 2,995 more problems like these")
    assert len(message) < 600
