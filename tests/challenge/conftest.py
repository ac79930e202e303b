"""A small tournament (4 teams: R1-1 1 v 4, R1-2 2 v 3, R2-1 the final) with its exact odds
built, a pool on it and two fans."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from challenge import services
from league import services as league_services
from league import tournaments
from tests.factories import fan, uncoached_cup


@pytest.fixture(autouse=True)
def _rates_reset() -> None:
    """Forget the sign-up and sign-in counts (kept in the cache, per address: every test
    client and the live server sign up from 127.0.0.1), so no test is throttled by the
    ones before it."""
    cache.clear()


@pytest.fixture
def cup(db: Any) -> Any:
    season = uncoached_cup(league="Challenge League", name="Challenge Cup", teams=4, seed=7)
    return season


@pytest.fixture
def pool(cup: Any) -> Any:
    return services.challenge_create(season=cup, name="Office pool", round_points=[1, 2])


@pytest.fixture
def alice(db: Any) -> Any:
    return fan("alice")


@pytest.fixture
def bob(db: Any) -> Any:
    return fan("bob")


def seeds(cup: Any) -> dict[int, int]:
    """Seed -> team id."""
    bracket = tournaments.season_bracket(cup)
    return {s: t for t, s in bracket.seeds.items()}


def chalk(cup: Any) -> dict[str, int]:
    s = seeds(cup)
    return {"R1-1": s[1], "R1-2": s[2], "R2-1": s[1]}


def play_next(cup: Any) -> None:
    """Play the tournament's first unplayed drawn game, as a worker stores it."""
    from league.models import Game

    game = cup.games.filter(status=Game.Status.SCHEDULED).order_by("bracket_key").first()
    league_services.game_simulate(game_id=game.pk)
