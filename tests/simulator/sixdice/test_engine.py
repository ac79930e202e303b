"""The six-dice engine beyond the rulings' scenarios: options, policies, inputs, events.

The scenarios of sixdice-rulings.md §6 are in ``test_sixdice_rulings.py``; these tests
cover what the rulings settle in prose: the faces option, the refusal of answers the
rules forbid, the policy questions the default never answers "yes" to, the dice file
with letters, the team file, and the JSON of a played game.
"""

from __future__ import annotations

import json
from collections.abc import Set
from pathlib import Path
from typing import Any

import pytest

from simulator import DiceScriptExhausted, ScriptedDice, SeededDice
from simulator.dice import DiceFileError
from simulator.games import InvalidOptionError, TeamName, find_game
from simulator.sixdice import (
    CHIP_REROLL,
    DEFAULT_POLICY,
    STANDARD,
    Contest,
    EndlessGameError,
    GameState,
    InvalidRulesError,
    InvalidStateError,
    PolicyError,
    ScriptRanOut,
    SixDiceRules,
    Table,
    Tie,
    box_score,
    dice_from_json,
    event_from_json,
    play_game,
    preset,
)
from simulator.sixdice import engine as engine_module
from simulator.sixdice.events import InboundRound, JumpBall, MainRoll, Shot
from simulator.sixdice.state import INBOUND, JUMP, MAIN, ORANGE, OVER, WHITE, section_of

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "teams"
HOME, AWAY = TeamName("Kentucky", 2012), TeamName("Kansas", 2008)


def digits(*rolls: str) -> list[int]:
    return [int(c) for roll in rolls for c in roll]


def played(start: GameState, *rolls: str, policy: Any = DEFAULT_POLICY, **kw: Any) -> Table:
    script = ScriptedDice(d6=digits(*rolls))
    table = Table(script, start=start, policy=policy, **kw)
    table.step()
    with pytest.raises(DiceScriptExhausted):
        script.d6()
    return table


class Answers:
    """A policy that answers as told, and like the default otherwise."""

    def __init__(self, **answers: Any) -> None:
        self.answers = answers

    def choose_play(self, tied: Tie, role: str, state: GameState) -> str:
        return self.answers.get("play") or DEFAULT_POLICY.choose_play(tied, role, state)

    def ball_action(self, n: int, state: GameState) -> str:
        return self.answers.get("ball") or DEFAULT_POLICY.ball_action(n, state)

    def push_out(self, state: GameState) -> bool:
        return self.answers.get("push_out", False)  # type: ignore[no-any-return]

    def use_chip(self, contest: Contest, state: GameState) -> bool:
        return self.answers.get("chip", True)  # type: ignore[no-any-return]

    def reroll(self, contest: Contest, state: GameState) -> Set[int]:
        return self.answers.get("reroll", frozenset())  # type: ignore[no-any-return]


# -- the faces option (§1.1) ---------------------------------------------------------------


def test_the_faces_option_decides_what_each_value_shows():
    rolls = ("444111", "111145")  # Orange 3 Balls, White 4, on the standard dice
    standard = played(GameState(), *rolls)
    assert standard.events[0] == JumpBall((4, 4, 4, 1, 1, 1), (1, 1, 1, 1, 4, 5), 3, 4, WHITE, 7)
    other_printing = SixDiceRules(faces="FPSBBB")  # values 4-6 are Balls
    flipped = played(GameState(), *rolls, rules=other_printing)
    assert flipped.events[0] == JumpBall((4, 4, 4, 1, 1, 1), (1, 1, 1, 1, 4, 5), 3, 2, ORANGE, 8)


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ("BBBPSX", "faces must be six letters from B, P, S, F"),
        ("BBBPS", "faces must be six letters"),
        ("PPPSSF", "faces must show a Ball on some values and not on all"),
        ("BBBBBB", "faces must show a Ball on some values and not on all"),
    ],
)
def test_it_refuses_faces_it_cannot_play(faces, message):
    with pytest.raises(InvalidRulesError, match=message):
        SixDiceRules(faces=faces)


def test_rules_round_trip_through_json_and_refuse_what_this_engine_cannot_play():
    assert SixDiceRules.from_json(CHIP_REROLL.to_json()) == CHIP_REROLL
    assert STANDARD.to_json() == {
        "version": 2, "faces": "BBBPSF", "chip_reroll": False, "deflected_pass_penalty": False,
    }  # fmt: skip
    assert (STANDARD.name, CHIP_REROLL.name, SixDiceRules(faces="BBPPSF").name) == (
        "standard", "chip-reroll", "custom",
    )  # fmt: skip
    assert preset("chip-reroll") is CHIP_REROLL
    with pytest.raises(InvalidRulesError, match="version 3, newer than this engine's"):
        SixDiceRules.from_json({"version": 3})
    with pytest.raises(InvalidRulesError, match="unknown six-dice rule options: overtime"):
        SixDiceRules.from_json({"version": 1, "overtime": 5})
    with pytest.raises(InvalidRulesError, match="chip_reroll must be true or false"):
        SixDiceRules(chip_reroll="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError, match="deflected_pass_penalty must be true or false"):
        SixDiceRules(deflected_pass_penalty=1)  # type: ignore[arg-type]


def test_a_game_stored_under_rules_version_1_keeps_the_deflected_pass_penalty():
    # What the league stored before the G10 note of 2026-11-26: no deflected_pass_penalty.
    stored = {"version": 1, "faces": "BBBPSF", "chip_reroll": True}
    rules = SixDiceRules.from_json(stored)
    assert rules == SixDiceRules(chip_reroll=True, deflected_pass_penalty=True)
    assert rules.name == "chip-reroll"  # the preset as version 1 had it
    assert SixDiceRules.from_json(rules.to_json()) == rules  # stored again, it stays version 1's
    assert SixDiceRules.from_json({**stored, "version": 2}) == CHIP_REROLL
    assert (rules.pass_penalty("no-look"), rules.pass_penalty("deflected")) == (True, True)
    assert (STANDARD.pass_penalty("no-look"), STANDARD.pass_penalty("deflected")) == (True, False)
    with pytest.raises(ValueError, match="a Pass is no-look or deflected, got 'lob'"):
        STANDARD.pass_penalty("lob")
    # A new game cannot choose the old reading: it is not an option of the game.
    with pytest.raises(InvalidOptionError, match="no option 'deflected_pass_penalty'"):
        find_game("sixdice").make_rules(deflected_pass_penalty=True)
    with pytest.raises(InvalidRulesError, match="unknown six-dice rules preset 'advanced'"):
        preset("advanced")


# -- positions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "message"),
    [
        (GameState(MAIN, ORANGE, 5, WHITE), "section 5 is not in the attacking half"),
        (GameState(INBOUND, ORANGE, 8, WHITE), "under the inbounder's own basket"),
        (GameState(MAIN, ORANGE, 8, None), "offense and chip must each be away or home"),
        (GameState(MAIN, ORANGE, 8, WHITE, 21, 3), "a team with 21 points has already won"),
        (GameState(JUMP, ORANGE), "before the jump ball no one has the ball"),
        (GameState("overtime"), "phase must be one of"),
    ],
)
def test_a_table_refuses_a_position_the_rules_cannot_reach(state, message):
    with pytest.raises(InvalidStateError, match=message):
        Table(ScriptedDice(), start=state)


# -- the penalty (§2.9) -----------------------------------------------------------------


def test_a_penalized_inbound_defense_sits_die_6_out_of_the_first_round_only():
    start = GameState.inbound(ORANGE, WHITE, penalty=frozenset({WHITE}))
    table = Table(
        ScriptedDice(d6=digits("444444", "44444", "111111", "444444", "123444", "444444")),
        start=start,
    )
    table.step()
    rounds = [e for e in table.events if isinstance(e, InboundRound)]
    assert [len(r.home) for r in rounds] == [5, 6, 6]
    assert [r.moved for r in rounds] == [0, 6, 9]
    assert table.state.penalty == frozenset()


def test_a_penalized_inbound_defense_brings_die_6_back_unless_it_was_set_aside():
    # Dice 1-5 show S in the first round; the sixth S needs die 6, which joins in round 2.
    start = GameState.inbound(ORANGE, WHITE, penalty=frozenset({WHITE}))
    table = played(start, "444444", "55555", "444444", "5")
    assert table.events[1] == InboundRound(ORANGE, 2, (4,) * 6, (5,), 0, 0, 6, 1, "steal")


# -- policies (§4.5) ----------------------------------------------------------------------


def test_an_offense_may_push_out_and_shoot_a_3_with_one_ball_less():
    start = GameState.main_roll(ORANGE, 5, WHITE)
    table = played(start, "555124", "145662", "111156", "123456", policy=Answers(push_out=True))
    shot = table.events[1]
    assert shot == Shot(
        ORANGE, 3, 3, section_of(ORANGE, 3), True, (1, 1, 1, 1, 5, 6), (1, 2, 3, 4, 5, 6),
        3, 3, False, True,
    )  # fmt: skip


def test_an_offense_may_shoot_a_3_from_outside_instead_of_advancing():
    start = GameState.main_roll(ORANGE, 2, WHITE)
    table = played(start, "111456", "445512", "111125", "444444", policy=Answers(ball="shoot"))
    shot = table.events[1]
    assert isinstance(shot, Shot)
    assert (shot.points, shot.total, shot.defense_total, shot.made) == (3, 4, 0, True)
    assert (table.state.away_score, table.state.offense, table.state.phase) == (3, WHITE, INBOUND)


def test_a_holder_that_keeps_the_chip_loses_the_tie():
    start = GameState.main_roll(ORANGE, 5, WHITE)
    table = played(start, "111456", "444125", policy=Answers(chip=False))
    roll = table.events[0]
    assert isinstance(roll, MainRoll)
    assert (roll.winner, roll.chip, table.state.chip) == (ORANGE, False, WHITE)


def test_the_play_by_play_says_what_the_chip_holder_did_with_a_tie() -> None:
    """A table player read "2 v 2, missed" with no word of the chip that decided it, and
    nothing of a chip kept (rulings §2.2, G16: the holder plays it or keeps it)."""
    from simulator.sixdice.engine import SixDiceResult
    from simulator.sixdice.events import Start, box_score
    from simulator.sixdice.render import render_play_by_play

    def words(table: Table) -> str:
        home, away = box_score((Start("", 0, "", 0),))
        played = SixDiceResult(home, away, tuple(table.events), ScriptedDice().record(), STANDARD)
        return render_play_by_play(played)

    start = GameState.main_roll(ORANGE, 5, WHITE)
    kept = words(played(start, "111456", "444125", policy=Answers(chip=False)))
    assert "Orange wins, chip kept" in kept
    shot = words(played(start, "555124", "144566", "123456", "123156"))
    assert "4 v 4, missed, chip played" in shot
    assert "chip" not in words(played(start, "111156", "445512", policy=Answers(chip=False)))
    # White rerolls dice 4-6 with the chip into a 3-3 tie: by §2.11 it loses the tie, and
    # Orange, handed the chip, keeps it (nobody chose to keep it).
    policy = Answers(reroll={4, 5, 6}, play="B")
    after = words(played(start, "111456", "114456", "144", rules=CHIP_REROLL, policy=policy))
    assert "White hands over the chip and rerolls dice (4, 5, 6)" in after
    assert (
        "Orange wins, a tie after the reroll: the chip's new holder wins it and keeps the chip"
        in after
    )


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ({"play": "F"}, "choose_play must pick one of P, S, got 'F'"),
        ({"ball": "dunk"}, "ball_action must answer advance or shoot, got 'dunk'"),
        ({"chip": "yes"}, "use_chip must answer true or false, got 'yes'"),
    ],
)
def test_it_refuses_an_answer_the_rules_forbid(answers, message):
    # Orange at d 2: a P/S tie within Orange's roll, then Balls, then a chip question.
    tied = GameState.main_roll(ORANGE, 2, WHITE)
    rolls = {
        "play": ("145645", "444444"),
        "ball": ("111456", "445512"),
        "chip": ("111456", "444125"),
    }[next(iter(answers))]
    with pytest.raises(PolicyError, match=message):
        Table(ScriptedDice(d6=digits(*rolls)), start=tied, policy=Answers(**answers)).step()


def test_a_reroll_may_name_only_the_dice_the_holder_rolled():
    penalized = GameState.main_roll(ORANGE, 5, ORANGE, penalty=frozenset({ORANGE}))
    table = Table(
        ScriptedDice(d6=digits("11145", "444125")),
        start=penalized,
        rules=CHIP_REROLL,
        policy=Answers(reroll={6}),
    )
    with pytest.raises(PolicyError, match=r"reroll must name dice the holder rolled \(1-5\)"):
        table.step()


def test_a_main_roll_reroll_is_read_in_die_order_and_compared_again():
    start = GameState.main_roll(ORANGE, 5, WHITE)
    # White (chip) loses 3-2 on Balls; it rerolls dice 4-6 into three more Balls: 5 v 3.
    table = played(
        start, "111456", "114456", "111", rules=CHIP_REROLL, policy=Answers(reroll={4, 5, 6})
    )
    roll = table.events[1]
    assert isinstance(roll, MainRoll)
    assert (roll.home, roll.home_play, roll.home_n, roll.winner) == (
        (1, 1, 4, 1, 1, 1), "B", 5, WHITE,
    )  # fmt: skip
    assert table.state.chip == ORANGE


# -- a script that runs out (§5) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "rolls", "message"),
    [
        (GameState(), "123456 11445", "White's dice for the jump ball were wanted after all 11"),
        (
            GameState.main_roll(ORANGE, 2, WHITE),
            "666124 145562 123456",
            "Orange's dice for the second free throw, 1 main roll into the game, were wanted",
        ),
        (
            GameState.inbound(ORANGE, WHITE),
            "123456 551246 114456",
            "White's dice for the inbound race, round 2 were wanted after all 18 d6 rolls",
        ),
    ],
)
def test_a_script_that_runs_out_names_the_roll_it_wanted(start, rolls, message):
    table = Table(ScriptedDice(d6=digits(*rolls.split())), start=start)
    with pytest.raises(ScriptRanOut, match=message) as caught:
        table.step()
    assert isinstance(caught.value, DiceScriptExhausted) and caught.value.stream == "d6"


# -- the guard (§3) -----------------------------------------------------------------------


def test_a_game_past_the_guard_stops_with_an_error(monkeypatch):
    monkeypatch.setattr(engine_module, "MAX_MAIN_ROLLS", 3)
    with pytest.raises(EndlessGameError, match="no team reached 21 in 3 main rolls"):
        play_game(HOME, AWAY, SeededDice(1))


# -- inputs -------------------------------------------------------------------------------


def test_a_dice_file_may_write_the_d6_stream_as_letters():
    as_numbers = dice_from_json({"format": "vabg-dice/1", "d6": [1, 4, 5, 6, 2]})
    as_letters = dice_from_json({"format": "vabg-dice/1", "d6": ["B", "P", "s", "F", 2]})
    as_text = dice_from_json({"format": "vabg-dice/1", "d6": "BPSF 2"})
    for dice in (as_numbers, as_letters, as_text):
        assert [dice.d6() for _ in range(5)] == [1, 4, 5, 6, 2]


def test_a_dice_file_with_other_dice_or_bad_faces_is_refused_naming_each_problem():
    with pytest.raises(DiceFileError) as caught:
        dice_from_json({"format": "vabg-dice/1", "d8": [3], "d6": [1, 7, "X"]})
    assert caught.value.problems == (
        "d8: the six-dice game reads only d6 rolls",
        "d6[1] (roll 2) = 7 is not a face of a d6 (1-6 or B, P, S, F)",
        'd6[2] (roll 3) = "X" is not a face of a d6 (1-6 or B, P, S, F)',
    )


# -- a whole game -------------------------------------------------------------------------


def test_a_played_game_ends_at_21_and_its_json_rebuilds_the_same_box_score():
    result = play_game(HOME, AWAY, SeededDice(15), rules=CHIP_REROLL)
    assert result.winner.score >= 21 > result.loser.score
    doc = json.loads(json.dumps(result.to_json()))
    assert list(doc) == ["game", "home", "away", "events", "dice", "rules"]
    assert doc["game"] == "sixdice"
    assert {k: doc["home"][k] for k in ("school", "season", "score")} == {
        "school": "Kentucky", "season": 2012, "score": result.home.score,
    }  # fmt: skip
    events = tuple(event_from_json(e) for e in doc["events"])
    assert events == result.events
    assert box_score(events) == (result.home, result.away)
    assert doc["dice"] == {"seed": 15}
    assert SixDiceRules.from_json(doc["rules"]) == CHIP_REROLL


def test_the_sheet_names_the_chip_s_new_holder_as_soon_as_it_is_played() -> None:
    """The sheet named the holder at the start of the main roll: after Kansas played the
    chip (handing it over) the page still said "Power Chip: Kansas 2008" above the question
    that followed, on the very screen where a tie was coming."""
    game = find_game("sixdice")
    home, away = TeamName("Kentucky", 2012), TeamName("Kansas", 2008)
    rolls = ["123456", "114456", "112245", "444156", "111456", "444125", "111456", "444125"]
    values = [int(d) for roll in rolls for d in roll]
    hands = ("home", "away")
    said = {}
    for tokens, dice in (("advance", 36), ("advance chip", 48), ("advance chip chip", 48)):
        sheet = game.sheet(home, away, values[:dice], choices=tokens.split(), hands=hands)
        said[tokens] = sheet.state()["situation"][0]
    # Kentucky holds it; Kentucky plays it on the tie (Kansas holds it); Kansas plays it on
    # the next tie and wins the roll: Kentucky holds it while Kansas chooses what to do.
    assert said == {
        "advance": "Power Chip: Kentucky 2012 (a tied roll or shot is its to decide)",
        "advance chip": "Power Chip: Kansas 2008 (a tied roll or shot is its to decide)",
        "advance chip chip": "Power Chip: Kentucky 2012 (a tied roll or shot is its to decide)",
    }


def test_the_game_is_over_once_a_team_reaches_21():
    table = Table(SeededDice(4))
    table.play()
    assert table.state.phase == OVER and table.state.winner is not None
    assert max(table.state.away_score, table.state.home_score) >= 21


def test_the_sheet_names_the_chip_holder_and_a_pending_penalty() -> None:
    """The rulings' state holds the Power Chip's holder and each team's pending one-die
    penalty (§1.3); a player at the table must see them to decide (ties go to the chip)."""
    from simulator.sixdice.sheet import situation
    from simulator.sixdice.state import HOME

    labels = {ORANGE: "Memphis 2008", HOME: "Kansas 2008"}
    state = GameState.main_roll(ORANGE, 3, HOME, penalty=frozenset({ORANGE}))
    assert situation(state, labels) == [
        "Power Chip: Kansas 2008 (a tied roll or shot is its to decide)",
        "Memphis 2008 rolls one die fewer on its next roll (penalty)",
    ]
    assert situation(None, labels) == []  # before the jump ball: no one holds it
    game = find_game("sixdice")
    jump = [1, 1, 1, 4, 5, 6, 2, 3, 4, 5, 6, 6]  # Orange's three Balls beat White's none
    sheet = game.sheet(TeamName("Kansas", 2008), TeamName("Memphis", 2008), jump)
    assert sheet.state()["situation"][0].startswith("Power Chip: ")
