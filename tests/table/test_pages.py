"""The pages of Play at the table, without a browser: sign-in, the list, a new game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league import services as league_services
from table.models import TableGame
from tests.factories import full_team

pytestmark = pytest.mark.django_db


def test_the_table_asks_a_visitor_to_sign_in_and_a_fan_can(client, player):
    answer = client.get(reverse("table:index"))
    assert answer.status_code == 302 and answer.url.startswith(reverse("table:sign-in"))
    # A new player finds how to get an account from there.
    assert 'href="/fans/signup/?next=' in client.get(answer.url).content.decode()
    signed = client.post(
        reverse("table:sign-in"), {"username": player.username, "password": "fan-password-1"}
    )
    assert signed.status_code == 302 and signed.url == "/table/"
    assert client.get(reverse("table:index")).status_code == 200


def test_the_table_s_sign_in_is_throttled_by_address_with_the_fans_one(client, player, settings):
    """The table's sign-in took passwords unthrottled (a security review)."""
    from django.core.cache import cache

    cache.clear()
    settings.CHALLENGE_SIGNIN_RATE = "3/minute"
    url = reverse("table:sign-in")
    wrong = [client.post(url, {"username": f"n{i}", "password": "x"}) for i in range(3)]
    assert [w.status_code for w in wrong] == [200, 200, 200]  # the form, refused
    right = client.post(url, {"username": player.username, "password": "fan-password-1"})
    assert right.status_code == 429 and int(right["Retry-After"]) > 0
    assert "Too many sign-in attempts from this address" in right.content.decode()
    cache.clear()


def test_the_new_game_form_starts_a_game_and_opens_its_sheet(player_client, teams):
    home, away = teams
    answer = player_client.post(
        reverse("table:index"),
        {"home": home.pk, "away": away.pk, "rules": "basic", "court": "neutral"},
    )
    game = TableGame.objects.get()
    assert answer.status_code == 302 and answer.url == f"/table/{game.pk}/"
    assert (game.rules, game.neutral, game.strategy, game.dice) == ("basic", True, False, [])
    sheet = player_client.get(answer.url).content.decode()
    assert "Kansas 2008 at Kentucky 2012" in sheet and 'id="table-state"' in sheet
    listed = player_client.get(reverse("table:index")).content.decode()
    assert f'href="/table/{game.pk}/"' in listed


def test_the_new_game_form_sent_again_opens_the_game_it_started(player_client, teams):
    """Back after "Start the game", then Start again, made a second identical game."""
    import re

    home, away = teams
    page = player_client.get(reverse("table:index")).content.decode()
    token = re.search(r'name="start_token" value="([^"]+)"', page)
    assert token is not None
    form = {"home": home.pk, "away": away.pk, "rules": "basic", "court": "neutral",
            "start_token": token[1]}  # fmt: skip
    first = player_client.post(reverse("table:index"), form)
    again = player_client.post(reverse("table:index"), form)
    game = TableGame.objects.get()
    assert first.url == again.url == f"/table/{game.pk}/"
    # A fresh form (a new token) starts a new game of the same teams, as asked.
    page = player_client.get(reverse("table:index")).content.decode()
    fresh = re.search(r'name="start_token" value="([^"]+)"', page)
    assert fresh is not None and fresh[1] != token[1]
    player_client.post(reverse("table:index"), {**form, "start_token": fresh[1]})
    assert TableGame.objects.count() == 2


def test_a_team_cannot_play_itself_at_the_table(player_client, teams):
    home, _away = teams
    answer = player_client.post(
        reverse("table:index"),
        {"home": home.pk, "away": home.pk, "rules": "advanced", "court": "home"},
    )
    assert answer.status_code == 200
    assert "A team cannot play itself." in answer.content.decode()
    assert not TableGame.objects.exists()


@pytest.mark.parametrize("sent", ["abc", "-1", str(2**63)])
def test_a_scheduled_game_that_is_no_id_is_refused_in_words(client, commish, sent):
    """The scheduled-game form's id went to the database as sent: "abc" raised ValueError
    out of the view, a server error."""
    client.force_login(commish)
    client.raise_request_exception = False
    answer = client.post(reverse("table:index"), {"league_game": sent})
    assert answer.status_code == 200
    assert "No such scheduled game." in answer.content.decode()
    assert not TableGame.objects.exists()


def test_only_a_commissioner_is_offered_the_seasons_scheduled_games(client, player, commish, teams):
    league = league_services.league_get_or_create(name="Page League")
    league_services.season_create(league=league, name="Fall", teams=list(teams), seed=7)
    client.force_login(player)
    assert 'id="scheduled-game"' not in client.get(reverse("table:index")).content.decode()
    client.force_login(commish)
    page = client.get(reverse("table:index")).content.decode()
    assert 'id="scheduled-game"' in page and "Page League Fall" in page


def test_the_site_navigation_links_to_the_table(client, teams):
    assert 'href="/table/"' in client.get(reverse("home")).content.decode()


def test_a_commissioner_is_offered_the_newest_seasons_first_and_told_what_is_cut(
    client, commish, teams, monkeypatch
):
    from table import views

    league = league_services.league_get_or_create(name="Page League")
    four = [*teams, full_team(), full_team()]
    older = league_services.season_create(league=league, name="Old", teams=four, seed=7)
    newer = league_services.season_create(league=league, name="New", teams=four, seed=8)
    monkeypatch.setattr(views, "SCHEDULED_A_SEASON", 1)
    client.force_login(commish)
    page = client.get(reverse("table:index")).content.decode()
    assert page.index("Page League New") < page.index("Page League Old")
    more = newer.games.count() - 1
    assert (
        more > 0 and f"Page League New: its first 1 games to play are listed, {more} more" in page
    )
    assert older.games.count() == newer.games.count()


def test_the_new_game_form_lists_teams_as_a_reader_sorts_them(player_client):
    # "LSU 1970" sorted before "La Salle 1954" (capitals first, on SQLite).
    full_team(school="LSU", season=1970), full_team(school="La Salle", season=1954)
    page = player_client.get(reverse("table:index")).content.decode()
    assert 0 < page.index("La Salle 1954") < page.index("LSU 1970")
