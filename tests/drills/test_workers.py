"""Drills: a worker or its pool process killed mid-run loses no game and counts none twice.

The worker is killed while the drill's row lock holds it in the middle of storing a game,
so the kill always lands mid-game; how long the recovery took is printed, not asserted.
"""

from __future__ import annotations

import time

import pytest

from league import services, tournaments
from tests.drills.harness import (
    RowLock,
    Workers,
    assert_stored_once,
    mid_game,
    new_season,
    new_tournament,
    outcome,
    report,
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
    # Production's lease (renewed by the worker's heartbeat), sweep and visibility timeout:
    # the recovery printed is the one an installation would see.
    workers.production_like()
    # One worker alone: when it dies it holds the games it is playing (late ack, prefetch 1).
    stormy = new_season(teams, "Killed half way")
    workers.start("w1")
    workers.start("beat")  # the sweeper hands out what the dead worker held
    run = services.simulation_start(season=stormy, scope="all")
    wait_for(
        lambda: stormy.games.filter(status="final").count() >= 5,
        what="the first games",
        pool=workers,
    )
    lock = RowLock("league_simulationrun", run.pk)
    mid_game(lock, workers)
    in_flight = set(stormy.games.filter(status="running").values_list("pk", flat=True))
    workers.kill("w1")
    killed = time.monotonic()
    lock.release()
    assert in_flight, "the kill came too late to matter"
    workers.start("w2")
    again = wait_for(
        lambda: not stormy.games.filter(pk__in=in_flight).exclude(status="final").exists(),
        what="the dead worker's games to be played again",
        pool=workers,
    )
    report("a killed worker: its games stored again after the kill", again)
    wait_for(
        lambda: not stormy.games.exclude(status="final").exists(),
        what="the season after the kill",
        pool=workers,
    )
    report("a killed worker: the season done after the kill", time.monotonic() - killed)
    assert_stored_once(stormy)
    run.refresh_from_db()
    assert (run.done, run.total, run.failed, run.status) == (30, 30, 0, "done")

    # The same teams and seed, undisturbed, on two workers: the very same games.
    calm = new_season(teams, "Undisturbed")
    workers.start("w3")
    services.simulation_start(season=calm, scope="all")
    wait_for(
        lambda: not calm.games.exclude(status="final").exists(),
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
        what="the first games of round 1",
        pool=workers,
    )
    lock = RowLock("league_simulationrun", run.pk)
    mid_game(lock, workers)
    workers.kill("w1")
    killed = time.monotonic()
    lock.release()
    assert stormy.games.filter(round=1).exclude(status="final").exists(), "killed too late"
    assert not stormy.games.filter(round=2).exists()
    workers.start("w3")
    workers.start("w4")
    workers.start("beat")
    wait_for(
        lambda: tournaments.champion(stormy) is not None,
        what="the tournament after the kill",
        pool=workers,
    )
    report("a worker killed mid-round: the champion after the kill", time.monotonic() - killed)
    assert_stored_once(stormy)
    assert outcome(stormy) == outcome(calm)
    assert tournaments.champion(stormy) == tournaments.champion(calm)
    run.refresh_from_db()
    assert (run.done, run.total, run.status) == (15, 15, "done")
