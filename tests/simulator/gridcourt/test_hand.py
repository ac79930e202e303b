"""Grid court played by hand: each side's choices typed at the table (simulator.gridcourt.hand)."""

from __future__ import annotations

import pytest

from simulator.dice import ScriptedDice
from simulator.games import find_game
from simulator.gridcourt.rules import GridRules
from simulator.sheets import ChoiceFirst, ChoiceRefused, NoChoiceWanted
from tests.simulator.gridcourt.hands import AWAY_TEAM, HOME_TEAM, recorded

GAME = find_game("gridcourt")
SMALL = GridRules(width=13, level=1, pieces=3)


@pytest.mark.parametrize("rules", [GridRules(), SMALL], ids=["standard", "13-wide-level-1-3"])
@pytest.mark.parametrize("hands", [{"home", "away"}, {"away"}], ids=["both", "away"])
def test_choices_typed_as_the_policy_answers_play_the_policys_game(rules, hands) -> None:
    for seed in (1, 2):
        played, d6, tokens = recorded(seed, hands, rules)
        by_hand = GAME.play(
            HOME_TEAM, AWAY_TEAM, ScriptedDice(d6=d6), rules, choices=tokens, hands=hands
        )
        assert by_hand.events == played.events
        assert by_hand.dice_to_json()["choices"] == tokens
        sheet = GAME.sheet(HOME_TEAM, AWAY_TEAM, d6, rules=rules, choices=tokens, hands=hands)
        assert sheet.question is None and sheet.need is None
        assert sheet.result().events == played.events


def test_the_sheet_asks_each_choice_in_turn_as_the_table_enters_them() -> None:
    played, d6, tokens = recorded(3, {"home", "away"}, SMALL)
    dice: list[int] = []
    choices: list[str] = []
    kinds = set()
    while True:
        sheet = GAME.sheet(
            HOME_TEAM, AWAY_TEAM, dice, rules=SMALL, choices=choices, hands=("home", "away")
        )
        question = sheet.question
        if question is None and sheet.need is None:
            break
        if question is not None:
            assert sheet.need is None and sheet.result() is None
            kinds.add(question.kind)
            assert question.rule.startswith("§2.") and question.side in ("home", "away")
            choices.append(tokens[len(choices)])
        else:
            left = sheet.need.size - sheet.need.index + 1
            dice += d6[len(dice) : len(dice) + left]
    assert (dice, choices) == (d6, tokens)
    assert kinds == {"place", "announce", "steps"}
    assert sheet.result().events == played.events
    assert sheet.state()["court"]["width"] == 13


def test_choices_the_rules_forbid_are_refused_naming_the_rule() -> None:
    hands = ("home", "away")
    _, _, tokens = recorded(1, set(hands))
    spots, defense = tokens[0], tokens[1]  # the placings of §4.1
    sheet = GAME.sheet(HOME_TEAM, AWAY_TEAM, [], hands=hands)
    question = sheet.question
    assert question is not None and (question.side, question.kind) == ("away", "place")
    assert question.to_json()["board"]["pieces"] == 5
    # The sheet names the teams, not the rulings' "Team 1 (visitors)" (§1.3) the engine says.
    assert question.prompt == f"{AWAY_TEAM.label} on offense: place pieces 1-5 outside the arc."
    inside = "place:1,6 1,7 1,8 2,7 2,8"  # the offense places outside the arc
    with pytest.raises(ChoiceRefused, match=r"piece 1: \(1, 6\) is not outside the arc \(§2.2"):
        GAME.sheet(HOME_TEAM, AWAY_TEAM, [], choices=[inside], hands=hands)
    with pytest.raises(ChoiceRefused, match="is taken"):
        GAME.sheet(HOME_TEAM, AWAY_TEAM, [], choices=[spots, spots], hands=hands)
    sheet = GAME.sheet(HOME_TEAM, AWAY_TEAM, [], choices=[spots, defense], hands=hands)
    assert sheet.question is not None and sheet.question.kind == "announce"
    assert sheet.question.options[0] == ("move", "No shot: roll to move")
    open_pieces = {t for t, _ in sheet.question.options}
    shut = next(f"shoot:{p}" for p in range(1, 6) if f"shoot:{p}" not in open_pieces)
    with pytest.raises(ChoiceRefused, match="is not an open piece"):
        GAME.sheet(HOME_TEAM, AWAY_TEAM, [], choices=[spots, defense, shut], hands=hands)
    roll = [3, 4]
    start = [spots, defense, "move"]
    moved = GAME.sheet(HOME_TEAM, AWAY_TEAM, roll, choices=start, hands=hands)
    assert moved.question is not None and moved.question.kind == "steps"
    board = moved.question.to_json()["board"]
    assert board["allowed"] == 7 and board["role"] == "offense" and not board["king"]
    r, c = board["pieces"]["away"][0]
    diagonal = f"steps:1>{r + 1},{c + 1}"
    with pytest.raises(ChoiceRefused, match=r"cannot step from .*: offense pieces step orth"):
        GAME.sheet(HOME_TEAM, AWAY_TEAM, roll, choices=[*start, diagonal], hands=hands)
    # Each refusal gives its own reason: a step onto the piece's own cell, or one that
    # skips a cell, is not about the direction.
    same = f"steps:1>{r},{c}"
    with pytest.raises(ChoiceRefused) as refused:
        GAME.sheet(HOME_TEAM, AWAY_TEAM, roll, choices=[*start, same], hands=hands)
    assert str(refused.value).startswith(
        f"{same!r}: step 1: piece 1 is already on ({r}, {c}): a step goes to a neighbouring cell"
    )
    assert "orthogonally" not in str(refused.value).split("(§")[0]
    far = f"steps:1>{r + 2},{c}"
    with pytest.raises(ChoiceRefused) as refused:
        GAME.sheet(HOME_TEAM, AWAY_TEAM, roll, choices=[*start, far], hands=hands)
    assert f"step 1: piece 1 cannot step from ({r}, {c}) to ({r + 2}, {c}): " in str(refused.value)
    assert f"({r + 2}, {c}) is not next to ({r}, {c})" in str(refused.value)
    back_and_forth = " ".join([f"1>{r + 1},{c}", f"1>{r},{c}"] * 4)
    with pytest.raises(ChoiceRefused, match="8 steps, the roll allows 7"):
        GAME.sheet(
            HOME_TEAM, AWAY_TEAM, roll, choices=[*start, "steps:" + back_and_forth], hands=hands
        )
    with pytest.raises(ChoiceFirst):
        GAME.sheet(HOME_TEAM, AWAY_TEAM, [*roll, 5], choices=start, hands=hands)
    with pytest.raises(NoChoiceWanted):
        GAME.sheet(HOME_TEAM, AWAY_TEAM, roll[:1], choices=[*start, "move"], hands=hands)


def test_a_piece_that_ended_the_last_movement_in_the_paint_is_warned_of_three_seconds() -> None:
    # A table player moved piece 5 into the paint, rolled and moved again, and lost the
    # ball to a paint violation the prompt never spoke of (§2.11: a count of 2).
    from simulator.gridcourt.engine import Table
    from simulator.gridcourt.hand import Hands
    from simulator.gridcourt.policy import DEFAULT_POLICY
    from simulator.gridcourt.state import AWAY
    from simulator.gridcourt.state import HOME as H
    from simulator.hands import ChoiceNeeded

    hands = Hands([], {AWAY}, {H: DEFAULT_POLICY, AWAY: DEFAULT_POLICY})
    table = Table(ScriptedDice(d6=[]), GridRules(), home_policy=DEFAULT_POLICY)
    state = table.state
    paint = [c for i, c in enumerate(state.court.cells) if state.court.paint[i]]
    outside = [c for i, c in enumerate(state.court.cells) if not state.court.inside[i]]
    inside = [c for i, c in enumerate(state.court.cells) if state.court.inside[i]]
    away = [*outside[:4], paint[0]]
    home = [c for c in inside if c not in away][:5]

    def asked(counts: dict[int, int]) -> str:
        table.set_position(offense=AWAY, home=home, away=away, paint_counts=counts)
        with pytest.raises(ChoiceNeeded) as caught:
            hands.policy(AWAY).offense_steps(state, 4)
        return str(caught.value.question.prompt)

    assert "Three seconds" not in asked({})
    warned = asked({5: 1})
    assert warned.endswith(
        "Three seconds: piece 5 ended the last movement in the paint; ending this one there "
        "too is a paint violation (the ball goes over)."
    ), warned
