"""Drills: each kind of work has a queue of its own, so a backlog of one kind holds up no other.

A research run of a million games is some 500 chunks; a new 96-team field's odds a dozen
pair-table tasks. Were they on the games' queue, a run started after them (or the chart a fan
waits for) would wait for all of them. On queues of their own, a worker takes the queues in
turn, and the games wait for the tasks in hand only.
"""

from __future__ import annotations

import pytest

from league import services
from league.models import ResearchChunk
from league.research_runs import research_start
from league.tasks import research_chunk
from simulator.vabg import preset
from tests.drills.harness import Workers, new_season, report, wait_for
from tests.factories import full_team

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def test_a_games_run_is_played_before_a_research_backlog_queued_ahead_of_it(
    workers: Workers,
) -> None:
    teams = [full_team() for _ in range(4)]
    run = research_start(
        pairs=[(teams[0], teams[1])],
        repetitions=40 * 250,
        rules=preset("advanced"),
        seed=5,
        games_per_chunk=250,
    )
    for index in range(len(run.chunks)):  # 40 chunks queued first, as the command sends them
        research_chunk.delay(run_id=run.pk, index=index)
    season = new_season(teams, "Behind a research run")
    services.simulation_start(season=season, scope="all")  # 12 games, queued after them

    workers.start("w1")  # one worker, one pool process: every task goes through one slot
    took = wait_for(
        lambda: not season.games.exclude(status="final").exists(),
        what="the season's games",
        pool=workers,
    )
    report("a games run queued behind 40 research chunks: done after the worker started", took)
    played_first = ResearchChunk.objects.filter(run=run).count()
    # One queue would have played all 40 chunks first; the worker alternates between the
    # games' queue and the research queue, so the season's 4 chunks of games pass after
    # about as many research chunks.
    assert played_first <= 8, f"{played_first} of 40 research chunks were played before the games"

    wait_for(  # and the research run still finishes: nothing was dropped for the games
        lambda: ResearchChunk.objects.filter(run=run).count() == 40,
        what="the rest of the research run",
        pool=workers,
    )
