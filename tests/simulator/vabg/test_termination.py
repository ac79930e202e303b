"""Cards that can never end a game are refused with a clear error, never an endless loop.

The rulebook's putback rule ("a miss goes back to the rebound step until the offense
scores, is fouled or the defense rebounds", vabg-rulings.md §7) and its overtime rule
(play until the tie is broken) cannot end when a team's cards never make a shot and
always win the offensive rebound, or when neither team can ever score. No real card does
that; the engine stops such a game with ``EndlessGameError`` (docs/engine.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from simulator import SeededDice
from simulator.vabg import ADVANCED, BASIC, play_game, team_from_json
from simulator.vabg.engine import EndlessGameError

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "teams" / "kentucky-2012.json"


def team(school: str, *, dunks: bool = True, **card: Any) -> Any:
    doc = json.loads(FIXTURE.read_text())
    doc["school"] = school
    if not dunks:
        doc.update(dunk_top=50, dunk_adjust=0)  # 51-50: no dunk range at all
    for player in doc["players"]:
        player.pop("printed", None)
        player.update(card)
    return team_from_json(doc)


NEVER_SCORES = {
    "d20": {"3PM": None, "2PM": None, "FOUL": None, "3PX": "1-10", "2PX": "11-20"},
    "free_throw_top": 0,
    "turnover_top": 40,
    "steal_top": 10,
    "block_top": 20,
    "foul_from": 37,
}


def test_a_team_that_never_scores_and_owns_the_offensive_glass_is_refused() -> None:
    shooters = team("Bricklayers", dunks=False, off_reb=6, def_reb=0, **NEVER_SCORES)
    others = team("Bricklayers B", dunks=False, off_reb=6, def_reb=0, **NEVER_SCORES)
    with pytest.raises(EndlessGameError, match="cannot end") as refused:
        play_game(shooters, others, SeededDice(1), rules=ADVANCED)
    assert "putback" in str(refused.value)


def test_two_teams_that_can_never_score_do_not_play_overtime_forever() -> None:
    a = team("Zeros A", dunks=False, off_reb=0, def_reb=6, **NEVER_SCORES)
    b = team("Zeros B", dunks=False, off_reb=0, def_reb=6, **NEVER_SCORES)
    with pytest.raises(EndlessGameError, match="overtime"):
        play_game(a, b, SeededDice(2), rules=BASIC)


def test_an_ordinary_game_is_untouched_by_the_limits() -> None:
    home = team_from_json(json.loads(FIXTURE.read_text()))
    result = play_game(home, team("Copy"), SeededDice(3), rules=ADVANCED)
    assert result.home.score != result.away.score
