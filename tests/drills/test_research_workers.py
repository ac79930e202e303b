"""A research run on real Celery workers, one of them killed mid-run: every chunk is played,
each counted once, and the figures are those of the same run played in one process."""

from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest

from league.models import ResearchChunk, ResearchRun
from league.research import Plan, play_chunk
from league.research_outputs import team_rows
from tests.drills.harness import Workers, report, wait_for
from tests.factories import full_team

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def test_a_research_run_survives_a_killed_worker(workers: Workers, tmp_path: Path) -> None:
    full_team(school="Alpha", season=2001)
    full_team(school="Beta", season=2002)
    full_team(school="Gamma", season=2003)
    workers.start("w1")
    workers.start("w2")
    command = workers.manage_in_background(
        "research", "--matchup", "Alpha 2001", "Beta 2002", "--matchup", "Gamma 2003",
        "Alpha 2001", "--times", "600", "--seed", "11", "--chunk", "40", "--stall", "2", "--out",
        str(tmp_path), "--no-progress",
    )  # fmt: skip
    wait_for(lambda: ResearchChunk.objects.exists(), what="a first chunk stored", pool=workers)
    workers.kill("w1")
    killed = time.monotonic()
    workers.start("w3")
    out, err = workers.finished(command, "the research command")
    assert command.returncode == 0, err
    report("research run finished after a worker was killed", time.monotonic() - killed)
    run = ResearchRun.objects.get()
    assert ResearchChunk.objects.filter(run=run).count() == len(run.chunks) == 30
    plan = Plan.from_json(run.plan)
    expected = team_rows(plan, play_chunk(plan, 0, plan.repetitions))
    with (tmp_path / "teams.csv").open() as f:
        got = list(csv.DictReader(f))
    assert [(r["team"], int(r["wins"]), float(r["points"])) for r in got] == [
        (r["team"], r["wins"], pytest.approx(r["points"])) for r in expected
    ]
    assert "1,200 games" in out
