"""The odds answers are the shapes the OpenAPI schema documents, key for key: a client
generated from the schema reads every field a preview, a matchup or a win-probability
chart sends (VABG's, six dice's and grid court's), and no undocumented one."""

from __future__ import annotations

from functools import partial

import pytest
from django.urls import reverse

from league import services
from tests import factories
from tests.league.api import client_for, season_scheduled, throttle_reset
from tests.openapi import check

pytestmark = pytest.mark.django_db
make_season = partial(factories.make_season, seed=5)


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    throttle_reset()


def test_vabg_previews_matchups_and_win_probability_are_as_documented() -> None:
    season = season_scheduled(teams=2)
    game = season.games.first()
    client = client_for()
    check("/api/games/{id}/preview/", client.get(f"/api/games/{game.pk}/preview/").json())
    home, away = game.home_id, game.away_id
    for extra in ({}, {"strategy": "true", "neutral": "true"}):
        body = client.get(reverse("api:matchup"), {"home": home, "away": away, **extra}).json()
        check("/api/matchup/", body)
    services.game_simulate(game_id=game.pk)
    check("/api/games/{id}/preview/", client.get(f"/api/games/{game.pk}/preview/").json())
    chart = client.get(f"/api/games/{game.pk}/win-probability/").json()
    check("/api/games/{id}/win-probability/", chart)


@pytest.mark.parametrize("name", ["sixdice", "gridcourt"])
def test_the_other_games_previews_and_charts_are_as_documented(name: str) -> None:
    game = make_season(game=name).games.order_by("pk").first()
    client = client_for()
    matchup = client.get(
        reverse("api:matchup"), {"home": game.home_id, "away": game.away_id, "game": name}
    )
    assert matchup.status_code == 200 and matchup.json()["game"] == name
    check("/api/matchup/", matchup.json())
    check("/api/games/{id}/preview/", client.get(f"/api/games/{game.pk}/preview/").json())
    services.game_simulate(game_id=game.pk)
    check("/api/games/{id}/preview/", client.get(f"/api/games/{game.pk}/preview/").json())
    chart = client.get(f"/api/games/{game.pk}/win-probability/")
    if chart.status_code == 200:  # grid court has no chart during a game, and says so
        check("/api/games/{id}/win-probability/", chart.json())
