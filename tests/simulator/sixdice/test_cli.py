"""``python -m simulator play HOME AWAY --game sixdice`` as interchange.md ("Other games") says.

Each test runs the command in a subprocess and reads only its exit status and output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from simulator import SeededDice
from simulator.dice import DiceRecord
from simulator.games import TeamName
from simulator.sixdice import play_game

ROOT = Path(__file__).resolve().parents[3]
HOME = ROOT / "fixtures" / "teams" / "kentucky-2012.json"
AWAY = ROOT / "fixtures" / "teams" / "kansas-2008.json"
BAD_INPUT = 2


def simulator(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "simulator",
            "play",
            HOME,
            AWAY,
            "--game",
            "sixdice",
            *map(str, args),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def play_json(*args: object) -> dict[str, Any]:
    done = simulator(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def refused(*args: object) -> str:
    done = simulator(*args)
    assert done.returncode == BAD_INPUT, (done.returncode, done.stderr)
    assert done.stdout == "" and "Traceback" not in done.stderr
    return done.stderr


class Recording:
    def __init__(self, seed: int) -> None:
        self.source = SeededDice(seed)
        self.rolls: list[int] = []

    def d6(self) -> int:
        self.rolls.append(self.source.d6())
        return self.rolls[-1]

    def d8(self) -> int:
        raise AssertionError

    d20 = d8

    def record(self) -> DiceRecord:
        return self.source.record()


def test_json_names_the_game_and_each_team_with_its_score_and_box_score():
    doc = play_json("--seed", 12)
    assert list(doc)[:4] == ["game", "home", "away", "events"]
    assert doc["game"] == "sixdice"
    home, away = doc["home"], doc["away"]
    assert (home["school"], home["season"], away["school"], away["season"]) == (
        "Kentucky", 2012, "Kansas", 2008,
    )  # fmt: skip
    assert max(home["score"], away["score"]) >= 21 > min(home["score"], away["score"])
    assert home["score"] == sum(home["points"].values())
    assert doc["events"][0]["type"] == "start" and doc["events"][-1]["type"] == "end"
    assert doc["dice"] == {"seed": 12}
    assert doc["rules"] == {
        "version": 2, "faces": "BBBPSF", "chip_reroll": False, "deflected_pass_penalty": False,
    }  # fmt: skip
    assert play_json("--seed", 12) == doc


def test_a_dice_file_in_digits_and_letters_replays_a_seeded_game(tmp_path):
    recording = Recording(12)
    play_game(TeamName("Kentucky", 2012), TeamName("Kansas", 2008), recording)
    letters = {1: "B", 4: "P", 5: "S", 6: "F"}
    script = tmp_path / "game.json"
    script.write_text(
        json.dumps({"format": "vabg-dice/1", "d6": [letters.get(v, v) for v in recording.rolls]})
    )
    replayed, seeded = play_json("--dice", script), play_json("--seed", 12)
    assert replayed.pop("dice")["d6"] == recording.rolls
    seeded.pop("dice")
    assert replayed == seeded


def test_the_text_box_score_and_the_options(tmp_path):
    done = simulator("--seed", 4, "--chip-reroll")
    assert done.returncode == 0, done.stderr
    assert "(Orange)" in done.stdout and "chip-reroll rules" in done.stdout
    assert "chip rerolls" in done.stdout
    doc = play_json("--seed", 4, "--faces", "BBPPSF")
    assert doc["rules"]["faces"] == "BBPPSF"
    assert play_json("--seed", 4, "--faces", "bbppsf") == doc  # in any case, as dice files


def test_bad_input_exits_2_naming_the_problem(tmp_path):
    short = tmp_path / "short.json"
    short.write_text(json.dumps({"format": "vabg-dice/1", "d6": "BBBPSF BBBPS"}))
    assert (
        "the dice script ran out: White's dice for the jump ball were wanted after all 11 d6"
        in refused("--dice", short)
    )
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "vabg-dice/1", "d6": [1], "d20": [3]}))
    assert "d20: the six-dice game reads only d6 rolls" in refused("--dice", other)
    assert "sixdice option faces must be six letters" in refused("--faces", "BBBPSX")
    assert "--strategy is a vabg option" in refused("--strategy")
    assert "sixdice has no option 'width'" in refused("--width", 13)
