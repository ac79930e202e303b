"""Grid-court and six-dice seasons and tournaments on real Celery workers, game by game as
played here, and a research run of each on them, chunk by chunk as played here."""

from __future__ import annotations

import json
from datetime import date

import pytest

from league import research_runs, services, tournaments
from league.models import ResearchChunk, Season
from league.research import Plan, play_chunk
from league.tasks import research_chunk
from simulator.vabg import preset
from tests.drills.harness import Workers, wait_for
from tests.factories import TeamFactory

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def played_here(season: Season) -> None:
    run = services.simulation_start(season=season, scope="all", dispatch=False)
    while services.run_next_game(run=run) is not None:
        pass


def games(season: Season) -> list[tuple[object, ...]]:
    return sorted(
        (g.round, g.bracket_key, g.home_id, g.away_id, g.game, g.result.home_score,
         g.result.away_score, len(g.result.events), json.dumps(g.result.box, sort_keys=True))
        for g in season.games.select_related("result")
    )  # fmt: skip


@pytest.mark.parametrize(
    ("game", "options"),
    [("sixdice", {"chip_reroll": True}), ("gridcourt", {"width": 13, "level": 1, "pieces": 4})],
)
def test_a_league_of_another_game_runs_on_the_workers(
    workers: Workers, game: str, options: dict[str, object]
) -> None:
    league = services.league_get_or_create(name=f"{game} on workers")
    teams = [TeamFactory() for _ in range(4)]

    def season(name: str) -> Season:
        return services.season_create(league=league, name=name, teams=teams, seed=21,
                                      start_date=date(2026, 1, 1), game=game,
                                      options=options)  # fmt: skip

    def cup(name: str) -> Season:
        return tournaments.tournament_create(
            league=league, name=name, teams=teams, seed=21, game=game, options=options
        )

    reference, reference_cup = season("Reference"), cup("Reference cup")
    played_here(reference)
    played_here(reference_cup)
    on_workers, on_workers_cup = season("Workers"), cup("Workers cup")
    workers.start("w1")
    workers.start("w2")
    runs = [services.simulation_start(season=s, scope="all") for s in (on_workers, on_workers_cup)]
    for run in runs:
        wait_for(
            lambda run=run: (run.refresh_from_db() or run.status) != "running",
            what=f"the {game} runs",
            pool=workers,
        )
        assert (run.status, run.failed, run.done) == ("done", 0, run.total)
    assert on_workers_cup.games.count() == 3
    assert games(on_workers) == games(reference)
    assert games(on_workers_cup) == games(reference_cup)
    # A research run of the season on the same workers: its chunks' tallies are those of
    # the same repetitions played here.
    research = research_runs.research_start(
        season=on_workers, repetitions=4, rules=preset("advanced"), seed=3, games_per_chunk=6
    )
    for index in range(len(research.chunks)):
        research_chunk.delay(run_id=research.pk, index=index)
    wait_for(
        lambda: ResearchChunk.objects.filter(run=research).count() == len(research.chunks),
        what=f"the {game} research run",
        pool=workers,
    )
    plan = Plan.from_json(research.plan)
    assert len(research.chunks) > 1 and plan.game == game
    tally, here = research_runs.research_tally(research), play_chunk(plan, 0, plan.repetitions)
    assert (tally.games, tally.teams, tally.pairs) == (here.games, here.teams, here.pairs)
