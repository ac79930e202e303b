"""`make serve-cached` (scripts/serve-cached.sh) refuses a port it cannot listen on."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
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
