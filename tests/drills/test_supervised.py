"""Drills: the production set of ``make serve-cached`` under supervisor (config/supervisord.conf).

The set runs as README's production command runs it (scripts/serve-cached.sh: nginx's front
cache, gunicorn, a Celery worker and beat, each started again by supervisord whenever it
exits), with DEBUG off, on the test database, the test broker and a cache of its own. A
process is killed by its pid, as an operator's ``kill -9`` or the OOM killer would:

- gunicorn's master under load: a played game's page and a fan page (the season's) keep
  answering 200 from nginx's cache, a page never kept (a search) answers 200 or 502 until
  gunicorn is back, and only 200 from then on;
- the worker, in the middle of a run: supervisord starts it again, the run finishes, and
  every game is the same as in a run nobody disturbed.
- nginx's master alone: its workers would hold the port against every new master; they are
  stopped (scripts/nginx-supervised.sh) and a new master answers.

How long each recovery took is printed, not asserted; each wait is on a state, capped by the
harness's ``WAIT``.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings

from league import services
from tests.drills.harness import (
    WAIT,
    PrivateRedis,
    RowLock,
    assert_stored_once,
    database_url,
    mid_game,
    new_season,
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

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def alive(pid: int) -> bool:
    """Tell whether a process runs (an exited one nobody reaped yet does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class Supervised:
    """``scripts/serve-cached.sh`` running the whole production set, stopped at the end."""

    def __init__(self, run_dir: Path, env: dict[str, str]) -> None:
        self.run_dir = run_dir
        self.port = int(env["PORT"])
        self.log = (run_dir / "serve.log").open("wb")
        self.proc = subprocess.Popen(
            ["scripts/serve-cached.sh"], cwd=ROOT, env=env, stdout=self.log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def ctl(self, *args: str) -> str:
        conf = self.run_dir / "supervisord.conf"
        return subprocess.run(
            [str(BIN / "supervisorctl"), "-c", str(conf), *args],
            capture_output=True, text=True, check=False, timeout=WAIT,
        ).stdout  # fmt: skip

    def running_pid(self, program: str) -> int | None:
        """The pid of ``program`` once supervisord says it is RUNNING, else None."""
        words = self.ctl("status", program).split()
        if len(words) >= 4 and words[1] == "RUNNING":
            return int(words[3].rstrip(","))
        return None

    def get(self, path: str) -> tuple[int, str]:
        """GET through nginx: the status and X-Cache-Status."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            return response.status, response.getheader("X-Cache-Status", "")
        finally:
            conn.close()

    def answers(self, path: str) -> bool:
        try:
            return self.get(path)[0] == 200
        except OSError:
            return False

    def logs(self) -> str:
        self.log.flush()
        return (self.run_dir / "serve.log").read_text(errors="replace")[-6000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()  # supervisord stops every program, then exits
            try:
                self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


@pytest.fixture(scope="module")
def production(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Supervised]:
    """One production set for the drills of this module (starting it takes seconds)."""
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    private_redis = PrivateRedis(tmp_path_factory.mktemp("cache"))
    private_redis.start()
    # Under /tmp itself: nginx's workers (www-data when the tests run as root) write there.
    run_dir = Path(tempfile.mkdtemp(prefix="vabg-supervised-"))
    run_dir.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "NUM_PROXIES"}} | {
        "DEBUG": "false",
        "SECRET_KEY": "supervised-drill-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CACHE_URL": private_redis.url,
        "PORT": str(free_port()),
        "UPSTREAM_PORT": str(free_port()),
        "RUN_DIR": str(run_dir),
        "WORKERS": "2",
        "CELERY_PROCESSES": "1",
        "CELERY_CONCURRENCY": "1",
        "GUNICORN_ACCESS_LOG": "/dev/null",
        # The harness's short lease and sweep, as the other worker drills use.
        "LEAGUE_LEASE_SECONDS": "3",
        "LEAGUE_SWEEP_EVERY": "1",
        "CELERY_VISIBILITY_TIMEOUT": "5",
    }
    served = Supervised(run_dir, env)
    try:
        for program in ("nginx", "gunicorn", "worker:worker0", "beat"):
            wait_for(lambda p=program: served.running_pid(p) is not None,  # type: ignore[misc]
                     what=f"supervisord to report {program} running", pool=served)  # fmt: skip
        wait_for(lambda: served.answers("/healthz"), what="the site to answer", pool=served)
        yield served
    finally:
        served.stop()
        private_redis.stop()
        shutil.rmtree(run_dir, ignore_errors=True)


def test_gunicorn_killed_under_load_kept_pages_answer_from_the_cache_and_the_rest_502_until_it_is_back(
    production: Supervised,
) -> None:
    season = new_season([full_team() for _ in range(2)], "Served under supervision")
    game = season.games.first()
    services.game_simulate(game_id=game.pk)
    played, fan, uncached = game.get_absolute_url(), f"/seasons/{season.pk}/", "/search/?q=a"
    # nginx files a page once its whole answer is in: the next request may race that, so
    # ask until the front cache answers it (the condition, not a time).
    for path in (played, fan):
        wait_for(
            lambda p=path: production.get(p) == (200, "HIT"),  # type: ignore[misc]
            what=f"nginx to keep {path}",
            pool=production,
        )

    answers: list[tuple[float, str, int]] = []
    waits: list[tuple[float, float]] = []  # an uncached page's asking time and wait
    stop = threading.Event()

    def load() -> None:
        while not stop.is_set():
            for path in (played, fan, uncached):
                asked = time.monotonic()
                try:
                    status = production.get(path)[0]
                except OSError:
                    status = 0  # nginx itself refused: never expected
                answers.append((time.monotonic(), path, status))
                if path == uncached:
                    waits.append((asked, time.monotonic() - asked))

    clients = [threading.Thread(target=load) for _ in range(4)]
    for client in clients:
        client.start()
    try:
        wait_for(lambda: len(answers) >= 40, what="the load to run", pool=production)
        master = production.running_pid("gunicorn")
        assert master is not None
        workers = [
            int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()
        ]
        os.kill(master, signal.SIGKILL)
        killed = time.monotonic()

        def back() -> bool:
            new = production.running_pid("gunicorn")
            return (
                new not in (None, master)
                and not any(alive(pid) for pid in workers)
                and production.answers(uncached)
            )

        wait_for(back, what="gunicorn to be started again and answer", pool=production)
        is_back = time.monotonic()
        report(
            "gunicorn killed under load: its pages answered by a new gunicorn after",
            is_back - killed,
        )
        wait_for(
            lambda: sum(1 for t, p, _ in answers if p == uncached and t > is_back) >= 20,
            what="pages answered after gunicorn was back",
            pool=production,
        )
    finally:
        stop.set()
        for client in clients:
            client.join(timeout=WAIT)

    during = [(t, s) for t, p, s in answers if p == uncached and t > killed]
    print(
        f"while gunicorn was down: {sum(1 for _, s in during if s == 502)} answers 502 of "
        f"{len(during)} to an uncached page; {sum(1 for _, p, _ in answers if p == played)} "
        f"answers to the played game's page, {sum(1 for _, p, _ in answers if p == fan)} to "
        "the season's"
    )
    report(  # a new worker loading Django behind a bound socket would hold requests here
        "gunicorn killed under load: the longest wait for an uncached page asked after the kill",
        max((w for asked, w in waits if asked > killed), default=0.0),
    )
    assert {s for _, p, s in answers if p in (played, fan)} == {200}
    assert {s for _, s in during} <= {200, 502}
    assert {s for t, s in during if t > is_back} == {200}
    assert production.get(played)[0] == production.get(fan)[0] == 200


def test_a_worker_killed_mid_run_is_started_again_and_the_run_finishes_the_same(
    production: Supervised,
) -> None:
    teams = [full_team() for _ in range(4)]  # 12 games: a drill of seconds
    stormy = new_season(teams, "Killed under supervision")
    run = services.simulation_start(season=stormy, scope="all")
    wait_for(
        lambda: stormy.games.filter(status="final").count() >= 3,
        what="the first games",
        pool=production,
    )
    lock = RowLock("league_simulationrun", run.pk)
    mid_game(lock, production)  # type: ignore[arg-type]
    worker = production.running_pid("worker:worker0")
    assert worker is not None
    os.killpg(worker, signal.SIGKILL)  # the worker and its pool process, by the worker's pid
    killed = time.monotonic()
    lock.release()
    assert stormy.games.exclude(status="final").exists(), "the kill came too late to matter"
    restarted = wait_for(
        lambda: production.running_pid("worker:worker0") not in (None, worker),
        what="supervisord to start the worker again",
        pool=production,
    )
    report("a worker killed mid-run: running again under supervisord after", restarted)
    wait_for(
        lambda: not stormy.games.exclude(status="final").exists(),
        what="the run after the kill",
        pool=production,
    )
    report(
        "a worker killed mid-run: the run done after the kill (3 s lease)",
        time.monotonic() - killed,
    )
    assert_stored_once(stormy)
    run.refresh_from_db()
    assert (run.done, run.total, run.failed, run.status) == (12, 12, 0, "done")

    calm = new_season(teams, "Undisturbed under supervision")
    services.simulation_start(season=calm, scope="all")
    wait_for(
        lambda: not calm.games.exclude(status="final").exists(),
        what="the undisturbed season",
        pool=production,
    )
    assert outcome(stormy) == outcome(calm)


def command(pid: int | None) -> str:
    """The name of process ``pid``'s program ("" once it is gone)."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def nginx_group(leader: int) -> list[int]:
    """The pids of the processes in nginx master ``leader``'s process group, but its own."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        pid, rest = int(text.split(" ", 1)[0]), text.rsplit(") ", 1)[-1].split()
        if int(rest[2]) == leader and pid != leader:
            found.append(pid)
    return found


def test_nginx_s_master_killed_alone_is_started_again_and_its_orphans_are_stopped(
    production: Supervised,
) -> None:
    master = production.running_pid("nginx")
    assert master is not None
    wait_for(lambda: len(nginx_group(master)) >= 2, what="nginx's workers", pool=production)
    orphans = nginx_group(master)
    os.kill(master, signal.SIGKILL)  # the master alone: its workers keep the port
    killed = time.monotonic()

    # supervisord's program is scripts/nginx-supervised.sh until it execs nginx, once the
    # orphans are gone; meanwhile the orphans still answer on the port. So the new master
    # is the program's pid once that process is nginx itself, answering.
    def new_master() -> bool:
        pid = production.running_pid("nginx")
        return (
            pid not in (None, master) and command(pid) == "nginx" and production.answers("/healthz")
        )

    wait_for(new_master, what="a new nginx master to answer", pool=production)
    report("nginx's master killed alone: a new one answers after", time.monotonic() - killed)
    assert not any(alive(pid) for pid in orphans), "the dead master's workers are still running"
    new = production.running_pid("nginx")
    time.sleep(2)  # longer than startsecs: a master that could not bind would have exited
    assert production.running_pid("nginx") == new
    assert production.answers("/healthz")


def test_a_worker_stopped_by_supervisord_finishes_the_game_in_hand(
    production: Supervised,
) -> None:
    """supervisorctl stop (or a stop of the whole set) sent SIGTERM to the worker's whole
    process group: its pool process died mid-game (WorkerLostError) instead of the warm
    shutdown that finishes it; the game was only played again by another delivery."""
    season = new_season([full_team() for _ in range(4)], "Stopped under supervision")
    run = services.simulation_start(season=season, scope="all")
    lock = RowLock("league_simulationrun", run.pk)
    mid_game(lock, production)  # type: ignore[arg-type]
    in_hand = set(season.games.filter(status="running").values_list("pk", flat=True))
    assert in_hand, "no game was in hand"
    logged = len(production.logs())
    stopping = threading.Thread(target=production.ctl, args=("stop", "worker:worker0"))
    stopping.start()
    wait_for(
        lambda: "STOP" in production.ctl("status", "worker:worker0"),  # STOPPING, STOPPED
        what="supervisord to stop the worker",
        pool=production,
    )
    lock.release()  # the game in hand goes on: the worker finishes it, then exits
    stopping.join(timeout=WAIT)
    assert "STOPPED" in production.ctl("status", "worker:worker0")
    assert not season.games.filter(pk__in=in_hand).exclude(status="final").exists()
    since = production.logs()[-(len(production.logs()) - logged) or None :]
    assert "WorkerLostError" not in since and "signal 15" not in since
    production.ctl("start", "worker:worker0")
    wait_for(
        lambda: not season.games.exclude(status="final").exists(),
        what="the rest of the run",
        pool=production,
    )
    assert_stored_once(season)
