"""The drills' harness: real Celery workers and beat, a private Redis, a held row lock.

Drills start ``celery -A config worker`` processes against the test database, break
something on purpose, and compare every game with a fault-free run of the same seeds.
A drill that restarts or wipes Redis starts its own server on a free port, and one that
takes PostgreSQL away puts a forwarder of its own between it and the workers; the shared
servers are never restarted.

A drill waits for states, never for a length of time: each wait polls for what the drill
needs next and fails, naming it and showing the workers' logs, only after ``WAIT`` seconds,
far longer than anything should take. How long recoveries took is printed (``report``,
summed up after the run by conftest.py), never asserted: speed is for ``bench/``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import ClassVar

import psycopg
import pytest
import redis
from django.conf import settings
from django.db import connection

from league import services, tournaments
from league.models import BoxLine, Game, GameResult, Season

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))
# How long a drill waits for a state before it fails: generous, so a slow or busy machine
# never fails a drill, while a lost game (which would never come) still ends it.
WAIT = 120.0
# Durations measured by the drills of this run, printed after it (conftest.py).
TIMINGS: list[str] = []


def report(what: str, seconds: float) -> None:
    """Print how long something took in a drill, and keep it for the run's summary."""
    line = f"{what}: {seconds:.1f} s"
    TIMINGS.append(line)
    print(line)


def database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


# What the drills shorten unless they run as production does (``Workers.production_like``).
SHORTENED = ("LEAGUE_LEASE_SECONDS", "LEAGUE_SWEEP_EVERY", "CELERY_VISIBILITY_TIMEOUT")


class Workers:
    """Worker (and beat) processes started for one test, stopped when it ends.

    Unless told ``production_like``, they run with a 3-second lease, a sweep every second
    and a 5-second visibility timeout, so drills about other things end quickly."""

    def __init__(
        self,
        tmp_path: Path,
        broker: str | None = None,
        lease: int = 3,
        database: str | None = None,
        production_like: bool = False,
    ) -> None:
        self.tmp_path = tmp_path
        self.env = {
            **os.environ,
            "DATABASE_URL": database or database_url(),
            "CELERY_BROKER_URL": broker or settings.CELERY_BROKER_URL,
            "LEAGUE_LEASE_SECONDS": str(lease),
            "LEAGUE_SWEEP_EVERY": "1",
            "CELERY_VISIBILITY_TIMEOUT": "5",
        }
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.hosts: dict[str, Host] = {}
        self.files: list[object] = []
        self.commands: list[subprocess.Popen[str]] = []
        if production_like:
            self.production_like()

    def production_like(self) -> None:
        """Run the processes started from now on with production's lease, sweep and
        visibility timeout (config/settings.py's defaults), so the recoveries a drill
        prints are those an installation would see."""
        for name in SHORTENED:
            self.env.pop(name, None)

    def start(self, name: str, host: Host | None = None) -> subprocess.Popen[bytes]:
        """Start a worker (or ``beat``); on ``host``, inside its network namespace."""
        log = (self.tmp_path / f"{name}.log").open("wb")
        self.files.append(log)
        command = [*host.prefix, CELERY, "-A", "config"] if host else [CELERY, "-A", "config"]
        if name == "beat":
            command += ["beat", "-s", str(self.tmp_path / "beat-schedule"), "-l", "INFO"]
        else:
            command += ["worker", "-n", f"{name}@%h", "--concurrency", "1", "-l", "INFO",
                        "--without-gossip", "--without-mingle"]  # fmt: skip
        env = host.env(self.env) if host else self.env
        proc = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        self.procs[name] = proc
        if host is not None:
            self.hosts[name] = host
        return proc

    def kill(self, name: str) -> None:
        """SIGKILL a worker and its pool process, as the OOM killer would."""
        os.killpg(self.procs[name].pid, signal.SIGKILL)
        self.procs[name].wait()

    def wait_exit(self, name: str) -> None:
        """Wait for a worker told to stop to exit."""
        try:
            self.procs[name].wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{name} did not exit within {WAIT:g} s\n{self.logs()}")

    def finished(self, command: subprocess.Popen[str], what: str) -> tuple[str, str]:
        """Wait for a command started with ``manage_in_background``; return its output."""
        try:
            return command.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{what} did not end within {WAIT:g} s\n{self.logs()}")

    def log_has(self, name: str, text: str) -> bool:
        """Tell whether a worker's log says ``text`` yet."""
        return text in (self.tmp_path / f"{name}.log").read_text(errors="replace")

    def tasks_ended(self, task: str) -> Counter[str]:
        """Count the deliveries of ``task`` the workers ran to their end, by how each ended
        ("succeeded" or "raised unexpected"; one retried is not over), in all the logs."""
        ended = re.compile(rf"Task {re.escape(task)}\[[^\]]+\] (succeeded|raised unexpected)")
        return Counter(
            match.group(1)
            for log in self.tmp_path.glob("*.log")
            for match in ended.finditer(log.read_text(errors="replace"))
        )

    def pool_child(self, name: str) -> int:
        """Return the pid of a worker's (single) pool process."""
        pid = self.procs[name].pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        assert len(children) == 1, f"{name} has pool processes {children}"
        return int(children[0])

    def manage(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run ``manage.py`` as the commissioner would, against the workers' servers."""
        try:
            return subprocess.run(
                [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
                capture_output=True, text=True, timeout=WAIT, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            pytest.fail(f"manage.py {' '.join(args)} did not end within {WAIT:g} s\n{self.logs()}")

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
        for name, proc in self.procs.items():
            if proc.poll() is None:
                # A worker on a host cut off the network cannot shut down warmly: kill it.
                cut = name in self.hosts and self.hosts[name].is_cut
                os.killpg(proc.pid, signal.SIGKILL if cut else signal.SIGTERM)
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


class Host:
    """A worker host of the drill's own: a network namespace with its own address, joined to
    this machine by a veth pair, reaching PostgreSQL and Redis through socat forwarders on
    the machine's end of the pair (the servers listen on 127.0.0.1 only). ``cut`` takes the
    host off the network as a failed switch would: its connections hang, nothing closes."""

    def __init__(self, letter: str, number: int) -> None:
        tag = f"{os.getpid() % 100000}{letter}"
        self.namespace = f"vabg-{tag}"
        self.outside, self.inside = f"vo{tag}", f"vi{tag}"
        self.gateway = f"10.213.{number}.1"
        self.address = f"10.213.{number}.2"
        self.prefix = ["ip", "netns", "exec", self.namespace]
        self.forwarders: list[subprocess.Popen[bytes]] = []
        self.is_cut = False

    def make(self, ports: list[int]) -> None:
        """Create the namespace and its link; forward ``ports`` to this machine's loopback."""
        for command in (
            f"ip netns add {self.namespace}",
            f"ip link add {self.outside} type veth peer name {self.inside}",
            f"ip link set {self.inside} netns {self.namespace}",
            f"ip addr add {self.gateway}/30 dev {self.outside}",
            f"ip link set {self.outside} up",
            f"ip netns exec {self.namespace} ip addr add {self.address}/30 dev {self.inside}",
            f"ip netns exec {self.namespace} ip link set {self.inside} up",
            f"ip netns exec {self.namespace} ip link set lo up",
        ):
            done = subprocess.run(command.split(), capture_output=True, text=True, check=False)
            if done.returncode:
                pytest.fail(f"{command}: {done.stderr.strip()} (the drill needs root and iproute2)")
        for port in ports:
            self.forwarders.append(
                subprocess.Popen(
                    [
                        "socat",
                        f"TCP-LISTEN:{port},bind={self.gateway},fork,reuseaddr",
                        f"TCP:127.0.0.1:{port}",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,  # its forked children go with it
                )
            )
        for port in ports:  # each forwarder listens before a worker dials it
            deadline = time.monotonic() + WAIT
            while subprocess.run(
                [*self.prefix, "bash", "-c", f"exec 3<>/dev/tcp/{self.gateway}/{port}"],
                capture_output=True, check=False,
            ).returncode:  # fmt: skip
                if time.monotonic() > deadline:
                    pytest.fail(f"{self.namespace} cannot reach {self.gateway}:{port}")
                time.sleep(0.05)

    def env(self, base: dict[str, str]) -> dict[str, str]:
        """Return ``base`` with the database and broker reached through this host's link."""
        out = dict(base)
        for key in ("DATABASE_URL", "CELERY_BROKER_URL"):
            out[key] = (
                out[key].replace("127.0.0.1", self.gateway).replace("localhost", self.gateway)
            )
        return out

    def cut(self) -> None:
        """Take the host off the network: its link goes down, its connections hang."""
        subprocess.run([*self.prefix, "ip", "link", "set", self.inside, "down"], check=True)
        self.is_cut = True

    def remove(self) -> None:
        for proc in self.forwarders:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
        subprocess.run(["ip", "link", "del", self.outside], capture_output=True, check=False)
        subprocess.run(["ip", "netns", "del", self.namespace], capture_output=True, check=False)


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
        deadline = time.monotonic() + WAIT
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    pytest.fail(f"the drill's Redis did not answer on port {self.port}")
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    def restart_empty(self) -> None:
        """Stop the server, delete what it kept on disk and start it again, empty: every
        queued message and every delivered-but-unacknowledged one is gone, as after a
        restart of a broker kept in memory only."""
        self.stop()
        shutil.rmtree(self.dir)
        self.dir.mkdir()
        self.start()

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)


class DatabaseProxy:
    """The workers' way to PostgreSQL, through a forwarder of the drill's own (socat), so a
    drill can take the database away from them and give it back as a restart of the server
    would, while the test's own connection (and every other user of the shared server) is
    left alone: ``stop`` ends the forwarder and every session that came through it (their
    transactions roll back, new connections are refused), ``start`` lets them in again."""

    APPLICATION = f"vabg-drill-{os.getpid()}"

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        db = connection.settings_dict
        self.target = f"{db['HOST']}:{db['PORT']}"
        self.url = (
            f"postgres://{db['USER']}@127.0.0.1:{self.port}/{db['NAME']}"
            f"?application_name={self.APPLICATION}"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if shutil.which("socat") is None:
            pytest.fail("the drill needs socat (make test installs it)")
        self.proc = subprocess.Popen(
            ["socat", f"TCP-LISTEN:{self.port},bind=127.0.0.1,fork,reuseaddr",
             f"TCP:{self.target}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # its forked children, one a connection, go with it
        )  # fmt: skip
        deadline = time.monotonic() + WAIT
        while True:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe,
            ):
                # a probe given the port as its own source connects to itself: no socat
                if probe.getsockname()[1] != self.port:
                    return
            if time.monotonic() > deadline:
                pytest.fail(f"the drill's way to PostgreSQL did not open on {self.port}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Take the database away: no new connection, and every session through the
        forwarder ended on the server (its transaction rolled back), as a restart does."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %s",
                [self.APPLICATION],
            )


class RowLock:
    """Hold a row lock from a connection of the test's own: a worker that reaches the row
    waits there, mid-game, for as long as the drill needs it to. Every lock still held when
    a drill ends (it failed half way) is released then (conftest.py), so the test
    database's teardown does not wait on it forever."""

    taken: ClassVar[list[RowLock]] = []

    def __init__(self, table: str, pk: int) -> None:
        RowLock.taken.append(self)
        self.conn = psycopg.connect(
            f"host={connection.settings_dict['HOST']} port={connection.settings_dict['PORT']} "
            f"user={connection.settings_dict['USER']} dbname={connection.settings_dict['NAME']}"
        )
        self.conn.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE", (pk,))

    def holds_up_a_worker(self) -> bool:
        """Tell whether another connection waits on the lock: a worker mid-game, inside the
        transaction that stores its game. Asked on the test's own connection, in autocommit,
        so that every call sees the server as it is now."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                [self.conn.info.backend_pid],
            )
            row = cursor.fetchone()
        return bool(row and row[0])

    def release(self) -> None:
        if not self.conn.closed:
            self.conn.rollback()
            self.conn.close()


def wait_for(check: Callable[[], bool], *, what: str, pool: Workers) -> float:
    """Poll ``check`` until it holds; return how long that took. Fail, naming ``what`` and
    showing the workers' logs, if it has not held after ``WAIT`` seconds."""
    start = time.monotonic()
    while time.monotonic() - start < WAIT:
        if check():
            return time.monotonic() - start
        time.sleep(0.05)
    pytest.fail(f"{what} did not happen within {WAIT:g} s\n{pool.logs()}")


def mid_game(lock: RowLock, pool: Workers) -> None:
    """Wait until a worker is held by the drill's lock in the middle of storing a game, so
    that the fault lands while a game is in flight, however fast games are."""
    wait_for(lock.holds_up_a_worker, what="a worker to reach the drill's lock mid-game", pool=pool)


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
