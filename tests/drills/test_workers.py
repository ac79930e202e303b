"""Drills: a worker or its pool process killed mid-run loses no game and counts none twice."""

from __future__ import annotations

import pytest

from league import services, tournaments
from tests.drills.harness import (
    Workers,
    assert_stored_once,
    new_season,
    new_tournament,
    outcome,
    wait_for,
)
from tests.factories import full_team

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def test_a_worker_killed_half_way_loses_no_game_and_counts_none_twice(workers: Workers) -> None:
    teams = [full_team() for _ in range(6)]
    # One worker alone: when it dies it holds the game it is playing (late ack, prefetch 1).
    stormy = new_season(teams, "Killed half way")
    workers.start("w1")
    run = services.simulation_start(season=stormy, scope="all")
    wait_for(
        lambda: stormy.games.filter(status="final").count() >= 5,
        timeout=60,
        what="the first games",
        pool=workers,
    )
    workers.kill("w1")
    assert stormy.games.exclude(status="final").exists(), "the kill came too late to matter"
    workers.start("w2")
    workers.start("beat")  # the sweeper hands out what the dead worker held
    wait_for(
        lambda: not stormy.games.exclude(status="final").exists(),
        timeout=120,
        what="the season after the kill",
        pool=workers,
    )
    assert_stored_once(stormy)
    run.refresh_from_db()
    assert (run.done, run.total, run.failed, run.status) == (30, 30, 0, "done")

    # The same teams and seed, undisturbed, on two workers: the very same games.
    calm = new_season(teams, "Undisturbed")
    workers.start("w3")
    services.simulation_start(season=calm, scope="all")
    wait_for(
        lambda: not calm.games.exclude(status="final").exists(),
        timeout=120,
        what="the undisturbed season",
        pool=workers,
    )
    assert_stored_once(calm)
    assert outcome(stormy) == outcome(calm)


def test_a_tournament_finishes_on_workers_though_one_is_killed_mid_round(
    workers: Workers,
) -> None:
    teams = [full_team() for _ in range(16)]
    calm = new_tournament(teams, "Undisturbed cup")
    workers.start("w1")
    workers.start("w2")
    services.simulation_start(season=calm, scope="all")
    wait_for(
        lambda: tournaments.champion(calm) is not None,
        timeout=120,
        what="the undisturbed tournament",
        pool=workers,
    )
    assert_stored_once(calm)
    assert calm.games.count() == 15

    stormy = new_tournament(teams, "Killed mid-round cup")
    workers.kill("w2")  # w1 alone holds a game of round 1 when it dies
    run = services.simulation_start(season=stormy, scope="all")
    wait_for(
        lambda: stormy.games.filter(round=1, status="final").count() >= 3,
        timeout=60,
        what="the first games of round 1",
        pool=workers,
    )
    workers.kill("w1")
    assert stormy.games.filter(round=1).exclude(status="final").exists(), "killed too late"
    assert not stormy.games.filter(round=2).exists()
    workers.start("w3")
    workers.start("w4")
    workers.start("beat")
    wait_for(
        lambda: tournaments.champion(stormy) is not None,
        timeout=120,
        what="the tournament after the kill",
        pool=workers,
    )
    assert_stored_once(stormy)
    assert outcome(stormy) == outcome(calm)
    assert tournaments.champion(stormy) == tournaments.champion(calm)
    run.refresh_from_db()
    assert (run.done, run.total, run.status) == (15, 15, "done")
