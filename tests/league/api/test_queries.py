"""Every API list costs the same few queries for 2 rows as for 20: nothing is fetched per row."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from itertools import count

import pytest

from cards.models import Player
from league import services
from league.models import Game, League
from tests.factories import full_team
from tests.league.api import (
    client_for,
    play_all,
    season_played,
    season_scheduled,
    throttle_reset,
    tournament_drawn,
)

pytestmark = pytest.mark.django_db

_names = count()


@pytest.fixture(autouse=True)
def _no_throttle() -> None:
    throttle_reset()


def teams(n: int) -> str:
    for _ in range(n):
        full_team()
    return "/api/teams/"


def leagues(n: int) -> str:
    for _ in range(n):
        league = League.objects.create(name=f"League {next(_names)}", slug=f"l-{next(_names)}")
        season_scheduled(teams=2, league=league.name)
    return "/api/leagues/"


def seasons(n: int) -> str:
    home, away = full_team(), full_team()
    league = services.league_get_or_create(name="Many seasons")
    for _ in range(n):
        services.season_create(league=league, name=f"S{next(_names)}", teams=[home, away], seed=1)
    return f"/api/seasons/?league={league.pk}"


def cups(n: int) -> str:
    league = services.league_get_or_create(name="Many cups")
    for _ in range(n):
        tournament_drawn(teams=2, name=f"Cup {next(_names)}", league=league.name)
    return f"/api/tournaments/?league={league.pk}"


def exhibitions(n: int) -> tuple[Player, list[Game]]:
    home, away = full_team(), full_team()
    games = [services.exhibition_play(home=home, away=away, seed=i) for i in range(n)]
    return home.players.first(), games


def games(n: int) -> str:
    player, _ = exhibitions(n)
    return f"/api/games/?team={player.team_id}"


def game_log(n: int) -> str:
    player, _ = exhibitions(n)
    return f"/api/players/{player.pk}/games/"


def runs(n: int) -> str:
    season = season_scheduled(teams=2, name=f"Runs {next(_names)}")
    for day in range(n):
        # Each run plays what is left until a later day (the first, the season's game; the
        # rest, nothing): a run still going would be joined instead of started again, and
        # the same games asked for again answer their run of nothing.
        until = date(2001, 1, 1) + timedelta(days=day)
        run = services.simulation_start(
            season=season, scope="until", game_date=until, dispatch=False
        )
        while services.run_next_game(run=run) is not None:
            pass
    return f"/api/runs/?season={season.pk}"


def played(n: int, path: str, capture: Callable) -> str:  # type: ignore[type-arg]
    """A season of ``n`` teams (``n`` * 6 player rows), played."""
    season = season_played(capture, teams=n, name=f"Played {next(_names)}")
    return f"/api/seasons/{season.pk}/{path}"


# (name, build the rows and return the url, query limit); season lists scale by teams.
# A filter on a foreign key (?league=, ?season=) checks the id exists: one query more.
PLAIN = [
    ("teams", teams, 3),
    ("players", lambda n: teams(n) and "/api/players/", 2),
    ("cards", lambda n: teams(n) and "/api/cards/", 2),
    ("leagues", leagues, 2),
    ("seasons", seasons, 4),
    ("tournaments", cups, 4),
    ("games", games, 2),
    ("runs", runs, 3),
    ("game log", game_log, 3),
]
SEASON = [
    ("player stats", "player-stats/", 3),
    # the season, the cache's version and, on a miss as here, the season's rows
    ("leaders", "leaders/?category=pts&limit=100", 3),
    ("team stats", "team-stats/", 4),
    # the season, its teams' and players' names, the lines
    ("box score export", "export/boxscores.csv", 4),
    ("player stats export", "export/player-stats/?format=json", 2),
    # the season, the cache's fingerprint (2) and, on a miss as here, the standings (3)
    ("standings", "standings/", 6),
]


@pytest.mark.parametrize(("name", "build", "limit"), PLAIN, ids=[p[0] for p in PLAIN])
def test_a_list_costs_the_same_queries_for_2_rows_as_for_20(
    django_assert_max_num_queries, name, build, limit
) -> None:
    api = client_for()
    sizes = []
    for n in (2, 20):
        url = build(n)
        with django_assert_max_num_queries(limit) as captured:
            response = api.get(url)
        assert response.status_code == 200
        assert response.json()["count"] >= n
        sizes.append(len(captured))
    assert sizes[0] == sizes[1]


@pytest.mark.parametrize(("name", "path", "limit"), SEASON, ids=[s[0] for s in SEASON])
def test_a_season_list_costs_the_same_queries_for_2_teams_as_for_6(
    django_assert_max_num_queries, django_capture_on_commit_callbacks, name, path, limit
) -> None:
    api = client_for()
    sizes = []
    for n in (2, 6):
        url = played(n, path, django_capture_on_commit_callbacks)
        with django_assert_max_num_queries(limit) as captured:
            response = api.get(url)
            # An export is streamed: its rows are read while its content is.
            content = (
                b"".join(response.streaming_content) if response.streaming else response.content
            )
        assert response.status_code == 200
        assert len(content) > 0
        sizes.append(len(captured))
    assert sizes[0] == sizes[1]


def test_a_box_score_costs_two_queries_however_long(django_assert_num_queries) -> None:
    _, played_games = exhibitions(2)
    api = client_for()
    for game in played_games:
        with django_assert_num_queries(2):
            assert api.get(f"/api/games/{game.pk}/box-score/").status_code == 200
        with django_assert_num_queries(2):  # the game and result, its players' ids
            assert api.get(f"/api/games/{game.pk}/play-by-play/").status_code == 200


def test_a_bracket_costs_the_same_queries_for_4_teams_as_for_16(
    django_assert_max_num_queries, django_capture_on_commit_callbacks
) -> None:
    api = client_for()
    sizes = []
    for n in (4, 16):
        cup = tournament_drawn(teams=n, name=f"Cup {next(_names)}")
        play_all(cup, django_capture_on_commit_callbacks)
        with django_assert_max_num_queries(4) as captured:
            response = api.get(f"/api/seasons/{cup.pk}/bracket/")
        assert response.status_code == 200
        assert response.json()["champion"] is not None
        sizes.append(len(captured))
    assert sizes[0] == sizes[1]
