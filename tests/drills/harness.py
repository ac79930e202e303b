"""The drills' harness: real Celery workers and beat, a private Redis, a held row lock.

Drills start ``celery -A config worker`` processes against the test database, break
something on purpose, and compare every game with a fault-free run of the same seeds.
A drill that restarts or wipes Redis starts its own server on a free port; the shared
servers are never restarted.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import psycopg
import pytest
import redis
from django.conf import settings
from django.db import connection

from league import services, tournaments
from league.models import BoxLine, Game, GameResult, Season

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))


def database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class Workers:
    """Worker (and beat) processes started for one test, stopped when it ends."""

    def __init__(self, tmp_path: Path, broker: str | None = None, lease: int = 3) -> None:
        self.tmp_path = tmp_path
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": broker or settings.CELERY_BROKER_URL,
            "LEAGUE_LEASE_SECONDS": str(lease),
            "LEAGUE_SWEEP_EVERY": "1",
            "CELERY_VISIBILITY_TIMEOUT": "5",
        }
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.files: list[object] = []
        self.commands: list[subprocess.Popen[str]] = []

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

    def pool_child(self, name: str) -> int:
        """Return the pid of a worker's (single) pool process."""
        pid = self.procs[name].pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        assert len(children) == 1, f"{name} has pool processes {children}"
        return int(children[0])

    def manage(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run ``manage.py`` as the commissioner would, against the workers' servers."""
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip

    def manage_in_background(self, *args: str) -> subprocess.Popen[str]:
        """Start ``manage.py``; its output is unbuffered, so it can be read line by line."""
        command = subprocess.Popen(
            [sys.executable, "manage.py", *args], cwd=ROOT,
            env={**self.env, "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.commands.append(command)
        return command

    def stop(self) -> None:
        for command in self.commands:  # a drill that failed half way leaves none behind
            if command.poll() is None:
                command.kill()
            for stream in (command.stdout, command.stderr):
                if stream is not None:
                    stream.close()
            command.wait()
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


class PrivateRedis:
    """A Redis server of the drill's own, on a free port, that it may restart or wipe."""

    def __init__(self, tmp_path: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.dir = tmp_path / "redis"
        self.dir.mkdir()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        # Kept on disk (append-only, fsync always) so a restart keeps the queued games,
        # as a production broker with persistence would.
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)


class RowLock:
    """Hold a row lock from a connection of the test's own: a worker that reaches the row
    waits there, mid-game, for as long as the drill needs it to."""

    def __init__(self, table: str, pk: int) -> None:
        self.conn = psycopg.connect(
            f"host={connection.settings_dict['HOST']} port={connection.settings_dict['PORT']} "
            f"user={connection.settings_dict['USER']} dbname={connection.settings_dict['NAME']}"
        )
        self.conn.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE", (pk,))

    def release(self) -> None:
        if not self.conn.closed:
            self.conn.rollback()
            self.conn.close()


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
