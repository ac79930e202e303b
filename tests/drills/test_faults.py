"""Drills of issue 12 against real servers: each breaks something mid-run on purpose and
then compares every game with a fault-free run of the same seeds played in-process.

A worker is held mid-game by a row lock the drill takes (the run's, or the tournament's
season row, which every stored game locks), so the fault always lands while a game is
in flight, however fast games are. Drills wait for states, never for time, and print how
long each recovery took instead of asserting it (tests/drills/harness.py).
"""

from __future__ import annotations

import os
import select
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
from django.utils import timezone

from cards.models import Card
from league import services, tournaments
from league.dispatch import games_chunks
from league.models import Game, Season, SimulationRun
from league.tasks import RETRY_DELAY_MAX, simulate_game
from tests.drills.harness import (
    WAIT,
    DatabaseProxy,
    PrivateRedis,
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


def run_of(season: Season, pool: Workers) -> SimulationRun:
    wait_for(lambda: season.runs.exists(), what="the run to start", pool=pool)
    return season.runs.get()


# A lease longer than any drill waits (WAIT): a game that had to wait for its lease to run
# out would never be played again within the drill, so a drill that ends proves none did.
NO_LEASE = int(WAIT * 30)


def test_a_lost_pool_process_game_is_played_again_by_its_own_redelivered_task(
    tmp_path: Path,
) -> None:
    teams = [full_team() for _ in range(2)]
    reference = played_here(new_season(teams, "Reference"))
    season = new_season(teams, "Lost child")
    pool = Workers(tmp_path, lease=NO_LEASE)  # and no sweeper: only the claim's token helps
    try:
        run = services.simulation_start(season=season, scope="all")
        lock = RowLock("league_simulationrun", run.pk)
        pool.start("w1")
        mid_game(lock, pool)
        os.kill(pool.pool_child("w1"), signal.SIGKILL)
        lock.release()
        recovered = wait_for(
            lambda: not season.games.exclude(status="final").exists(),
            what="the lost game to be played again",
            pool=pool,
        )
        report("a killed pool process: its game stored again after the kill", recovered)
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
    pool = Workers(tmp_path, broker=private_redis.url, lease=NO_LEASE)  # and no sweeper
    try:
        command = pool.manage_in_background("simulate", str(season.pk), "--all", "--no-progress")
        run_of(season, pool)
        lock = RowLock("league_season", season.pk)  # a stored game waits here, in flight
        pool.start("w1")
        mid_game(lock, pool)
        down = time.monotonic()
        private_redis.stop()
        # The broker stays down until the worker has lost its connection to it.
        wait_for(
            lambda: pool.log_has("w1", "Connection to broker lost"),
            what="the worker to notice the broker is gone",
            pool=pool,
        )
        private_redis.start()
        back = time.monotonic()
        report("a broker blip: the broker was down", back - down)
        lock.release()
        out, err = pool.finished(command, "simulate --all after the blip")
        report("a broker blip: the run done after the broker came back", time.monotonic() - back)
        assert command.returncode == 0, err
        assert "7 of 7 games stored, 0 failed" in out
        assert_stored_once(season)
        assert outcome(season) == outcome(reference)
    finally:
        pool.stop()


def test_a_broker_restarted_empty_loses_no_game(
    tmp_path: Path, private_redis: PrivateRedis
) -> None:
    teams = [full_team() for _ in range(8)]
    reference = played_here(new_tournament(teams, "Reference cup"))
    season = new_tournament(teams, "Emptied cup")
    # Production's lease, sweep and visibility timeout: the recovery printed is theirs.
    pool = Workers(tmp_path, broker=private_redis.url, production_like=True)
    try:
        command = pool.manage_in_background("simulate", str(season.pk), "--all", "--no-progress")
        run_of(season, pool)
        lock = RowLock("league_season", season.pk)
        pool.start("w1")
        pool.start("beat")
        mid_game(lock, pool)
        in_flight = set(
            season.games.filter(status=Game.Status.RUNNING).values_list("pk", flat=True)
        )
        private_redis.restart_empty()  # every queued game's message is gone
        back = time.monotonic()
        # The games whose messages were lost: queued, not taken by the worker.
        lost = set(season.games.filter(status=Game.Status.SCHEDULED).values_list("pk", flat=True))
        assert lost and in_flight, "the restart came too late to lose anything"
        lock.release()
        resumed = wait_for(
            lambda: season.games.filter(pk__in=lost, status=Game.Status.FINAL).exists(),
            what="a game whose message was lost to be played",
            pool=pool,
        )
        report("a broker restarted empty: a lost game played after it came back", resumed)
        out, err = pool.finished(command, "simulate --all after the restart")
        report("a broker restarted empty: the run done after it came back", time.monotonic() - back)
        assert command.returncode == 0, err
        assert "7 of 7 games stored, 0 failed" in out
        assert_stored_once(season)
        assert outcome(season) == outcome(reference)
    finally:
        pool.stop()


def test_a_database_restart_mid_game_loses_no_game(tmp_path: Path) -> None:
    teams = [full_team() for _ in range(8)]
    reference = played_here(new_tournament(teams, "Reference cup"))
    season = new_tournament(teams, "Restart cup")
    database = DatabaseProxy()
    database.start()
    # The workers and the commissioner's `simulate` reach PostgreSQL through the drill's
    # forwarder, with production's lease, sweep and visibility timeout.
    pool = Workers(tmp_path, database=database.url, production_like=True)
    try:
        command = pool.manage_in_background("simulate", str(season.pk), "--all", "--no-progress")
        run_of(season, pool)
        lock = RowLock("league_season", season.pk)  # a stored game waits here, in flight
        pool.start("w1")
        pool.start("beat")
        mid_game(lock, pool)
        in_flight = set(
            season.games.filter(status=Game.Status.RUNNING).values_list("pk", flat=True)
        )
        assert in_flight, "no game was in flight"
        database.stop()  # its transaction is rolled back; nobody can connect
        down = time.monotonic()
        lock.release()
        # The database stays down until the worker puts its games off by the most it waits
        # (1, 2, 4, then 5 s) and the lease of the game in flight has run out: longer than
        # a lease, as a restart of a busy server may take. `simulate` has said it waits.
        wait_for(
            lambda: (
                pool.log_has("w1", f"Retry in {RETRY_DELAY_MAX}s")
                and not season.games.filter(
                    pk__in=in_flight, lease_expires_at__gt=timezone.now()
                ).exists()
            ),
            what="the worker to put its games off for longest and their lease to run out",
            pool=pool,
        )
        assert command.stderr is not None
        ready, _, _ = select.select([command.stderr], [], [], WAIT)
        assert ready, f"simulate said nothing of the outage for {WAIT:g} s"
        said = command.stderr.readline()
        assert "database unreachable" in said, said
        database.start()
        back = time.monotonic()
        report("a PostgreSQL restart: the database was down", back - down)
        resumed = wait_for(
            lambda: not season.games.filter(pk__in=in_flight).exclude(status="final").exists(),
            what="the game in flight to be stored after the restart",
            pool=pool,
        )
        report("a PostgreSQL restart: the game in flight stored after it came back", resumed)
        out, err = pool.finished(command, "simulate --all after the restart")
        report("a PostgreSQL restart: the run done after it came back", time.monotonic() - back)
        assert command.returncode == 0, said + err
        assert "7 of 7 games stored, 0 failed" in out
        assert_stored_once(season)
        assert outcome(season) == outcome(reference)
    finally:
        pool.stop()
        database.stop()


def test_a_worker_stopped_with_sigterm_finishes_its_game_first(workers: Workers) -> None:
    teams = [full_team() for _ in range(4)]
    reference = played_here(new_season(teams, "Reference"))
    season = new_season(teams, "Stopped")
    run = services.simulation_start(season=season, scope="all")
    lock = RowLock("league_simulationrun", run.pk)
    workers.start("w1")
    mid_game(lock, workers)
    in_flight = list(season.games.filter(status=Game.Status.RUNNING))  # its chunk
    assert in_flight
    os.kill(workers.procs["w1"].pid, signal.SIGTERM)  # warm shutdown, as systemd stops it
    stopping = time.monotonic()
    lock.release()
    workers.wait_exit("w1")
    report("SIGTERM: the worker finished its games and exited", time.monotonic() - stopping)
    for game in in_flight:
        game.refresh_from_db()
        assert (game.status, game.attempts) == (Game.Status.FINAL, 1)  # stored, once
    workers.start("w2")
    rest = wait_for(
        lambda: not season.games.exclude(status="final").exists(),
        what="the rest of the season",
        pool=workers,
    )
    report("SIGTERM: the rest of the season played by the next worker", rest)
    assert_stored_once(season)
    assert outcome(season) == outcome(reference)


def test_every_game_sent_twice_is_stored_once(workers: Workers) -> None:
    teams = [full_team() for _ in range(4)]
    reference = played_here(new_season(teams, "Reference"))
    season = new_season(teams, "Twice")
    run = services.simulation_start(season=season, scope="all")  # sent in chunks
    chunks = len(games_chunks(list(season.games.values_list("pk", flat=True))))
    for game in season.games.all():
        simulate_game.delay(game_id=game.pk)  # a duplicate of every game, one a message
    games = season.games.count()
    workers.start("w1")
    workers.start("w2")

    def ended() -> tuple[Counter[str], Counter[str]]:
        return workers.tasks_ended("league.simulate_games"), workers.tasks_ended(
            "league.simulate_game"
        )

    handled = wait_for(
        lambda: (ended()[0].total(), ended()[1].total()) >= (chunks, games),
        what=f"the workers to run all {chunks} chunks and {games} duplicates",
        pool=workers,
    )
    report(f"every game sent twice: {chunks} chunks and {games} single games run", handled)
    for counts in ended():
        assert counts["raised unexpected"] == 0, f"a delivery failed\n{workers.logs()}"
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
    assert "4 of 4 games stored, 0 failed" in again.stdout  # in a new run: the rest
    run.refresh_from_db()
    assert (run.status, season.runs.count()) == ("failed", 2)  # the first keeps its record
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
    ready, _, _ = select.select([second.stdout], [], [], WAIT)
    assert ready, f"the second command said nothing for {WAIT:g} s"
    joined = second.stdout.readline()
    assert f"Run {run.pk} is already simulating these games" in joined
    workers.start("w1")
    out1, err1 = workers.finished(first, "the first simulate --all")
    out2, err2 = workers.finished(second, "the second simulate --all")
    assert (first.returncode, second.returncode) == (0, 0), err1 + err2
    assert season.runs.count() == 1
    for out in (out1, joined + out2):
        assert f"Run {run.pk}: 7 of 7 games stored, 0 failed." in out
    assert_stored_once(season)
    assert outcome(season) == outcome(reference)
