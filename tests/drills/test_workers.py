"""Real workers: a Redis broker, Celery worker processes and PostgreSQL, as in production.

These start ``celery -A config worker`` processes against the test database, play games
through them, and kill one with SIGKILL half way: every game must still be stored exactly
once, with the dice its seed fixes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from league import services, tournaments
from league.models import BoxLine, Game, GameResult, Season
from tests.factories import full_team

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))


class Workers:
    """Worker (and beat) processes started for one test, stopped when it ends."""

    def __init__(self, tmp_path: Path) -> None:
        db = connection.settings_dict
        self.tmp_path = tmp_path
        self.env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "LEAGUE_LEASE_SECONDS": "3",
            "LEAGUE_SWEEP_EVERY": "1",
            "CELERY_VISIBILITY_TIMEOUT": "5",
        }
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.files: list[object] = []

    def start(self, name: str) -> subprocess.Popen[bytes]:
        log = (self.tmp_path / f"{name}.log").open("wb")
        self.files.append(log)
        command = [CELERY, "-A", "config"]
        if name == "beat":
            command += ["beat", "-s", str(self.tmp_path / "beat-schedule"), "-l", "INFO"]
        else:
            command += ["worker", "-n", f"{name}@%h", "--concurrency", "1", "-l", "INFO",
                        "--without-gossip", "--without-mingle"]  # fmt: skip
        proc = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        self.procs[name] = proc
        return proc

    def kill(self, name: str) -> None:
        """SIGKILL a worker and its pool process, as the OOM killer would."""
        os.killpg(self.procs[name].pid, signal.SIGKILL)
        self.procs[name].wait()

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for log in self.files:
            log.close()  # type: ignore[attr-defined]

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}"
            for p in sorted(self.tmp_path.glob("*.log"))
        )


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    pool = Workers(tmp_path)
    yield pool
    pool.stop()


def wait_for(check: Callable[[], bool], *, timeout: float, what: str, pool: Workers) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}\n{pool.logs()}")


def new_season(teams: list, name: str, seed: int = 2024) -> Season:
    league = services.league_get_or_create(name="Workers")
    return services.season_create(
        league=league,
        name=name,
        teams=teams,
        start_date=date(2024, 1, 1),
        double_round_robin=True,
        seed=seed,
    )


def new_tournament(teams: list, name: str, seed: int = 16) -> Season:
    league = services.league_get_or_create(name="Workers")
    return tournaments.tournament_create(league=league, name=name, teams=teams, seed=seed)


def outcome(season: Season) -> list[tuple[object, ...]]:
    return sorted(
        (g.round, g.bracket_key, g.home_id, g.away_id, g.seed, g.result.home_score,
         g.result.away_score)
        for g in season.games.select_related("result")
    )  # fmt: skip


def assert_stored_once(season: Season) -> None:
    games = season.games.all()
    assert all(g.status == Game.Status.FINAL for g in games)
    assert GameResult.objects.filter(game__season=season).count() == games.count()
    for game in games.select_related("result"):
        lines = BoxLine.objects.filter(result__game=game)
        assert sum(line.pts for line in lines if line.side == "home") == game.result.home_score
        assert len({(line.side, line.name) for line in lines}) == lines.count()


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
