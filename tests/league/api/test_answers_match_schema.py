"""The odds answers are the shapes the OpenAPI schema documents, key for key: a client
generated from the schema reads every field a preview, a matchup or a win-probability
chart sends (VABG's, six dice's and grid court's), and no undocumented one."""

from __future__ import annotations

from functools import partial
from typing import Any

import jsonschema
import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from league import services
from tests import factories
from tests.league.api import client_for, season_scheduled, throttle_reset

pytestmark = pytest.mark.django_db
make_season = partial(factories.make_season, seed=5)


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    throttle_reset()


def strict(node: Any) -> Any:
    """Return an OpenAPI 3.0 schema as JSON Schema: ``nullable`` as a null type, and every
    object with listed properties closed to keys it does not list."""
    if isinstance(node, list):
        return [strict(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: strict(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable") and "type" in out:
        out["type"] = [out["type"], "null"]
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def answer_schema(path: str, status: str = "200") -> dict[str, Any]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    body = schema["paths"][path]["get"]["responses"][status]["content"]["application/json"]
    return {**strict(body["schema"]), "components": strict(schema["components"])}


def check(path: str, body: Any) -> None:
    schema = answer_schema(path)
    validator = jsonschema.Draft7Validator(schema)  # "#/components/..." within it
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(body)]
    assert not problems, "\n".join(problems[:10])


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
