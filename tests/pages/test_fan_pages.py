"""What a fan's first visit stumbled on (issue 24), each checked as the page shows it."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from django.contrib.staticfiles import finders
from django.db.models import Sum
from django.template.loader import render_to_string
from django.urls import reverse

from cards.models import Player
from league import gamestats, odds, services, tournaments
from league.models import BoxLine, Game
from league.standings import FinishedGame, compute_standings
from tests.factories import TeamFactory, full_team
from tests.pages.test_pages import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(django_capture_on_commit_callbacks):  # type: ignore[no-untyped-def]
    teams = [full_team(school=f"Seed {n}") for n in range(1, 9)]
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Cup"),
        name="Open",
        teams=teams,
        seed=21,
        strategy=False,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=cup, scope="round", round=1)
    return cup


def test_a_renamed_player_and_team_show_at_once_on_a_played_games_page_and_in_the_api(
    client,
    season,
) -> None:
    # The season's points leader (on the leaders page whatever the ids the lane gave the
    # teams: one game's top scorer was not always on it) and a game he played.
    top = (
        BoxLine.objects.filter(result__game__season=season, player_id__isnull=False)
        .values("player_id")
        .annotate(total=Sum("pts"))
        .order_by("-total", "player_id")
        .first()
    )
    assert top is not None
    line = BoxLine.objects.filter(result__game__season=season, player_id=top["player_id"]).first()
    game = line.result.game
    url = reverse("game", args=[game.pk])
    assert client.get(url).status_code == 200  # the played part is now in the cache
    player = Player.objects.get(pk=line.player_id)
    old = player.name
    player.name = "Renamed Star"
    player.save()
    team = game.home
    team.school = "Renamed U"
    team.save()
    page = text(client.get(url))
    assert 'data-player="Renamed Star"' in page and f'data-player="{old}"' not in page
    assert "Renamed U" in page and page.count("Renamed U") > 5  # box score, story, plays
    leaders = text(client.get(reverse("leaders", args=[season.pk]), {"totals": "1"}))
    assert "Renamed Star</a>" in leaders and f"{old}</a>" not in leaders
    api = client.get(f"/api/games/{game.pk}/box-score/").json()
    names = [row["name"] for side in api["sides"] for row in side["lines"]]
    assert "Renamed Star" in names and old not in names
    # ... and in the season's stats and its exports (they said the name played).
    stats = client.get(f"/api/seasons/{season.pk}/player-stats/", {"player": player.pk}).json()
    assert [r["name"] for r in stats["results"]] == ["Renamed Star"]
    export = client.get(f"/api/seasons/{season.pk}/export/player-stats/?format=json")
    rows = json.loads(b"".join(export.streaming_content))
    assert [r["name"] for r in rows if r["player"] == player.pk] == ["Renamed Star"]
    export = client.get(f"/api/seasons/{season.pk}/export/boxscores/?format=json")
    lines = [r for r in json.loads(b"".join(export.streaming_content)) if r["player"] == player.pk]
    assert lines and {(r["name"], r["played_as"]) for r in lines} == {("Renamed Star", old)}
    for side in api["sides"]:
        assert side["totals"]["start"] == 20
        for row in side["lines"]:
            assert row["pts"] == row["start"] + 2 * row["fgm"] + row["tpm"] + row["ftm"]


def test_every_box_score_line_adds_its_opening_points_up_to_its_points(
    client,
    season,
) -> None:
    game = Game.objects.filter(season=season).first()
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    for side in ("away", "home"):
        table = re.search(rf'data-side="{side}">(.*?)</table>', page, re.S).group(1)
        rows = re.findall(
            r'<td class="start">(\d+)</td><td class="pts">(\d+)</td><td>(\d+)-\d+</td><td>(\d+)-\d+</td><td>(\d+)-\d+</td>',
            table,
        )
        assert len(rows) == 7  # six players and the totals
        for start, pts, fgm, tpm, ftm in rows:
            assert int(pts) == int(start) + 2 * int(fgm) + int(tpm) + int(ftm)
        assert rows[-1][0] == "20"
        assert '<th colspan="14" scope="colgroup">Starters</th>' in table
        assert '<th colspan="14" scope="colgroup">Bench</th>' in table
    assert "Every game starts 20-20" in page
    assert f'<a href="{reverse("team", args=[game.home_id])}">' in page


def test_a_conference_table_is_ordered_and_counted_on_the_conference_record() -> None:
    # Team 1 wins its three games outside the conference and loses the one inside it.
    games = [
        FinishedGame(1, 9, 80, 60),
        FinishedGame(1, 8, 80, 60),
        FinishedGame(1, 7, 80, 60),
        FinishedGame(2, 1, 70, 60, conference_game=True),
        FinishedGame(6, 2, 90, 60),
        FinishedGame(5, 2, 90, 60),
    ]
    overall = compute_standings(games, seed=1, team_ids=[1, 2])
    assert [r.team_id for r in overall] == [1, 2]
    table = compute_standings(games, seed=1, team_ids=[1, 2], by_conference=True)
    assert [r.team_id for r in table] == [2, 1]
    assert [r.games_behind for r in table] == [0, 1]
    assert (table[1].wins, table[1].losses) == (3, 1)  # the overall record is still shown


def test_the_season_page_shows_only_the_splits_its_games_have(client, season) -> None:
    page = text(client.get(reverse("season", args=[season.pk])))
    standings = page[page.index("<h2>Standings</h2>") : page.index("Schedule and results")]
    assert ">Home</abbr>" in standings and ">Away</abbr>" in standings
    assert "Neutral" not in standings  # a home-and-away season
    assert "Ordered by the conference record" in standings
    schedule = page[page.index("Schedule and results") :]
    assert schedule.count("<strong>") >= Game.objects.filter(season=season).count()


def test_the_per_game_team_stats_show_shots_per_game(client, season) -> None:
    page = text(client.get(reverse("season", args=[season.pk])))
    stats = page[page.index("Team stats (per game)") :]
    assert re.search(r"<td>\d+\.\d-\d+\.\d</td>", stats), "FG per game reads 9.5-20.1"


def test_a_tournament_in_progress_counts_every_game_of_its_bracket(client, cup) -> None:
    page = text(client.get(reverse("home")))
    assert "4 of 7" in page  # round 1 of an eight-team bracket played
    season_page = text(client.get(reverse("season", args=[cup.pk])))
    assert "3 to come" in season_page


def test_a_tournament_box_score_names_the_round_and_the_seeds(client, cup) -> None:
    game = Game.objects.filter(season=cup, status=Game.Status.FINAL).first()
    page = text(client.get(reverse("game", args=[game.pk])))
    seeds = dict(cup.entries.values_list("team_id", "seed"))
    assert "· Round 1 ·" in page
    assert f"No. {seeds[game.away_id]}</span> {game.away}" in page
    scheduled = Game.objects.filter(season=cup, status=Game.Status.SCHEDULED).first()
    header = text(client.get(reverse("game", args=[scheduled.pk])))
    crumbs = header[
        header.index('class="crumbs') : header.index("</p>", header.index('class="crumbs'))
    ]
    assert "Scheduled" in crumbs and "Simulated" not in crumbs


def test_the_bracket_names_what_ifs_by_their_teams(client, cup) -> None:
    page = text(client.get(reverse("bracket", args=[cup.pk])))
    whatif = page[page.index('id="what-if"') :]
    labels = re.findall(r'<td class="text wrap">([^<]*)</td><td class="text"><select', whatif)
    assert labels, "the what-if form lists the games it can set"
    seeds = dict(cup.entries.values_list("team_id", "seed"))
    for game in Game.objects.filter(season=cup, status=Game.Status.SCHEDULED):
        label = f"No. {seeds[game.home_id]} {game.home} v No. {seeds[game.away_id]} {game.away}"
        flipped = f"No. {seeds[game.away_id]} {game.away} v No. {seeds[game.home_id]} {game.home}"
        assert any(label in shown or flipped in shown for shown in labels), labels
    assert not any("R2-" in shown for shown in labels)
    assert "workers" not in page and "docs/odds.md" not in page


def test_a_finished_bracket_shows_the_champion_its_path_and_the_odds_it_started_with(
    client, cup, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=cup, scope="all")
    champion = tournaments.champion(cup)
    page = text(client.get(reverse("bracket", args=[cup.pk])))
    assert f"How {champion} got there" in page
    path = page[page.index('id="path"') : page.index("</section>", page.index('id="path"'))]
    assert path.count("<li>") == 3
    odds_part = page[page.index('id="bracket-odds"') :]
    assert "Before the first game" in odds_part and 'id="what-if"' not in odds_part
    assert odds_part.count("<tr data-team=") == 8  # the whole field, not 100% and 0%
    assert f"{champion} won it all with a" in odds_part


def test_the_upsets_are_defined_on_the_page(
    client, cup, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=cup, scope="all")
    page = text(client.get(reverse("season", args=[cup.pk])))
    upsets = page[page.index('<section id="upsets">') :]
    assert "seeded at least 2 lines below its opponent" in upsets


def test_the_swing_plays_are_sentences_and_none_rounds_to_nothing(
    client,
    season,
) -> None:
    for game in Game.objects.filter(season=season).select_related("result", "home", "away"):
        series = odds.win_probability(game)
        for swing in series["swings"]:
            assert round(abs(swing["delta"]) * 100) >= 1
            assert swing["text"].endswith(".") and ") " not in swing["text"].replace(". ", "")
    page = text(client.get(reverse("game", args=[game.pk])))
    assert '<span class="delta">0%</span>' not in page


def test_the_leaders_show_games_played_and_rank_per_game_only_from_half_the_games(
    client, cup, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=cup, scope="all")
    least = gamestats.minimum_games(cup)
    assert least == 2  # the finalists played 3 games
    for _, _, rows in gamestats.leader_boards(cup):
        assert all(row["g"] >= least for row in rows)
    page = text(client.get(reverse("leaders", args=[cup.pk])))
    assert "needs 2 games played or more" in page and ">GP</abbr>" in page


def test_fg_percentages_read_as_percentages(client, season) -> None:
    line = BoxLine.objects.filter(result__game__season=season, fga__gt=0).first()
    page = text(client.get(reverse("player", args=[line.player_id])))
    stats = page[page.index("season-stats") :]
    assert re.search(r"<td>\d{1,3}\.\d%</td>", stats) and "<td>0." not in stats


def test_search_says_when_it_lists_only_the_first_fifty(client) -> None:
    for n in range(51):
        TeamFactory(school=f"Many {n}")
    page = text(client.get(reverse("search"), {"q": "Many"}))
    assert "51 teams match “Many”: the first 50 are listed" in page
    assert len(re.findall(r'href="/teams/\d+/"', page)) == 50
    few = text(client.get(reverse("search"), {"q": "Many 7"}))
    assert "are listed" not in few


def test_the_error_pages_and_the_icon_are_the_sites_own(client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = text(response)
    assert "<title>Page not found · VABG League</title>" in page and 'role="search"' in page
    assert "Something went wrong" in render_to_string("500.html")
    icon = client.get("/favicon.ico")
    assert icon.status_code == 301 and icon["Location"].endswith("core/favicon.svg")
    assert finders.find("core/favicon.svg")
    assert 'rel="icon"' in page


def test_swagger_ui_is_served_with_the_project_not_from_a_cdn(client) -> None:
    page = client.get("/api/docs/").content.decode()
    assert "cdn.jsdelivr" not in page and '<html lang="en">' in page
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
        assert finders.find(asset.removeprefix("/static/")), asset


def test_other_games_pages_carry_no_vabg_labels(client) -> None:
    league = services.league_get_or_create(name="Grid")
    teams = [TeamFactory(), TeamFactory()]
    grid = services.season_create(
        league=league, name="S", teams=teams, seed=2, game="gridcourt", start_date=date(2026, 1, 1)
    )
    page = text(client.get(reverse("season", args=[grid.pk])))
    assert "Advanced rules" not in page and "home courts" not in page
    assert "· Grid court league</title>" in page


@pytest.mark.django_db
def test_a_conference_table_before_any_conference_game_says_how_it_is_ordered(client) -> None:
    teams = [full_team() for _ in range(4)]
    conferences = {t.pk: c for t, c in zip(teams, ["East", "East", "West", "West"], strict=True)}
    season = services.season_create(
        league=services.league_get_or_create(name="Conf League"),
        name="Early",
        teams=teams,
        conferences=conferences,
        start_date=date(2001, 1, 1),
        seed=3,
    )
    page = text(client.get(reverse("season", args=[season.pk])))
    standings = page[page.index("<h2>Standings</h2>") : page.index("Schedule and results")]
    # said once above the first conference, not under each of them (15 times in the field)
    assert standings.count("No conference game played yet: ordered by the tiebreakers") == 1
    assert "Ordered by the conference record" not in standings
