"""Fixtures for games at the table: two real teams, a fan and a commissioner signed in."""

from __future__ import annotations

from pathlib import Path

import pytest

from cards.services import team_import
from tests.factories import commissioner, fan

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
HOME_FILE = FIXTURES / "kentucky-2012.json"
AWAY_FILE = FIXTURES / "kansas-2008.json"


@pytest.fixture
def teams(db):  # type: ignore[no-untyped-def]
    """Kentucky 2012 (home) and Kansas 2008 (away), loaded from their team files."""
    home = team_import(name=HOME_FILE.name, content=HOME_FILE.read_bytes()).team
    away = team_import(name=AWAY_FILE.name, content=AWAY_FILE.read_bytes()).team
    return home, away


@pytest.fixture
def player(db):  # type: ignore[no-untyped-def]
    return fan("tabletop")


@pytest.fixture
def player_client(client, player):  # type: ignore[no-untyped-def]
    client.force_login(player)
    return client


@pytest.fixture
def commish(db):  # type: ignore[no-untyped-def]
    return commissioner("table-commish")
