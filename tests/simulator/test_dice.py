"""Dice sources (simulator/dice.py): ``vabg-dice/1`` files, scripted order and seeded rolls.

interchange.md, "Dice file": three streams, each read in order; values outside a die's
faces are refused; rolls left over at the end of a game are not an error. A scripted
game that runs out says which die.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from simulator import DiceScriptExhausted, ScriptedDice, SeededDice
from simulator.dice import DiceError, DiceFileError

FACES = {"d8": 8, "d6": 6, "d20": 20}
SPEC_EXAMPLE = {"format": "vabg-dice/1", "d8": [3, 6], "d6": [2, 5, 1, 1], "d20": [14, 7]}


def refusal(doc: object) -> list[str]:
    with pytest.raises(DiceFileError) as caught:
        ScriptedDice.from_json(doc)
    assert isinstance(caught.value, DiceError) and isinstance(caught.value, ValueError)
    return list(caught.value.problems)


# -- scripted dice -----------------------------------------------------------------------


def test_the_spec_example_is_read_one_stream_at_a_time_whatever_the_interleaving():
    dice = ScriptedDice.from_json(SPEC_EXAMPLE)
    rolls = [dice.d20(), dice.d6(), dice.d8(), dice.d6(), dice.d6(), dice.d20(), dice.d8()]
    assert rolls == [14, 2, 3, 5, 1, 7, 6]
    assert dice.d6() == 1


def test_rolls_left_over_are_no_error_and_the_record_keeps_the_whole_script():
    dice = ScriptedDice.from_json(SPEC_EXAMPLE)
    assert dice.d8() == 3
    assert dice.record().to_json() == SPEC_EXAMPLE
    # The record is itself a dice file that replays from the first roll.
    again = ScriptedDice.from_json(dice.record().to_json())
    assert [again.d8(), again.d8()] == [3, 6]


@pytest.mark.parametrize("die", ["d8", "d6", "d20"])
def test_a_script_that_runs_out_says_which_die_and_how_many_were_used(die):
    dice = ScriptedDice.from_json(SPEC_EXAMPLE)
    used = len(SPEC_EXAMPLE[die])
    for _ in range(used):
        getattr(dice, die)()
    for _ in range(2):  # and it stays out
        with pytest.raises(DiceScriptExhausted) as caught:
            getattr(dice, die)()
        assert (caught.value.stream, caught.value.used) == (die, used)
        assert str(caught.value) == (
            f"the dice script ran out: a {die} was wanted after all {used} {die} rolls were used"
        )
    # The other dice still read their own rolls.
    others = [d for d in FACES if d != die]
    assert all(getattr(dice, d)() == SPEC_EXAMPLE[d][0] for d in others)


def test_scripted_dice_built_in_code_refuse_faces_a_die_does_not_have():
    with pytest.raises(DiceFileError) as caught:
        ScriptedDice(d8=[8, 9], d6=[0], d20=[20])
    assert caught.value.problems == (
        "d8[1] (roll 2) = 9 is not a face of a d8 (1-8)",
        "d6[0] (roll 1) = 0 is not a face of a d6 (1-6)",
    )


# -- malformed dice files ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        ([3, 6], ["a dice file must be a JSON object"]),
        ("vabg-dice/1", ["a dice file must be a JSON object"]),
        (None, ["a dice file must be a JSON object"]),
        ({"d8": [3]}, ['format is missing: a dice file says "format": "vabg-dice/1"']),
        ({"format": "vabg-dice/2", "d8": [3]}, ["format must be \"vabg-dice/1\", got \"vabg-dice/2\""]),
        ({"format": "vabg-dice/1", "d8": "3 6"}, ["d8 must be a list of rolls, got a text"]),
        ({"format": "vabg-dice/1", "d6": {"1": 2}}, ["d6 must be a list of rolls, got an object"]),
        ({"format": "vabg-dice/1", "d20": None}, ["d20 must be a list of rolls, got null"]),
        ({"format": "vabg-dice/1", "d8": [0]}, ["d8[0] (roll 1) = 0 is not a face of a d8 (1-8)"]),
        ({"format": "vabg-dice/1", "d8": [9]}, ["d8[0] (roll 1) = 9 is not a face of a d8 (1-8)"]),
        ({"format": "vabg-dice/1", "d6": [1, 7]}, ["d6[1] (roll 2) = 7 is not a face of a d6 (1-6)"]),
        ({"format": "vabg-dice/1", "d20": [-1]}, ["d20[0] (roll 1) = -1 is not a face of a d20 (1-20)"]),
        ({"format": "vabg-dice/1", "d20": [21]}, ["d20[0] (roll 1) = 21 is not a face of a d20 (1-20)"]),
        ({"format": "vabg-dice/1", "d20": [True]}, ["d20[0] (roll 1) = true is not a face of a d20 (1-20)"]),
        ({"format": "vabg-dice/1", "d20": [14.0]}, ["d20[0] (roll 1) = 14.0 is not a face of a d20 (1-20)"]),
        ({"format": "vabg-dice/1", "d20": ["14"]}, ["d20[0] (roll 1) = \"14\" is not a face of a d20 (1-20)"]),
        ({"format": "vabg-dice/1", "d20": [[14]]}, ["d20[0] (roll 1) = [14] is not a face of a d20 (1-20)"]),
    ],
    ids=[
        "list", "text", "null", "no-format", "other-format", "stream-text", "stream-object",
        "stream-null", "d8-0", "d8-9", "d6-7", "d20-negative", "d20-21", "true", "float",
        "numeric-text", "nested-list",
    ],
)  # fmt: skip
def test_a_malformed_dice_file_is_refused_saying_what_is_wrong(doc, expected):
    assert refusal(doc) == expected


def test_every_problem_of_a_dice_file_is_listed_at_once():
    doc = {"format": "dice", "d8": [1, 9, 8, 0], "d6": "1 1", "d20": [20, 21]}
    assert refusal(doc) == [
        'format must be "vabg-dice/1", got "dice"',
        "d6 must be a list of rolls, got a text",
        "d8[1] (roll 2) = 9 is not a face of a d8 (1-8)",
        "d8[3] (roll 4) = 0 is not a face of a d8 (1-8)",
        "d20[1] (roll 2) = 21 is not a face of a d20 (1-20)",
    ]


def test_every_face_of_every_die_is_accepted():
    doc = {"format": "vabg-dice/1", **{die: list(range(1, n + 1)) for die, n in FACES.items()}}
    dice = ScriptedDice.from_json(doc)
    for die, n in FACES.items():
        assert [getattr(dice, die)() for _ in range(n)] == list(range(1, n + 1))


# -- seeded dice -------------------------------------------------------------------------


def mixed_rolls(dice: SeededDice, count: int = 500) -> list[int]:
    """Draw the dice in a game-like interleaving: d8, d6, d6, d20, now and then more."""
    out = []
    for i in range(count):
        out += [dice.d8(), dice.d6(), dice.d6(), dice.d20()]
        if i % 3 == 0:
            out += [dice.d20(), dice.d6()]
    return out


def test_the_same_seed_rolls_the_same_dice_and_another_seed_other_dice():
    assert mixed_rolls(SeededDice(7)) == mixed_rolls(SeededDice(7))
    assert mixed_rolls(SeededDice(7)) != mixed_rolls(SeededDice(8))
    assert SeededDice(7).record().to_json() == {"seed": 7}


@pytest.mark.parametrize("seed", [0, -5, 2**100])
def test_any_integer_is_a_seed(seed):
    assert mixed_rolls(SeededDice(seed), 10) == mixed_rolls(SeededDice(seed), 10)


@pytest.mark.parametrize("seed", ["7", 7.0, True, None])
def test_a_seed_that_is_not_an_integer_is_refused(seed):
    with pytest.raises(DiceError, match="a seed must be an integer"):
        SeededDice(seed)


@pytest.mark.parametrize("die", ["d8", "d6", "d20"])
def test_seeded_dice_roll_every_face_equally_often(die):
    # 200,000 rolls: with 4 standard errors allowed per face, a plain byte-modulo d20
    # (which gives 17-20 only 12/256 instead of 1/20 of the rolls) would be 6 off.
    faces = FACES[die]
    rolls = 200_000
    dice = SeededDice(2024)
    counts = Counter(getattr(dice, die)() for _ in range(rolls))
    assert set(counts) == set(range(1, faces + 1))
    p = 1 / faces
    error = math.sqrt(rolls * p * (1 - p))
    for face in range(1, faces + 1):
        assert abs(counts[face] - rolls * p) <= 4 * error, (face, counts[face])
