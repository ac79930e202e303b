"""The pages' shared world: one played season of two conferences, made once a module."""

from __future__ import annotations

from datetime import date

import pytest

from league import services
from league.models import Season
from tests.factories import full_team


@pytest.fixture(scope="module")
def played_season(module_world: None) -> int:
    """One played season of two conferences for the module's reading tests."""
    from django.test import TestCase

    league = services.league_get_or_create(name="Fan League")
    teams = [full_team(conference=c) for c in ("East", "East", "West", "West")]
    season = services.season_create(
        league=league,
        name="2002",
        teams=teams,
        conferences={t.pk: t.conference for t in teams},
        cross_conference_games=2,
        start_date=date(2002, 1, 5),
        seed=9,
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.simulation_start(season=season, scope="all")
    return season.pk


@pytest.fixture
def season(played_season: int) -> Season:
    return Season.objects.get(pk=played_season)
