"""Every GET of the live OpenAPI schema, fed generated parameters, answers without a 5xx.

Schemathesis reads the schema the app serves and generates path and query parameters,
valid and not. Most generated ids are mapped onto rows that exist, so the detail pages
and nested lists are exercised with data, not only as 404s. Set API_FUZZ_EXAMPLES for a
deeper run than the default 10 examples per operation.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from django.core.wsgi import get_wsgi_application  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from cards.models import Card, Player, Team  # noqa: E402
from league.models import Game, League, Season, SimulationRun  # noqa: E402
from tests.league.api import play_all, season_played, throttle_reset, tournament_drawn  # noqa: E402

pytestmark = pytest.mark.django_db

# Django's WSGI application, not config.wsgi's: that one also makes this process run tasks
# in background threads (league/background.py), which would start sweeping while pytest is
# still collecting (reading the schema below is a request).
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application()).include(
    method="GET"
)

MODELS = {"teams": Team, "players": Player, "cards": Card, "leagues": League,
          "seasons": Season, "games": Game, "runs": SimulationRun}  # fmt: skip


@pytest.fixture(autouse=True)
def _keep_the_test_connection() -> Any:
    """Calling the WSGI app directly fires request_started/finished, whose
    close_old_connections would close the test's open transaction on PostgreSQL (the
    test client disconnects them the same way)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def existing_ids(module_world: None) -> Any:
    """Play a season and a tournament once for the module (rolled back after it); return
    the ids of every resource, by path segment. Each endpoint's test runs inside it."""
    from django.test import TestCase

    season_played(TestCase.captureOnCommitCallbacks)
    play_all(tournament_drawn(teams=4), TestCase.captureOnCommitCallbacks)
    return {
        name: list(model.objects.order_by("pk").values_list("pk", flat=True))
        for name, model in MODELS.items()
    }


def resource_of(path: str, parameter: str) -> str:
    """Return the resource a path parameter names: /api/seasons/{id}/ -> seasons."""
    if parameter.endswith("_id"):
        return f"{parameter.removesuffix('_id')}s"
    return path.split("/")[2]


@schema.parametrize()
@settings(
    max_examples=int(os.environ.get("API_FUZZ_EXAMPLES", "10")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_get_answers_a_server_error(case: Any, existing_ids: dict[str, list[int]]) -> None:
    for name, value in (case.path_parameters or {}).items():
        ids = existing_ids.get(resource_of(case.path, name))
        # Three generated ids in four become a real row; the fourth stays as generated.
        if ids and isinstance(value, int) and not isinstance(value, bool) and value % 4 != 3:
            case.path_parameters[name] = ids[value % len(ids)]
    throttle_reset()
    case.call_and_validate(checks=[not_a_server_error])
