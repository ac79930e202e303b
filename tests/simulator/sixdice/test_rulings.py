"""The scripted scenarios of sixdice-rulings.md §6, each replayed with its own dice.

Every scenario starts a :class:`Table` at the position the rulings give, reads exactly
the dice they list (the script must run out at the end: no die more, none fewer) and
checks the events and the position after. Orange is ``away``, White ``home``.
"""

from __future__ import annotations

import pytest

from simulator import DiceScriptExhausted, ScriptedDice
from simulator.sixdice import CHIP_REROLL, STANDARD, GameState, SixDiceRules, Table
from simulator.sixdice.events import (
    Advance,
    ChipReroll,
    Dunk,
    End,
    FreeThrow,
    InboundRound,
    JumpBall,
    MainRoll,
    Pass,
    Push,
    Score,
    Shot,
    Steal,
)
from simulator.sixdice.state import INBOUND, MAIN, ORANGE, OVER, WHITE, section_of


def dice(text: str) -> tuple[int, ...]:
    """Return the die values of ``"123456"``."""
    return tuple(int(c) for c in text)


def play(start: GameState, *rolls: str, steps: int = 1, rules: SixDiceRules = STANDARD) -> Table:
    """Play ``steps`` phases from ``start`` reading ``rolls`` in order; all and only them."""
    script = ScriptedDice(d6=[v for roll in rolls for v in dice(roll)])
    table = Table(script, start=start, rules=rules)
    for _ in range(steps):
        table.step()
    with pytest.raises(DiceScriptExhausted):
        script.d6()  # every scripted die was read
    return table


VERSION_1 = SixDiceRules.from_json({"version": 1, "faces": "BBBPSF", "chip_reroll": False})
"""The rules of a game stored before the G10 note of 2026-11-26."""


def at(depth: int, chip: str = WHITE, **kwargs: object) -> GameState:
    """Return Orange on offense at ``depth`` before a main roll."""
    return GameState.main_roll(ORANGE, depth, chip, **kwargs)  # type: ignore[arg-type]


def test_1_the_team_with_more_balls_wins_the_jump_ball_and_the_other_takes_the_chip():
    table = play(GameState(), "123456", "114456")
    assert table.events == [JumpBall(dice("123456"), dice("114456"), 3, 2, ORANGE, 8)]
    state = table.state
    assert (state.phase, state.offense, state.depth, state.section, state.chip) == (
        MAIN, ORANGE, 1, 8, WHITE,
    )  # fmt: skip


def test_2_a_tied_jump_ball_is_rolled_again():
    table = play(GameState(), "124456", "124556", "111456", "144556")
    assert table.events == [
        JumpBall(dice("124456"), dice("124556"), 2, 2, None, None),
        JumpBall(dice("111456"), dice("144556"), 3, 1, ORANGE, 8),
    ]
    assert table.state.offense == ORANGE


def test_3_the_seeds_example_four_balls_beat_three_passes_and_orange_advances():
    table = play(at(1), "112245", "444156")
    assert table.events == [
        MainRoll(1, ORANGE, 1, dice("112245"), dice("444156"), "B", 4, "P", 3, ORANGE, False),
        Advance(ORANGE, "B", 4, 12),
    ]
    assert (table.state.depth, table.state.section) == (5, 12)


def test_4_a_dunk_then_six_s_in_the_first_inbound_round_steal_it_back():
    table = play(at(4), "112245", "444156")
    assert table.events[1:] == [Dunk(ORANGE, "ball"), Score(ORANGE, 2, 2, 0)]
    assert (table.state.phase, table.state.offense, table.state.section) == (INBOUND, WHITE, 14)
    table = play(table.state, "111222", "555555")
    assert table.events == [
        InboundRound(WHITE, 1, dice("555555"), dice("111222"), 6, 6, 6, 8, "steal"),
        Steal(ORANGE, "inbound", 8),
    ]
    assert (table.state.phase, table.state.offense, table.state.depth) == (MAIN, ORANGE, 1)


def test_5_a_push_back_past_half_court_is_a_steal_where_the_pawn_stops():
    table = play(at(2), "145645", "112245")
    assert table.events == [
        MainRoll(1, ORANGE, 2, dice("145645"), dice("112245"), "P", 2, "B", 4, WHITE, False),
        Push(WHITE, "B", 4, 5),
        Steal(WHITE, "push", 5),
    ]
    assert (table.state.offense, table.state.depth, table.state.section) == (WHITE, 3, 5)


def test_6_the_chip_holder_plays_the_chip_on_a_tie_and_hands_it_over():
    table = play(at(5), "111456", "444125")
    assert table.events == [
        MainRoll(1, ORANGE, 5, dice("111456"), dice("444125"), "B", 3, "P", 3, WHITE, True),
        Pass(WHITE, "deflected", None),
        Push(WHITE, "P", 3, section_of(ORANGE, 2)),
    ]
    state = table.state
    assert (state.offense, state.depth, state.chip, state.penalty) == (
        ORANGE, 2, ORANGE, frozenset(),
    )  # fmt: skip
    # G10 (2026-11-26): a Deflected Pass carries no die penalty, so Orange rolls all six
    # dice next (the scenario's "five dice" is the reading before the note): its 5 Passes
    # beat White's 3 Balls, a no-look pass to d 5.
    table = play(state, "444441", "111456")
    assert table.events[0].away == dice("444441")
    assert table.events[2] == Advance(ORANGE, "P", 3, section_of(ORANGE, 5))
    assert table.state.penalty == {WHITE}


def test_6_under_rules_version_1_the_deflected_pass_cost_orange_a_die():
    # A game stored before the G10 note replays by its own rules: the offense was penalized.
    table = play(at(5), "111456", "444125", rules=VERSION_1)
    assert table.events[1] == Pass(WHITE, "deflected", ORANGE)
    assert table.state.penalty == {ORANGE}
    table = play(table.state, "44444", "111456", rules=VERSION_1)
    assert table.events[0].away == dice("44444")
    assert table.state.penalty == {WHITE}


def test_7_an_s_for_the_defense_steals_to_its_first_section():
    table = play(at(3), "114456", "555124")
    assert table.events == [
        MainRoll(1, ORANGE, 3, dice("114456"), dice("555124"), "P", 2, "S", 3, WHITE, False),
        Steal(WHITE, "s", 7),
    ]
    assert (table.state.offense, table.state.depth, table.state.section) == (WHITE, 1, 7)


def test_8_a_no_look_pass_then_the_penalized_defense_rolls_five_dice():
    table = play(at(2), "444156", "124556")
    assert table.events == [
        MainRoll(1, ORANGE, 2, dice("444156"), dice("124556"), "P", 3, "B", 2, ORANGE, False),
        Pass(ORANGE, "no-look", WHITE),
        Advance(ORANGE, "P", 3, section_of(ORANGE, 5)),
    ]
    assert (table.state.depth, table.state.penalty) == (5, {WHITE})
    table = play(table.state, "111456", "14566")
    assert table.events == [
        MainRoll(1, ORANGE, 5, dice("111456"), dice("14566"), "B", 3, "F", 2, ORANGE, False),
        Dunk(ORANGE, "ball"),
        Score(ORANGE, 2, 2, 0),
    ]
    assert table.state.penalty == frozenset()
    assert (table.state.phase, table.state.offense) == (INBOUND, WHITE)


def test_9_a_pass_dunk_then_the_penalized_inbounder_rolls_five_dice_in_the_first_round():
    table = play(at(5), "444156", "124556")
    assert table.events == [
        MainRoll(1, ORANGE, 5, dice("444156"), dice("124556"), "P", 3, "S", 2, ORANGE, False),
        Pass(ORANGE, "no-look", WHITE),
        Dunk(ORANGE, "pass"),
        Score(ORANGE, 2, 2, 0),
    ]
    assert (table.state.phase, table.state.offense, table.state.penalty) == (
        INBOUND,
        WHITE,
        {WHITE},
    )
    table = play(table.state, "12312", "444444", "111122", "444444")
    assert table.events == [
        InboundRound(WHITE, 1, dice("444444"), dice("12312"), 5, 5, 0, 9, ""),
        InboundRound(WHITE, 2, dice("444444"), dice("111122"), 6, 11, 0, 7, "crossed"),
    ]
    assert (table.state.phase, table.state.offense, table.state.depth) == (MAIN, WHITE, 1)
    assert table.state.penalty == frozenset()


def test_10_a_tied_shot_goes_to_the_chip_and_is_missed():
    table = play(at(5), "555124", "144566", "123456", "123156")
    assert table.events == [
        MainRoll(1, ORANGE, 5, dice("555124"), dice("144566"), "S", 3, "F", 2, ORANGE, False),
        Shot(
            ORANGE,
            2,
            5,
            section_of(ORANGE, 5),
            False,
            dice("123456"),
            dice("123156"),
            4,
            4,
            False,
            True,
        ),
    ]
    state = table.state
    assert (state.phase, state.offense, state.chip, state.away_score) == (INBOUND, WHITE, ORANGE, 0)


def test_11_free_throws_one_made_one_missed_then_the_opponent_inbounds():
    table = play(at(2), "666124", "145562", "123456", "144556")
    assert table.events == [
        MainRoll(1, ORANGE, 2, dice("666124"), dice("145562"), "F", 3, "B", 2, ORANGE, False),
        FreeThrow(ORANGE, 1, dice("123456"), 3, True),
        Score(ORANGE, 1, 1, 0),
        FreeThrow(ORANGE, 2, dice("144556"), 1, False),
    ]
    assert (table.state.phase, table.state.offense) == (INBOUND, WHITE)


def test_12_six_balls_for_the_offense_are_a_slam_dunk():
    table = play(at(1), "123123", "444456")
    assert table.events[1:] == [Dunk(ORANGE, "slam"), Score(ORANGE, 2, 2, 0)]
    assert (table.state.phase, table.state.offense) == (INBOUND, WHITE)


def test_13_the_defenses_free_throws_then_the_offense_inbounds_from_its_own_end():
    table = play(at(3), "112456", "666612", "111145", "444455")
    assert table.events == [
        MainRoll(1, ORANGE, 3, dice("112456"), dice("666612"), "B", 3, "F", 4, WHITE, False),
        FreeThrow(WHITE, 1, dice("111145"), 4, True),
        Score(WHITE, 1, 0, 1),
        FreeThrow(WHITE, 2, dice("444455"), 0, False),
    ]
    assert (table.state.phase, table.state.offense, table.state.section) == (INBOUND, ORANGE, 1)


def test_14_crossing_wins_the_round_in_which_the_sixth_s_is_set_aside():
    table = play(
        GameState.inbound(ORANGE, WHITE), "123456", "551246", "114456", "5551", "123156", "5"
    )
    assert table.events == [
        InboundRound(ORANGE, 1, dice("123456"), dice("551246"), 3, 3, 2, 4, ""),
        InboundRound(ORANGE, 2, dice("114456"), dice("5551"), 2, 5, 5, 6, ""),
        InboundRound(ORANGE, 3, dice("123156"), dice("5"), 4, 9, 6, 8, "crossed"),
    ]
    assert (table.state.phase, table.state.offense, table.state.depth) == (MAIN, ORANGE, 1)


def test_15_six_s_at_once_steal_under_the_inbounders_basket():
    table = play(GameState.inbound(ORANGE, WHITE), "444556", "555555")
    assert table.events == [
        InboundRound(ORANGE, 1, dice("444556"), dice("555555"), 0, 0, 6, 1, "steal"),
        Steal(WHITE, "inbound", 1),
    ]
    assert (table.state.offense, table.state.depth, table.state.section) == (WHITE, 7, 1)


def test_16_the_game_ends_on_the_free_throw_that_reaches_21():
    table = play(at(2, away_score=20, home_score=15), "666124", "145562", "123456")
    assert table.events[1:] == [
        FreeThrow(ORANGE, 1, dice("123456"), 3, True),
        Score(ORANGE, 1, 21, 15),
        End(ORANGE, 21, 15),
    ]
    assert table.state.phase == OVER and table.over
    table.step()  # nothing more happens once the game is over
    assert table.events[-1] == End(ORANGE, 21, 15)


def test_17_tie_policy_on_both_sides_a_deflected_pass_steal_then_an_s_steal():
    table = play(at(1), "114456", "145654")
    assert table.events == [
        MainRoll(1, ORANGE, 1, dice("114456"), dice("145654"), "P", 2, "P", 2, WHITE, True),
        Pass(WHITE, "deflected", None),
        Push(WHITE, "P", 3, 5),
        Steal(WHITE, "push", 5),
    ]
    state = table.state
    # G10 (2026-11-26): no penalty for Orange (the scenario's "Orange is penalized" is the
    # reading before the note).
    assert (state.offense, state.depth, state.chip, state.penalty) == (
        WHITE, 3, ORANGE, frozenset(),
    )  # fmt: skip

    table = play(at(5), "114456", "145654")
    assert table.events == [
        MainRoll(1, ORANGE, 5, dice("114456"), dice("145654"), "P", 2, "S", 2, WHITE, True),
        Steal(WHITE, "s", 7),
    ]
    assert (table.state.offense, table.state.depth) == (WHITE, 1)


def test_18_a_penalized_offense_cannot_slam_with_five_balls_and_advances():
    table = play(at(1, penalty=frozenset({ORANGE})), "12312", "444156")
    assert table.events == [
        MainRoll(1, ORANGE, 1, dice("12312"), dice("444156"), "B", 5, "P", 3, ORANGE, False),
        Advance(ORANGE, "B", 5, section_of(ORANGE, 6)),
    ]
    assert (table.state.depth, table.state.penalty) == (6, frozenset())


# Scenario 19 starts at the shot: Orange (chip holder) wins a main roll with S at d 5,
# 3 S against White's B/F tie at 2 (White picks F), with no tie and so no chip question.
SHOT_AT_5 = ("555124", "145662")


def test_19_a_losing_shooter_hands_over_the_chip_and_rerolls_every_die_but_its_balls():
    table = play(at(5, chip=ORANGE), *SHOT_AT_5, "144556", "123456", "12444", rules=CHIP_REROLL)
    assert table.events[1:] == [
        ChipReroll(ORANGE, "shot", (2, 3, 4, 5, 6), dice("144556"), dice("112444")),
        Shot(
            ORANGE,
            2,
            5,
            section_of(ORANGE, 5),
            False,
            dice("112444"),
            dice("123456"),
            4,
            3,
            True,
            False,
        ),
        Score(ORANGE, 2, 2, 0),
    ]
    assert (table.state.chip, table.state.away_score) == (WHITE, 2)


def test_19_a_reroll_that_only_ties_loses_and_the_opponent_keeps_the_chip():
    table = play(at(5, chip=ORANGE), *SHOT_AT_5, "144556", "123456", "14444", rules=CHIP_REROLL)
    shot = table.events[2]
    assert isinstance(shot, Shot)
    assert (shot.total, shot.defense_total, shot.made, shot.chip) == (3, 3, False, False)
    assert (table.state.chip, table.state.away_score, table.state.offense) == (WHITE, 0, WHITE)


def test_19_without_the_option_the_same_shot_is_simply_missed():
    table = play(at(5, chip=ORANGE), *SHOT_AT_5, "144556", "123456")
    assert not any(isinstance(e, ChipReroll) for e in table.events)
    assert table.state.chip == ORANGE
    assert table.events[1].made is False


# -- G10 as the note of 2026-11-26 reads it ------------------------------------------------
# "The one-fewer-die line stands in the offense's column of the Pass row ...: it follows a
# No-Look Pass only, and the defense, which lost that Pass, rolls one fewer die. A Deflected
# Pass carries no die penalty."


def test_g10_after_a_no_look_pass_the_defense_rolls_five_dice_once_then_six_again():
    table = play(at(1), "444156", "556124")  # Orange's Px3 beats White's S/B tie at 2
    assert table.events[1:] == [
        Pass(ORANGE, "no-look", WHITE),
        Advance(ORANGE, "P", 3, section_of(ORANGE, 4)),
    ]
    assert table.state.penalty == {WHITE}
    # White's next roll has five dice (die 6 sits out). Orange's Px4 passes again, to d 7,
    # and White, penalized again, rolls five once more.
    table = play(table.state, "444412", "11456")
    assert (len(table.events[0].away), len(table.events[0].home)) == (6, 5)
    assert table.events[1] == Pass(ORANGE, "no-look", WHITE)
    assert table.state.penalty == {WHITE}
    table = play(table.state, "123456", "11456")  # Bx3 against Bx2 at d 7: a dunk
    assert (len(table.events[0].away), len(table.events[0].home)) == (6, 5)
    assert table.events[1:] == [Dunk(ORANGE, "ball"), Score(ORANGE, 2, 2, 0)]
    # "... and gets it back immediately after": White inbounds with all six dice.
    assert table.state.penalty == frozenset()
    table = play(table.state, "111222", "444444", "123456", "444444")
    assert [(len(e.home), len(e.away)) for e in table.events] == [(6, 6), (6, 6)]
    assert table.events[-1].result == "crossed"


def test_g10_after_a_deflected_pass_the_offense_keeps_six_dice_and_can_slam_dunk():
    table = play(at(4), "112456", "444412")  # White's Px4 beats Orange's Bx3
    assert table.events[1:] == [
        Pass(WHITE, "deflected", None),
        Push(WHITE, "P", 3, section_of(ORANGE, 1)),
    ]
    assert table.state.penalty == frozenset()
    # Six Balls need all six dice (G8): a slam dunk proves Orange was not penalized.
    table = play(table.state, "111123", "444456")
    assert table.events[1:] == [Dunk(ORANGE, "slam"), Score(ORANGE, 2, 2, 0)]
    assert len(table.events[0].away) == len(table.events[0].home) == 6


def test_g10_a_deflected_pass_steal_leaves_both_teams_six_dice_for_the_next_roll():
    table = play(at(2), "114456", "444125")  # White's Px3 beats Orange's P/B tie at 2
    assert table.events[1:] == [
        Pass(WHITE, "deflected", None),
        Push(WHITE, "P", 3, section_of(ORANGE, -1)),
        Steal(WHITE, "push", section_of(ORANGE, -1)),
    ]
    assert (table.state.offense, table.state.depth, table.state.penalty) == (
        WHITE, 2, frozenset(),
    )  # fmt: skip
    # White's Bx3 ties Orange's S/B tie at 3 (Orange picks Ball: a push of 3 >= 2 would
    # steal); White plays the chip. Both rolled six dice.
    table = play(table.state, "123456", "555123")
    assert len(table.events[0].away) == len(table.events[0].home) == 6
    assert (table.events[0].winner, table.events[0].chip) == (WHITE, True)
