"""The fans' pages, rendered from a simulated season: the numbers a fan looks for."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league import selectors, services
from league.models import BoxLine, Game, Season
from tests.factories import full_team

pytestmark = pytest.mark.django_db


def text(response) -> str:  # type: ignore[no-untyped-def]
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_home_page_lists_seasons_and_latest_results(client, season) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    page = text(response)
    assert str(season) in page
    assert "6 of 6" in page  # one conference game in each conference, two cross games a team
    game = Game.objects.filter(season=season).select_related("result").first()
    assert f"{game.away} {game.result.away_score}" in page


def test_a_box_score_shows_every_stored_line_and_the_play_by_play(client, season) -> None:
    game = Game.objects.filter(season=season).select_related("result").first()
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    page = response.content.decode()
    for line in BoxLine.objects.filter(result__game=game):
        row = re.search(
            rf'data-player="{re.escape(line.name)}">.*?<td class="pts">(\d+)</td>', page, re.S
        )
        assert row is not None and int(row.group(1)) == line.pts
    assert f"<strong>{game.result.home_score}</strong>" in page
    assert "Play-by-play" in page and "d8" in page


def test_the_season_page_shows_results_and_team_stats(client, season) -> None:
    response = client.get(reverse("season", args=[season.pk]))
    assert response.status_code == 200
    page = text(response)
    assert "Round 1" in page and "Team stats" in page
    for row in selectors.team_season_stats(season_id=season.pk):
        assert f"{row['pts_pg']:.1f}" in page


def test_leaders_show_the_top_scorer_per_game_and_in_totals(client, season) -> None:
    top = selectors.leaders(season_id=season.pk, category="pts")[0]
    response = client.get(reverse("leaders", args=[season.pk]))
    assert response.status_code == 200
    assert f"{top['name']}</a>" in response.content.decode()
    assert f"{top['pts_pg']:.1f}" in text(response)
    totals = client.get(reverse("leaders", args=[season.pk]), {"totals": "1"})
    first = selectors.leaders(season_id=season.pk, category="pts", per_game=False)[0]
    assert f"<td>{first['pts']}</td>" in totals.content.decode()


def test_a_team_page_shows_its_cards_results_and_stats(client, season) -> None:
    team = season.entries.first().team
    response = client.get(team.get_absolute_url())
    assert response.status_code == 200
    page = text(response)
    for player in team.players.all():
        assert f'data-player="{player.name}"' in page
    played = Game.objects.filter(season=season).filter(home=team) | Game.objects.filter(
        season=season, away=team
    )
    results = re.findall(r'<a href="/games/\d+/">([WL]) (\d+)-(\d+)</a>', page)
    assert len(results) == played.count() == 3
    assert all((wl == "W") == (int(a) > int(b)) for wl, a, b in results)
    assert "player stats" in page


def test_a_player_page_shows_the_card_season_line_and_game_log(client, season) -> None:
    line = BoxLine.objects.filter(result__game__season=season).order_by("-pts").first()
    response = client.get(reverse("player", args=[line.player_id]))
    assert response.status_code == 200
    page = text(response)
    stats = selectors.player_season_stats(season_id=season.pk, player_id=line.player_id)[0]
    assert f"<td>{stats['g']}</td><td>{stats['pts']}</td>" in page
    # The game log: a row a game, each with its date, opponent and result (W or L, score).
    log = page[page.index('class="data game-log"') :]
    assert (
        len(re.findall(r'<td class="text"><a href="/games/\d+/">[WL] \d+-\d+</a></td>', log))
        == stats["g"]
    )
    assert 'class="vabg-card"' in page
    # Each game says its competition (a tournament's beside a season's), and home, away
    # and neutral read apart: "vs", "at", "(neutral)", never "vs" beside "v".
    assert log.count(f'<a href="/seasons/{season.pk}/">{season}</a>') == stats["g"]
    assert re.search(r'<td class="text">(vs|at) <a href="/teams/\d+/">', log)
    assert '">v <a' not in log and ">v <a" not in log
    # A season's game is dated by its schedule.
    assert re.search(r'<tr><td class="text">[A-Z][a-z]{2} \d{1,2}, \d{4}</td>', log)


def test_a_tournament_game_in_a_game_log_says_its_round_not_the_day_it_was_simulated(
    client,
) -> None:
    from league import tournaments

    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Log League"),
        name="Log Cup",
        teams=[full_team() for _ in range(4)],
        strategy=False,
        seed=5,
    )
    while game := cup.games.filter(status=Game.Status.SCHEDULED).order_by("round").first():
        services.game_simulate(game_id=game.pk)  # as a worker stores each, round by round
    champion = cup.games.get(round=2).result
    winner = "home" if champion.home_score > champion.away_score else "away"
    line = BoxLine.objects.filter(result=champion, side=winner).order_by("-pts").first()
    page = text(client.get(reverse("player", args=[line.player_id])))
    log = page[page.index('class="data game-log"') :]
    assert '<th class="text">When</th>' in page
    assert '<tr><td class="text">Round 1</td>' in log
    assert '<tr><td class="text">Championship</td>' in log


def test_search_finds_teams_and_players_by_name(client, season) -> None:
    team = season.entries.first().team
    player = team.players.first()
    response = client.get(reverse("search"), {"q": team.school.split()[-1]})
    assert team.get_absolute_url() in response.content.decode()
    response = client.get(reverse("search"), {"q": player.name.lower()})
    assert reverse("player", args=[player.pk]) in response.content.decode()
    nothing = client.get(reverse("search"), {"q": "zzz"})
    assert "No team matches" in nothing.content.decode()
    # A player by his name and his team's, as the API's ?search= finds him.
    surname, school = player.name.split()[-1], team.school.split()[-1]
    for q in (f"{school.lower()} {surname}", f"{surname} {team.season}"):
        found = client.get(reverse("search"), {"q": q}).content.decode()
        assert reverse("player", args=[player.pk]) in found, q
        api = client.get("/api/players/", {"search": q}).json()
        assert player.pk in [p["id"] for p in api["results"]], q
    teams = client.get("/api/teams/", {"search": f"{team.school} {team.season}"}).json()
    assert (team.pk, str(team)) in [(t["id"], t["name"]) for t in teams["results"]]


def test_a_missing_page_is_a_404(client, db) -> None:
    assert client.get(reverse("game", args=[999])).status_code == 404
    assert client.get(reverse("season", args=[999])).status_code == 404


def test_progress_is_polled_as_json(client, season) -> None:
    data = client.get(reverse("season-progress", args=[season.pk])).json()
    assert data == {"total": 6, "final": 6, "run": None}


@pytest.fixture(scope="module")
def played_cup(module_world: None) -> int:
    """One played 6-team tournament for the module's reading tests."""
    from django.test import TestCase

    from league import tournaments

    teams = [full_team() for _ in range(6)]
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Cup"), name="Open", teams=teams, seed=6
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.simulation_start(season=cup, scope="all")
    return cup.pk


@pytest.fixture
def cup(played_cup: int) -> Season:
    return Season.objects.get(pk=played_cup)


def test_the_bracket_shows_every_round_score_and_the_champion(client, cup) -> None:
    from league import tournaments

    response = client.get(reverse("bracket", args=[cup.pk]))
    assert response.status_code == 200
    page = text(response)
    champion = tournaments.champion(cup)
    assert f'Champion: <a href="{champion.get_absolute_url()}">No. ' in page
    for name in ("Round 1", "Final Four", "Championship"):
        assert f'<h2 class="round-name">{name}</h2>' in page  # no regions: rounds are h2s
    for game in Game.objects.filter(season=cup).select_related("result", "home"):
        assert f'href="/games/{game.pk}/"' in page
        home, score = game.home, game.result.home_score
        assert (
            f'<span class="team" title="{home}"><span class="school">{home.school}</span> '
            f'<span class="year">{home.season}</span></span><span class="score">{score}</span>'
        ) in page
    assert page.count('class="bslot won"') == 5


def test_a_season_that_is_not_a_tournament_has_no_bracket(client, season) -> None:
    assert client.get(reverse("bracket", args=[season.pk])).status_code == 404


def test_standings_show_records_and_tiebreakers(client, season) -> None:
    response = client.get(reverse("season", args=[season.pk]))
    page = text(response)
    assert "Standings" in page and "<h3>East</h3>" in page and "<h3>West</h3>" in page
    for _, rows in selectors.standings_for_season(season_id=season.pk):
        for row in rows:
            assert f'data-team="{row["team"]}"' in page
            assert f"<td>{row['wins']}</td><td>{row['losses']}</td>" in page


def test_a_played_games_page_is_rendered_once_and_then_served_from_the_cache(
    client, season, django_assert_max_num_queries
) -> None:
    game = season.games.filter(status="final").first()
    first = client.get(reverse("game", args=[game.pk]))
    assert first.status_code == 200
    with django_assert_max_num_queries(3):  # the game and its teams, nothing of the result
        again = client.get(reverse("game", args=[game.pk]))
    assert again.content == first.content
    assert 'class="box-score"' in again.content.decode()


def test_a_matchup_is_titled_by_its_teams_and_offers_them_in_reading_order(client) -> None:
    """A fan's review: every matchup page was titled "Matchup", and the team list put "LSU"
    before "La Salle" (capitals first)."""
    lsu, la_salle = full_team(school="LSU", season=1970), full_team(school="La Salle", season=1954)
    page = client.get(reverse("matchup"), {"home": lsu.pk, "away": la_salle.pk, "court": "home"})
    body = page.content.decode()
    assert "<title>La Salle 1954 at LSU 1970 · Matchup" in body
    options = re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', body.split('name="away"')[1])
    assert options.index("La Salle 1954") < options.index("LSU 1970")


def test_a_season_with_no_game_played_shows_no_percentage_no_tiebreak_and_says_why(
    client,
) -> None:
    """A fan's review: an empty season's 0-0 teams read ".000" (every game lost) ordered by a
    "coin flip", and its leaders asked for "1 game played or more" of no game at all."""
    season = services.season_create(
        league=services.league_get_or_create(name="Empty League"),
        name="Spring",
        teams=[full_team() for _ in range(4)],
        seed=2,
    )
    page = client.get(reverse("season", args=[season.pk])).content.decode()
    assert ".000" not in page and "coin flip" not in page
    leaders = client.get(reverse("leaders", args=[season.pk])).content.decode()
    assert "No game is played yet" in leaders and "needs 1 game" not in leaders


def test_a_season_page_opened_before_its_run_looks_for_one_until_every_game_is_played(
    client, django_capture_on_commit_callbacks
) -> None:
    """A fan's review: a page opened before the run started stayed at "0 games played"; it
    now looks quietly (every 15 s) for a run or a new result, and stops once all are played."""
    season = services.season_create(
        league=services.league_get_or_create(name="Waiting League"),
        name="Spring",
        teams=[full_team() for _ in range(4)],
        seed=2,
    )
    url = reverse("season", args=[season.pk])
    waiting = client.get(url).content.decode()
    assert reverse("season-progress", args=[season.pk]) in waiting and "15000" in waiting
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="all")
    done = client.get(url).content.decode()
    assert "15000" not in done


def test_a_player_moved_to_another_team_keeps_his_season_line_beside_his_game_log(
    client, season
) -> None:
    line = BoxLine.objects.filter(result__game__season=season).order_by("-pts").first()
    player = line.player
    played_for = player.team
    player.team = full_team()  # the commissioner moves him on the roster inline
    player.save()
    page = text(client.get(reverse("player", args=[player.pk])))
    mine = BoxLine.objects.filter(player=player)
    assert mine.count() == 3
    # His line for the team he played for, beside the three games his log lists.
    assert f"Simulated: {season}</h2>" in page
    assert f"<td>3</td><td>{sum(x.pts for x in mine)}</td>" in page
    assert len(re.findall(r'<a href="/games/\d+/">[WL] \d+-\d+</a>', page)) == 3
    # and the team he played for still lists him among its players' season lines
    assert player.name in text(client.get(reverse("team", args=[played_for.pk])))


def test_a_run_s_progress_is_a_named_progress_bar_to_a_screen_reader(client) -> None:
    """An accessibility review: the bar was a styled span, its count read by sight alone."""
    season = services.season_create(
        league=services.league_get_or_create(name="Progress League"), name="Live",
        teams=[full_team() for _ in range(4)], seed=3,
    )  # fmt: skip
    run = services.simulation_start(season=season, scope="all", dispatch=False)
    for path in (f"/seasons/{season.pk}/", "/"):
        page = client.get(path).content.decode()
        bar = re.search(r'<div class="progress"[^>]*>', page)
        assert bar, path
        assert 'role="progressbar"' in bar.group(0) and 'aria-label="Games stored"' in bar.group(0)
        assert f'aria-valuemax="{run.total}"' in bar.group(0), (path, bar.group(0))
        assert 'aria-valuenow="0"' in bar.group(0), (path, bar.group(0))
    assert (
        'class="stalled muted" role="status"'
        in client.get(f"/seasons/{season.pk}/").content.decode()
    )
