"""Six dice's live odds at the table follow the game: at the start of the phase under way
(the jump ball, a main roll with its shot and free throws, an inbound race), with its
score, never a roll behind (docs/table.md, "at the start of the roll under way")."""

from __future__ import annotations

import pytest

from simulator.games import TeamName
from simulator.sixdice import play_game
from simulator.sixdice import sheet as six_sheet
from simulator.sixdice.game import GAME
from simulator.sixdice.odds import states_before_rolls
from tests.simulator.test_board_sheets import Written

HOME = TeamName("Kentucky", 2012)
AWAY = TeamName("Kansas", 2008)


def dedupe(items: list) -> list:  # type: ignore[type-arg]
    return [x for i, x in enumerate(items) if i == 0 or x != items[i - 1]]


@pytest.mark.parametrize("seed", [4, 11])
def test_the_odds_are_those_of_the_phase_under_way_never_the_one_before(seed) -> None:
    written = Written(seed)
    played = play_game(HOME, AWAY, written)
    values = written.values
    events = [e.to_json() for e in played.events]
    chart = dict(
        zip(
            [s for _, s in states_before_rolls(events)],
            [p for _, p in GAME.win_probability(events, six_sheet.STANDARD, HOME, AWAY)],
            strict=True,
        )
    )
    seen = []
    for k in range(len(values)):
        position = six_sheet.replay(HOME, AWAY, values[:k])
        odds = six_sheet.live_odds(GAME, position)
        state = position.phase
        assert state is not None
        need = position.need
        assert need is not None
        if need.index == 1 and need.what in ("jump ball", "main roll", "inbound race, round 1"):
            # A phase's first die: its score is the game's (a score ends a phase; only a
            # main roll's second free throw comes after a point inside it).
            assert (state.away_score, state.home_score) == (
                position.score["away"],
                position.score["home"],
            ), k
        assert odds["p_home"] == chart[state], k
        seen.append(state)
    # Phase by phase, the positions shown are exactly those a stored game's chart shows.
    assert dedupe(seen) == dedupe([s for _, s in states_before_rolls(events)])
    over = six_sheet.live_odds(GAME, six_sheet.replay(HOME, AWAY, values))
    assert over["as_of"] == "final" and over["p_home"] in (0.0, 1.0)


def test_after_the_jump_ball_and_after_a_score_the_odds_say_where_the_game_is() -> None:
    written = Written(4)
    play_game(HOME, AWAY, written)
    values = written.values
    start = six_sheet.live_odds(GAME, six_sheet.replay(HOME, AWAY, []))
    assert start["as_of"] == "before the jump ball"
    assert start["p_home"] == pytest.approx(start["pregame_home"])
    # The first die of the first main roll: the jump ball is decided, the odds move on.
    k = next(
        k
        for k in range(len(values))
        if (n := six_sheet.replay(HOME, AWAY, values[:k]).need) and n.what == "main roll"
    )
    position = six_sheet.replay(HOME, AWAY, values[:k])
    after_jump = six_sheet.live_odds(GAME, position)
    offense = position.labels()[position.phase.offense]  # type: ignore[union-attr]
    assert after_jump["as_of"] == f"before {offense}'s main roll at d 1 (0-0)"
    assert after_jump["p_home"] != start["p_home"]
    # The first die after the first score: the inbound under way, at the new score.
    k = next(
        k
        for k in range(len(values))
        if sum(six_sheet.replay(HOME, AWAY, values[:k]).score.values())
    )
    position = six_sheet.replay(HOME, AWAY, values[:k])
    odds = six_sheet.live_odds(GAME, position)
    score = f"{position.score['away']}-{position.score['home']}"
    assert odds["as_of"].endswith(f"({score})") and score != "0-0"
    assert "inbound" in odds["as_of"] or "main roll" in odds["as_of"]
