"""`make serve-cached` (scripts/serve-cached.sh) refuses a port it cannot listen on, and
stops with the make that started it."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def serve_cached(env: dict[str, str], run_dir: Path) -> subprocess.CompletedProcess[str]:
    """Run the script as make does; past 30 s (a set started after all) stop its group."""
    proc = subprocess.Popen(
        ["scripts/serve-cached.sh"], cwd=ROOT, env={**os.environ, **env, "RUN_DIR": str(run_dir)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        pytest.fail(f"serve-cached started on a port in use and ran until stopped:\n{out}{err}")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.fixture
def taken_port() -> int:  # type: ignore[misc]
    """A port another server listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


def test_a_port_in_use_is_refused_at_once_naming_it(taken_port: int, tmp_path: Path) -> None:
    """Under supervisord nginx would fail to bind and be started again for ever, its reason
    only in a log file nobody reads: the script says which port, and stops."""
    env = {"PORT": str(taken_port), "UPSTREAM": "127.0.0.1:9"}  # nginx alone
    refused = serve_cached(env, tmp_path / "run")
    assert refused.returncode == 1
    assert (
        f"serve-cached: cannot listen for nginx on 127.0.0.1:{taken_port}: Address already in use"
        in refused.stderr
    )
    assert not (tmp_path / "run").exists()  # an operator's review: it was left, empty
    (tmp_path / "kept").mkdir()  # a run folder that was there before is kept
    serve_cached(env, tmp_path / "kept")
    assert (tmp_path / "kept").is_dir()


def test_gunicorn_s_port_in_use_is_refused_too(taken_port: int, tmp_path: Path) -> None:
    """gunicorn binds with --reuse-port, so it would share a port with another gunicorn
    and answer half its requests instead of failing."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    env = {"PORT": str(free), "UPSTREAM_PORT": str(taken_port), "CELERY_BROKER_URL": ""}
    refused = serve_cached(env, tmp_path / "run")
    assert refused.returncode == 1
    assert f"cannot listen for gunicorn on 127.0.0.1:{taken_port}" in refused.stderr


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_each_set_keeps_gunicorn_s_control_socket_in_its_own_run_folder(tmp_path: Path) -> None:
    """gunicorn 27's control socket defaults to one per user (~/.gunicorn/gunicorn.ctl):
    a second set on the host, or make serve beside it, took it from the first."""
    run_dir = Path(tempfile.mkdtemp(prefix="vabg-serve-cached-"))  # nginx's workers read it
    run_dir.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "REDIS_URL",
                                                          "DATABASE_URL", "DEBUG"}}  # fmt: skip
    env |= {"PORT": str(free_port()), "UPSTREAM_PORT": str(free_port()), "WORKERS": "1",
            "SQLITE_PATH": str(tmp_path / "db.sqlite3"), "RUN_DIR": str(run_dir)}  # fmt: skip
    proc = subprocess.Popen(["scripts/serve-cached.sh"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)  # fmt: skip
    try:
        socket_path = run_dir / "gunicorn.ctl"
        for _ in range(600):  # the set starting: a state, not a time, is awaited
            if socket_path.exists() or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert socket_path.is_socket(), "gunicorn's control socket is not in the run folder"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
        shutil.rmtree(run_dir, ignore_errors=True)


def alive(pid: int) -> bool:
    """Tell whether a process runs (an exited one nobody reaped does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[-1][0] != "Z"
    except FileNotFoundError:
        return False


def listening(port: int) -> bool:
    """Something listens on ``port``. A probe of a free port in the ephemeral range may be
    given that very port as its own source and connect to itself (TCP simultaneous open):
    that is no listener (it once let a test go on before its set had started)."""
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0 and probe.getsockname()[1] != port


def test_sigterm_to_make_serve_cached_stops_the_whole_set(tmp_path: Path) -> None:
    """A service manager or an operator stops `make serve-cached` by its pid: make passes
    SIGTERM on to its own child only, which was a shell, so supervisord and every program
    it ran went on serving, orphaned (and the next start found its port taken)."""
    run_dir = Path(tempfile.mkdtemp(prefix="vabg-serve-cached-"))  # nginx's workers read it
    run_dir.chmod(0o755)
    port = free_port()
    env = {**os.environ, "PORT": str(port), "UPSTREAM": "127.0.0.1:9", "RUN_DIR": str(run_dir)}
    # -o serve-setup: the set alone, without the migrations and the team files (nginx alone).
    make = subprocess.Popen(["make", "--no-print-directory", "-o", "serve-setup", "serve-cached"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    try:
        for _ in range(600):  # the set starting: a state, not a time, is awaited
            # its own nginx (its pid file), not the port alone: another lane may take it
            if (listening(port) and _pid_in(run_dir / "nginx.pid")) or make.poll() is not None:
                break
            time.sleep(0.1)
        assert listening(port) and _pid_in(run_dir / "nginx.pid"), "nginx did not start"
        supervisord = int((run_dir / "supervisord.pid").read_text())
        make.send_signal(signal.SIGTERM)
        make.wait(timeout=60)
        for _ in range(600):
            if not Path(f"/proc/{supervisord}").exists() and not listening(port):
                break
            time.sleep(0.1)
        assert not Path(f"/proc/{supervisord}").exists(), "supervisord outlived make"
        assert not listening(port), "nginx outlived make"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(make.pid, signal.SIGKILL)  # whatever is left of the group
        shutil.rmtree(run_dir, ignore_errors=True)


def test_a_worker_host_without_a_broker_is_refused_naming_it(tmp_path: Path) -> None:
    env = {"WEB": "false", "CELERY_BROKER_URL": "", "REDIS_URL": ""}
    refused = serve_cached(env, tmp_path / "run")
    assert refused.returncode == 2
    assert "WEB=false starts the Celery workers alone, and they need a broker" in refused.stderr


def test_a_broker_that_does_not_answer_is_said_at_the_start(tmp_path: Path) -> None:
    """An operator's review: a mistyped CELERY_BROKER_URL started the whole set, the
    mistake only in the workers' logs (every second) and /healthz's 503."""
    env = {"PREFLIGHT": "only", "PORT": "1", "UPSTREAM": "127.0.0.1:9",
           "CELERY_BROKER_URL": "redis://:secret@127.0.0.1:1/9"}  # fmt: skip
    checked = serve_cached(env, tmp_path / "run")
    assert checked.returncode == 0, checked.stderr
    assert (
        "serve-cached: warning: the broker redis://:**@127.0.0.1:1/9 (" in checked.stderr
        and "does not answer: the set starts, but no game is played until it does" in checked.stderr
    )
    assert "secret" not in checked.stderr


def test_a_switch_that_is_not_true_or_false_is_refused(tmp_path: Path) -> None:
    refused = serve_cached({"BEAT": "maybe", "UPSTREAM": "127.0.0.1:9"}, tmp_path / "run")
    assert refused.returncode == 2
    assert "serve-cached: BEAT=maybe is neither true nor false" in refused.stderr


@pytest.mark.redis
def test_make_serve_workers_runs_the_workers_alone_and_beat_only_where_asked(
    tmp_path: Path,
) -> None:
    """A second host of a league runs its workers under supervision, serves nothing, and
    leaves beat out when told (one beat in all: each would send every sweep)."""
    # A broker database of its own and an empty SQLite file: the worker must not take the
    # messages other tests left in the test broker and play them against a real database.
    broker = urlunsplit(urlsplit(settings.CELERY_BROKER_URL)._replace(path="/10"))
    redis.Redis.from_url(broker).flushdb()
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DEBUG", "DATABASE_URL"}}
    env |= {"RUN_DIR": str(tmp_path / "run"), "BEAT": "false", "CELERY_PROCESSES": "1",
            "CELERY_CONCURRENCY": "1", "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
            "CELERY_BROKER_URL": broker}  # fmt: skip
    make = subprocess.Popen(["make", "--no-print-directory", "serve-workers"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)  # fmt: skip
    ctl = [str(Path(ROOT, ".venv/bin/supervisorctl")), "-c", str(tmp_path / "run/supervisord.conf")]
    try:
        status: dict[str, str] = {}
        for _ in range(600):  # the set starting: a state, not a time, is awaited
            if (tmp_path / "run/supervisor.sock").exists():
                out = subprocess.run([*ctl, "status"], capture_output=True, text=True).stdout
                status = dict(line.split()[:2] for line in out.splitlines() if line.strip())
                if status.get("worker:worker0") == "RUNNING" or make.poll() is not None:
                    break
            time.sleep(0.1)
        # Only what runs is listed: no STOPPED nginx, gunicorn or beat for an operator to
        # take for programs down.
        assert status == {"worker:worker0": "RUNNING"}
        # Named by its set's run folder: a web host's set on the same machine (serve-8000)
        # has workers of other names, which Celery's inspect and control tell apart.
        names: list[str] = []
        for _ in range(10):  # RUNNING comes a second after the start, before it is ready
            ping = subprocess.run(
                [str(Path(ROOT, ".venv/bin/celery")), "-A", "config", "inspect", "ping", "-j",
                 "--timeout", "3"], cwd=ROOT, env={**env, "LOG_LEVEL": "ERROR"},
                capture_output=True, text=True,
            )  # fmt: skip
            names = list(json.loads(ping.stdout)) if ping.returncode == 0 else []
            if names:
                break
        assert names == [f"run-worker0@{socket.gethostname()}"]
        make.send_signal(signal.SIGTERM)
        make.wait(timeout=60)
    finally:
        if make.poll() is None:  # a failed assertion: supervisord stops the workers it started
            make.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                make.wait(timeout=90)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(make.pid, signal.SIGKILL)


def _pid_in(pid_file: Path) -> str:
    """The pid a pid file holds, "" while there is none: a starting set removes the last
    one's files (a check for the file, then a read of it, once failed between the two)."""
    try:
        return pid_file.read_text().strip()
    except FileNotFoundError:
        return ""


def _nginx_alone(run_dir: Path, port: int) -> subprocess.Popen[bytes]:
    """Start a set of nginx alone (UPSTREAM given) and wait until its own nginx listens: its
    pid file written and the port answering (the port alone once answered for another lane's
    server that took it between free_port() and this start, the set refused)."""
    env = {**os.environ, "PORT": str(port), "UPSTREAM": "127.0.0.1:9", "RUN_DIR": str(run_dir)}
    proc = subprocess.Popen(["scripts/serve-cached.sh"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    pid_file = run_dir / "nginx.pid"
    for _ in range(600):  # the set starting: a state, not a time, is awaited
        if proc.poll() is not None:
            assert proc.stderr is not None
            raise AssertionError(f"the set did not start: {proc.stderr.read().decode()}")
        pid = _pid_in(pid_file)
        if pid.isdigit() and alive(int(pid)) and listening(port):
            return proc
        time.sleep(0.1)
    raise AssertionError("nginx did not start in 60 s")


def _first_nginx(run_dir: Path) -> tuple[subprocess.Popen[bytes], int]:
    """A first set of nginx alone on a free port: a port another lane's server took before
    this set could listen on it is refused by the set's preflight, and another one tried."""
    for _ in range(5):
        port = free_port()
        try:
            return _nginx_alone(run_dir, port), port
        except AssertionError as refused:
            if "cannot listen for nginx" not in str(refused):
                raise
    raise AssertionError("five free ports were each taken before the set could listen")


def _await_new_nginx(run_dir: Path, old: int) -> None:
    """Wait (up to 90 s) until a new set's own nginx writes its pid over ``old``'s."""
    for _ in range(900):
        if _pid_in(run_dir / "nginx.pid") not in ("", str(old)):
            return
        time.sleep(0.1)


def _stop_sets(sets: list[subprocess.Popen[bytes]], run_dir: Path) -> None:
    """Stop every set a test started (SIGTERM to its group, as make passes it on) and
    remove its run folder."""
    for proc in sets:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=90)
        if proc.stderr is not None:
            proc.stderr.close()
    shutil.rmtree(run_dir, ignore_errors=True)


def test_a_set_killed_with_its_supervisord_is_stopped_by_the_next_start_and_a_live_one_refused(
    tmp_path: Path,
) -> None:
    """kill -9 of supervisord left nginx (and gunicorn, the workers, beat) running with no
    one to restart them and holding the ports: the next start said "address in use", naming
    a supervisorctl that no longer answered."""
    run_dir = Path(tempfile.mkdtemp(prefix="vabg-serve-cached-"))  # nginx's workers read it
    run_dir.chmod(0o755)
    sets: list[subprocess.Popen[bytes]] = []
    try:
        first, port = _first_nginx(run_dir)
        sets.append(first)
        # A second set in the same run folder while the first runs: refused, saying how to stop it.
        env = {"PORT": str(free_port()), "UPSTREAM": "127.0.0.1:9"}
        refused = serve_cached(env, run_dir)
        assert refused.returncode == 1
        assert f"a set is already running in {run_dir} (supervisord, pid" in refused.stderr
        assert "supervisord.conf shutdown" in refused.stderr

        supervisord = int((run_dir / "supervisord.pid").read_text())
        nginx = int((run_dir / "nginx.pid").read_text())
        os.kill(supervisord, signal.SIGKILL)
        sets[0].wait(timeout=30)
        assert listening(port)  # nginx, orphaned, still holds the port
        sets.append(_nginx_alone(run_dir, port))  # the next start stops it and serves
        _await_new_nginx(run_dir, nginx)
        stderr = sets[1].stderr
        assert stderr is not None
        said = stderr.readline().decode()
        assert "the last set's supervisord was killed alone; stopping what it left" in said
        assert str(nginx) in said
        assert not alive(nginx), "the orphaned nginx still runs"
        assert int((run_dir / "nginx.pid").read_text()) != nginx
    finally:
        _stop_sets(sets, run_dir)


def test_a_worker_host_with_settings_production_refuses_is_refused_before_it_starts(
    tmp_path: Path,
) -> None:
    """Each worker died on ImproperlyConfigured and was started again, 1,267 log lines in
    30 s, for over an hour before supervisord gave up."""
    env = {"WEB": "false", "CELERY_BROKER_URL": "redis://127.0.0.1:6379/10", "DEBUG": "false",
           "SECRET_KEY": "", "ALLOWED_HOSTS": "x.org"}  # fmt: skip
    refused = serve_cached(env, tmp_path / "run")
    assert refused.returncode == 2
    assert (
        "serve-cached: the settings refuse to start: django.core.exceptions.ImproperlyConfigured:"
        " SECRET_KEY must be set when DEBUG is off." in refused.stderr
    )
    assert not (tmp_path / "run" / "supervisord.pid").exists()


@pytest.mark.parametrize("name", ["CELERY_PROCESSES", "CELERY_CONCURRENCY", "WORKERS", "PORT"])
def test_a_number_that_is_not_a_positive_whole_number_is_refused(name: str, tmp_path: Path) -> None:
    refused = serve_cached({name: "0", "UPSTREAM": "127.0.0.1:9"}, tmp_path / "run")
    assert refused.returncode == 2
    assert f"serve-cached: {name}=0 is not a whole number of 1 or more" in refused.stderr


def test_a_start_right_after_a_shutdown_waits_for_the_stopping_set_then_serves() -> None:
    """The upgrade's steps: `supervisorctl ... shutdown` answers "Shut down" at once while
    supervisord still waits on its programs (a worker's game, up to 60 s); `make
    serve-cached` straight after was refused as "already running", naming that very
    shutdown command."""
    run_dir = Path(tempfile.mkdtemp(prefix="vabg-serve-cached-"))  # nginx's workers read it
    run_dir.chmod(0o755)
    sets: list[subprocess.Popen[bytes]] = []
    nginx = 0
    try:
        first, port = _first_nginx(run_dir)
        sets.append(first)
        supervisord = int((run_dir / "supervisord.pid").read_text())
        nginx = int((run_dir / "nginx.pid").read_text())
        # nginx held still: the set stays in its shutdown for as long as the test needs.
        os.kill(nginx, signal.SIGSTOP)
        control = [str(ROOT / ".venv/bin/supervisorctl"), "-c", str(run_dir / "supervisord.conf")]
        done = subprocess.run([*control, "shutdown"], capture_output=True, text=True, timeout=30)
        assert "Shut down" in done.stdout and alive(supervisord)
        env = {**os.environ, "PORT": str(port), "UPSTREAM": "127.0.0.1:9", "RUN_DIR": str(run_dir)}
        starting = subprocess.Popen(["scripts/serve-cached.sh"], cwd=ROOT, env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    start_new_session=True)  # fmt: skip
        sets.append(starting)
        stderr = sets[1].stderr
        assert stderr is not None
        said = stderr.readline().decode()
        assert f"the set in {run_dir} is stopping (supervisord, pid {supervisord})" in said
        os.kill(nginx, signal.SIGCONT)
        _await_new_nginx(run_dir, nginx)  # the old set gone
        assert not alive(supervisord) and not alive(nginx)
        assert sets[1].poll() is None, "the new set was refused"
        for _ in range(600):
            if listening(port):
                break
            time.sleep(0.1)
        assert listening(port)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(nginx, signal.SIGCONT)
        _stop_sets(sets, run_dir)
