"""The fans' pages cost the same queries however big the league (issue 25): a season's
schedule comes a page of whole rounds at a time, its stats and leaders and a tournament's
stories from the cache, and what the cache holds is replaced as soon as a game is stored or
a team or a player renamed. (Their speed is for bench/pages.py, never asserted here.)"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cards.models import Player
from league import services, stories, views
from league.models import Game, Season
from tests.league.api import (
    play_all,
    season_played,
    season_scheduled,
    throttle_reset,
    tournament_drawn,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    throttle_reset()  # also forgets the anonymous API clients' request counts


def fan_pages(season: Season) -> list[str]:
    """Every page and API list a fan reads about a season, its first team and player."""
    entry = season.entries.order_by("team__school", "team__season").first()
    assert entry is not None
    player = Player.objects.filter(team_id=entry.team_id).order_by("order", "pk").first()
    assert player is not None
    api = f"/api/seasons/{season.pk}"
    return [
        reverse("home"),
        reverse("seasons"),
        reverse("season", args=[season.pk]),
        reverse("season", args=[season.pk]) + "?round=1",
        reverse("leaders", args=[season.pk]),
        reverse("leaders", args=[season.pk]) + "?totals=1",
        reverse("team", args=[entry.team_id]),
        reverse("player", args=[player.pk]),
        f"{api}/standings/",
        f"{api}/player-stats/",
        f"{api}/player-stats/?ordering=-reb&min_games=1",
        f"{api}/team-stats/",
        f"{api}/leaders/?category=pts",
    ]


def warm_queries(client: Any, path: str) -> int:
    """Return the queries of a second request of ``path`` (the first fills the caches)."""
    assert client.get(path).status_code == 200, path
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(captured)


def test_every_fan_page_costs_the_same_queries_for_6_games_as_for_28(
    client, django_capture_on_commit_callbacks
) -> None:
    counts = []
    for teams, name in ((4, "Small"), (8, "Big")):  # 6 games, then 28
        season = season_played(
            django_capture_on_commit_callbacks, teams=teams, name=name, league=f"{name} league"
        )
        assert season.games.filter(status=Game.Status.FINAL).count() == teams * (teams - 1) // 2
        counts.append(
            {re.sub(r"/\d+/", "/N/", p): warm_queries(client, p) for p in fan_pages(season)}
        )
    assert counts[0] == counts[1]


def test_a_tournament_page_costs_the_same_queries_for_3_games_as_for_15(
    client, django_capture_on_commit_callbacks
) -> None:
    counts = []
    for teams in (4, 16):
        cup = tournament_drawn(teams=teams, name=f"Cup of {teams}")
        play_all(cup, django_capture_on_commit_callbacks)
        assert cup.games.filter(status=Game.Status.FINAL).count() == teams - 1
        paths = [reverse(name, args=[cup.pk]) for name in ("season", "bracket", "leaders")]
        counts.append([warm_queries(client, path) for path in paths])
    assert counts[0] == counts[1]


def test_a_season_schedule_comes_in_pages_of_whole_rounds(
    client, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    monkeypatch.setattr(views, "SCHEDULE_PAGE_GAMES", 4)  # 6 teams: 5 rounds of 3 games
    season = season_scheduled(teams=6, name="Paged")
    for number in (1, 2):
        with django_capture_on_commit_callbacks(execute=True):
            services.simulation_start(season=season, scope="round", round=number)
    url = reverse("season", args=[season.pk])

    def shown(page: str) -> set[int]:
        return {int(pk) for pk in re.findall(r'href="/games/(\d+)/"', page)}

    def of_round(number: int) -> set[int]:
        return set(season.games.filter(round=number).values_list("pk", flat=True))

    # By default: the latest round with a result, between links to the rounds either side.
    page = client.get(url).content.decode()
    assert shown(page) == of_round(2)
    assert "On this page: Round 2 of 5 rounds (3 of these 3 games played)" in re.sub(
        r"\s+", " ", page
    )
    assert 'rel="prev" href="?round=1#schedule"' in page
    assert 'rel="next" href="?round=3#schedule"' in page
    options = re.findall(r'<option value="(\d+)"( selected)?>', page)
    assert [o[0] for o in options[:5]] == ["1", "2", "3", "4", "5"]
    assert [o[0] for o in options if o[1]] == ["2", "2"]  # the nav above and below

    # Any round by its number: a scheduled one lists its games unplayed.
    page = client.get(url, {"round": 4}).content.decode()
    assert "Round 4" in page and "(scheduled)" in page and "Round 2<" not in page
    assert shown(page) == of_round(4)  # each game to be played links to its preview
    assert 'rel="next" href="?round=5#schedule"' in page
    first = client.get(url, {"round": 1}).content.decode()
    assert shown(first) == of_round(1) and 'rel="prev"' not in first

    for unknown in ("9", "two"):
        response = client.get(url, {"round": unknown})
        assert response.status_code == 404
        # The fan reads why (the site's 404 said "a season may have been removed").
        said = f"This season has no round &#x27;{unknown}&#x27;: its rounds are 1 to 5"
        assert said in response.content.decode()
        assert "may have been removed" not in response.content.decode()
    missing = client.get("/games/999999/").content.decode()  # a lookup's own words are not shown
    assert "may have been removed" in missing and "matches the given query" not in missing


def test_a_stored_game_and_a_rename_show_at_once_on_every_cached_page(
    client, django_capture_on_commit_callbacks
) -> None:
    season = season_scheduled(teams=4, name="Fresh")
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="round", round=1)
    team_stats = f"/api/seasons/{season.pk}/team-stats/"
    player_stats = f"/api/seasons/{season.pk}/player-stats/"
    leaders = reverse("leaders", args=[season.pk])
    before = client.get(team_stats).json()["results"]
    assert {row["g"] for row in before} == {1}
    assert client.get(leaders).status_code == 200

    # A stored game: the next request counts it.
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="round", round=2)
    assert {row["g"] for row in client.get(team_stats).json()["results"]} == {2}
    assert {row["g"] for row in client.get(player_stats).json()["results"]} == {2}
    season_page = client.get(reverse("season", args=[season.pk])).content.decode()
    for game in season.games.filter(round=2).select_related("result"):
        assert f'href="/games/{game.pk}/"' in season_page

    # A renamed player: his line on the leaders, his team's page and the API.
    top = client.get(player_stats).json()["results"][0]
    player = Player.objects.get(pk=top["player"])
    player.name = "Renamed Star"
    player.save()
    assert "Renamed Star" in client.get(leaders).content.decode()
    assert "Renamed Star" in client.get(reverse("team", args=[player.team_id])).content.decode()
    assert client.get(f"/api/seasons/{season.pk}/leaders/?category=pts").json()["results"]

    # A renamed team: the season's team stats.
    team = player.team
    team.school = "Renamed College"
    team.save()
    rows = client.get(team_stats).json()["results"]
    assert "Renamed College" in {row["team_school"] for row in rows}
    assert "Renamed College" in client.get(reverse("season", args=[season.pk])).content.decode()


def test_a_tournament_page_is_told_once_and_again_after_a_rename(
    client, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    cup = tournament_drawn(teams=4, name="Told once")
    play_all(cup, django_capture_on_commit_callbacks)
    told: list[int] = []
    real = stories.tournament_page

    def counting(season: Season) -> dict[str, Any]:
        told.append(season.pk)
        return real(season)

    monkeypatch.setattr(stories, "tournament_page", counting)
    url = reverse("season", args=[cup.pk])
    first = client.get(url).content.decode()
    assert client.get(url).content.decode() == first
    assert told == [cup.pk]  # the second came from the cache
    final = cup.games.order_by("-round").select_related("home").first()
    assert final is not None
    final.home.school = "Renamed Finalist"
    final.home.save()
    assert "Renamed Finalist" in client.get(url).content.decode()
    assert told == [cup.pk, cup.pk]


def test_a_tournament_page_tells_again_only_the_stories_whose_names_changed(
    client, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """While a run plays, each new result changes the page: its stories are kept game by
    game (all 95 were told again at every result), and a renamed player is told anew."""
    cup = tournament_drawn(teams=4, name="Kept stories")
    play_all(cup, django_capture_on_commit_callbacks)
    told: list[int] = []
    real = stories.game_story

    def counting(game: Game, **kwargs: Any) -> Any:
        told.append(game.pk)
        return real(game, **kwargs)

    monkeypatch.setattr(stories, "game_story", counting)
    url = reverse("season", args=[cup.pk])
    client.get(url)
    assert sorted(told) == sorted(cup.games.values_list("pk", flat=True))
    final = cup.games.order_by("-round").select_related("result").first()
    assert final is not None
    star = final.result.lines.filter(player__isnull=False).order_by("-pts").first()
    assert star is not None
    player = Player.objects.get(pk=star.player_id)
    player.name = "Renamed Star"
    player.save()
    told.clear()
    page = client.get(url).content.decode()
    # Told again: the games the renamed player played in (the final, and his team's earlier
    # game); the other semifinal's story comes from the cache.
    assert final.pk in told and len(told) < cup.games.count()
    where = re.search(rf"\b{re.escape(star.name)}\b", page)
    assert where is None, page[where.start() - 300 : where.end() + 100]
    if "Renamed Star" in real(final).text:  # his points made the final's story
        assert "Renamed Star" in page


def test_a_team_s_results_and_a_player_s_log_come_a_page_at_a_time_latest_first(
    client, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    monkeypatch.setattr(views, "GAMES_PAGE", 2)
    season = season_played(django_capture_on_commit_callbacks, teams=4, name="Logged")
    entry = season.entries.order_by("team__school").first()
    assert entry is not None
    team = entry.team
    played = list(
        Game.objects.filter(Q(home=team) | Q(away=team), season=season, status=Game.Status.FINAL)
        .order_by("round", "game_date", "pk")
        .values_list("pk", flat=True)
    )
    assert len(played) == 3
    player = Player.objects.filter(team=entry.team).order_by("order", "pk").first()
    assert player is not None
    for url, param, anchor in (
        (reverse("team", args=[entry.team_id]), "results", "results"),
        (reverse("player", args=[player.pk]), "games", "log"),
    ):
        latest = client.get(url).content.decode()
        shown = [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', latest)]
        assert shown == played[2:], url  # the latest game alone on the last page
        assert "Games 3-3 of 3" in latest
        assert f'rel="prev" href="?{param}=1#{anchor}"' in latest
        earlier = client.get(url, {param: 1}).content.decode()
        assert [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', earlier)] == played[:2]
        assert f'rel="next" href="?{param}=2#{anchor}"' in earlier
        assert client.get(url, {param: "x"}).status_code == 200  # the nearest page
