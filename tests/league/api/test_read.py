"""Reading the API: every endpoint shows what the database holds, filtered and ordered."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from cards.mapping import team_document
from cards.models import Card, Player, Team
from league import selectors, services, tournaments
from league.api import exports
from league.api.serializers import ExportBoxLineSerializer, ExportPlayerStatsSerializer
from league.models import BoxLine, Game, Season, SimulationRun
from tests.factories import commissioner, full_team
from tests.league.api import (
    client_for,
    play_all,
    season_played,
    season_scheduled,
    throttle_reset,
    tournament_drawn,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_throttle() -> None:
    throttle_reset()


@pytest.fixture(scope="module")
def played(module_world: None) -> int:
    """One played season for the module's reading tests (none of them writes to it)."""
    from django.test import TestCase

    return season_played(TestCase.captureOnCommitCallbacks, name="Shared 2001").pk


@pytest.fixture
def season(played: int) -> Season:
    return Season.objects.get(pk=played)


@pytest.fixture
def api():  # type: ignore[no-untyped-def]
    return client_for()


def ids(response) -> list[int]:  # type: ignore[no-untyped-def]
    return [row["id"] for row in response.json()["results"]]


def test_the_schema_is_valid_openapi_without_a_single_warning(tmp_path: Path) -> None:
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    assert "/api/seasons/{id}/simulate/" in text
    assert "/api/games/{id}/box-score/" in text
    for path in ("/api/seasons/{id}/standings/", "/api/seasons/{id}/bracket/",
                 "/api/tournaments/", "/api/games/{id}/result/", "/api/games/{id}/dice/"):  # fmt: skip
        assert path in text


def test_the_root_schema_and_swagger_ui_answer(api) -> None:
    root = api.get("/api/")
    assert root.status_code == 200
    assert root.json()["teams"].endswith("/api/teams/")
    # Beside the resources, the addresses a client starts from (it listed the router's
    # alone, under DRF's "The default basic root view for DefaultRouter").
    for key, address in (("docs", "/api/docs/"), ("schema", "/api/schema/"),
                         ("auth-token", "/api/auth/token/"), ("matchup", "/api/matchup/")):  # fmt: skip
        assert root.json()[key].endswith(address), key
    page = api.get("/api/", HTTP_ACCEPT="text/html").content.decode()
    assert "VABG league API" in page and "default basic root view" not in page
    assert api.get("/api/schema/").status_code == 200
    docs = api.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


def test_teams_list_their_roster_with_every_card(api, season) -> None:
    response = api.get("/api/teams/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 4
    team = Team.objects.get(pk=body["results"][0]["id"])
    roster = body["results"][0]["roster"]
    assert [p["name"] for p in roster] == list(
        team.players.order_by("order", "id").values_list("name", flat=True)
    )
    card = Card.objects.get(player_id=roster[0]["id"])
    assert roster[0]["card"]["steal_top"] == card.steal_top
    assert roster[0]["card"]["ball_numbers"] == card.ball_numbers


def test_teams_filter_by_league_season_year_and_school(api, season) -> None:
    other = full_team(school="Kentucky", season=2012)
    assert len(ids(api.get("/api/teams/", {"season": season.pk}))) == 4
    assert ids(api.get("/api/teams/", {"year": 2012})) == [other.pk]
    assert ids(api.get("/api/teams/", {"school": "kentu"})) == [other.pk]
    assert ids(api.get("/api/teams/", {"search": "Kentucky"})) == [other.pk]
    Team.objects.filter(pk=other.pk).update(conference="SEC")
    for asked in ("SEC", "sec", "Sec"):  # as a fan types it
        assert ids(api.get("/api/teams/", {"conference": asked})) == [other.pk], asked
    assert ids(api.get("/api/teams/", {"conference": "SE"})) == []  # the whole name
    schools = [
        t["school"] for t in api.get("/api/teams/", {"ordering": "-school"}).json()["results"]
    ]
    assert schools == sorted(schools, reverse=True)


def test_a_teams_file_is_its_vabg_team_document(api, season) -> None:
    team = season.entries.first().team
    response = api.get(f"/api/teams/{team.pk}/file/")
    assert response.status_code == 200
    assert response.json() == team_document(team)


def test_players_filter_by_team_slot_role_and_season(api, season) -> None:
    team = season.entries.first().team
    mine = api.get("/api/players/", {"team": team.pk}).json()
    assert mine["count"] == 6
    assert {p["team"]["id"] for p in mine["results"]} == {team.pk}
    reserves = api.get("/api/players/", {"team": team.pk, "role": "reserve"}).json()["results"]
    assert [p["name"] for p in reserves] == [
        Card.objects.get(team=team, role="reserve").player.name
    ]
    centers = api.get("/api/players/", {"season": season.pk, "slot": 5}).json()
    assert centers["count"] == 4
    detail = api.get(f"/api/players/{reserves[0]['id']}/").json()
    assert detail["card"]["role"] == "reserve"
    assert detail["team"]["name"] == str(team)


def test_cards_filter_by_team_and_slot(api, season) -> None:
    team = season.entries.first().team
    response = api.get("/api/cards/", {"team": team.pk, "slot": 1})
    rows = response.json()["results"]
    assert sorted(c["role"] for c in rows) == ["reserve", "starter"]
    card = Card.objects.get(pk=rows[0]["id"])
    assert rows[0]["player_name"] == card.player.name
    assert rows[0]["d20_made2_hi"] == card.d20_made2_hi
    assert api.get(f"/api/cards/{card.pk}/").json()["can_play"] == card.can_play


def test_leagues_and_seasons_count_their_teams_and_games(api, season) -> None:
    leagues = api.get("/api/leagues/").json()["results"]
    assert [(lg["name"], lg["seasons"]) for lg in leagues] == [("API League", 1)]
    response = api.get("/api/seasons/", {"league": season.league_id})
    row = response.json()["results"][0]
    assert (row["team_count"], row["game_count"], row["games_final"]) == (4, 6, 6)
    assert {e["team"]["id"] for e in row["teams"]} == set(
        season.entries.values_list("team_id", flat=True)
    )
    team = season.entries.first().team_id
    assert ids(api.get("/api/seasons/", {"team": team})) == [season.pk]
    assert api.get(f"/api/seasons/{season.pk}/").json()["league_name"] == "API League"


def test_the_schedule_filters_by_season_team_round_date_status_and_player(api, season) -> None:
    games = Game.objects.filter(season=season)
    assert api.get("/api/games/", {"season": season.pk}).json()["count"] == 6
    team = season.entries.first().team_id
    mine = api.get("/api/games/", {"team": team}).json()["results"]
    assert len(mine) == 3
    assert all(team in (g["home"]["id"], g["away"]["id"]) for g in mine)
    first = games.order_by("round").first()
    by_round = ids(api.get("/api/games/", {"round": first.round}))
    assert sorted(by_round) == sorted(games.filter(round=first.round).values_list("pk", flat=True))
    by_date = ids(api.get("/api/games/", {"date": first.game_date.isoformat()}))
    assert sorted(by_date) == sorted(by_round)
    until = api.get("/api/games/", {"date_to": first.game_date.isoformat()}).json()
    assert until["count"] == len(by_round)
    assert api.get("/api/games/", {"status": "scheduled"}).json()["count"] == 0
    player = BoxLine.objects.filter(result__game=first).first().player_id
    assert len(ids(api.get("/api/games/", {"player": player}))) == 3
    rounds = [g["round"] for g in api.get("/api/games/", {"ordering": "-round"}).json()["results"]]
    assert rounds == sorted(rounds, reverse=True)


def test_a_game_shows_its_stored_score(api, season) -> None:
    game = Game.objects.filter(season=season).select_related("result").first()
    body = api.get(f"/api/games/{game.pk}/").json()
    assert body["status"] == "final"
    assert (body["home_score"], body["away_score"]) == (
        game.result.home_score,
        game.result.away_score,
    )


def test_the_box_score_shows_each_stored_line_and_the_team_totals(api, season) -> None:
    game = Game.objects.filter(season=season).select_related("result").first()
    result = game.result
    body = api.get(f"/api/games/{game.pk}/box-score/").json()
    assert body["game"]["id"] == game.pk
    assert [s["side"] for s in body["sides"]] == ["away", "home"]
    for side in body["sides"]:
        stored = {line.name: line for line in result.lines.filter(side=side["side"])}
        assert [line["name"] for line in side["lines"]] == [
            line.name for line in sorted(stored.values(), key=lambda x: x.order)
        ]
        for line in side["lines"]:
            row = stored[line["name"]]
            assert (line["pts"], line["reb"], line["player"]) == (row.pts, row.reb, row.player_id)
        score = result.home_score if side["side"] == "home" else result.away_score
        assert side["score"] == side["totals"]["pts"] == score
        assert side["totals"]["to"] == sum(x.to for x in stored.values()) + side["team_turnovers"]
    assert body["sides"][1]["periods"] == result.home_periods
    assert len(body["period_labels"]) == 1 + result.overtimes


def test_the_play_by_play_is_the_stored_events(api, season) -> None:
    game = Game.objects.filter(season=season).select_related("result").first()
    body = api.get(f"/api/games/{game.pk}/play-by-play/").json()
    assert body["events"] == game.result.events
    assert body["dice"] == {"seed": game.seed} or body["dice"] == game.result.dice
    # Every player an event names is found by his side and name, with the player's id.
    named = {(e["team"], e["player"]) for e in body["events"] if e.get("player")}
    assert named and all(name in body["players"][side] for side, name in named)
    team_of = {"home": game.home_id, "away": game.away_id}
    for side, roster in body["players"].items():
        for name, pk in roster.items():
            assert Player.objects.get(pk=pk).team_id == team_of[side], name


def test_an_unplayed_game_has_no_box_score_yet(api) -> None:
    game = season_scheduled(teams=2).games.get()
    response = api.get(f"/api/games/{game.pk}/box-score/")
    assert response.status_code == 404
    assert response.json() == {
        "detail": f"Game {game.pk} has not been played yet: it is scheduled."
    }
    assert api.get(f"/api/games/{game.pk}/play-by-play/").status_code == 404


def test_season_player_stats_add_up_the_box_scores_and_filter(api, season) -> None:
    url = f"/api/seasons/{season.pk}/player-stats/"
    body = api.get(url).json()
    assert body["count"] == 24
    top = body["results"][0]
    lines = BoxLine.objects.filter(player_id=top["player"])
    assert top["pts"] == sum(line.pts for line in lines)
    assert top["g"] == 3
    assert top["pts_pg"] == pytest.approx(top["pts"] / 3)
    team = top["team"]
    mine = api.get(url, {"team": team}).json()["results"]
    assert len(mine) == 6 and {r["team"] for r in mine} == {team}
    assert [r["player"] for r in api.get(url, {"player": top["player"]}).json()["results"]] == [
        top["player"]
    ]
    rebounds = [r["reb"] for r in api.get(url, {"ordering": "-reb"}).json()["results"]]
    assert rebounds == sorted(rebounds, reverse=True)
    assert api.get("/api/seasons/999999/player-stats/").status_code == 404


def test_leaders_rank_a_category_per_game_or_in_total(api, season) -> None:
    url = f"/api/seasons/{season.pk}/leaders/"
    body = api.get(url, {"category": "reb", "limit": 5}).json()
    expected = selectors.leaders(season_id=season.pk, category="reb", limit=5)
    assert [r["player"] for r in body["results"]] == [r["player_id"] for r in expected]
    values = [r["value"] for r in body["results"]]
    assert [r["rank"] for r in body["results"]] == [
        1 + sum(v > mine for v in values) for mine in values
    ]
    assert body["results"][0]["value"] == pytest.approx(expected[0]["reb_pg"])
    totals = api.get(url, {"category": "blk", "per_game": "false"}).json()["results"]
    assert totals[0]["value"] == expected_total_max(season, "blk")
    # Players level share a place, the best of theirs ("1, 2, 2, 4"), not the alphabet's.
    tied = 0
    for category in selectors.LEADER_CATEGORIES:
        rows = api.get(url, {"category": category, "per_game": "false", "limit": 50}).json()
        values = [r["value"] for r in rows["results"]]
        ranks = [r["rank"] for r in rows["results"]]
        assert ranks == [1 + sum(v > mine for v in values) for mine in values], category
        tied += len(ranks) - len(set(ranks))
    assert tied > 0  # a 4-team season has many a tie in totals: the rule is tried
    refused = api.get(url, {"category": "dunks"})
    assert refused.status_code == 400
    # The refusal names the categories a client may ask for, asked for none or a wrong one.
    assert refused.json()["category"] == [
        '"dunks" is not a category of VABG: use one of '
        + ", ".join(selectors.LEADER_CATEGORIES)
        + "."
    ]
    missing = api.get(url).json()["category"][0]
    assert missing.startswith("Name a category: one of pts, ")


def test_leaders_count_the_rows_ranked_as_every_list_counts_its_rows(api, season) -> None:
    url = f"/api/seasons/{season.pk}/leaders/"
    players = api.get(f"/api/seasons/{season.pk}/player-stats/", {"min_games": 1}).json()
    assert players["count"] < 100
    everyone = api.get(url, {"category": "pts", "limit": 100}).json()
    assert everyone["count"] == len(everyone["results"]) == players["count"]
    paged = api.get(url, {"category": "pts", "limit": 100, "page_size": 10}).json()
    assert (paged["count"], len(paged["results"])) == (players["count"], 10)
    top = api.get(url, {"category": "pts", "limit": 5}).json()
    assert top["count"] == len(top["results"]) == 5


def expected_total_max(season: Season, field: str) -> int:
    return max(r[field] for r in selectors.player_season_stats(season_id=season.pk))


def test_team_stats_match_the_selector_and_order(api, season) -> None:
    url = f"/api/seasons/{season.pk}/team-stats/"
    rows = api.get(url).json()["results"]
    expected = selectors.team_season_stats(season_id=season.pk)
    assert [(r["team"], r["pts"], r["possessions"]) for r in rows] == [
        (e["team_id"], e["pts"], e["possessions"]) for e in expected
    ]
    # Each team's record, as its games' scores say (a stats site reads it beside them).
    for row in rows:
        won = lost = 0
        for game in Game.objects.filter(season=season).select_related("result"):
            if row["team"] in (game.home_id, game.away_id):
                mine, theirs = game.result.home_score, game.result.away_score
                if row["team"] == game.away_id:
                    mine, theirs = theirs, mine
                won, lost = won + (mine > theirs), lost + (mine < theirs)
        assert (row["w"], row["l"], row["w"] + row["l"]) == (won, lost, row["g"])
    assert sum(r["w"] for r in rows) == sum(r["l"] for r in rows) == season.games.count()
    low = api.get(url, {"ordering": "opp_pts"}).json()["results"]
    assert [r["opp_pts"] for r in low] == sorted(r["opp_pts"] for r in rows)
    one = api.get(url, {"team": rows[0]["team"]}).json()["results"]
    assert [r["team"] for r in one] == [rows[0]["team"]]
    refused = api.get(url, {"ordering": "dunks"})
    assert refused.status_code == 400
    assert refused.json() == {
        "ordering": [
            "dunks: not a field to order by; use blk, dreb, fga, fgm, fta, ftm, g, l, opp_pts, "
            "opp_pts_pg, oreb, pf, poss, possessions, pts, pts_per_poss, pts_pg, reb, stl, "
            "team_school, to, tpa, tpm, w (a leading - reverses)."
        ]
    }


def test_a_players_game_log_lists_his_games_in_date_order(api, season) -> None:
    player = Player.objects.filter(team__entries__season=season).first()
    body = api.get(f"/api/players/{player.pk}/games/", {"season": season.pk}).json()
    assert body["count"] == 3
    dates = [r["game_date"] for r in body["results"]]
    assert dates == sorted(dates)
    row = body["results"][0]
    line = BoxLine.objects.get(player=player, result__game_id=row["game"])
    assert (row["pts"], row["side"]) == (line.pts, line.side)
    assert row["opponent"]["id"] != player.team_id
    assert api.get(f"/api/players/{player.pk}/games/", {"season": 999999}).json()["count"] == 0


def test_a_players_game_log_puts_a_later_tournament_after_his_season(
    api, season, django_capture_on_commit_callbacks
) -> None:
    # A tournament's games have no date: they count from the day they were played (not
    # first, as an undated row sorts in SQLite, nor by the view's own date ordering).
    player = Player.objects.filter(team__entries__season=season).first()
    cup = tournaments.tournament_create(
        league=season.league, name="After the season", teams=[player.team, full_team()], seed=4
    )
    play_all(cup, django_capture_on_commit_callbacks)
    rows = api.get(f"/api/players/{player.pk}/games/").json()["results"]
    assert [r["season"] for r in rows] == [season.pk] * 3 + [cup.pk]
    assert rows[-1]["game_date"] is None


def test_a_run_shows_its_progress(api, season) -> None:
    run = SimulationRun.objects.get(season=season)
    body = api.get(f"/api/runs/{run.pk}/").json()
    assert (body["done"], body["total"], body["status"], body["percent"]) == (6, 6, "done", 100)
    assert ids(api.get("/api/runs/", {"season": season.pk})) == [run.pk]


def body(response: Any) -> str:
    """Return an export's whole text: it is streamed, a chunk of rows at a time."""
    assert response.streaming
    return b"".join(response.streaming_content).decode()


def test_box_scores_export_as_csv_and_json(api, season) -> None:
    response = api.get(f"/api/seasons/{season.pk}/export/boxscores.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "boxscores.csv" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(body(response))))
    assert len(rows) == BoxLine.objects.filter(result__game__season=season).count()
    line = BoxLine.objects.select_related("result").get(
        result__game_id=int(rows[0]["game"]), name=rows[0]["name"]
    )
    assert int(rows[0]["pts"]) == line.pts
    as_json = api.get(f"/api/seasons/{season.pk}/export/boxscores/", {"format": "json"})
    assert as_json["Content-Type"].startswith("application/json")
    listed = json.loads(body(as_json))
    assert len(listed) == len(rows)
    assert listed[0]["pts"] == line.pts
    assert listed[0]["game_date"] == rows[0]["game_date"]
    # Each row names its teams by id too (names change) and carries the opening points
    # that make its points add up, as the box score's lines do.
    assert list(rows[0]) == list(ExportBoxLineSerializer().fields)
    for row in rows:
        game = Game.objects.get(pk=int(row["game"]))
        assert {int(row["team_id"]), int(row["opponent_id"])} == {game.home_id, game.away_id}
        pts, fgm, tpm, ftm = (int(row[k]) for k in ("pts", "fgm", "tpm", "ftm"))
        assert pts == int(row["start"]) + 2 * fgm + tpm + ftm


def test_an_empty_season_exports_its_header_row(api) -> None:
    league = services.league_get_or_create(name="Empty exports")
    season = services.season_create(
        league=league, name="Unplayed", teams=[full_team(), full_team()], seed=3
    )
    for what, columns in (("boxscores", ExportBoxLineSerializer),
                          ("player-stats", ExportPlayerStatsSerializer)):  # fmt: skip
        text = body(api.get(f"/api/seasons/{season.pk}/export/{what}.csv"))
        assert text == ",".join(columns().fields) + "\n", what
        as_json = body(api.get(f"/api/seasons/{season.pk}/export/{what}/?format=json"))
        assert json.loads(as_json) == [], what


def test_an_export_streamed_in_small_chunks_holds_every_row_once(api, season, monkeypatch) -> None:
    url = f"/api/seasons/{season.pk}/export/boxscores"
    whole = (body(api.get(f"{url}.csv")), json.loads(body(api.get(f"{url}/?format=json"))))
    monkeypatch.setattr(exports, "ROWS_A_CHUNK", 7)
    csv_response = api.get(f"{url}.csv")
    chunks = list(csv_response.streaming_content)
    assert len(chunks) > BoxLine.objects.filter(result__game__season=season).count() // 7
    assert (b"".join(chunks).decode(), json.loads(body(api.get(f"{url}/?format=json")))) == whole


def test_player_stats_export_as_csv_and_json(api, season) -> None:
    response = api.get(f"/api/seasons/{season.pk}/export/player-stats.csv")
    rows = list(csv.DictReader(io.StringIO(body(response))))
    assert len(rows) == 24
    stats = {r["player_id"]: r for r in selectors.player_season_stats(season_id=season.pk)}
    first = rows[0]
    assert int(first["pts"]) == stats[int(first["player"])]["pts"]
    as_json = json.loads(
        body(api.get(f"/api/seasons/{season.pk}/export/player-stats/?format=json"))
    )
    assert [r["name"] for r in as_json] == [r["name"] for r in rows]
    missing = api.get("/api/seasons/999999/export/player-stats.csv")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    assert missing.json()["detail"]  # an error in JSON, not a one-column CSV


# -- standings and brackets ------------------------------------------------------------------

STANDINGS_FIELDS = (
    "rank", "team_id", "team", "wins", "losses", "pct", "games_behind", "conf_record",
    "home_record", "away_record", "neutral_record", "points_for", "points_against", "diff",
    "streak", "tiebreaker",
)  # fmt: skip


def test_standings_before_any_game_name_no_tiebreaker_as_null(api) -> None:
    """A season with no game played answered tiebreaker "" and, once played, null: one
    value for "no step used", whatever the season's state."""
    season = season_scheduled(teams=4, name="Unplayed")
    tables = api.get(f"/api/seasons/{season.pk}/standings/").json()
    rows = [row for table in tables for row in table["rows"]]
    assert len(rows) == 4 and {row["tiebreaker"] for row in rows} == {None}


def test_standings_rank_each_conference_from_the_stored_scores(
    api, django_capture_on_commit_callbacks
) -> None:
    teams = [full_team(conference=c) for c in ("East", "East", "East", "West", "West", "West")]
    season = services.season_create(
        league=services.league_get_or_create(name="Conferences"),
        name="2003",
        teams=teams,
        conferences={t.pk: t.conference for t in teams},
        seed=11,
    )
    play_all(season, django_capture_on_commit_callbacks)
    response = api.get(f"/api/seasons/{season.pk}/standings/")
    assert response.status_code == 200
    body = response.json()
    assert [table["conference"] for table in body] == ["East", "West"]
    wins = dict.fromkeys((t.pk for t in teams), 0)
    points = dict.fromkeys((t.pk for t in teams), 0)
    for game in Game.objects.filter(season=season).select_related("result"):
        result = game.result
        wins[game.home_id if result.home_score > result.away_score else game.away_id] += 1
        points[game.home_id] += result.home_score
        points[game.away_id] += result.away_score
    for table in body:
        rows = table["rows"]
        assert {r["team_id"] for r in rows} == {
            t.pk for t in teams if t.conference == table["conference"]
        }
        assert [r["rank"] for r in rows] == [1, 2, 3]
        assert [r["wins"] for r in rows] == sorted((r["wins"] for r in rows), reverse=True)
        for row in rows:
            assert (row["wins"], row["wins"] + row["losses"]) == (wins[row["team_id"]], 2)
            assert row["points_for"] == points[row["team_id"]]
            assert row["diff"] == row["points_for"] - row["points_against"]
            assert row["conf_record"] == f"{row['wins']}-{row['losses']}"
    expected = selectors.standings_for_season(season_id=season.pk)
    assert body == [
        {"conference": c, "rows": [{f: r[f] for f in STANDINGS_FIELDS} for r in rows]}
        for c, rows in expected
    ]


def test_standings_before_any_game_show_every_team_at_0_0(api) -> None:
    season = season_scheduled(teams=3)
    (table,) = api.get(f"/api/seasons/{season.pk}/standings/").json()
    assert table["conference"] == ""
    assert [(r["wins"], r["losses"], r["streak"]) for r in table["rows"]] == [(0, 0, "")] * 3
    assert api.get("/api/seasons/999999/standings/").status_code == 404


def test_a_tournament_has_no_standings_and_says_where_its_bracket_is(api) -> None:
    # Its page shows the bracket and no table; the API answered a table of W-L records.
    cup = tournament_drawn(teams=4)
    response = api.get(f"/api/seasons/{cup.pk}/standings/")
    assert response.status_code == 404
    assert response.json() == {
        "detail": f"{cup} is a tournament: it has no standings. Its bracket is at "
        f"/api/seasons/{cup.pk}/bracket/."
    }
    assert api.get(f"/api/seasons/{cup.pk}/bracket/").status_code == 200


def test_a_bracket_shows_byes_then_every_score_and_the_champion(
    api, django_capture_on_commit_callbacks
) -> None:
    cup = tournament_drawn(teams=5)
    url = f"/api/seasons/{cup.pk}/bracket/"
    drawn = api.get(url).json()
    assert [(r["number"], r["name"], len(r["games"])) for r in drawn["rounds"]] == [
        (1, "Round 1", 1),
        (2, "Final Four", 2),
        (3, "Championship", 1),
    ]
    (opener,) = drawn["rounds"][0]["games"]
    assert opener["game_id"] == cup.games.get().pk
    assert (opener["status"], opener["winner_id"]) == ("scheduled", None)
    assert (opener["top"]["seed"], opener["bottom"]["seed"]) == (4, 5)
    waiting = [g for g in drawn["rounds"][1]["games"] if g["bottom"] is None]
    assert [(g["top"]["seed"], g["status"], g["game_id"]) for g in waiting] == [
        (1, "not drawn", None)
    ]
    assert drawn["champion"] is None

    play_all(cup, django_capture_on_commit_callbacks)
    body = api.get(url).json()
    games = {g.pk: g for g in Game.objects.filter(season=cup).select_related("result")}
    assert len(games) == 4
    for round_ in body["rounds"]:
        for slot in round_["games"]:
            game = games[slot["game_id"]]
            assert slot["status"] == "final"
            scores = {game.home_id: game.result.home_score, game.away_id: game.result.away_score}
            assert {slot["top"]["team_id"]: slot["top"]["score"],
                    slot["bottom"]["team_id"]: slot["bottom"]["score"]} == scores  # fmt: skip
            assert slot["winner_id"] == max(scores, key=scores.__getitem__)
    champion = tournaments.champion(cup)
    assert body["champion"] == {
        "team_id": champion.pk,
        "team": str(champion),
        "seed": cup.entries.get(team=champion).seed,
    }
    assert body["rounds"][-1]["games"][0]["winner_id"] == champion.pk


def test_a_season_that_is_not_a_tournament_has_no_bracket(api) -> None:
    season = season_scheduled(teams=2)
    response = api.get(f"/api/seasons/{season.pk}/bracket/")
    assert response.status_code == 404
    assert response.json() == {"detail": f"{season} is not a tournament: it has no bracket."}
    assert api.get("/api/seasons/999999/bracket/").status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/api/players/?season={big}",
        "/api/teams/?season={big}",
        "/api/cards/?season=-{big}",
        "/api/seasons/?team={big}",
        "/api/games/?team={big}",
        "/api/games/?player={big}",
        "/api/seasons/{season}/player-stats/?player=-{big}",
        "/api/players/{player}/games/?season={big}",
    ],
)
def test_an_id_no_column_can_hold_is_refused_not_a_server_error(api, season, url) -> None:
    player = Player.objects.filter(team__entries__season=season).first()
    response = api.get(url.format(big=10**25, season=season.pk, player=player.pk))
    assert response.status_code == 400
    (messages,) = response.json().values()
    assert messages[0].startswith("Ensure this value is ")


def test_ordering_by_a_field_a_list_cannot_order_by_is_refused_naming_those_it_can(api) -> None:
    response = api.get("/api/games/", {"ordering": "-round,bogus"})
    assert response.status_code == 400
    message = response.json()["ordering"][0]
    assert message.startswith("bogus: not a field to order by; use game_date, id, played_at")
    assert api.get("/api/games/", {"ordering": "-round,id"}).status_code == 200


def test_the_schema_offers_search_and_ordering_only_where_a_list_has_them(api) -> None:
    schema = api.get("/api/schema/", {"format": "json"}).json()

    def parameters(path: str) -> dict[str, str]:
        listed = schema["paths"][path]["get"].get("parameters", [])
        return {p["name"]: p.get("description", "") for p in listed}

    games, seasons = parameters("/api/games/"), parameters("/api/seasons/")
    assert "search" not in games  # games have no text to search
    assert games["ordering"].startswith("Order by round, game_date, played_at, id;")
    assert seasons["search"] == "Search in name, league__name."


def test_a_list_is_paged_by_50_or_as_asked_up_to_500_and_a_missing_page_says_which_exist(
    api, season
) -> None:
    count = Player.objects.count()
    assert count > 2
    assert len(api.get("/api/players/").json()["results"]) == min(count, 50)
    two = api.get("/api/players/", {"page_size": 2}).json()
    assert len(two["results"]) == 2 and two["count"] == count
    assert len(api.get("/api/players/", {"page_size": 10_000}).json()["results"]) == min(count, 500)
    last = -(-count // 2)
    for page in (0, -1, last + 1):  # -1 was a 400 and 0 a 404 (a reviewer)
        missing = api.get("/api/players/", {"page_size": 2, "page": page})
        assert missing.status_code == 404
        assert missing.json()["detail"] == (
            f"There is no page '{page}': pages run from 1 to {last} ({count} rows, 2 a page)."
        )
    assert api.get("/api/players/", {"page_size": 2, "page": "last"}).status_code == 200
    # An id that is no number is told as a missing one is, not DRF's bare "Not found."
    assert api.get("/api/teams/abc/").json() == {
        "detail": "No team 'abc': an id is a whole number."
    }
    assert api.get("/api/teams/999999/").json() == {"detail": "No team 999999."}
    empty = api.get("/api/runs/", {"page": 2, "status": "failed"})
    assert empty.json() == {"detail": "There is no page '2': the list is empty."}
    # An odds address names a tournament, and so does its 404.
    assert api.get("/api/tournaments/999999/odds/").json() == {"detail": "No tournament 999999."}
    for page in ("abc", "2.5", "1e3"):  # no page number at all: the request is wrong
        wrong = api.get("/api/players/", {"page_size": 2, "page": page})
        assert wrong.status_code == 400
        assert wrong.json() == {"page": [f"{page!r} is not a page: give a whole number from 1."]}


def test_the_schema_names_every_error_an_operation_can_answer(api, season) -> None:
    schema = api.get("/api/schema/", {"format": "json"}).json()
    operations = [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]
    assert len(operations) > 40
    for path, method, operation in operations:
        codes = set(operation["responses"])
        assert "429" in codes, (path, method)
        if "{" in path:
            assert "404" in codes, (path, method)
        if method != "get":
            assert "400" in codes, (path, method)
        if method != "get" and {} not in operation.get("security", [{}]):
            assert {"401", "403"} <= codes, (path, method)
        # Anywhere: a token that is not valid (DRF checks one wherever it is sent), and a
        # format the address does not give.
        assert {"401", "406"} <= codes, (path, method)
        if "page" in {p["name"] for p in operation.get("parameters", [])}:
            assert "404" in codes, (path, method)  # a page past the last
    # A reviewer's requests whose answers the schema did not list.
    assert api.get("/api/teams/", {"page": 9999}).status_code == 404
    assert api.get("/api/teams/", {"format": "xml"}).status_code == 406
    assert api.get("/api/teams/", HTTP_AUTHORIZATION="Token bad").status_code == 401
    # A body refused by the serializer that reads it has the fields' shape, which the
    # table's and the score sheet's own 400s now document beside theirs.
    field_errors = {"$ref": "#/components/schemas/ValidationError"}
    for path in ("/table/api/games/", "/api/games/{id}/result/", "/table/api/games/{id}/undo/"):
        bad = schema["paths"][path]["post"]["responses"]["400"]["content"]["application/json"]
        assert field_errors in bad["schema"].get("anyOf", [bad["schema"]]), path
    # What the API answers has the shapes the schema gives: an anonymous write is an
    # Error ({"detail"}), a refused body the refused fields, each with its messages.
    refused = api.post("/api/leagues/", {"name": ""}, format="json")
    assert refused.status_code == 401 and set(refused.json()) == {"detail"}
    shape = schema["components"]["schemas"]["ValidationError"]["additionalProperties"]
    assert {"type": "array", "items": {"type": "string"}} in shape["oneOf"]
    body = client_for(commissioner()).post("/api/leagues/", {"name": ""}, format="json").json()
    assert "name" in body
    assert all(isinstance(v, list) and all(isinstance(m, str) for m in v) for v in body.values())


def test_filters_refuse_what_they_cannot_read_and_an_unknown_id_finds_nothing(api, season) -> None:
    assert api.get("/api/games/", {"season": 999_999}).json()["count"] == 0
    assert api.get("/api/players/", {"team": "abc"}).json() == {"team": ["Enter a whole number."]}
    maybe = api.get("/api/games/", {"neutral": "maybe"})
    assert maybe.status_code == 400
    assert "maybe is not one of the available choices" in maybe.json()["neutral"][0]
    games = api.get("/api/games/", {"season": season.pk}).json()["count"]
    assert (
        api.get("/api/games/", {"season": season.pk, "neutral": "false"}).json()["count"] == games
    )
    assert api.get("/api/games/", {"season": season.pk, "neutral": "true"}).json()["count"] == 0
    # A reviewer's "50%" (and "%s") reached django-filter's message formatting: a 500.
    for word in ("50%", "%s", "%(x)s"):
        for name in ("neutral", "conference_game"):
            refused = api.get("/api/games/", {name: word})
            assert refused.status_code == 400, (name, word)
            assert refused.json() == {
                name: [
                    f"{word} is not one of the available choices: true or false (1 or 0, yes or no)."
                ]
            }


def test_a_year_or_a_slot_is_a_whole_number_not_a_decimal_read_as_one(api, season) -> None:
    """/api/teams/?year_min=2018.5 listed the 2018 teams, ?slot=1.9 the slot-1 players:
    the schema says integer, and the games' filters already refused a decimal."""
    for url, name in (
        ("/api/teams/", "year"),
        ("/api/teams/", "year_min"),
        ("/api/teams/", "year_max"),
        ("/api/players/", "year"),
        ("/api/players/", "slot"),
        ("/api/cards/", "year"),
    ):
        for value in ("2018.5", "1e3", "1.9"):
            refused = api.get(url, {name: value})
            assert refused.status_code == 400, (url, name, value)
            assert refused.json() == {name: ["Enter a whole number."]}, (url, name, value)
        refused = api.get(url, {name: 40000})
        assert refused.json() == {name: ["Ensure this value is less than or equal to 32767."]}
    year = Team.objects.first().season
    listed = api.get("/api/teams/", {"year_min": year, "year_max": year}).json()["results"]
    assert listed and {t["season"] for t in listed} == {year}


def test_a_tournament_is_read_at_its_own_address_and_a_league_season_is_sent_to_its_own(
    api, season
) -> None:
    """/api/tournaments/ID/ answered "no address of the API" for every id, though the list's
    rows are tournaments a client then asks for one by one."""
    cup = tournament_drawn(teams=4, name="Read Cup")
    answer = api.get(f"/api/tournaments/{cup.pk}/")
    assert answer.status_code == 200
    assert answer.json() == api.get(f"/api/seasons/{cup.pk}/").json()
    league = api.get(f"/api/tournaments/{season.pk}/")
    assert league.status_code == 404
    assert league.json()["detail"] == (
        f"{season} is a league season, not a tournament: read it at "
        f"http://testserver/api/seasons/{season.pk}/"
    )
    assert api.get("/api/tournaments/999999/").json() == {"detail": "No tournament 999999."}


def test_an_asked_order_keeps_the_lists_own_order_among_rows_level_on_it(api, season) -> None:
    # A client walking the pages of ?ordering=round must meet every game once: rows level on
    # the asked field (a round's games) keep the list's own order, then the id's.
    listed = api.get("/api/games/", {"season": season.pk, "page_size": 500}).json()["results"]
    walked, page = [], 1
    while True:
        answer = api.get(
            "/api/games/", {"season": season.pk, "ordering": "round", "page_size": 2, "page": page}
        ).json()
        walked += [g["id"] for g in answer["results"]]
        if not answer["next"]:
            break
        page += 1
    assert walked == [g["id"] for g in sorted(listed, key=lambda g: g["round"])]


def test_the_browsable_api_offers_only_the_extra_actions_that_answer_here() -> None:
    """A review: a tournament's page offered Standings (404), a league season's Bracket
    (404), and an anonymous visitor Simulate and Retry failed (405 to him)."""
    league_season, cup = season_scheduled(), tournament_drawn()

    def offered(client: Any, season: Season) -> set[str]:
        page = client.get(f"/api/seasons/{season.pk}/", HTTP_ACCEPT="text/html")
        assert page.status_code == 200
        menu = page.content.decode().split("Extra Actions", 1)[1].split("</ul>", 1)[0]
        return set(re.findall(r'href="[^"]*/api/seasons/\d+/([a-z/-]+)/"', menu))

    exports = {"export/boxscores", "export/player-stats"}
    anonymous = client_for(None)
    assert offered(anonymous, league_season) == {"standings", *exports}
    assert offered(anonymous, cup) == {"bracket", *exports}
    commish = client_for(commissioner())
    assert offered(commish, cup) == {"bracket", "simulate", "retry-failed", *exports}
    # An address that names no season still answers its 404 page.
    assert anonymous.get("/api/seasons/nine/", HTTP_ACCEPT="text/html").status_code == 404
