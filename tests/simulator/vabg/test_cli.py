"""``python -m simulator play`` as interchange.md's "Command line" section promises it.

Each test runs the command in a subprocess with the project's interpreter, the way a
script or a table-top player would, and reads only its exit status, stdout and stderr.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from simulator import SeededDice
from simulator.recording import RecordingDice
from simulator.results import LINE_FIELDS
from simulator.vabg import ADVANCED, play_game, read_team_file
from simulator.vabg.words import plain_lines

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "teams"
HOME = FIXTURES / "kentucky-2012.json"
AWAY = FIXTURES / "kansas-2008.json"
BAD_INPUT = 2


def simulator(*args: object) -> subprocess.CompletedProcess[str]:
    """Run ``python -m simulator`` with ``args``; never raise on a non-zero exit."""
    return subprocess.run(
        [sys.executable, "-m", "simulator", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def play_json(*args: object) -> dict[str, Any]:
    done = simulator("play", *args, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


def the_game(doc: dict[str, Any]) -> tuple[Any, ...]:
    """Return the part of a ``--json`` object the spec defines."""
    return doc["home"], doc["away"], doc["overtimes"], doc["events"]


def refused(done: subprocess.CompletedProcess[str]) -> str:
    """Check a run was refused as bad input, with nothing on stdout; return its message."""
    assert done.returncode == BAD_INPUT, (done.returncode, done.stderr)
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    return done.stderr


def write_json(path: Path, doc: object) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


# -- a good game -------------------------------------------------------------------------


def test_json_output_has_the_specified_keys_and_each_line_adds_up():
    doc = play_json(HOME, AWAY, "--seed", 7)
    assert {"home", "away", "overtimes", "events"} <= set(doc)
    assert isinstance(doc["overtimes"], int) and doc["overtimes"] >= 0
    assert isinstance(doc["events"], list) and doc["events"]
    opening = {(e["team"], e["player"]): e["pts"] for e in doc["events"] if e["type"] == "opening"}
    for key, path in (("home", HOME), ("away", AWAY)):
        team = doc[key]
        card = read_team_file(path)
        assert (team["school"], team["season"]) == (card.school, card.season)
        assert [p["name"] for p in team["players"]] == [p.name for p in card.players]
        assert team["score"] == sum(p["pts"] for p in team["players"])
        for line in team["players"]:
            assert set(LINE_FIELDS) | {"name"} <= set(line), line
            # interchange.md: pts = opening points + 2 x (fgm - tpm) + 3 x tpm + ftm.
            shots = 2 * (line["fgm"] - line["tpm"]) + 3 * line["tpm"] + line["ftm"]
            assert line["pts"] == opening[key, line["name"]] + shots, line
    assert doc["home"]["score"] != doc["away"]["score"]


def test_the_same_seed_prints_the_same_game_and_another_seed_another():
    first = simulator("play", HOME, AWAY, "--seed", 7, "--json")
    again = simulator("play", HOME, AWAY, "--seed", 7, "--json")
    assert first.returncode == again.returncode == 0
    assert first.stdout == again.stdout
    assert the_game(play_json(HOME, AWAY, "--seed", 8)) != the_game(json.loads(first.stdout))


def test_the_readable_box_score_shows_the_final_and_every_player():
    doc = play_json(HOME, AWAY, "--seed", 7)
    done = simulator("play", HOME, AWAY, "--seed", 7)
    assert done.returncode == 0, done.stderr
    assert simulator("play", HOME, AWAY, "--seed", 7).stdout == done.stdout
    headline = done.stdout.splitlines()[0]
    for key in ("away", "home"):
        team = doc[key]
        assert f"{team['school']} {team['season']} {team['score']}" in headline
        for line in team["players"]:
            assert line["name"] in done.stdout
    assert not done.stdout.lstrip().startswith("{")


def test_home_is_the_home_team_and_the_visitor_plays_first_even_on_a_neutral_court():
    for extra in ([], ["--neutral"]):
        doc = play_json(HOME, AWAY, "--seed", 3, *extra)
        assert doc["home"]["school"] == "Kentucky" and doc["away"]["school"] == "Kansas"
        first_trip = next(e for e in doc["events"] if e["type"] == "trip")
        assert first_trip["team"] == "away"
        tipoff = doc["events"][0]
        assert tipoff["neutral"] is bool(extra)


def test_a_neutral_court_has_no_missed_calls_on_the_road():
    # vabg-rulings.md §6: home court is off at a neutral site; seeds are scanned until a
    # home game shows a missed call, so the comparison is not vacuous.
    seed = next(
        s
        for s in range(50)
        if any(
            e["type"] == "call" and e["call"] == "no call on the road"
            for e in play_json(HOME, AWAY, "--seed", s)["events"]
        )
    )
    neutral = play_json(HOME, AWAY, "--seed", seed, "--neutral")
    assert not any(e["type"] == "call" for e in neutral["events"])
    # The missed call is the home court's, against the visitor: the words name the visitor
    # (they named the home team: "Kentucky 2012: no call on the road").
    text = simulator("play", HOME, AWAY, "--seed", seed, "--play-by-play").stdout
    assert "no call for Kansas 2008 on the road" in text
    assert "Kentucky 2012: no call" not in text and "no call for Kentucky" not in text
    result = play_game(read_team_file(HOME), read_team_file(AWAY), SeededDice(seed))
    lines = plain_lines(result.events, {"home": "Kentucky 2012", "away": "Kansas 2008"})
    missed = [line for line in lines if line.kind == "call"]
    assert missed and all(
        line.text == "No call for Kansas 2008 on the road" and line.side == "away"
        for line in missed
    )


def test_the_basic_rules_give_the_defense_every_miss():
    # vabg-rulings.md §0: no rebounding chart in the basic preset.
    basic = play_json(HOME, AWAY, "--seed", 7, "--rules", "basic")
    assert all(p["oreb"] == 0 for key in ("home", "away") for p in basic[key]["players"])
    advanced = play_json(HOME, AWAY, "--seed", 7)
    assert advanced == play_json(HOME, AWAY, "--seed", 7, "--rules", "advanced")
    assert any(p["oreb"] > 0 for key in ("home", "away") for p in advanced[key]["players"])


def test_without_a_seed_the_game_is_random_but_says_how_to_replay_it():
    doc = play_json(HOME, AWAY)
    seed = doc["dice"]["seed"]
    assert isinstance(seed, int)
    assert the_game(play_json(HOME, AWAY, "--seed", seed)) == the_game(doc)


def test_a_dice_file_replays_a_game_and_left_over_rolls_are_no_error(tmp_path):
    recorder = RecordingDice(SeededDice(7))
    play_game(read_team_file(HOME), read_team_file(AWAY), recorder, rules=ADVANCED)
    rolls = {
        die: [*(d.value for d in recorder.draws if d.die == die), 1, 1, 1]
        for die in ("d8", "d6", "d20")
    }
    dice = write_json(tmp_path / "dice.json", {"format": "vabg-dice/1", **rolls})
    replayed = play_json(HOME, AWAY, "--dice", dice)
    assert the_game(replayed) == the_game(play_json(HOME, AWAY, "--seed", 7))


# -- refusals ----------------------------------------------------------------------------


def test_a_bad_team_file_exits_2_naming_every_player_and_field(tmp_path):
    doc = json.loads(AWAY.read_text(encoding="utf-8"))
    doc["players"][0]["steal_top"] = 31
    doc["players"][2]["d20"]["2PX"] = "16-21"
    bad = write_json(tmp_path / "bad-team.json", doc)
    for args in ([HOME, bad], [bad, HOME]):
        message = refused(simulator("play", *args, "--seed", 1))
        assert "Russell Robinson" in message and "steal_top" in message and "31" in message
        assert "Brandon Rush" in message and "2PX" in message and "16-21" in message
        assert str(bad) in message


def test_a_team_file_that_is_not_json_exits_2(tmp_path):
    bad = tmp_path / "truncated.json"
    bad.write_text('{"format": ', encoding="utf-8")
    message = refused(simulator("play", HOME, bad, "--seed", 1))
    assert "not valid JSON" in message and str(bad) in message


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        (
            {"format": "vabg-dice/1", "d8": [9], "d6": [4, 1], "d20": [0]},
            [
                "d8[0] (roll 1) = 9 is not a face of a d8 (1-8)",
                "d20[0] (roll 1) = 0 is not a face of a d20 (1-20)",
            ],
        ),
        ({"format": "vabg-dice/2", "d8": [1]}, ['format must be "vabg-dice/1"']),
        ({"format": "vabg-dice/1", "d6": "41"}, ["d6 must be a list of rolls"]),
        (["not", "an", "object"], ["a dice file must be a JSON object"]),
    ],
    ids=["faces", "format", "not-a-list", "not-an-object"],
)
def test_a_bad_dice_file_exits_2_saying_what_is_wrong(tmp_path, dice, expected):
    path = write_json(tmp_path / "dice.json", dice)
    message = refused(simulator("play", HOME, AWAY, "--dice", path))
    assert str(path) in message
    for text in expected:
        assert text in message


def test_a_dice_file_that_is_not_json_exits_2(tmp_path):
    path = tmp_path / "dice.json"
    path.write_text("d8: 3, 6", encoding="utf-8")
    message = refused(simulator("play", HOME, AWAY, "--dice", path))
    assert "not valid JSON" in message and str(path) in message


@pytest.mark.parametrize("which", ["team", "dice", "folder"])
def test_a_file_that_is_not_utf8_exits_2_saying_so_without_a_traceback(tmp_path, which):
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'\xff\xfe\x00{"school": "Se\xf1or Tech"}')
    args = {
        "team": ["play", HOME, bad, "--seed", 1],
        "dice": ["play", HOME, AWAY, "--dice", bad],
        "folder": ["odds", "--pairs", tmp_path, "--out", tmp_path / "out.csv"],
    }[which]
    message = refused(simulator(*args))
    assert str(bad) in message and "not UTF-8 text (byte 0 is 0xff)" in message


DICE = {"d8": 8, "d6": 6, "d20": 20}


def test_files_saved_with_a_byte_order_mark_are_read(tmp_path):
    # Windows Notepad writes UTF-8 with a BOM: the same team and dice play the same game.
    home = tmp_path / "home.json"
    home.write_bytes(b"\xef\xbb\xbf" + HOME.read_bytes())
    rng = random.Random(5)
    dice = {
        "format": "vabg-dice/1",
        **{die: [rng.randint(1, faces) for _ in range(3000)] for die, faces in DICE.items()},
    }
    plain = write_json(tmp_path / "dice.json", dice)
    marked = tmp_path / "marked.json"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    once = simulator("play", HOME, AWAY, "--dice", plain, "--json")
    again = simulator("play", home, AWAY, "--dice", marked, "--json")
    assert once.returncode == again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["events"] == json.loads(once.stdout)["events"]


def test_odds_pairs_of_a_missing_folder_says_there_is_no_such_folder(tmp_path):
    message = refused(simulator("odds", "--pairs", tmp_path / "nope", "--out", tmp_path / "o.csv"))
    assert "nope: no such folder" in message


def test_a_box_score_piped_into_a_reader_that_stops_early_is_no_error():
    done = subprocess.run(
        f"{sys.executable} -m simulator play {HOME} {AWAY} --seed 3 | head -1",
        shell=True, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.stdout.strip() and "Traceback" not in done.stderr


@pytest.mark.parametrize("die", ["d8", "d6", "d20"])
def test_a_dice_file_that_runs_out_exits_2_naming_the_die(tmp_path, die):
    # Every trip reads d8, d6, d6, d20 (vabg-rulings.md §11); 1 and 41 is the point
    # guard's turnover or, if his range is empty, a d20 of 1: either way no more rolls.
    # One trip's worth of the chosen die and plenty of the others: the second trip
    # wants the chosen die first.
    plenty = {"d8": [1] * 50, "d6": [4, 1] * 50, "d20": [1] * 50}
    plenty[die] = plenty[die][: 2 if die == "d6" else 1]
    path = write_json(tmp_path / "short.json", {"format": "vabg-dice/1", **plenty})
    message = refused(simulator("play", HOME, AWAY, "--dice", path))
    assert "ran out" in message
    assert f"a {die} was wanted" in message


def test_a_dice_file_without_a_die_s_list_says_so_when_that_die_is_wanted(tmp_path):
    path = write_json(tmp_path / "no-d8.json", {"format": "vabg-dice/1", "d6": [4, 1], "d20": [1]})
    message = refused(simulator("play", HOME, AWAY, "--dice", path))
    assert f"{path}: the dice script ran out: a d8 was wanted" in message
    assert '(the file has no "d8" list)' in message


@pytest.mark.parametrize("which", ["home", "away", "dice"])
def test_a_missing_file_exits_2_naming_it(tmp_path, which):
    missing = tmp_path / "no-such-file.json"
    args = {"home": [missing, AWAY], "away": [HOME, missing], "dice": [HOME, AWAY]}[which]
    extra = ["--dice", missing] if which == "dice" else []
    message = refused(simulator("play", *args, *extra))
    assert str(missing) in message and "cannot be read" in message


@pytest.mark.parametrize(
    "args",
    [
        ["--seed", 1, "--dice", HOME],  # one or the other, per the synopsis
        ["--seed", "seven"],
        ["--rules", "expert"],
    ],
    ids=["seed-and-dice", "seed-not-a-number", "unknown-rules"],
)
def test_bad_arguments_exit_2_with_the_usage(args):
    message = refused(simulator("play", HOME, AWAY, *args))
    assert "usage: python -m simulator play" in message


@pytest.mark.parametrize("seed", [-5, 2**63])
def test_a_seed_no_stored_game_could_keep_is_refused_naming_the_range(seed):
    """``random`` reads a negative seed as its absolute value: ``--seed -5`` played the game
    of ``--seed 5``, a seed the league's forms and commands refuse."""
    message = refused(simulator("play", HOME, AWAY, "--seed", seed))
    assert f"argument --seed: {seed} is not a seed: give 0 to {2**63 - 1}" in message


def test_the_largest_seed_plays():
    assert play_json(HOME, AWAY, "--seed", 2**63 - 1)["home"]["score"] > 0


def test_an_empty_dice_file_is_said_to_be_empty(tmp_path):
    """A trial's empty file read "not valid JSON (line 1, column 1: Expecting value)"."""
    path = tmp_path / "dice.json"
    path.write_text("\n", encoding="utf-8")
    message = refused(simulator("play", HOME, AWAY, "--dice", path))
    assert f"{path}: the file is empty: it must hold a JSON object" in message
