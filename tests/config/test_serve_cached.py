"""`make serve-cached` (scripts/serve-cached.sh) refuses a port it cannot listen on, and
stops with the make that started it."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

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
    assert not (tmp_path / "run" / "supervisord.pid").exists()


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


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


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
            if listening(port) or make.poll() is not None:
                break
            time.sleep(0.1)
        assert listening(port), "nginx did not start"
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
