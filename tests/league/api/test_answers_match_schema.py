"""The odds answers are the shapes the OpenAPI schema documents, key for key: a client
generated from the schema reads every field a preview, a matchup or a win-probability
chart sends (VABG's, six dice's and grid court's), and no undocumented one."""

from __future__ import annotations

from functools import partial

import jsonschema
import pytest
from django.urls import reverse

from league import gamestats, services
from tests import factories
from tests.league.api import client_for, season_scheduled, throttle_reset
from tests.openapi import check, served

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


@pytest.mark.parametrize("name", ["sixdice", "gridcourt"])
def test_another_game_s_leaders_are_asked_and_answered_as_documented(name: str) -> None:
    # The category's enum listed VABG's alone: a client generated from the schema could
    # not ask a six-dice season for its dunks leaders, which the server answers.
    season = make_season(game=name)
    for game in season.games.order_by("pk"):
        services.game_simulate(game_id=game.pk)
    path = "/api/seasons/{season_id}/leaders/"
    parameters = {p["name"]: p["schema"] for p in served()["paths"][path]["get"]["parameters"]}
    for category in gamestats.leader_categories(name):
        jsonschema.validate(category.key, parameters["category"])
    first = gamestats.leader_categories(name)[1].key  # not "pts", VABG's too
    query = {"category": first, "per_game": False, "limit": 3}
    for key, value in query.items():
        jsonschema.validate(value, parameters[key])
    answer = client_for().get(f"/api/seasons/{season.pk}/leaders/", query)
    assert answer.status_code == 200
    assert answer.json()["results"]
    check(path, answer.json())
