"""The standings the pages and the API show are kept computed, and computed again as soon as
anything they read changes: a stored game, a renamed team, a moved conference."""

from __future__ import annotations

import pytest

from league import selectors, services
from league.models import Game, SeasonTeam
from tests.factories import full_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def computed(monkeypatch):  # type: ignore[no-untyped-def]
    """Count the times the standings are really computed."""
    calls: list[int] = []
    real = selectors.standings_for_season

    def counting(*, season_id: int):  # type: ignore[no-untyped-def]
        calls.append(season_id)
        return real(season_id=season_id)

    monkeypatch.setattr(selectors, "standings_for_season", counting)
    return calls


def test_standings_are_computed_once_and_again_when_what_they_read_changes(
    computed, django_capture_on_commit_callbacks
) -> None:
    season = services.season_create(
        league=services.league_get_or_create(name="Cache League"),
        name="2026",
        teams=[full_team(school=f"School {i}") for i in range(4)],
        seed=3,
    )
    games = list(season.games.order_by("round", "pk"))
    with django_capture_on_commit_callbacks(execute=True):
        services.game_simulate(game_id=games[0].pk)

    first = selectors.cached_standings(season)
    assert len(computed) == 1
    assert first == selectors.standings_for_season(season_id=season.pk)  # computed: the same
    assert selectors.cached_standings(season) == first
    assert len(computed) == 2  # the last read came from the cache

    # a stored game
    with django_capture_on_commit_callbacks(execute=True):
        services.game_simulate(game_id=games[1].pk)
    after_game = selectors.cached_standings(season)
    assert len(computed) == 3 and after_game != first
    played = sum(r["wins"] + r["losses"] for _, rows in after_game for r in rows)
    assert played == 2 * Game.objects.filter(season=season, status=Game.Status.FINAL).count()

    # a renamed team
    entry = SeasonTeam.objects.filter(season=season).select_related("team").first()
    assert entry is not None
    entry.team.school = "Renamed U"
    entry.team.save()
    renamed = selectors.cached_standings(season)
    assert len(computed) == 4
    assert "Renamed U" in {r["team"].rsplit(" ", 1)[0] for _, rows in renamed for r in rows}

    # a team moved to another conference
    entry.conference = "East"
    entry.save()
    moved = selectors.cached_standings(season)
    assert len(computed) == 5 and "East" in [conference for conference, _ in moved]

    # and nothing changed: the cache again
    assert selectors.cached_standings(season) == moved
    assert len(computed) == 5


def test_the_season_page_and_the_api_read_the_same_standings(client) -> None:  # type: ignore[no-untyped-def]
    season = services.season_create(
        league=services.league_get_or_create(name="Cache Pages"),
        name="2026",
        teams=[full_team() for _ in range(3)],
        seed=8,
    )
    for game in season.games.all():
        services.game_simulate(game_id=game.pk)
    body = client.get(f"/api/seasons/{season.pk}/standings/").json()
    tables = selectors.standings_for_season(season_id=season.pk)
    assert [t["conference"] for t in body] == [conference for conference, _ in tables]
    assert [[r["team_id"] for r in t["rows"]] for t in body] == [
        [r["team_id"] for r in rows] for _, rows in tables
    ]
    html = client.get(f"/seasons/{season.pk}/").content.decode()
    for _, rows in tables:
        for row in rows:
            assert f'data-team="{row["team"]}"' in html
