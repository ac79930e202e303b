"""Drills of issue 12 against real servers: each breaks something mid-run on purpose and
then compares every game with a fault-free run of the same seeds played in-process.

A worker is held mid-game by a row lock the drill takes (the run's, or the tournament's
season row, which every stored game locks), so the fault always lands while a game is
in flight, however fast games are.
"""

from __future__ import annotations

import os
import select
import signal
import time
from pathlib import Path

import pytest

from cards.models import Card
from league import services, tournaments
from league.models import Game, Season, SimulationRun
from league.tasks import simulate_game
from tests.drills.harness import (
    PrivateRedis,
    RowLock,
    Workers,
    assert_stored_once,
    new_season,
    new_tournament,
    outcome,
    wait_for,
)
from tests.factories import CardFactory, full_team

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def played_here(season: Season) -> Season:
    """Play a season in this process, undisturbed: the fault-free reference."""
    run = services.simulation_start(season=season, scope="all", dispatch=False)
    while services.run_next_game(run=run) is not None:
        pass
    return season


def mid_game(season: Season, pool: Workers) -> None:
    wait_for(
        lambda: season.games.filter(status=Game.Status.RUNNING).exists(),
        timeout=30,
        what="a worker to hold a game",
        pool=pool,
    )
    time.sleep(0.3)  # it claimed the game; let it reach the lock


def run_of(season: Season, pool: Workers) -> SimulationRun:
    wait_for(lambda: season.runs.exists(), timeout=30, what="the run", pool=pool)
    return season.runs.get()


def test_a_lost_pool_process_game_is_played_again_within_15_s(tmp_path: Path) -> None:
    teams = [full_team() for _ in range(2)]
    reference = played_here(new_season(teams, "Reference"))
    season = new_season(teams, "Lost child")
    pool = Workers(tmp_path, lease=60)  # without the claim's token it would wait 60 s
    try:
        run = services.simulation_start(season=season, scope="all")
        lock = RowLock("league_simulationrun", run.pk)
        pool.start("w1")
        mid_game(season, pool)
        os.kill(pool.pool_child("w1"), signal.SIGKILL)
        lost = time.monotonic()
        lock.release()
        wait_for(
            lambda: not season.games.exclude(status="final").exists(),
            timeout=15,
            what="the lost game to be played again",
            pool=pool,
        )
        assert time.monotonic() - lost < 15
        assert_stored_once(season)
        assert season.games.filter(attempts=2).count() == 1  # the lost one, once more
        assert outcome(season) == outcome(reference)
        run.refresh_from_db()
        assert (run.done, run.failed, run.status) == (2, 0, "done")
    finally:
        pool.stop()


def test_a_broker_blip_costs_no_game_and_no_lease(
    tmp_path: Path, private_redis: PrivateRedis
) -> None:
    teams = [full_team() for _ in range(8)]
    reference = played_here(new_tournament(teams, "Reference cup"))
    season = new_tournament(teams, "Blip cup")
    pool = Workers(tmp_path, broker=private_redis.url, lease=60)
    try:
        command = pool.manage_in_background("simulate", str(season.pk), "--all", "--no-progress")
        run_of(season, pool)
        lock = RowLock("league_season", season.pk)  # a stored game waits here, in flight
        pool.start("w1")
        mid_game(season, pool)
        private_redis.stop()
        time.sleep(3)  # a 3 s outage of the broker
        private_redis.start()
        blip = time.monotonic()
        lock.release()
        out, err = command.communicate(timeout=60)
        assert command.returncode == 0, err
        assert time.monotonic() - blip < 30  # well inside the 60 s lease
        assert "7 of 7 games stored, 0 failed" in out
        assert_stored_once(season)
        assert outcome(season) == outcome(reference)
    finally:
        pool.stop()


def test_a_wiped_broker_loses_no_game(tmp_path: Path, private_redis: PrivateRedis) -> None:
    teams = [full_team() for _ in range(8)]
    reference = played_here(new_tournament(teams, "Reference cup"))
    season = new_tournament(teams, "Wiped cup")
    pool = Workers(tmp_path, broker=private_redis.url)  # lease 3 s, sweep every second
    try:
        command = pool.manage_in_background("simulate", str(season.pk), "--all", "--no-progress")
        run_of(season, pool)
        lock = RowLock("league_season", season.pk)
        pool.start("w1")
        pool.start("beat")
        mid_game(season, pool)
        private_redis.client().flushall()  # every queued game is gone
        lock.release()
        out, err = command.communicate(timeout=90)
        assert command.returncode == 0, err
        assert "7 of 7 games stored, 0 failed" in out
        assert_stored_once(season)
        assert outcome(season) == outcome(reference)
    finally:
        pool.stop()


def test_a_worker_stopped_with_sigterm_finishes_its_game_first(workers: Workers) -> None:
    teams = [full_team() for _ in range(4)]
    reference = played_here(new_season(teams, "Reference"))
    season = new_season(teams, "Stopped")
    run = services.simulation_start(season=season, scope="all")
    lock = RowLock("league_simulationrun", run.pk)
    workers.start("w1")
    mid_game(season, workers)
    os.kill(workers.procs["w1"].pid, signal.SIGTERM)  # warm shutdown, as systemd stops it
    lock.release()
    workers.procs["w1"].wait(timeout=30)
    assert season.games.filter(status="final").count() >= 1  # the game in flight was stored
    workers.start("w2")
    wait_for(
        lambda: not season.games.exclude(status="final").exists(),
        timeout=60,
        what="the rest of the season",
        pool=workers,
    )
    assert_stored_once(season)
    assert outcome(season) == outcome(reference)


def test_every_game_sent_twice_is_stored_once(workers: Workers) -> None:
    teams = [full_team() for _ in range(4)]
    reference = played_here(new_season(teams, "Reference"))
    season = new_season(teams, "Twice")
    run = services.simulation_start(season=season, scope="all")
    for game in season.games.all():
        simulate_game.delay(game_id=game.pk)  # a duplicate of every message
    workers.start("w1")
    workers.start("w2")
    wait_for(
        lambda: not season.games.exclude(status="final").exists(),
        timeout=60,
        what="the season",
        pool=workers,
    )
    time.sleep(1)  # the duplicates arrive after their games are stored
    assert_stored_once(season)
    assert outcome(season) == outcome(reference)
    run.refresh_from_db()
    assert (run.done, run.total, run.failed, run.status) == (12, 12, 0, "done")


def test_a_broken_team_fails_the_run_and_a_retry_after_the_repair_finishes_it(
    workers: Workers,
) -> None:
    teams = [full_team() for _ in range(8)]
    reference = played_here(new_tournament(teams, "Reference cup"))
    season = new_tournament(teams, "Broken cup")
    card = Card.objects.get(team=teams[7], slot=5)
    player = card.player
    card.delete()
    workers.start("w1")
    workers.start("w2")
    first = workers.manage("simulate", str(season.pk), "--all", "--no-progress")
    assert first.returncode != 0
    assert "1 game(s) could not be played and 3 wait for them" in first.stderr
    assert "slot 5 (C) has no starter" in first.stderr
    run = season.runs.get()
    assert run.status == "failed" and "slot 5 (C) has no starter" in run.error

    CardFactory(player=player, team=teams[7], slot=5)
    again = workers.manage("simulate", str(season.pk), "--retry-failed", "--no-progress")
    assert again.returncode == 0, again.stderr
    assert "4 of 4 games stored, 0 failed" in again.stdout
    assert_stored_once(season)
    assert outcome(season) == outcome(reference)
    assert tournaments.champion(season) == tournaments.champion(reference)


def test_two_simulate_commands_for_the_same_games_both_end(workers: Workers) -> None:
    teams = [full_team() for _ in range(8)]
    reference = played_here(new_tournament(teams, "Reference cup"))
    season = new_tournament(teams, "Twice cup")
    first = workers.manage_in_background("simulate", str(season.pk), "--all", "--no-progress")
    run = run_of(season, workers)
    # No worker yet, so the first run cannot end before the second joins it (a worker
    # storing a game holds the season row, which starting a simulation also locks).
    second = workers.manage_in_background("simulate", str(season.pk), "--all", "--no-progress")
    assert second.stdout is not None
    ready, _, _ = select.select([second.stdout], [], [], 60)
    assert ready, "the second command said nothing for 60 s"
    joined = second.stdout.readline()
    assert f"Run {run.pk} is already simulating these games" in joined
    workers.start("w1")
    out1, err1 = first.communicate(timeout=60)
    out2, err2 = second.communicate(timeout=60)
    assert (first.returncode, second.returncode) == (0, 0), err1 + err2
    assert season.runs.count() == 1
    for out in (out1, joined + out2):
        assert f"Run {run.pk}: 7 of 7 games stored, 0 failed." in out
    assert_stored_once(season)
    assert outcome(season) == outcome(reference)
