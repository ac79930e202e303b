"""The write path: games claimed, played and stored a chunk at a time, team files once each."""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Any

import pytest
from django.db import IntegrityError, connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import F

from cards.models import Card
from league import services
from league.dispatch import games_chunks
from league.models import BoxLine, GameResult, Season, SimulationRun, TeamVersion
from league.tasks import simulate_games
from tests import factories
from tests.factories import full_team

make_season = partial(
    factories.make_season, league="Write League", seed=77, start_date=date(2000, 1, 1)
)

pytestmark = [pytest.mark.django_db, pytest.mark.first_run]


def stored(season: Season) -> list[tuple[object, ...]]:
    """Everything a fan reads of a season's games: scores, play-by-play, box lines, cards."""
    out = []
    for game in season.games.select_related("result").order_by("round", "home_id", "away_id"):
        result = game.result
        lines = [
            (line.side, line.name, line.player_id, line.pts, line.reb, line.poss, line.pf)
            for line in BoxLine.objects.filter(result=result).order_by("side", "order")
        ]
        out.append(
            (game.home_id, game.away_id, game.seed, game.status, game.attempts,
             result.home_score, result.away_score, result.events, result.dice, result.rules,
             result.home_team_file, result.away_team_file, lines)
        )  # fmt: skip
    return out


def test_a_chunk_stores_exactly_the_games_played_one_by_one() -> None:
    teams = [full_team() for _ in range(4)]
    one_by_one, chunked = (
        make_season(teams=teams, name="One by one"),
        make_season(teams=teams, name="Chunked"),
    )
    first = services.simulation_start(season=one_by_one, scope="all", dispatch=False)
    while services.run_next_game(run=first) is not None:
        pass
    run = services.simulation_start(season=chunked, scope="all", dispatch=False)
    ids = list(chunked.games.values_list("pk", flat=True))
    assert sorted(services.games_play(game_ids=ids)) == sorted(ids)
    assert stored(chunked) == stored(one_by_one)
    run.refresh_from_db()
    assert (run.done, run.failed, run.total, run.status) == (6, 0, 6, "done")
    # Played again, the chunk finds every game stored: nothing is stored or counted twice.
    assert services.games_play(game_ids=ids) == []
    run.refresh_from_db()
    assert (run.done, GameResult.objects.filter(game__season=chunked).count()) == (6, 6)


def test_each_team_file_is_stored_once_and_an_edited_card_is_a_new_version() -> None:
    teams = [full_team() for _ in range(4)]
    season = make_season(teams=teams, name="Versions")
    services.simulation_start(season=season, scope="round", round=1, dispatch=False)
    services.games_play(game_ids=season.games.filter(round=1).values_list("pk", flat=True))
    assert TeamVersion.objects.count() == 4  # four teams, each file stored once
    before = season.games.filter(round=1).order_by("pk").first()
    assert before is not None
    played_with = before.result.home_team_file
    Card.objects.filter(team=before.home, slot=1, role="starter").update(
        steal_top=F("steal_top") + 1
    )
    services.simulation_start(season=season, scope="all", dispatch=False)
    services.games_play(game_ids=season.games.exclude(round=1).values_list("pk", flat=True))
    assert TeamVersion.objects.count() == 5  # only the edited team has a new version
    assert GameResult.objects.get(game=before).home_team_file == played_with
    assert GameResult.objects.filter(game__season=season).count() == 6


def test_a_game_that_cannot_be_played_fails_alone_and_the_rest_of_its_chunk_is_stored() -> None:
    teams = [full_team() for _ in range(4)]
    season = make_season(teams=teams, name="Broken")
    Card.objects.get(team=teams[3], slot=5).delete()
    run = services.simulation_start(season=season, scope="all", dispatch=False)
    ids = list(season.games.values_list("pk", flat=True))
    services.games_play(game_ids=ids)
    broken = season.games.filter(status="failed")
    assert broken.count() == 3 and all("slot 5 (C) has no starter" in g.error for g in broken)
    assert season.games.filter(status="final").count() == 3
    run.refresh_from_db()
    assert (run.done, run.failed, run.status) == (3, 3, SimulationRun.Status.FAILED)


def test_the_chunk_task_delivered_twice_stores_and_counts_each_game_once() -> None:
    season = make_season(teams=[full_team() for _ in range(4)], name="Twice")
    run = services.simulation_start(season=season, scope="all", dispatch=False)
    ids = list(season.games.values_list("pk", flat=True))
    simulate_games.apply(kwargs={"game_ids": ids}, task_id="chunk-1")
    lines = BoxLine.objects.count()
    simulate_games.apply(kwargs={"game_ids": ids}, task_id="chunk-1")  # redelivered
    simulate_games.apply(kwargs={"game_ids": ids[:3]}, task_id="chunk-2")
    assert BoxLine.objects.count() == lines
    assert set(season.games.values_list("attempts", flat=True)) == {1}
    run.refresh_from_db()
    assert (run.done, run.total, run.status) == (6, 6, "done")


def test_games_are_sent_in_chunks_that_still_spread_a_short_round() -> None:
    assert games_chunks([]) == []
    assert games_chunks([1]) == [[1]]
    assert games_chunks([1, 2, 3, 4, 5, 6]) == [[1, 2], [3, 4], [5, 6]]
    sizes = [len(chunk) for chunk in games_chunks(list(range(496)))]
    assert sizes == [16] * 31
    assert [len(chunk) for chunk in games_chunks(list(range(32)))] == [8] * 4


def migrate(target: str) -> Any:
    """Migrate the league app to ``target``; return the models as they were then."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([("league", target)])
    executor.loader.build_graph()
    return executor.loader.project_state([("league", target)]).apps


@pytest.mark.django_db(transaction=True)
def test_games_stored_before_team_versions_keep_their_team_files_both_ways() -> None:
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("league")[0][1]
    season = make_season(teams=[full_team() for _ in range(3)], name="Before versions")
    services.simulation_start(season=season, scope="all", dispatch=False)
    services.games_play(game_ids=season.games.values_list("pk", flat=True))
    before = stored(season)
    files = {
        r.pk: (r.home_team_file, r.away_team_file)
        for r in GameResult.objects.filter(game__season=season)
    }
    try:
        old = migrate("0006_research_runs").get_model("league", "GameResult")
        # Back to the old columns: every result holds its two team files again, whole.
        assert {r.pk: (r.home_team_file, r.away_team_file) for r in old.objects.all()} == files
        migrate(latest)
        # Forward again: three teams, three versions, and every page reads the same.
        assert TeamVersion.objects.count() == 3
        assert stored(season) == before
        game = season.games.order_by("pk").first()
        assert game is not None
        replayed = services.game_replay(game_id=game.pk)
        assert [e.to_json() for e in replayed.events] == game.result.events
    finally:
        migrate(latest)


def test_a_game_the_database_refuses_leaves_the_rest_of_its_chunk_stored(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    season = make_season(teams=[full_team() for _ in range(4)], name="Refused")
    run = services.simulation_start(season=season, scope="all", dispatch=False)
    ids = sorted(season.games.values_list("pk", flat=True))
    real = services.results_store

    def refusing(*, plays: list[services.Played]) -> list[GameResult]:
        if any(play.game.pk == ids[2] for play in plays):
            raise IntegrityError("refused")
        return real(plays=plays)

    monkeypatch.setattr(services, "results_store", refusing)
    with pytest.raises(IntegrityError, match="refused"):
        services.games_play(game_ids=ids)
    assert sorted(season.games.filter(status="final").values_list("pk", flat=True)) == [
        pk for pk in ids if pk != ids[2]
    ]
    assert season.games.get(pk=ids[2]).status == "running"  # left to its lease, as one game
    run.refresh_from_db()
    assert (run.done, run.status) == (5, "running")
