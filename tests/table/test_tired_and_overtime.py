"""What a table player checks his paper against: who is tired (rulings §2), the overtimes'
labels and the end of the game, on the sheet and in the play's words.

The game is a table-top player's double-overtime game (Kansas 2008 at Kentucky 2012,
advanced rules, 627 dice: ``double_overtime.json``), where starters play tired in both
overtimes and Doron Lamb, who plays all 44 regulation numbers on "can play 37", is tired
from number 7.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from simulator.dice import ScriptedDice
from simulator.vabg import ADVANCED, BASIC, preset
from simulator.vabg.engine import GameState, Side, rules_coach
from simulator.vabg.events import AWAY, HOME, TripKind
from simulator.vabg.game import GAME
from simulator.vabg.sheet import VabgSheet, replay, score_sheet, tired_by_number
from tests.table.dice import rolled_game, written_from_file
from tests.table.test_sheet import AWAY as KANSAS
from tests.table.test_sheet import HOME as KENTUCKY

DOUBLE_OT = json.loads((Path(__file__).parent / "double_overtime.json").read_text())


@pytest.fixture(scope="module")
def double_ot() -> list[int]:
    played, values = written_from_file(KENTUCKY, KANSAS, DOUBLE_OT)
    assert (played.overtimes, played.away.score, played.home.score) == (2, 85, 80)
    return values


def engine_tired(values: list[int], rules=ADVANCED):  # type: ignore[no-untyped-def]
    """The engine's own reading: who on the floor is tired (``Player.tired``) at each trip."""
    seen: list[tuple[int, int, str, frozenset[str]]] = []
    streams = GAME.read_dice(replay(KENTUCKY, KANSAS, values, rules=rules).dice_file())

    def on_trip(off: Side, de: Side, n: int, kind: TripKind = TripKind.PLAIN) -> None:
        for side in (off, de):
            names = frozenset(p.name for p in side.lineup if p.tired)
            seen.append((game.period, n, side.key, names))
        game.play_trip(off, de, n, kind)

    coach = rules_coach(KENTUCKY, KANSAS, rules=rules, neutral=False)
    game = GameState(
        KENTUCKY, KANSAS, streams, rules, False, {HOME: None, AWAY: None}, coach, trip=on_trip
    )
    game.play()
    return seen


def column(period: int, number: int, ot_length: int = 10) -> int:
    return 44 - number if period == 0 else 44 + (period - 1) * ot_length + ot_length - number


@pytest.mark.parametrize("which", ["double overtime", "seed 5", "strategy seed 8"])
def test_the_tired_players_are_those_the_engine_plays_tired_at_every_trip(which, double_ot):
    rules = preset("advanced", strategy=True) if "strategy" in which else ADVANCED
    if which == "double overtime":
        values = double_ot
    else:
        values = rolled_game(KENTUCKY, KANSAS, int(which.split()[-1]), rules)[1].values
    position = replay(KENTUCKY, KANSAS, values, rules=rules)
    tired = tired_by_number(position)
    fives = {
        side: [*position.rotation[side], *([position.starters[side]] * 10 * 2)]
        for side in (HOME, AWAY)
    }
    checked = 0
    for period, number, side, names in engine_tired(values, rules):
        at = column(period, number)
        assert tired[side][at] & set(fives[side][at]) == names, (period, number, side)
        checked += bool(names)
    assert checked  # some trips were played tired


def test_basic_rules_have_no_tired_players():
    _played, written = rolled_game(KENTUCKY, KANSAS, 3, BASIC)
    position = replay(KENTUCKY, KANSAS, written.values, rules=BASIC)
    sheet = score_sheet(position)
    assert not any(set(names) for names in tired_by_number(position)[HOME])
    assert all(p["tired_from"] is None for p in sheet["home"]["players"])


def test_the_sheet_marks_each_tired_number_on_the_players_row(double_ot):
    sheet = score_sheet(replay(KENTUCKY, KANSAS, double_ot))
    labels = [n["label"] for n in sheet["numbers"]]
    rows = {p["name"]: p for side in ("home", "away") for p in sheet[side]["players"]}
    lamb = rows["Doron Lamb"]
    assert (lamb["can_play"], lamb["tired_from"]) == (37, "7")
    tired = [labels[i] for i, c in enumerate(lamb["cells"]) if c["tired"]]
    assert tired[:8] == ["7", "6", "5", "4", "3", "2", "1", "OT 10"]
    assert tired[-1] == "2OT 1" and len(tired) == 7 + 20
    assert not any(c["tired"] for c in lamb["cells"][: labels.index("7")])
    # A starter who plays exactly his 37 in regulation tires in overtime.
    assert rows["Michael Kidd-Gilchrist"]["tired_from"] == "OT 10"
    # A reserve who plays within his count never tires; a cell off the floor is never marked.
    assert rows["Darius Miller"]["tired_from"] is None
    assert all(c["on"] for p in rows.values() for c in p["cells"] if c["tired"])


def test_a_tired_players_d20_says_so_where_it_is_asked_and_where_it_is_read(double_ot):
    # 2OT 8, Kentucky's trip: Lamb's d20 of 12 at home reads as 13 (a miss), not 12.
    values = double_ot
    position = replay(KENTUCKY, KANSAS, values)
    plays = VabgSheet(GAME, position).state()["plays"]
    lamb = next(p for p in plays if p["label"] == "2OT 8" and p["team"] == "home" and p["dice"])
    assert lamb["lines"][0] == "d8 2: Doron Lamb; 11-66 25; d20 12 (tired: +1, read as 13)"
    assert lamb["lines"][1] == "Doron Lamb misses a 3-pointer (jumper) (tired: d20 +1)"
    start = len(values) - sum(len(p["dice"]) for p in plays[plays.index(lamb) :])
    need = replay(KENTUCKY, KANSAS, values[: start + 3]).need
    assert need is not None and need.step == "d20"
    assert need.why == (
        "d20 for Doron Lamb (tired: +1): 25 is a block try (if no defender's range holds it, "
        "his card reads this die)"
    )
    # Each carrier's d20 says what its trip's 11-66 roll (the two d6 just entered) leaves
    # to it: a dunk's d20 only makes a 3, a stop's is not read at all.
    said = set()
    for k in range(4, 400):
        asked = replay(KENTUCKY, KANSAS, values[:k]).need
        if asked is not None and asked.step == "d20" and asked.why.startswith("d20 for "):
            roll = 10 * values[k - 2] + values[k - 1]
            assert f": {roll} " in asked.why or f": {roll}: " in asked.why, asked.why
            read = asked.why.split(f": {roll}", 1)[1]
            said.add(read.lstrip(": ").split(" (")[0])
    assert {"is a steal try", "is a turnover try", "his card reads this die"} <= said
    # A fresh carrier's d20 names him, with no mark (the first trip's d8 of 8 finds nobody
    # to take the ball: its d20 names no one).
    first = replay(KENTUCKY, KANSAS, values[:3]).need
    assert first is not None and first.why.startswith("the carrier's d20")
    early = [replay(KENTUCKY, KANSAS, values[:k]).need for k in range(4, 30)]
    named = [n.why for n in early if n is not None and n.why.startswith("d20 for ")]
    assert named and not any("tired" in why for why in named)
    # Free throws, putbacks and fast breaks of a tired player say so too, with the
    # free throw's range as he shoots it.
    whys = {replay(KENTUCKY, KANSAS, values[:k]).need.why for k in range(400, 620)}  # type: ignore[union-attr]
    assert (
        "free throw 1 of 3: d20 for Darrell Arthur (tired: +1), made on 1-13 (his card's 1-14)"
        in whys
    )
    assert any(w.startswith("putback: d20 for Darrell Arthur (tired: +1)") for w in whys)
    assert any(w.startswith("fast break: d20 for Russell Robinson (tired: +1)") for w in whys)


def test_overtimes_are_labelled_one_way_and_the_last_line_is_the_final_score(double_ot):
    state = VabgSheet(GAME, replay(KENTUCKY, KANSAS, double_ot)).state()
    assert state["period"] == "Final (2OT)"
    labels = [n["label"] for n in state["sheet"]["numbers"]]
    assert labels[43:46] == ["1", "OT 10", "OT 9"] and labels[-1] == "2OT 1"
    plays = state["plays"]
    assert {p["label"] for p in plays} >= {"44", "OT 10", "2OT 1"}
    lines = [line for p in plays for line in p["lines"]]
    assert "End of regulation: tied 68-68, OT next." in lines
    assert "End of OT: tied 72-72, 2OT next." in lines
    assert lines[-1] == "Game over (2OT): Kansas 2008 85, Kentucky 2012 80."
    assert not any(re.search(r"\d of \d*OT|End of overtime", line) for line in lines)
    # The 11-66 roll's own turnovers read once: "turnover", not "turnover (turnover)".
    assert "Michael Kidd-Gilchrist turnover" in lines
    assert not any("turnover (turnover)" in line for line in lines)
    in_2ot = replay(KENTUCKY, KANSAS, double_ot[:-3]).need
    assert in_2ot is not None
    position = VabgSheet(GAME, replay(KENTUCKY, KANSAS, double_ot[:-3])).state()
    assert position["period"] == "Possession 2OT 1, Kentucky 2012 ball"
    assert position["odds"]["as_of"].startswith("before Kentucky 2012's trip 2OT 1 (")


def test_a_game_decided_in_regulation_ends_with_its_final_score():
    played, written = rolled_game(KENTUCKY, KANSAS, 5)
    assert not played.overtimes
    state = VabgSheet(GAME, replay(KENTUCKY, KANSAS, written.values)).state()
    last = state["plays"][-1]["lines"][-1]
    assert last == (
        f"Game over: Kansas 2008 {played.away.score}, Kentucky 2012 {played.home.score}."
    )
    assert state["period"] == "Final"


def test_the_engine_reads_the_dice_file_as_the_table_typed_it(double_ot):
    # The fixture is what the table stores: its streams replay the same game.
    position = replay(KENTUCKY, KANSAS, double_ot)
    assert position.dice_file() == DOUBLE_OT
    assert isinstance(GAME.read_dice(DOUBLE_OT), ScriptedDice)


def test_a_tired_carriers_d20_says_how_it_was_read_only_when_it_was_read(double_ot):
    # A trip ended on the 11-66 roll (a steal, a block, a stop, a turnover) never reads the
    # carrier's card: its d20 is only written down, never "read as" one higher.
    plays = VabgSheet(GAME, replay(KENTUCKY, KANSAS, double_ot)).state()["plays"]
    trips = {(p["label"], p["team"]): p["lines"] for p in plays if p["dice"]}
    assert trips[("OT 5", "home")][:2] == [
        "d8 6: Marquis Teague; 11-66 12; d20 14",  # tired, but the steal came first
        "Russell Robinson steal, fast break",
    ]
    assert trips[("OT 4", "away")][0] == "d8 1: Russell Robinson; 11-66 32; d20 1"  # blocked
    assert trips[("2OT 4", "home")][:2] == [
        "d8 7: Michael Kidd-Gilchrist; 11-66 53; d20 14",
        "Michael Kidd-Gilchrist turnover (stopped)",
    ]
    assert trips[("OT 7", "home")][0] == "d8 2: Doron Lamb; 11-66 41; d20 6"  # a turnover
    unread = re.compile(r"steal|blocks|\(stopped\)|turnover$")
    read = [lines for lines in trips.values() if "read as" in lines[0]]
    assert len(read) >= 10  # a shot, a dunk roll or a foul of a tired carrier still says so
    assert not any(unread.search(lines[1]) for lines in read)


def test_the_sheet_s_top_says_what_each_team_s_51_66_rolls_do_against_the_other() -> None:
    # The rulebook has the top of the sheet say each team's range against the other: the
    # page gave only each card's own top and adjust (the adjust works on the opponent).
    sheet = score_sheet(replay(KENTUCKY, KANSAS, []))
    assert sheet["home"]["versus"] == (
        "Against Kansas 2008 (adjust -10): dunk top 45; no dunks; stopped on 51-55"
    )  # Kentucky 2012's top 55 - 10
    assert sheet["away"]["versus"] == (
        "Against Kentucky 2012 (adjust -9): dunk top 45; no dunks; stopped on 51-55"
    )  # Kansas 2008's 54 - 9
    # A top past 56 dunks into the 61s and shortens the other's steals and its own turnovers.
    import dataclasses

    soft = dataclasses.replace(KANSAS, dunk_adjust=+7)
    assert score_sheet(replay(KENTUCKY, soft, []))["home"]["versus"] == (
        "Against Kansas 2008 (adjust +7): dunk top 62; dunks on 51-56, 61-62; "
        "Kansas 2008's steal ranges -2, own turnover ranges -2"
    )
