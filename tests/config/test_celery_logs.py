"""The workers' and beat's log keeps what an operator reads, without the idle sweeps."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Logged through Celery's own loggers, with its own messages, after its own logging setup
# (what `celery -A config worker -l INFO` and `beat -l INFO` do at start).
EMIT = """
import logging
from celery.app import trace
from config.celery import app

app.log.setup(loglevel="INFO")
beat = logging.getLogger("celery.beat")
received = logging.getLogger("celery.worker.strategy")
done = logging.getLogger("celery.app.trace")

def success(name, value):
    done.info(trace.LOG_SUCCESS, {"name": name, "id": "x", "runtime": 0.01, "return_value": value})

beat.info("Scheduler: Sending due task %s (%s)", "league-sweep", "league.sweep")
received.info(trace.LOG_RECEIVED, {"name": "league.sweep", "id": "x"})
success("league.sweep", "{'requeued': 0, 'failed': 0}")
success("league.sweep", "{'requeued': 3, 'failed': 0}")
logging.getLogger("celery.worker.request").info(
    "Discarding revoked task: %s[%s]", "league.sweep", "z"
)
logging.getLogger("celery.worker.request").info(
    "Discarding revoked task: %s[%s]", "league.simulate_games", "w"
)
received.info(trace.LOG_RECEIVED, {"name": "league.simulate_chunk", "id": "y"})
success("league.simulate_chunk", "None")
"""


def test_an_idle_sweep_is_not_logged_and_everything_else_is() -> None:
    """Every 5 s beat sent a sweep and a worker received it and found nothing: three lines,
    36 a minute, between the lines that matter."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    proc = subprocess.run([sys.executable, "-c", EMIT], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    lines = [line.split("] ", 1)[-1] for line in (proc.stdout + proc.stderr).splitlines()]
    assert lines == [
        "Task league.sweep[x] succeeded in 0.01s: {'requeued': 3, 'failed': 0}",
        "Discarding revoked task: league.simulate_games[w]",
        "Task league.simulate_chunk[y] received",
        "Task league.simulate_chunk[x] succeeded in 0.01s: None",
    ]


def test_each_line_names_the_program_that_wrote_it() -> None:
    """Every program of a set writes to supervisord's one output: worker0's lines, worker1's
    and beat's read the same but for the program supervisord names (LOG_PROGRAM)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "LOG_PROGRAM": "worker1"}
    code = EMIT + "\nlogging.getLogger('league.tasks').warning('a game put off')\n"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    lines = (proc.stdout + proc.stderr).splitlines()
    assert lines and all("] worker1 " in line for line in lines), lines
    assert any(line.endswith("] worker1 a game put off") for line in lines)
