"""Fixtures for games at the table: two real teams, a fan and a commissioner signed in."""

from __future__ import annotations

from pathlib import Path

import pytest

from cards.services import team_import
from simulator.gridcourt.style import DEFAULT_STYLE as GRID_DEFAULT
from simulator.sixdice.style import DEFAULT_STYLE as DICE_DEFAULT
from tests.factories import commissioner, fan

DEFAULT_STYLES = {"gridcourt": GRID_DEFAULT.to_json(), "sixdice": DICE_DEFAULT.to_json()}

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
HOME_FILE = FIXTURES / "kentucky-2012.json"
AWAY_FILE = FIXTURES / "kansas-2008.json"


@pytest.fixture
def teams(db):  # type: ignore[no-untyped-def]
    """Kentucky 2012 (home) and Kansas 2008 (away), loaded from their team files, playing
    the board games' default coach styles (the tests type games the engine wrote for two
    teams of the default style, ``TeamName``s; their own, derived, styles would play other
    choices over the same dice)."""
    home = team_import(name=HOME_FILE.name, content=HOME_FILE.read_bytes()).team
    away = team_import(name=AWAY_FILE.name, content=AWAY_FILE.read_bytes()).team
    for team in (home, away):
        team.styles = DEFAULT_STYLES
        team.save()
    return home, away


@pytest.fixture
def player(db):  # type: ignore[no-untyped-def]
    """A fan at the table, with none of the API's requests counted against him yet: these
    tests enter whole games a trip at a time, and on SQLite every test's player gets the
    same id, so the signed-in throttle (600 a minute) would add up the tests of a minute."""
    from django.core.cache import cache

    cache.clear()
    return fan("tabletop")


@pytest.fixture
def player_client(client, player):  # type: ignore[no-untyped-def]
    client.force_login(player)
    return client


@pytest.fixture
def commish(db):  # type: ignore[no-untyped-def]
    return commissioner("table-commish")
