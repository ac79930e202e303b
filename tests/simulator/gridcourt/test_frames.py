"""A stored grid-court game's play-by-play says where the pieces were set and every step.

A table player follows a stored game from its page alone: where each piece was placed
after each reset, and each step of each roll, as the table page listed them ("Duke 1992:
piece 1 (1, 8) to (2, 7)").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulator import SeededDice
from simulator.games import find_game

TEAMS = Path(__file__).resolve().parents[3] / "fixtures" / "teams"
NAMES = {"away": "Duke 1992", "home": "UNLV 1991"}
CELL = r"\((\d+), (\d+)\)"


def stored(seed: int, **options: object) -> tuple[list[dict[str, object]], list[list[str]]]:
    """Play a seeded game; return its stored events and each turn's notes."""
    engine = find_game("gridcourt")
    home = engine.read_team_file(TEAMS / "kentucky-2012.json")
    away = engine.read_team_file(TEAMS / "kansas-2008.json")
    rules = engine.rules_from_json({**engine.default_rules().to_json(), **options})
    played = engine.play(home, away, SeededDice(seed), rules)
    events = [e.to_json() for e in played.events]
    view = engine.replay_frames(events, rules.to_json(), NAMES)
    return events, [frame.notes for frame in view.frames]


@pytest.mark.parametrize(("seed", "options"), [(3, {}), (5, {"pieces": 3, "width": 13})])
def test_the_notes_place_every_piece_and_take_every_step(seed: int, options: dict) -> None:
    events, turns = stored(seed, **options)
    resets = [e for e in events if e["type"] == "reset"]
    steps = [e for e in events if e["type"] == "step"]
    assert resets and steps
    notes = [note for turn in turns for note in turn]

    # after each reset, both teams' placings, piece by piece, the offense first
    placed = [n for n in notes if " placed piece 1 " in n]
    assert len(placed) == 2 * len(resets)
    for reset, (first, second) in zip(resets, zip(placed[::2], placed[1::2], strict=True),
                                      strict=True):  # fmt: skip
        offense = str(reset["offense"])
        defense = "home" if offense == "away" else "away"
        for side, role, note in ((offense, "offense", first), (defense, "defense", second)):
            assert note.startswith(f"{NAMES[side]} ({role}) placed ")
            cells = [[int(r), int(c)] for r, c in re.findall(CELL, note)]
            assert cells == reset[side]

    # every step, in order: "UNLV 1991: piece 2 (1, 12) to (1, 13) to (1, 14)."
    told = []
    for note in notes:
        found = re.fullmatch(rf"(.+): piece (\d+) {CELL}((?: to {CELL})+)\.", note)
        if found is None:
            continue
        team = next(side for side, name in NAMES.items() if name == found.group(1))
        here = [int(found.group(3)), int(found.group(4))]
        for r, c in re.findall(CELL, found.group(5)):
            to = [int(r), int(c)]
            told.append({"type": "step", "team": team, "piece": int(found.group(2)),
                         "from": here, "to": to})  # fmt: skip
            here = to
    assert told == steps


def test_the_pieces_followed_from_the_notes_stand_where_the_board_draws_them() -> None:
    engine = find_game("gridcourt")
    home = engine.read_team_file(TEAMS / "kentucky-2012.json")
    away = engine.read_team_file(TEAMS / "kansas-2008.json")
    played = engine.play(home, away, SeededDice(9), engine.default_rules())
    view = engine.replay_frames([e.to_json() for e in played.events], played.rules.to_json(), NAMES)
    cells: dict[tuple[str, int], tuple[int, int]] = {}
    side_of = {name: side for side, name in NAMES.items()}
    for frame in view.frames:
        for note in frame.notes:
            if found := re.fullmatch(r"(.+) \((?:offense|defense)\) placed (.+)\.", note):
                side = side_of[found.group(1)]
                for n, r, c in re.findall(rf"piece (\d+) {CELL}", found.group(2)):
                    cells[(side, int(n))] = (int(r), int(c))
            elif found := re.fullmatch(rf"(.+): piece (\d+) {CELL}.* to {CELL}\.", note):
                cells[(side_of[found.group(1)], int(found.group(2)))] = (
                    int(found.group(5)),
                    int(found.group(6)),
                )
        assert {(p.team, p.number): (p.row, p.column) for p in frame.pieces} == cells
