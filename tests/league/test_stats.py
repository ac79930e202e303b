"""Season stats, leaders and game logs add up to the stored box scores."""

from __future__ import annotations

from datetime import date

import pytest

from cards.models import Player
from league import selectors, services, tournaments
from league.models import BoxLine, Game
from tests.factories import full_team, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_season(django_capture_on_commit_callbacks):  # type: ignore[no-untyped-def]
    league = services.league_get_or_create(name="Stats League")
    season = services.season_create(
        league=league,
        name="2001",
        teams=[full_team() for _ in range(4)],
        start_date=date(2001, 1, 1),
        seed=77,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="all")
    return season


def test_a_players_season_totals_are_the_sum_of_his_game_lines(played_season) -> None:
    rows = list(selectors.player_season_stats(season_id=played_season.pk))
    assert len(rows) == 4 * 6
    top = rows[0]
    lines = BoxLine.objects.filter(player_id=top["player_id"])
    assert top["g"] == lines.count() == 3
    assert top["pts"] == sum(line.pts for line in lines)
    assert top["pts_pg"] == pytest.approx(top["pts"] / 3)
    assert top["fg_pct"] == pytest.approx(top["fgm"] / top["fga"])
    assert [r["pts"] for r in rows] == sorted((r["pts"] for r in rows), reverse=True)


def test_leaders_rank_by_per_game_or_total_and_refuse_an_unknown_category(played_season) -> None:
    board = selectors.leaders(season_id=played_season.pk, category="reb", limit=5)
    assert len(board) == 5
    assert [r["reb_pg"] for r in board] == sorted((r["reb_pg"] for r in board), reverse=True)
    totals = selectors.leaders(season_id=played_season.pk, category="blk", per_game=False)
    assert totals[0]["blk"] == max(
        r["blk"] for r in selectors.player_season_stats(season_id=played_season.pk)
    )
    with pytest.raises(ValueError, match="unknown leader category 'dunks'"):
        selectors.leaders(season_id=played_season.pk, category="dunks")


def test_team_stats_count_points_possessions_and_opponents(played_season) -> None:
    rows = selectors.team_season_stats(season_id=played_season.pk)
    assert len(rows) == 4
    games = Game.objects.filter(season=played_season).select_related("result")
    for row in rows:
        mine = [g for g in games if row["team_id"] in (g.home_id, g.away_id)]
        assert row["g"] == len(mine) == 3
        scored = sum(
            g.result.home_score if g.home_id == row["team_id"] else g.result.away_score
            for g in mine
        )
        assert row["pts"] == scored
        assert row["possessions"] >= 3 * 44


def test_a_game_log_lists_a_players_games_in_date_order(played_season) -> None:
    player_id = BoxLine.objects.filter(result__game__season=played_season).first().player_id
    log = list(selectors.player_game_log(player_id=player_id, season_id=played_season.pk))
    assert len(log) == 3
    dates = [line.result.game.game_date for line in log]
    assert dates == sorted(dates)


def test_a_game_log_lists_season_by_season_each_in_its_schedule_s_order(
    played_season, django_capture_on_commit_callbacks
) -> None:
    """A tournament's games have no date: listed by the day they were played they fell
    among another season's games; the log goes season by season, as a team's page does."""
    entries = played_season.entries.select_related("team")
    teams = [e.team for e in entries]
    cup = tournaments.tournament_create(
        league=played_season.league, name="Cup", teams=teams, seed=79, strategy=False
    )
    later = services.season_create(  # dated 2002: before the day the cup's games were played
        league=played_season.league, name="2002", teams=teams, start_date=date(2002, 1, 1),
        seed=78,
    )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=cup, scope="all")
        services.simulation_start(season=later, scope="all")
    player_id = BoxLine.objects.filter(result__game__season=cup).first().player_id
    log = [line.result.game for line in selectors.player_game_log(player_id=player_id)]
    order = [(g.season_id, g.round) for g in log]
    assert order == sorted(order) and {g.season_id for g in log} >= {played_season.pk, cup.pk}


def test_a_player_renamed_mid_season_keeps_one_line_of_all_his_games(
    client, django_capture_on_commit_callbacks
) -> None:
    season = make_season(league="Rename League", name="2002", start_date=date(2002, 1, 1), seed=78)
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="round", round=1)
    star = Player.objects.get(pk=BoxLine.objects.order_by("-pts").first().player_id)
    star.name = "Pistol " + star.name
    star.save()  # the commissioner renames him in the admin; his next games carry the name
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="all")
    lines = BoxLine.objects.filter(player=star)
    assert lines.count() == 3

    answer = client.get(f"/api/seasons/{season.pk}/player-stats/?player={star.pk}").json()
    assert [(r["name"], r["g"], r["pts"]) for r in answer["results"]] == [
        (star.name, 3, sum(line.pts for line in lines))
    ]
    board = client.get(
        f"/api/seasons/{season.pk}/leaders/?category=pts&per_game=false&limit=100"
    ).json()["results"]
    assert [r["g"] for r in board if r["player"] == star.pk] == [3]
    page = client.get(f"/players/{star.pk}/").content.decode()
    assert page.count(f"<td>3</td><td>{sum(line.pts for line in lines)}</td>") == 1


def test_a_score_typed_in_without_lines_counts_its_points_in_the_team_stats(
    client, django_capture_on_commit_callbacks
) -> None:
    season = make_season(league="Sheet League", name="2003", start_date=date(2003, 1, 1), seed=79)
    typed = season.games.order_by("round", "pk").first()
    services.game_result_enter(game_id=typed.pk, home_score=70, away_score=60)
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="all")

    api = f"/api/seasons/{season.pk}"
    standings = {
        row["team_id"]: row
        for table in client.get(f"{api}/standings/").json()
        for row in table["rows"]
    }
    stats = {row["team"]: row for row in client.get(f"{api}/team-stats/").json()["results"]}
    assert set(stats) == set(standings)
    for team_id, row in stats.items():
        # the points a team scored and allowed are its games' scores, as the standings say
        assert (row["g"], row["pts"], row["opp_pts"]) == (
            standings[team_id]["wins"] + standings[team_id]["losses"],
            standings[team_id]["points_for"],
            standings[team_id]["points_against"],
        )
        assert row["pts_pg"] == pytest.approx(row["pts"] / row["g"])
        # a game without a box score is not a game of no rebounds
        boxed = 2 if team_id in (typed.home_id, typed.away_id) else 3
        assert row["reb_pg"] == pytest.approx(row["reb"] / boxed)
    assert client.get(f"/seasons/{season.pk}/").status_code == 200
