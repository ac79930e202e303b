"""Six dice played by hand: each side's choices typed at the table (simulator.sixdice.hand)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Set

import pytest

from simulator.dice import ScriptedDice
from simulator.games import InvalidOptionError, Result, find_game
from simulator.hands import Question
from simulator.sheets import ChoiceFirst, ChoiceRefused, NoChoiceWanted
from simulator.sixdice.hand import Hands
from simulator.sixdice.policy import DEFAULT_POLICY, Contest
from simulator.sixdice.rules import STANDARD, SixDiceRules
from simulator.sixdice.state import AWAY, HOME, GameState
from tests.simulator.sixdice.hands import AWAY_TEAM, HOME_TEAM, recorded

GAME = find_game("sixdice")
REROLL_RULES = SixDiceRules(chip_reroll=True)
TIE = [1, 1, 4, 4, 5, 6]  # two Balls and two Passes: a tie within the team


@pytest.mark.parametrize("rules", [STANDARD, REROLL_RULES], ids=["standard", "chip-reroll"])
@pytest.mark.parametrize("hands", [{HOME, AWAY}, {HOME}, {AWAY}], ids=["both", "home", "away"])
def test_choices_typed_as_the_policy_answers_play_the_policys_game(
    rules: SixDiceRules, hands: set[str]
) -> None:
    for seed in range(1, 7):
        played, d6, tokens = recorded(seed, hands, rules)
        assert tokens, "every game asks the players something"
        typed = GAME.play(
            HOME_TEAM, AWAY_TEAM, ScriptedDice(d6=d6), rules, choices=tokens, hands=hands
        )
        assert typed.events == played.events
        assert typed.dice_to_json()["choices"] == tokens
        assert typed.dice_to_json()["hands"] == sorted(hands)
        sheet = GAME.sheet(HOME_TEAM, AWAY_TEAM, d6, rules=rules, choices=tokens, hands=hands)
        assert sheet.question is None and sheet.need is None
        result = sheet.result()
        assert result is not None and result.events == played.events
        assert result.choices == tuple(tokens)


def test_the_sheet_asks_each_choice_in_turn_as_the_table_enters_them() -> None:
    played, d6, tokens = recorded(3, {HOME, AWAY}, STANDARD)
    dice: list[int] = []
    choices: list[str] = []
    while True:
        sheet = GAME.sheet(HOME_TEAM, AWAY_TEAM, dice, choices=choices, hands=(HOME, AWAY))
        question = sheet.question
        if question is None and sheet.need is None:
            break
        if question is not None:
            assert sheet.need is None and sheet.result() is None
            token = tokens[len(choices)]
            options = {o["token"] for o in question.to_json()["options"]}
            assert token in options or (question.kind == "reroll" and token.startswith("reroll:"))
            assert question.side in (HOME, AWAY) and question.rule.startswith("§")
            assert sheet.waiting_for == question.prompt
            if len(choices) == 3:
                assert (
                    sheet.state()["period"]
                    == f"Next: {sheet.state()['labels'][question.side]} chooses"
                )
            choices.append(token)
        else:  # the rest of the roll at once, as the table's page sends a roll
            assert sheet.need is not None
            left = sheet.need.size - sheet.need.index + 1
            dice += d6[len(dice) : len(dice) + left]
    assert (dice, choices) == (d6, tokens)
    result = sheet.result()
    assert result is not None and result.events == played.events


def opening(*main_roll: int) -> list[int]:
    """The jump ball (Orange 3 Balls, White 2: Orange on offense at d 1), then dice."""
    return [1, 2, 3, 4, 5, 6, *TIE, *main_roll]


def test_a_choice_the_rules_forbid_is_refused_naming_the_rule() -> None:
    dice = opening(*TIE, 5, 5, 6, 6, 4, 1)  # White ties S and F at 2: the pick can matter
    with pytest.raises(ChoiceRefused) as refused:
        GAME.sheet(HOME_TEAM, AWAY_TEAM, dice, choices=["S"], hands=[AWAY])
    assert refused.value.index == 0
    assert str(refused.value) == (
        "S is not one of the symbols tied for the most dice (B, P): §2.2 and G6: on a tie "
        "within a team, the team picks its play; n stays 2"
    )
    with pytest.raises(ChoiceRefused, match="answer B, P"):
        GAME.sheet(HOME_TEAM, AWAY_TEAM, dice, choices=["shoot"], hands=[AWAY])


def test_dice_typed_while_a_choice_is_wanted_and_a_choice_where_none_is_asked_are_refused() -> None:
    dice = opening(*TIE, 5, 5, 6, 6, 4, 1)  # White ties S and F at 2: the pick can matter
    sheet = GAME.sheet(HOME_TEAM, AWAY_TEAM, dice, hands=[AWAY])
    assert sheet.question is not None and sheet.question.side == AWAY
    assert sheet.question.kind == "play"
    with pytest.raises(ChoiceFirst) as first:
        GAME.sheet(HOME_TEAM, AWAY_TEAM, [*dice, 1], hands=[AWAY])
    assert first.value.used == len(dice)
    with pytest.raises(NoChoiceWanted, match="waits for Memphis 2008"):
        GAME.sheet(HOME_TEAM, AWAY_TEAM, opening(), choices=["B"], hands=[AWAY])


def test_a_side_handed_to_the_computer_is_never_asked() -> None:
    # White ties B and P too, but plays its style: only Orange's tie is asked.
    dice = opening(*TIE, *TIE)
    asked = GAME.sheet(HOME_TEAM, AWAY_TEAM, dice, hands=[AWAY]).question
    assert asked is not None and asked.side == AWAY
    answered = GAME.sheet(HOME_TEAM, AWAY_TEAM, dice, choices=["B"], hands=[AWAY])
    assert answered.question is None and answered.need is not None
    assert GAME.sheet(HOME_TEAM, AWAY_TEAM, dice, hands=[HOME]).question.side == HOME


def test_a_game_without_hands_refuses_choices() -> None:
    with pytest.raises(ValueError, match="no choices made by hand"):
        find_game("vabg").sheet(HOME_TEAM, AWAY_TEAM, [], choices=["x"], hands=[HOME])
    with pytest.raises(ValueError, match="home or away"):
        Hands([], {"visitors"}, DEFAULT_POLICY)


def test_the_table_shows_the_exact_live_odds_of_the_roll_under_way() -> None:
    played, d6, tokens = recorded(2, {HOME, AWAY})
    odds = None  # 300 dice in: the choices the game has asked by then (fewer than all)
    for count in range(len(tokens), -1, -1):
        try:
            half = GAME.sheet(
                HOME_TEAM, AWAY_TEAM, d6[:300], choices=tokens[:count], hands=(HOME, AWAY)
            )
        except (NoChoiceWanted, ChoiceFirst):
            continue
        odds = half.state()["odds"]
        break
    assert odds is not None and odds["available"]
    events = [e.to_json() for e in half.position.events]
    chart = GAME.win_probability(events, STANDARD)
    # The phase under way (a main roll or an inbound race) has not written its event yet:
    # its chance is the next one of the whole game's chart, not the last one written.
    whole = GAME.win_probability([e.to_json() for e in played.events], STANDARD)
    assert odds["p_home"] == pytest.approx(whole[len(chart)][1], abs=1e-12)
    assert odds["p_home"] != pytest.approx(chart[-1][1], abs=1e-12)
    assert odds["pregame_home"] == pytest.approx(chart[0][1], abs=1e-12)
    assert odds["p_home"] + odds["p_away"] == pytest.approx(1.0)
    assert "played by hand" in odds["note"]
    final = GAME.sheet(HOME_TEAM, AWAY_TEAM, d6, choices=tokens, hands=(HOME, AWAY))
    won = played.home.score > played.away.score
    assert final.state()["odds"]["p_home"] == (1.0 if won else 0.0)


def test_a_tie_the_team_loses_whatever_it_picks_is_not_asked() -> None:
    # Orange ties Ball and Pass at 2 against White's three S: whatever it picks, it loses.
    dice = opening(*TIE, 5, 5, 5, 6, 6, 4)
    sheet = GAME.sheet(HOME_TEAM, AWAY_TEAM, dice, hands=[AWAY])
    assert sheet.question is None and sheet.need is not None


def test_a_tie_within_a_team_names_each_symbol_as_it_plays_for_that_side() -> None:
    # The Dice Chart's two columns: the offense's S is a shot, the defense's a steal (a
    # table player read "on defense ...: your dice tie Ball and S (a shot)").
    from simulator.sixdice.hand import ChoiceNeeded, _Hand
    from simulator.sixdice.policy import Tie
    from simulator.sixdice.state import DEFENSE, OFFENSE, GameState

    hands = Hands([], {HOME}, DEFAULT_POLICY)
    asked = {}
    for role, offense in ((DEFENSE, AWAY), (OFFENSE, HOME)):
        with pytest.raises(ChoiceNeeded) as caught:
            _Hand(hands, HOME).choose_play(
                Tie(("B", "P", "S"), 2), role, GameState.main_roll(offense, 5, AWAY)
            )
        asked[role] = caught.value.question
    assert dict(asked[DEFENSE].options) == {
        "B": "Ball (push back)", "P": "Pass (a Deflected Pass)", "S": "S (a steal)",
    }  # fmt: skip
    assert "on defense" in asked[DEFENSE].prompt and "S (a steal)" in asked[DEFENSE].prompt
    assert dict(asked[OFFENSE].options) == {
        "B": "Ball (advance)", "P": "Pass (a No-Look Pass)", "S": "S (a shot)",
    }  # fmt: skip


def test_each_roll_of_an_inbound_race_says_who_inbounds_and_who_defends() -> None:
    # Both teams roll each round with the same words ("inbound race, round 1"): a table
    # player could not tell from the prompt that his roll was the defense's.
    _played, d6, _tokens = recorded(3, set(), STANDARD)
    rolls: list[tuple[str, str, str]] = []
    at = 0
    while at < min(len(d6), 400):
        need = GAME.sheet(HOME_TEAM, AWAY_TEAM, d6[:at]).need
        assert need is not None
        if need.what.startswith("inbound race"):
            step = need.step.split(": ", 1)[1]
            rolls.append((need.what, need.team, step.rsplit(", ", 1)[1]))
            assert ("S of yours" in need.why) == step.endswith("defending"), need
        at += need.size
    assert rolls, "no inbound race in the first 400 dice"
    # Each round: the inbounder's roll, then the defense's.
    for first, second in zip(rolls[::2], rolls[1::2], strict=False):
        assert first[0] == second[0] and first[1] != second[1], (first, second)
        assert (first[2], second[2]) == ("inbounding", "defending"), (first, second)


def asked(d6: list[int], tokens: list[str], rules: SixDiceRules, questions: int) -> list[Question]:
    """Type a game's dice and choices into the sheet one at a time, as the table does;
    return every question it asked, in order."""
    dice: list[int] = []
    choices: list[str] = []
    out: list[Question] = []
    while True:
        sheet = GAME.sheet(
            HOME_TEAM,
            AWAY_TEAM,
            dice,
            rules=rules,
            choices=choices,
            hands=(HOME, AWAY),
            questions=questions,
        )
        if sheet.question is not None:
            out.append(sheet.question)
            choices.append(tokens[len(choices)])
        elif sheet.need is not None:
            dice += d6[len(dice) : len(dice) + sheet.need.size - sheet.need.index + 1]
        else:
            assert (dice, choices) == (d6, tokens)
            return out


class RerollFirstDie(type(DEFAULT_POLICY)):  # type: ignore[misc]
    """The default policy, but the chip holder rerolls its first die in every contest
    (however it stands): the choices a version 1 table could type."""

    def reroll(self, contest: Contest, state: GameState) -> Set[int]:
        return frozenset({1})


def test_the_power_chip_reroll_is_asked_only_of_a_holder_who_trails() -> None:
    """Questions version 2: leading, a reroll can only lose the roll and the chip; tied,
    playing the chip wins the tie for sure. So neither is asked, and a tie is asked once."""
    fewer = 0
    for seed in range(1, 4):
        played, d6, tokens = recorded(seed, {HOME, AWAY}, REROLL_RULES)
        questions = asked(d6, tokens, REROLL_RULES, 2)
        rerolls = [q for q in questions if q.kind == "reroll"]
        assert rerolls, "some holder trails in every game"
        assert all("(you trail)" in q.prompt for q in rerolls), [q.prompt for q in rerolls]
        # ...and shows what the other team rolled, which the choice of dice turns on
        for q in rerolls:
            rival = re.escape((AWAY_TEAM if q.side == HOME else HOME_TEAM).label)
            assert re.search(rf"\(you trail\)\. {rival} rolled [BPSF]( [BPSF]){{4,5}}\. ", q.prompt)
        old_played, old_d6, old_tokens = recorded(seed, {HOME, AWAY}, REROLL_RULES, questions=1)
        assert (old_played.events, old_d6) == (played.events, d6)  # the same game...
        old = asked(d6, old_tokens, REROLL_RULES, 1)
        old_rerolls = [q for q in old if q.kind == "reroll"]
        # ...asked before every contest the holder plays, leading and tied too
        assert any("(you lead)" in q.prompt for q in old_rerolls)
        assert len(questions) < len(old)
        fewer += len(old) - len(questions)
        # a tie is asked once: the chip question, no reroll question before it
        for before, chip in itertools.pairwise(questions):
            if chip.kind == "chip":
                assert before.kind != "reroll" or "(you trail)" in before.prompt
    assert fewer >= 3 * 20  # dozens of taps a game saved


def by_hand(d6: list[int], tokens: list[str], questions: int | None = None) -> Result:
    """Play the chip-reroll game of these dice with both sides' typed choices, answering the
    hand questions of ``questions`` (None: today's)."""
    return GAME.play(
        HOME_TEAM,
        AWAY_TEAM,
        ScriptedDice(d6=d6),
        REROLL_RULES,
        choices=tokens,
        hands={HOME, AWAY},
        questions=questions,
    )


@pytest.mark.parametrize("questions", [1, 2])
def test_a_game_plays_and_replays_by_the_questions_its_choices_answer(questions: int) -> None:
    """A game begun under version 1 keeps playing (and a stored one replays) by version 1's
    questions: its choices answer those, in order."""
    for seed in range(1, 4):
        played, d6, tokens = recorded(seed, {HOME, AWAY}, REROLL_RULES, questions=questions)
        again = by_hand(d6, tokens, questions)
        assert again.events == played.events
        assert again.dice_to_json()["questions"] == questions
        sheet = GAME.sheet(
            HOME_TEAM,
            AWAY_TEAM,
            d6,
            rules=REROLL_RULES,
            choices=tokens,
            hands={HOME, AWAY},
            questions=questions,
        )
        result = sheet.result()
        assert result is not None and result.events == played.events
        assert result.questions == questions


def test_choices_that_answer_the_old_questions_are_refused_by_the_new_ones() -> None:
    """A reroll typed where version 1 asked a leading holder: version 2 never asks it, so
    the choices no longer fit (why a game keeps its version), and version 1 plays them."""
    policy = RerollFirstDie()
    for seed in range(1, 4):
        played, d6, tokens = recorded(seed, {HOME, AWAY}, REROLL_RULES, policy=policy, questions=1)
        with pytest.raises((ChoiceRefused, NoChoiceWanted)):
            by_hand(d6, tokens)
        assert by_hand(d6, tokens, questions=1).events == played.events


def test_a_questions_version_the_engine_does_not_know_is_refused() -> None:
    for wrong in (0, 3, True, "2"):
        with pytest.raises(InvalidOptionError, match="has hand questions of versions 1-2, not "):
            GAME.play(
                HOME_TEAM,
                AWAY_TEAM,
                ScriptedDice(d6=[1]),
                REROLL_RULES,
                choices=["keep"],
                hands={HOME},
                questions=wrong,  # type: ignore[arg-type]
            )
