"""What an accessibility review (keyboard only, and a screen reader) found on pages read
as served: each a name, a role or a place for the focus the page lacked."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from league import services
from tests.factories import TeamFactory, full_team

pytestmark = pytest.mark.django_db


def test_a_wrong_password_is_an_alert_that_takes_the_focus(client) -> None:
    """The error list was read by sight: focus went to Username, a screen reader said the
    field and not why the sign-in failed."""
    get_user_model().objects.create_user("fan1", password="a-long-fan-password-1")
    page = client.post("/fans/signin/", {"username": "fan1", "password": "wrong"}).content.decode()
    alert = re.search(r'<div role="alert" tabindex="-1" autofocus>(.*?)</div>', page, re.S)
    assert alert and "errorlist" in alert.group(1), page
    # the alert comes before the username's own autofocus: the first one is taken
    assert page.index('role="alert"') < page.index('name="username"')


def test_a_board_game_s_play_by_play_is_a_named_region_of_named_turns(client) -> None:
    season = services.season_create(
        league=services.league_get_or_create(name="Dice League"), name="2026",
        teams=[TeamFactory(), TeamFactory()], seed=8, game="sixdice",
    )  # fmt: skip
    game = services.game_simulate(game_id=season.games.get().pk)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert '<div class="pbp" tabindex="0" role="region" aria-labelledby="pbp-title">' in page
    assert '<th class="text" scope="col">Turn</th>' in page
    assert 'aria-label="Turn 3: replay it">3</a>' in page  # the links were "3", "3", "3"


def test_the_table_s_pages_say_where_the_reader_is(client) -> None:
    client.force_login(get_user_model().objects.create_user("player", password="x" * 20))
    page = client.get("/table/").content.decode()
    link = re.search(r'<a href="/table/"[^>]*>Play at the table</a>', page)
    assert link and 'aria-current="page"' in link.group(0), page[:3000]
    teams = re.search(r'<a href="/teams/"[^>]*>', page)
    assert teams and 'aria-current="page"' not in teams.group(0)


def test_a_player_s_card_heading_is_not_his_name_again(client) -> None:
    """The player page's H2 (his card) read "Rickey Brown" right after the H1 "Rickey
    Brown": a screen reader's list of headings said the name twice."""
    player = full_team().players.first()
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert (
        f'<h2 class="card-name"><span class="visually-hidden">The card of </span>{player.name}</h2>'
        in page
    )
