"""Read a six-dice dice script from parsed JSON.

A dice file is ``vabg-dice/1`` with only a ``d6`` stream, which may also be written as
the letters B, P, S, F, read as 1, 4, 5, 6 (rulings §5). (A team file supplies the school
and season only: :func:`simulator.games.team_name_from_json` reads it.)
"""

from __future__ import annotations

from simulator.dice import DICE_FORMAT, DiceFileError, ScriptedDice
from simulator.jsonfile import format_problem, kind, shown
from simulator.sixdice.rules import LETTER_VALUES


def dice_from_json(data: object) -> ScriptedDice:
    """Return the scripted d6 stream of a parsed dice file, listing every problem.

    >>> dice = dice_from_json({"format": "vabg-dice/1", "d6": ["B", "F", 3]})
    >>> dice.d6(), dice.d6(), dice.d6()
    (1, 6, 3)
    >>> dice_from_json({"format": "vabg-dice/1", "d6": "BBP SF"}).d6()
    1
    """
    if not isinstance(data, dict):
        raise DiceFileError(["a dice file must be a JSON object"])
    problems: list[str] = []
    if wrong := format_problem(data, DICE_FORMAT, "a dice file"):
        problems.append(wrong)
    for name in ("d8", "d20"):
        if data.get(name):
            problems.append(f"{name}: the six-dice game reads only d6 rolls")
    raw = data.get("d6", [])
    rolls: list[int] = []
    if isinstance(raw, str):
        raw = [c for c in raw if not c.isspace()]
    if not isinstance(raw, list):
        problems.append(f"d6 must be a list of rolls, got {kind(raw)}")
        raw = []
    for i, roll in enumerate(raw):
        if isinstance(roll, str) and roll.upper() in LETTER_VALUES:
            rolls.append(LETTER_VALUES[roll.upper()])
        elif isinstance(roll, str) and roll in "123456" and len(roll) == 1:
            rolls.append(int(roll))
        elif not isinstance(roll, bool) and isinstance(roll, int) and 1 <= roll <= 6:
            rolls.append(roll)
        else:
            problems.append(
                f"d6[{i}] (roll {i + 1}) = {shown(roll)} is not a face of a d6 (1-6 or B, P, S, F)"
            )
    if problems:
        raise DiceFileError(problems)
    return ScriptedDice(d6=rolls)
