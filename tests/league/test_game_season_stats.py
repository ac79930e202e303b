"""A grid-court or six-dice season's team stats and leaders, summed from the stored box
scores in the game's own columns, on the season page, the leaders page and a tournament's."""

from __future__ import annotations

import re

import pytest
from django.template.defaultfilters import floatformat
from django.test import Client

from league import gamestats, services, tournaments
from league.models import Game, Season
from league.selectors import standings_for_season
from simulator.games import find_game
from tests import factories
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db


def played_season(game_name: str, **options: object) -> Season:
    """A double round robin of three teams, every game played."""
    season = factories.make_season(
        teams=3, game=game_name, league=f"{game_name} stats", seed=5, start_date=None,
        options=options, double_round_robin=True,
    )  # fmt: skip
    for game in season.games.all():
        services.game_simulate(game_id=game.pk)
    return season


def side_docs(season: Season):  # type: ignore[no-untyped-def]
    """Every (team, stored box document, score, opponent's score) of the season."""
    for game in Game.objects.filter(season=season).select_related("result"):
        result = game.result
        yield game.home_id, result.box["home"], result.home_score, result.away_score
        yield game.away_id, result.box["away"], result.away_score, result.home_score


def test_six_dice_team_stats_are_the_sums_of_the_stored_team_figures() -> None:
    season = played_season("sixdice")
    table = gamestats.team_stats(season)
    # every team figure but REROLL: this season plays without the Power Chip reroll
    assert [c.key for c in table.columns] == [
        c.key for c in find_game("sixdice").team_columns if c.key != "chip_rerolls"
    ]
    assert len(table.rows) == 3
    for row in table.rows:
        mine = [
            (doc, pts, opp) for team, doc, pts, opp in side_docs(season) if team == row["team_id"]
        ]
        assert row["g"] == len(mine) == 4
        assert row["w"] + row["l"] == 4 and row["w"] == sum(pts > opp for _, pts, opp in mine)
        assert row["pts"] == sum(pts for _, pts, _ in mine)
        for column in table.columns:
            assert row[column.key] == sum(doc[column.key] for doc, _, _ in mine)
            assert row[f"{column.key}_pg"] == pytest.approx(row[column.key] / 4)
    assert [r["pts_pg"] for r in table.rows] == sorted(
        (r["pts_pg"] for r in table.rows), reverse=True
    )


def test_grid_court_leaders_rank_the_pieces_and_team_stats_add_the_piece_totals() -> None:
    season = played_season("gridcourt", pieces=4)
    engine = find_game("gridcourt")
    assert gamestats.leader_categories("gridcourt") == engine.columns
    board = gamestats.leaders(season, "pts", per_game=False, limit=100)
    expected: dict[tuple[int, str], int] = {}
    for team, doc, _, _ in side_docs(season):
        for line in doc["pieces"]:
            key = (team, f"Piece {line['piece']}")
            expected[key] = expected.get(key, 0) + line["pts"]
    # every piece that scored, and none that did not
    assert {(r["team_id"], r["name"]): r["pts"] for r in board} == {
        k: v for k, v in expected.items() if v
    }
    assert [r["value"] for r in board] == sorted((v for v in expected.values() if v), reverse=True)
    # pieces level share the best of their places: 1, 2, 2, 4
    values = [r["value"] for r in board]
    assert [r["rank"] for r in board] == [1 + sum(v > mine for v in values) for mine in values]
    per_game = gamestats.leaders(season, "pts", limit=3)
    assert len(per_game) == 3 and per_game[0]["value"] == pytest.approx(per_game[0]["pts"] / 4)
    # a team's points are its pieces' points: the totals the engine wrote
    table = gamestats.team_stats(season)
    for row in table.rows:
        assert row["pts"] == sum(v for (team, _), v in expected.items() if team == row["team_id"])
        # a rate: shown as its mean over the games, with no season total (a sum of rates)
        assert row["ppp_pg"] is not None and row["ppp"] is None
    assert table.rates == {"ppp"}
    with pytest.raises(ValueError, match=r"unknown leader category 'blk' for Grid court.*pts"):
        gamestats.leaders(season, "blk")


def test_the_pages_show_another_games_team_stats_and_leaders(client: Client) -> None:
    season = played_season("gridcourt", pieces=3)
    html = client.get(f"/seasons/{season.pk}/").content.decode()
    assert "Team stats (per game)" in html
    for column in find_game("gridcourt").team_columns:
        assert f">{column.label}</abbr></th>" in html or f"<th>{column.label}</th>" in html
    leaders = client.get(f"/seasons/{season.pk}/leaders/").content.decode()
    assert 'data-category="pts"' in leaders and 'data-category="stl"' in leaders
    top = gamestats.leaders(season, "pts", limit=1)[0]
    board = re.search(r'data-category="pts".*?</table>', leaders, re.S)
    assert board is not None and "1. Piece" in board.group(0)
    assert f"<td>{floatformat(top['pts_pg'], 1)}</td>" in board.group(0)  # as the page rounds
    assert "No games yet." not in leaders
    # a column no piece has any of leads no one: its board says so, and only then. (The
    # pieces' lines, not the team's figures: a shot-clock violation is the team's turnover.)
    totals = {c.key: 0 for c in gamestats.leader_categories("gridcourt")}
    for _, doc, _, _ in side_docs(season):
        for line in doc["pieces"]:
            for key in totals:
                totals[key] += line.get(key) or 0
    for key, total in totals.items():
        section = re.search(rf'data-category="{key}".*?</table>', leaders, re.S)
        assert section is not None
        assert ("No one yet." in section.group(0)) == (total == 0), key

    six = played_season("sixdice")
    leaders = client.get(f"/seasons/{six.pk}/leaders/").content.decode()
    assert 'data-category="dunks"' in leaders  # a game without lines ranks its teams
    best = gamestats.leaders(six, "dunks", limit=1)[0]
    assert f"1. {best['team__school']}" in re.sub(r"\s+", " ", leaders)
    # The nav's Leaders opens the latest season's: every leaders page links the others'
    # (a grid-court cup's pieces were a dead end for a fan of another game).
    assert (
        f'href="/seasons/{season.pk}/leaders/">{season}</a> <span class="muted">(Grid court)'
        in leaders
    )
    assert f'href="/seasons/{six.pk}/leaders/"' not in leaders  # not itself
    empty = Season.objects.create(league=season.league, name="Not started", seed=1)
    leaders = client.get(f"/seasons/{six.pk}/leaders/").content.decode()
    assert f"/seasons/{empty.pk}/leaders/" not in leaders  # no leaders to show there yet
    assert f"/seasons/{season.pk}/leaders/" in leaders


def test_a_grid_court_tournament_page_shows_its_leaders(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Grid Cup League"),
        name="Grid Cup",
        teams=[TeamFactory() for _ in range(4)],
        seed=9,
        game="gridcourt",
    )
    for _ in range(2):  # the semifinals, then the final they draw
        for game in cup.games.filter(status=Game.Status.SCHEDULED):
            with django_capture_on_commit_callbacks(execute=True):
                services.game_simulate(game_id=game.pk)
    assert cup.games.filter(status=Game.Status.FINAL).count() == 3
    html = client.get(f"/seasons/{cup.pk}/").content.decode()
    section = re.search(r'<section id="leaders">.*?</section>', html, re.S)
    assert section is not None
    assert "No games yet." not in section.group(0) and "Piece" in section.group(0)


def test_the_api_gives_another_games_leaders_and_team_stats(client: Client) -> None:
    season = played_season("gridcourt", pieces=3)
    url = f"/api/seasons/{season.pk}/leaders/"
    body = client.get(url, {"category": "dreb", "per_game": "false", "limit": 4}).json()
    expected = gamestats.leaders(season, "dreb", per_game=False, limit=4)
    assert [(r["rank"], r["name"], r["team"], r["value"]) for r in body["results"]] == [
        (e["rank"], e["name"], e["team_id"], e["dreb"]) for e in expected
    ]
    assert all(r["player"] is None and r["g"] == 4 for r in body["results"])
    refused = client.get(url, {"category": "blk"})
    assert refused.status_code == 400
    assert "not a category of Grid court" in str(refused.json())
    assert "three_sec" in str(refused.json())

    rows = client.get(f"/api/seasons/{season.pk}/team-stats/", {"ordering": "-dreb_pg"}).json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    table = {r["team_id"]: r for r in gamestats.team_stats(season).rows}
    assert len(rows) == 3
    assert [r["per_game"]["dreb"] for r in rows] == sorted(
        (r["dreb_pg"] for r in table.values()), reverse=True
    )
    for row in rows:
        mine = table[row["team"]]
        assert (row["g"], row["w"], row["l"], row["pts"]) == (4, mine["w"], mine["l"], mine["pts"])
        assert row["totals"]["possessions"] == mine["possessions"]
    bad = client.get(f"/api/seasons/{season.pk}/team-stats/", {"ordering": "blk"})
    assert bad.status_code == 400 and "three_sec_pg" in bad.json()["ordering"][0]


def season_with_a_score_typed_in(game_name: str) -> tuple[Season, int]:
    """Three teams once each: the first game simulated, the second's score typed in (no box
    score), the third not played; with the team whose only game is the one typed in."""
    season = factories.make_season(
        teams=3, game=game_name, league=f"{game_name} sheet", seed=5, start_date=None
    )
    first, typed, _ = season.games.order_by("round", "pk")
    services.game_simulate(game_id=first.pk)
    services.game_result_enter(game_id=typed.pk, home_score=21, away_score=17)
    (only,) = {typed.home_id, typed.away_id} - {first.home_id, first.away_id}
    return season, only


@pytest.mark.parametrize("game_name", ["gridcourt", "sixdice"])
def test_a_score_typed_in_counts_in_the_team_stats_points_as_in_the_standings(
    client: Client, game_name: str
) -> None:
    season, only = season_with_a_score_typed_in(game_name)
    points = "pts" if game_name == "gridcourt" else "score"  # the game's own PTS column
    standings = {r["team_id"]: r for _, rows in standings_for_season(season_id=season.pk)
                 for r in rows}  # fmt: skip
    # a team whose only game was typed in has a page, its points and record on it
    page = client.get(f"/seasons/{season.pk}/")
    assert page.status_code == 200
    rows = client.get(f"/api/seasons/{season.pk}/team-stats/").json()["results"]
    assert {r["team"] for r in rows} == {t for t, s in standings.items() if s["wins"] + s["losses"]}
    for row in rows:
        mine = standings[row["team"]]
        assert (row["w"], row["l"]) == (mine["wins"], mine["losses"])
        assert (row["pts"], row["opp_pts"]) == (mine["points_for"], mine["points_against"])
        # PTS in the game's own columns: every game's points, the typed-in one's too
        assert row["totals"][points] == mine["points_for"]
        assert row["per_game"][points] == pytest.approx(mine["points_for"] / row["g"])
    alone = next(r for r in rows if r["team"] == only)
    assert alone["g"] == 1 and alone["pts"] == alone["totals"][points] in (21, 17)


def test_six_dice_leaders_read_a_score_typed_in_as_the_team_stats_do(client: Client) -> None:
    season, _ = season_with_a_score_typed_in("sixdice")
    stats = {r["team_id"]: r for r in gamestats.team_stats(season).rows}
    for column in gamestats.in_play(season, gamestats.leader_categories("sixdice")):
        key = column.key
        board = gamestats.leaders(season, key, limit=100)
        # a team's figure a game on the board is its team stats' (points: every game's, from
        # the scores; a figure the typed-in sheet has not: the games with a box score), never
        # diluted by the typed-in game counted as a game of zeros
        assert {r["team_id"]: r["value"] for r in board} == pytest.approx(
            {t: row[f"{key}_pg"] for t, row in stats.items() if row[key]}
        ), key
        totals = gamestats.leaders(season, key, per_game=False, limit=100)
        assert {r["team_id"]: r["value"] for r in totals} == {
            t: row[key] for t, row in stats.items() if row[key]
        }, key
    api = client.get(f"/api/seasons/{season.pk}/leaders/", {"category": "score"}).json()
    assert {r["team"]: r["value"] for r in api["results"]} == pytest.approx(
        {t: row["pts"] / row["g"] for t, row in stats.items()}
    )
