"""API tests. Shared set-up lives here as plain helpers; each module wraps them in fixtures."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.cache import cache
from rest_framework.test import APIClient

from league import services, tournaments
from league.models import Season
from tests.factories import full_team


def client_for(user: Any = None) -> APIClient:
    """Return an API client, signed in as ``user`` when one is given."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def throttle_reset() -> None:
    """Forget the anonymous request counts, so no test is throttled by the ones before it."""
    cache.clear()


def season_scheduled(*, teams: int = 4, name: str = "2001", league: str = "API League") -> Season:
    """Create a season of ``teams`` fresh playable teams, every pair once, not yet played."""
    return services.season_create(
        league=services.league_get_or_create(name=league),
        name=name,
        teams=[full_team() for _ in range(teams)],
        start_date=date(2001, 1, 1),
        seed=77,
    )


def season_played(capture: Any, **kwargs: Any) -> Season:
    """Create a season (see :func:`season_scheduled`) and simulate all of it.

    ``capture`` is pytest-django's ``django_capture_on_commit_callbacks``: the games are sent
    to the (eager) workers on commit.
    """
    season = season_scheduled(**kwargs)
    play_all(season, capture)
    return season


def tournament_drawn(*, teams: int = 5, name: str = "Cup", league: str = "API League") -> Season:
    """Create a single-elimination tournament of ``teams`` fresh teams; round 1 is drawn."""
    return tournaments.tournament_create(
        league=services.league_get_or_create(name=league),
        name=name,
        teams=[full_team() for _ in range(teams)],
        seed=2,
    )


def play_all(season: Season, capture: Any) -> None:
    """Simulate every game of ``season`` still to come, tournament rounds included."""
    with capture(execute=True):
        services.simulation_start(season=season, scope="all")
