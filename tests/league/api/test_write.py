"""Writing through the API: commissioners only; everyone else gets 401/403 and nothing changes."""

from __future__ import annotations

import copy
import html
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from cards.mapping import team_card, team_document
from cards.models import Card, Player, Team
from league import services, tournaments
from league.models import BoxLine, Game, GameResult, League, Season, SeasonTeam, SimulationRun
from league.services import league_get_or_create
from simulator.dice import ScriptedDice
from simulator.vabg import play_game, preset
from tests.factories import commissioner, fan, full_team, make_season
from tests.league.api import client_for, play_all, season_scheduled, throttle_reset
from tests.openapi import check

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_throttle() -> None:
    throttle_reset()


@pytest.fixture
def commish():  # type: ignore[no-untyped-def]
    return client_for(commissioner())


@pytest.fixture(params=["anonymous", "fan", "staff outside the group"])
def refused(request):  # type: ignore[no-untyped-def]
    """A client that may read but not write, and the status it gets for a write."""
    if request.param == "anonymous":
        return client_for(), 401
    if request.param == "fan":
        return client_for(fan()), 403
    staff = get_user_model().objects.create_user(username="staff", password="x", is_staff=True)
    return client_for(staff), 403


def snapshot() -> dict[str, Any]:
    """Everything a write could change, to compare before and after a refused one."""
    return {
        "leagues": list(League.objects.values()),
        "teams": list(Team.objects.values()),
        "players": list(Player.objects.values()),
        "cards": list(Card.objects.values()),
        "seasons": list(Season.objects.values()),
        "entries": list(SeasonTeam.objects.values()),
        "games": list(Game.objects.values()),
        "results": GameResult.objects.count(),
        "lines": BoxLine.objects.count(),
        "runs": list(SimulationRun.objects.values()),
    }


def assert_refused(response, expected: int) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code == expected
    if expected == 401:
        assert response.json() == {"detail": "Authentication credentials were not provided."}
        assert response["WWW-Authenticate"] == "Token"
    else:
        assert response.json() == {"detail": "Only a commissioner can change the league."}


# -- seasons ---------------------------------------------------------------------------------


def season_body(teams: list[Team], **extra: Any) -> dict[str, Any]:
    league = league_get_or_create(name="Write League")
    return {"league": league.pk, "name": "2030", "teams": [t.pk for t in teams], "seed": 5, **extra}


def test_a_commissioner_creates_a_season_with_its_schedule(commish) -> None:
    teams = [full_team() for _ in range(4)]
    response = commish.post(
        "/api/seasons/", season_body(teams, start_date="2030-01-05", double_round_robin=True)
    )
    assert response.status_code == 201
    body = response.json()
    season = Season.objects.get(pk=body["id"])
    assert (body["name"], body["team_count"], body["game_count"]) == ("2030", 4, 12)
    assert body["games_total"] == 12
    assert season.games.count() == 12
    assert season.seed == 5
    assert str(season.start_date) == "2030-01-05"
    assert response["Location"].endswith(f"/api/seasons/{season.pk}/")


def test_a_created_season_echoes_the_schedule_options_it_was_drawn_by(commish) -> None:
    # The season keeps no such column: the 201 was the only place to read them and left
    # them out, so a client could not tell a double round robin from a single one.
    teams = [full_team() for _ in range(4)]
    sent = {"conferences": "none", "double_round_robin": True, "cross_conference_games": 0,
            "days_between_rounds": 3}  # fmt: skip
    response = commish.post(
        "/api/seasons/",
        season_body(teams, start_date="2030-01-05", home_court=False, **sent),
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["schedule"] == sent
    assert (body["start_date"], body["home_court"]) == ("2030-01-05", False)
    check("/api/seasons/", body, status="201", method="post")
    defaults = commish.post(
        "/api/seasons/", {**season_body(teams), "name": "2031"}, format="json"
    ).json()
    assert defaults["schedule"] == {"conferences": "team", "double_round_robin": False,
                                    "cross_conference_games": 0, "days_between_rounds": 1}  # fmt: skip


def test_others_cannot_create_a_season(refused) -> None:
    client, expected = refused
    body = season_body([full_team() for _ in range(2)])
    before = snapshot()
    assert_refused(client.post("/api/seasons/", body, format="json"), expected)
    assert snapshot() == before


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (lambda a, b: {"teams": [a.pk]}, {"detail": "A season needs at least 2 teams, got 1."}),
        (
            lambda a, b: {"teams": [a.pk, a.pk]},
            lambda a, b: {"teams": [f"Listed twice: team {a.pk}."]},
        ),
        (
            lambda a, b: {"teams": [a.pk, 999999, 999998]},
            {"teams": ["No team 999998, 999999."]},
        ),
        (  # every problem of the list at once, not the second after the first is mended
            lambda a, b: {"teams": [a.pk, a.pk, 999999]},
            lambda a, b: {"teams": ["No team 999999.", f"Listed twice: team {a.pk}."]},
        ),
        (lambda a, b: {"rules": "street"}, {"rules": ['"street" is not a valid choice.']}),
        (  # under the field sent, not the model's slug
            lambda a, b: {"name": "!!!"},
            {"name": ["'!!!' has no letter or digit to make the web address from."]},
        ),
        (
            lambda a, b: {"league": 999999},
            {"league": ["No league 999999."]},
        ),
    ],
)
def test_a_refused_season_says_why_and_writes_nothing(commish, extra, expected) -> None:
    a, b = full_team(), full_team()
    body = season_body([a, b]) | extra(a, b)
    before = snapshot()
    response = commish.post("/api/seasons/", body, format="json")
    assert response.status_code == 400
    assert response.json() == (expected(a, b) if callable(expected) else expected)
    assert snapshot() == before


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"double_round_robbin": True}, "double_round_robbin"),  # a typo: no single round robin
        ({"start": "2027-01-01"}, "start"),
    ],
)
def test_a_field_the_write_does_not_have_is_refused_not_dropped(commish, extra, field) -> None:
    a, b = full_team(), full_team()
    body = season_body([a, b]) | extra
    before = snapshot()
    response = commish.post("/api/seasons/", body, format="json")
    assert response.status_code == 400
    message = response.json()[field][0]
    assert message.startswith("Not a field of this request; it takes league, name, teams,")
    assert "double_round_robin" in message
    assert snapshot() == before
    card = Card.objects.filter(player__team=a).first()
    assert card is not None
    changed = commish.patch(f"/api/cards/{card.pk}/", {"can_ply": 50}, format="json")
    assert changed.status_code == 400 and "can_play" in changed.json()["can_ply"][0]
    assert snapshot() == before


def test_a_schedule_past_the_calendars_last_day_is_refused_naming_start_date(commish) -> None:
    teams = [full_team() for _ in range(3)]
    body = season_body(teams) | {"start_date": "9999-12-31", "double_round_robin": True}
    before = snapshot()
    response = commish.post("/api/seasons/", body, format="json")
    assert response.status_code == 400
    assert "after start_date 9999-12-31, past 9999-12-31" in response.json()["detail"]
    assert snapshot() == before


def test_vabg_settings_sent_for_a_board_game_are_refused_not_dropped(commish) -> None:
    a, b = full_team(), full_team()
    body = season_body([a, b]) | {"game": "sixdice", "rules": "basic", "strategy": True}
    before = snapshot()
    response = commish.post("/api/seasons/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "rules": ["Not a setting of Six dice to 21: its rules are given in options."],
        "strategy": ["Not a setting of Six dice to 21: its rules are given in options."],
    }
    tournament = {"league": body["league"], "name": "T", "teams": [a.pk, b.pk]}
    response = commish.post(
        "/api/tournaments/", tournament | {"game": "gridcourt", "rules": "basic"}, format="json"
    )
    assert response.status_code == 400 and "rules" in response.json()
    assert snapshot() == before
    # Saying nothing is no setting: strategy false (what every six-dice season stores).
    del body["rules"]
    body["strategy"] = False
    created = commish.post("/api/seasons/", body, format="json")
    assert created.status_code == 201, created.json()


def test_a_server_error_under_the_api_answers_json(commish, settings, monkeypatch) -> None:
    # `make run` serves with DEBUG on, where Django answers with its HTML traceback.
    settings.DEBUG = True
    commish.raise_request_exception = False

    def fails(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "season_create", fails)
    teams = [full_team() for _ in range(2)]
    response = commish.post("/api/seasons/", season_body(teams), format="json")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["detail"].startswith("Server error: the request was not carried out")


def test_a_second_season_of_the_same_name_is_refused_in_the_models_words(commish) -> None:
    teams = [full_team() for _ in range(2)]
    assert commish.post("/api/seasons/", season_body(teams), format="json").status_code == 201
    before = snapshot()
    response = commish.post("/api/seasons/", season_body(teams), format="json")
    assert response.status_code == 400
    assert response.json() == {
        "name": [
            "Write League already has the season '2030' (its web address's slug '2030'): give "
            "this one another name."
        ]
    }
    assert snapshot() == before


# -- leagues ---------------------------------------------------------------------------------


def test_a_commissioner_creates_a_league_with_a_slug_from_its_name(commish) -> None:
    body = {"name": "Big Ten Classics", "description": "Only Big Ten teams."}
    response = commish.post("/api/leagues/", body, format="json")
    assert response.status_code == 201
    league = League.objects.get(name="Big Ten Classics")
    assert response.json() == {
        "id": league.pk,
        "name": "Big Ten Classics",
        "slug": "big-ten-classics",
        "description": "Only Big Ten teams.",
        "created_at": response.json()["created_at"],
        "seasons": 0,
    }
    assert client_for().get(f"/api/leagues/{league.pk}/").json()["slug"] == "big-ten-classics"
    assert response["Location"].endswith(f"/api/leagues/{league.pk}/")  # as every 201 says


def test_a_body_nested_too_deeply_is_a_400_not_a_server_error(commish) -> None:
    body = "[" * 5000 + "]" * 5000  # Python's json module recurses once a level
    response = commish.post("/api/leagues/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": "JSON parse error - the JSON is nested too deeply"}
    assert not League.objects.exists()
    # A number past the digits Python converts: said in the API's words, not Python's.
    body = '{"name": "Big", "description": ' + "9" * 5000 + "}"
    response = commish.post("/api/leagues/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": "JSON parse error - a number has more than 4,300 digits"}


def test_a_write_to_an_address_without_its_trailing_slash_is_served_not_redirected(
    commish,
) -> None:
    # A redirect would come back as a GET, and the league would never be made.
    response = commish.post("/api/leagues", {"name": "No Slash League"}, format="json")
    assert response.status_code == 201
    assert League.objects.filter(name="No Slash League").exists()
    assert commish.get("/api/leagues").status_code == 200
    missing = commish.get("/api/nothing-here")
    assert missing.status_code == 404  # JSON like every API error, not the site's page
    assert missing.json()["detail"].startswith("Not found: /api/nothing-here is no address")
    assert commish.get("/api/games/abc/preview/").json()["detail"].startswith("Not found")


def test_an_unknown_api_address_is_a_json_404_with_debug_on_too(commish, settings) -> None:
    # `make run` serves with DEBUG on, where Django answers an unknown address with its
    # HTML page of every route instead of the site's 404.
    settings.DEBUG = True
    for address in ("/api/nope/", "/table/api/nope/", "/api/nope"):
        missing = commish.get(address)
        assert missing.status_code == 404
        assert missing["Content-Type"] == "application/json", address
        assert "is no address of the API" in missing.json()["detail"]
    assert "text/html" in commish.get("/no-such-page/")["Content-Type"]  # the site's own page


def test_others_cannot_create_a_league(refused) -> None:
    client, expected = refused
    before = snapshot()
    assert_refused(client.post("/api/leagues/", {"name": "Mine"}, format="json"), expected)
    assert snapshot() == before


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Big Ten Classics", {"name": ["League with this Name already exists."]}),
        (
            "big ten classics!",
            {"name": ["Another league has the slug 'big-ten-classics' this name makes."]},
        ),
        ("!!!", {"name": ["The name needs a letter or a digit, to make the league's slug."]}),
        ("", {"name": ["This field may not be blank."]}),
    ],
)
def test_a_league_whose_name_or_slug_is_taken_is_refused(commish, name, expected) -> None:
    League.objects.create(name="Big Ten Classics", slug="big-ten-classics")
    before = snapshot()
    response = commish.post("/api/leagues/", {"name": name}, format="json")
    assert response.status_code == 400
    assert response.json() == expected
    assert snapshot() == before


# -- tournaments -----------------------------------------------------------------------------


def cup_body(**extra: Any) -> dict[str, Any]:
    return {"league": league_get_or_create(name="Cup League").pk, "name": "Cup", **extra}


def test_a_commissioner_creates_a_tournament_from_teams_in_seed_order(commish) -> None:
    teams = [full_team() for _ in range(6)]
    response = commish.post(
        "/api/tournaments/",
        cup_body(teams=[t.pk for t in teams], neutral=False, reseed=True, seed=3),
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    cup = Season.objects.get(pk=body["id"])
    assert response["Location"].endswith(f"/api/seasons/{cup.pk}/")
    assert (body["kind"], body["team_count"], body["game_count"]) == ("tournament", 6, 2)
    assert body["games_total"] == 5  # the whole bracket, its later rounds not drawn yet
    assert (cup.reseed, cup.home_court, cup.seed) == (True, True, 3)
    assert dict(cup.entries.values_list("seed", "team_id")) == {
        n: t.pk for n, t in enumerate(teams, start=1)
    }
    # seeds 1 and 2 have byes; round 1 is 3 v 6 and 4 v 5, the better seed at home
    assert {(g.home_id, g.away_id) for g in cup.games.all()} == {
        (teams[2].pk, teams[5].pk),
        (teams[3].pk, teams[4].pk),
    }
    listed = client_for().get("/api/tournaments/").json()
    assert [s["id"] for s in listed["results"]] == [cup.pk]
    assert client_for().get(f"/api/seasons/{cup.pk}/bracket/").status_code == 200


def test_a_tournament_seeds_the_top_of_each_group_of_a_finished_season(
    commish, django_capture_on_commit_callbacks
) -> None:
    teams = [full_team(conference=c) for c in ("East",) * 3 + ("West",) * 3]
    groups = services.season_create(
        league=league_get_or_create(name="Cup League"),
        name="Groups",
        teams=teams,
        conferences={t.pk: t.conference for t in teams},
        seed=4,
    )
    play_all(groups, django_capture_on_commit_callbacks)
    response = commish.post(
        "/api/tournaments/", cup_body(from_season=groups.pk, advance=2), format="json"
    )
    assert response.status_code == 201
    cup = Season.objects.get(pk=response.json()["id"])
    tables = dict(services_standings(groups))
    winners = {tables["East"][0]["team_id"], tables["West"][0]["team_id"]}
    runners_up = {tables["East"][1]["team_id"], tables["West"][1]["team_id"]}
    seeded = dict(cup.entries.values_list("seed", "team_id"))
    assert {seeded[1], seeded[2]} == winners
    assert {seeded[3], seeded[4]} == runners_up
    assert cup.games.count() == 2
    # A tournament is no group stage, even once finished.
    play_all(cup, django_capture_on_commit_callbacks)
    again = commish.post(
        "/api/tournaments/", cup_body(name="Again", from_season=cup.pk), format="json"
    )
    assert again.status_code == 400
    assert "is a tournament: a group stage is a round-robin season" in again.json()["detail"]


def services_standings(season: Season) -> list[tuple[str, list[dict[str, Any]]]]:
    from league.selectors import standings_for_season

    return standings_for_season(season_id=season.pk)


def field_file(path, teams: list[Team]) -> tuple[str, Any]:  # type: ignore[no-untyped-def]
    """Write a field file of ``teams``, 24 to a region in seed order; return its FIELDS entry."""
    regions = ["West", "East", "Midwest", "South"]
    rows = [f"{t.school},{t.season},{regions[n // 24]},{n % 24 + 1}" for n, t in enumerate(teams)]
    path.write_text("school,season,region,seed\n" + "\n".join(rows) + "\n")
    return ("the all-time field", path)


def test_a_commissioner_creates_the_alltime_96_field(commish, tmp_path, monkeypatch) -> None:
    teams = [full_team() for _ in range(96)]
    monkeypatch.setitem(tournaments.FIELDS, "alltime-96", field_file(tmp_path / "96.csv", teams))
    response = commish.post("/api/tournaments/", cup_body(field="alltime-96"), format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["team_count"], body["game_count"], body["games_total"]) == (96, 32, 95)
    cup = Season.objects.get(pk=body["id"])
    assert cup.entries.get(team=teams[24]).region == "East"
    assert cup.entries.get(team=teams[24]).seed == 1


def test_the_alltime_field_names_every_team_not_loaded(commish, tmp_path, monkeypatch) -> None:
    loaded = full_team()
    path = tmp_path / "field.csv"
    path.write_text(
        "school,season,region,seed\n"
        f"{loaded.school},{loaded.season},East,1\nNowhere,1950,East,2\nAtlantis,1900,West,1\n"
    )
    monkeypatch.setitem(tournaments.FIELDS, "alltime-96", ("the all-time field", path))
    body = cup_body(field="alltime-96")
    before = snapshot()
    response = commish.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "2 teams of the all-time field are not loaded: "
        "Nowhere 1950 (East #2), Atlantis 1900 (West #1)."
    }
    assert snapshot() == before


def test_others_cannot_create_a_tournament(refused) -> None:
    client, expected = refused
    body = cup_body(teams=[full_team().pk for _ in range(4)])
    before = snapshot()
    assert_refused(client.post("/api/tournaments/", body, format="json"), expected)
    assert snapshot() == before


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            lambda a, b, s: {},
            {
                "non_field_errors": [
                    "Give exactly one of teams (in seed order), field or from_season."
                ]
            },
        ),
        (
            lambda a, b, s: {"teams": [a.pk, b.pk], "from_season": s.pk},
            {
                "non_field_errors": [
                    "Give exactly one of teams (in seed order), field or from_season."
                ]
            },
        ),
        (
            lambda a, b, s: {"teams": [a.pk, b.pk], "advance": 2},
            {"advance": ["Give advance with from_season."]},
        ),
        (lambda a, b, s: {"teams": [a.pk]}, {"detail": "A bracket needs at least 2 teams, got 1."}),
        (
            lambda a, b, s: {"teams": [a.pk, b.pk, a.pk]},
            lambda a, b, s: {"teams": [f"Listed twice: team {a.pk}."]},
        ),
        (lambda a, b, s: {"teams": [a.pk, 999999]}, {"teams": ["No team 999999."]}),
        (  # both at once (a trial's client was told one, then the other)
            lambda a, b, s: {"teams": [a.pk, a.pk, 999999]},
            lambda a, b, s: {"teams": ["No team 999999.", f"Listed twice: team {a.pk}."]},
        ),
        (
            lambda a, b, s: {"field": "alltime-64"},
            {"field": ['"alltime-64" is not a valid choice.']},
        ),
        (
            lambda a, b, s: {"from_season": s.pk},
            lambda a, b, s: {"detail": f"{s} is not finished: play every group game first."},
        ),
        (
            lambda a, b, s: {"from_season": 999999},
            {"from_season": ["No season 999999."]},
        ),
    ],
)
def test_a_refused_tournament_says_why_and_writes_nothing(commish, extra, expected) -> None:
    a, b = full_team(), full_team()
    unfinished = season_scheduled(teams=2)
    body = cup_body(**extra(a, b, unfinished))
    before = snapshot()
    response = commish.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400
    assert response.json() == (expected(a, b, unfinished) if callable(expected) else expected)
    assert snapshot() == before


def test_a_group_stage_without_enough_teams_per_group_is_refused(
    commish, django_capture_on_commit_callbacks
) -> None:
    groups = season_scheduled(teams=3)
    play_all(groups, django_capture_on_commit_callbacks)
    body = cup_body(from_season=groups.pk, advance=4)
    before = snapshot()
    response = commish.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "4 teams of each group cannot go through: Group has 3 teams."
    }
    assert snapshot() == before


def test_a_second_tournament_of_the_same_name_is_refused(commish) -> None:
    teams = [full_team().pk for _ in range(2)]
    assert (
        commish.post("/api/tournaments/", cup_body(teams=teams), format="json").status_code == 201
    )
    before = snapshot()
    response = commish.post("/api/tournaments/", cup_body(teams=teams), format="json")
    assert response.status_code == 400
    assert response.json() == {
        "name": [
            "Cup League already has the season 'Cup' (its web address's slug 'cup'): give "
            "this one another name."
        ]
    }
    assert snapshot() == before


# -- simulations -----------------------------------------------------------------------------


def test_a_commissioner_simulates_a_round_and_polls_the_run(
    commish, django_capture_on_commit_callbacks
) -> None:
    season = season_scheduled(teams=4)
    with django_capture_on_commit_callbacks(execute=True):
        response = commish.post(
            f"/api/seasons/{season.pk}/simulate/", {"scope": "round", "round": 1}, format="json"
        )
    assert response.status_code == 202
    run_id = response.json()["id"]
    assert response["Location"].endswith(f"/api/runs/{run_id}/")
    run = SimulationRun.objects.get(pk=run_id)
    assert (run.scope, run.round, run.total) == ("round", 1, 2)
    progress = client_for().get(f"/api/runs/{run_id}/").json()
    assert (progress["done"], progress["total"], progress["status"], progress["percent"]) == (
        2,
        2,
        "done",
        100,
    )
    assert season.games.filter(status="final").count() == 2
    assert season.games.filter(status="final").exclude(round=1).count() == 0
    # The same round again: nothing is left to play, so nothing was queued (200, not 202).
    with django_capture_on_commit_callbacks(execute=True):
        again = commish.post(
            f"/api/seasons/{season.pk}/simulate/", {"scope": "round", "round": 1}, format="json"
        )
    assert again.status_code == 200
    assert (again.json()["total"], again.json()["status"]) == (0, "done")
    # done as it began, not a few microseconds before it was created
    assert again.json()["finished_at"] == again.json()["created_at"]
    # Asked again and again (a script every minute): that run of nothing is the answer, not
    # a new row of /api/runs/ each time; other games' run of nothing is a run of its own.
    runs = SimulationRun.objects.count()
    for _ in range(3):
        repeated = commish.post(
            f"/api/seasons/{season.pk}/simulate/", {"scope": "round", "round": 1}, format="json"
        )
        assert (repeated.status_code, repeated.json()["id"]) == (200, again.json()["id"])
    assert SimulationRun.objects.count() == runs


@pytest.mark.django_db(transaction=True)  # the games are sent as the view's transaction commits
def test_with_the_broker_down_a_simulation_is_kept_queued_and_said_so_not_a_server_error(
    commish, monkeypatch, client
) -> None:
    """An operator's review: with Redis down, the API's simulate and the admin's actions
    answered 500 with a traceback, though the run and its queued games were stored."""
    from kombu.exceptions import OperationalError as BrokerError

    from league import background, tasks

    def down(**kwargs: Any) -> None:
        raise BrokerError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")

    monkeypatch.setattr(background, "in_process", lambda: False)
    monkeypatch.setattr(background, "available", lambda: True)
    monkeypatch.setattr(tasks.simulate_games, "delay", down)
    season = season_scheduled(teams=4)
    response = commish.post(f"/api/seasons/{season.pk}/simulate/", {"scope": "all"}, format="json")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    said = response.json()["detail"]
    assert said.startswith("The games are stored as queued, but the broker (")
    assert "cannot be reached (Error 111 connecting to 127.0.0.1:6399" in said
    assert "the sweeper sends them to the workers once it answers" in said
    run = SimulationRun.objects.get(season=season)  # kept, its games queued for the sweeper
    assert run.total == 6 and season.games.filter(queued_at__isnull=False).count() == 6
    # The admin's "Simulate the selected games" says the same as a warning, not a 500.
    client.force_login(commissioner())
    changelist = "/admin/league/game/"
    games = [str(pk) for pk in season.games.values_list("pk", flat=True)[:2]]
    page = client.post(
        changelist,
        {"action": "simulate_selected", "_selected_action": games},
        follow=True,
    )
    assert page.status_code == 200
    assert "The games are stored as queued, but the broker (" in page.content.decode()


def test_a_run_no_worker_has_taken_for_a_minute_says_so_on_its_pages_and_in_the_api(
    commish, client
) -> None:
    """An operator's review: with every worker stopped a run read "running 0 of 6" for ever
    on the season's page, the admin's run page and the API, with nothing to say why."""
    from datetime import timedelta

    from django.utils import timezone

    season = season_scheduled(teams=4)
    run = SimulationRun.objects.create(season=season, scope="all", total=6, dispatch=True)
    season.games.update(run=run, queued_at=timezone.now())
    url = f"/api/runs/{run.pk}/"
    assert client_for().get(url).json()["stalled"] is None  # just started
    SimulationRun.objects.filter(pk=run.pk).update(created_at=timezone.now() - timedelta(minutes=2))
    said = client_for().get(url).json()["stalled"]
    assert said.startswith("No worker has taken a game of this run for about 2 minutes: the ")
    assert said in html.unescape(client.get(f"/seasons/{season.pk}/").content.decode())
    client.force_login(commissioner())
    page = client.get(f"/admin/league/simulationrun/{run.pk}/change/").content.decode()
    assert said in html.unescape(page)
    # A worker holding one of its games: it is moving, nothing said.
    game = season.games.first()
    Game.objects.filter(pk=game.pk).update(lease_expires_at=timezone.now() + timedelta(seconds=30))
    assert client_for().get(url).json()["stalled"] is None


@pytest.mark.parametrize(
    ("body", "played"),
    [
        ({"scope": "all"}, 6),
        ({"scope": "date", "date": "2001-01-02"}, 2),
        ({"scope": "until", "date": "2001-01-02"}, 4),
        ({"scope": "game"}, 1),
    ],
)
def test_every_scope_plays_its_games(
    commish, django_capture_on_commit_callbacks, body, played
) -> None:
    season = season_scheduled(teams=4)
    if body["scope"] == "game":
        body = body | {"game": season.games.order_by("pk").first().pk}
    with django_capture_on_commit_callbacks(execute=True):
        response = commish.post(f"/api/seasons/{season.pk}/simulate/", body, format="json")
    assert response.status_code == 202
    assert response.json()["total"] == played
    progress = client_for().get(f"/api/runs/{response.json()['id']}/").json()
    assert (progress["done"], progress["status"]) == (played, "done")
    assert season.games.filter(status="final").count() == played


def test_others_cannot_start_a_simulation(refused, django_capture_on_commit_callbacks) -> None:
    client, expected = refused
    season = season_scheduled(teams=2)
    before = snapshot()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(f"/api/seasons/{season.pk}/simulate/", {"scope": "all"})
    assert_refused(response, expected)
    assert callbacks == []
    assert snapshot() == before


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"scope": "round"}, {"detail": "A round simulation needs the round number."}),
        ({"scope": "until"}, {"detail": "A simulation up to a date needs the date."}),
        ({"scope": "game"}, {"detail": "A one-game simulation needs the game."}),
        ({"scope": "week"}, {"scope": ['"week" is not a valid choice.']}),
        # A value the scope would ignore, and a round or day the schedule does not have:
        # refused, not a run of no games.
        ({"scope": "all", "round": 3}, {"round": ["scope=all reads no round."]}),
        (
            {"scope": "round", "round": 999},
            {"detail": "2-team season has no round 999 (its rounds are 1-1)."},
        ),
        (
            {"scope": "date", "date": "1999-01-01"},
            {"detail": "2-team season has no game on 1999-01-01."},
        ),
        (
            {"scope": "date", "date": "2026-02-30"},
            {"date": ["2026-02-30 is no day of the calendar."]},
        ),
    ],
)
def test_a_simulation_without_what_its_scope_needs_is_refused(commish, body, expected) -> None:
    season = season_scheduled(teams=2)
    if "detail" in expected and "2-team season" in expected["detail"]:
        expected = {"detail": expected["detail"].replace("2-team season", str(season))}
    before = snapshot()
    response = commish.post(f"/api/seasons/{season.pk}/simulate/", body, format="json")
    assert response.status_code == 400
    assert response.json() == expected
    assert snapshot() == before


@pytest.mark.parametrize("value", [32_768, 2**31, 2**63, 10**30])
def test_a_round_no_column_can_hold_is_a_400_naming_the_field(commish, value) -> None:
    season = season_scheduled(teams=2)
    before = snapshot()
    response = commish.post(
        f"/api/seasons/{season.pk}/simulate/", {"scope": "round", "round": value}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"round": ["Ensure this value is less than or equal to 32767."]}
    assert snapshot() == before


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("days_between_rounds", 366, "Ensure this value is less than or equal to 365."),
        ("days_between_rounds", 2**63, "Ensure this value is less than or equal to 365."),
        ("cross_conference_games", 2**40, "Ensure this value is less than or equal to 32767."),
        ("seed", 2**63, f"Ensure this value is less than or equal to {2**63 - 1}."),
    ],
)
def test_a_season_number_out_of_range_is_a_400_naming_the_field(
    commish, field, value, message
) -> None:
    body = season_body([full_team() for _ in range(2)], **{field: value})
    before = snapshot()
    response = commish.post("/api/seasons/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {field: [message]}
    assert snapshot() == before


def test_a_game_of_another_season_is_refused(commish) -> None:
    season = season_scheduled(teams=2)
    other = season_scheduled(teams=2, name="2002").games.get()
    before = snapshot()
    response = commish.post(
        f"/api/seasons/{season.pk}/simulate/", {"scope": "game", "game": other.pk}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["detail"].endswith(f"is not a game of {season}.")
    assert snapshot() == before


# -- table-top games -------------------------------------------------------------------------


@pytest.fixture
def table_game() -> Game:
    """A scheduled season game, not played."""
    return season_scheduled(teams=2).games.select_related("home", "away").get()


def roster(team: Team) -> list[str]:
    return list(team.players.order_by("order").values_list("name", flat=True))


def test_a_commissioner_enters_a_score_sheet_with_every_line(commish, table_game) -> None:
    home, away = roster(table_game.home), roster(table_game.away)
    sheet = {
        "home_score": 71,
        "away_score": 64,
        "overtimes": 1,
        "home_lines": [
            {"name": home[0], "pts": 41, "fgm": 17, "fga": 30, "tpm": 3, "tpa": 8, "ftm": 4,
             "fta": 5, "oreb": 2, "dreb": 5},
            {"name": home[1], "pts": 30, "fgm": 12, "fga": 20, "ftm": 6, "fta": 6},
        ],
        "away_lines": [{"name": away[2], "pts": 64, "fgm": 30, "fga": 60, "ftm": 4, "fta": 9}],
    }  # fmt: skip
    response = commish.post(f"/api/games/{table_game.pk}/result/", sheet, format="json")
    assert response.status_code == 201
    assert response["Location"].endswith(f"/api/games/{table_game.pk}/box-score/")
    body = response.json()
    assert (body["status"], body["kind"]) == ("final", "real_dice")
    assert (body["home_score"], body["away_score"], body["overtimes"]) == (71, 64, 1)
    result = GameResult.objects.get(game=table_game)
    assert (result.home_score, result.away_score) == (71, 64)
    first = result.lines.get(side="home", name=home[0])
    assert (first.pts, first.fgm, first.reb, first.player.name) == (41, 17, 7, home[0])
    box = client_for().get(f"/api/games/{table_game.pk}/box-score/").json()
    assert [line["name"] for line in box["sides"][1]["lines"]] == home[:2]
    assert box["sides"][0]["totals"]["pts"] == 64


def test_a_score_alone_is_a_score_sheet(commish, table_game) -> None:
    response = commish.post(
        f"/api/games/{table_game.pk}/result/", {"home_score": 60, "away_score": 62}, format="json"
    )
    assert response.status_code == 201
    assert (response.json()["home_score"], response.json()["away_score"]) == (60, 62)
    assert not BoxLine.objects.exists()


def test_a_score_sheet_that_does_not_add_up_lists_every_problem(commish, table_game) -> None:
    home = roster(table_game.home)
    sheet = {
        "home_score": 70,
        "away_score": 70,
        "home_lines": [
            {"name": "Nobody", "pts": 10, "fgm": 6, "fga": 5},
            {"name": home[0], "pts": "ten"},
            {"pts": 0},
        ],
    }
    before = snapshot()
    response = commish.post(f"/api/games/{table_game.pk}/result/", sheet, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "The score sheet is refused: 6 problems; nothing was written.",
        "problems": [
            "a VABG game never ends tied (70-70)",
            f"home: 'Nobody' is not on the {table_game.home} roster",
            "home: Nobody: fgm is more than fga",
            f"home: {home[0]}: pts must be a whole number 0-32767",
            "home: line 3 names no player (its name)",
            "home: the players' points add up to 10, not the score 70",
        ],
    }
    assert snapshot() == before


def test_a_vabg_score_under_20_is_refused_and_a_sheet_stored_keeps_no_seed(
    commish, table_game
) -> None:
    """A reviewer typed in 3-1, stored as final ("beat ... 3-1"), though a VABG game starts
    20-20; and the stored game kept the seed the API says replays it exactly."""
    before = snapshot()
    refused = commish.post(
        f"/api/games/{table_game.pk}/result/", {"home_score": 3, "away_score": 1}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["problems"] == [
        "a VABG game starts 20-20 and no play takes a point away: home 3, away 1 cannot end one"
    ]
    assert snapshot() == before
    assert table_game.seed is not None
    stored = commish.post(
        f"/api/games/{table_game.pk}/result/", {"home_score": 71, "away_score": 20}, format="json"
    )
    assert stored.status_code == 201
    assert stored.json()["seed"] is None
    table_game.refresh_from_db()
    assert (table_game.status, table_game.seed) == (Game.Status.FINAL, None)


@pytest.mark.parametrize(
    ("sheet", "expected"),
    [
        ({"home_score": 70}, {"away_score": ["This field is required."]}),
        (
            {"home_score": 70, "away_score": 99999},
            {"away_score": ["Ensure this value is less than or equal to 32767."]},
        ),
        (
            {"home_score": 70, "away_score": 60, "home_lines": [3]},
            {"home_lines": {"0": ['Expected a dictionary of items but got type "int".']}},
        ),
    ],
)
def test_a_malformed_score_sheet_is_refused(commish, table_game, sheet, expected) -> None:
    before = snapshot()
    response = commish.post(f"/api/games/{table_game.pk}/result/", sheet, format="json")
    assert response.status_code == 400
    assert response.json() == expected
    assert snapshot() == before


def dice_file(seed: int = 1, rolls: int = 4000) -> dict[str, Any]:
    """A vabg-dice/1 file with more rolls of each die than any game needs."""
    rng = random.Random(seed)
    faces = {"d8": 8, "d6": 6, "d20": 20}
    return {
        "format": "vabg-dice/1",
        **{die: [rng.randint(1, n) for _ in range(rolls)] for die, n in faces.items()},
    }


def test_a_commissioner_plays_a_game_from_its_dice_file(commish, table_game) -> None:
    script = dice_file()
    response = commish.post(f"/api/games/{table_game.pk}/dice/", script, format="json")
    assert response.status_code == 201
    expected = play_game(
        team_card(table_game.home),
        team_card(table_game.away),
        ScriptedDice.from_json(script),
        rules=preset(table_game.rules, strategy=table_game.strategy),
        neutral=table_game.neutral,
    )
    result = GameResult.objects.get(game=table_game)
    assert (result.home_score, result.away_score) == (expected.home.score, expected.away.score)
    assert (response.json()["home_score"], response.json()["status"]) == (
        expected.home.score,
        "final",
    )
    assert result.dice["format"] == "vabg-dice/1"
    assert result.lines.count() == 12


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        (
            {"format": "vabg-dice/1", "d8": [1], "d6": [], "d20": []},
            "the dice script ran out: a ",
        ),
        (
            {"format": "vabg-dice/2", "d8": [9]},
            "The dice file is refused: ",
        ),
        ([1, 2, 3], "a dice file must be a JSON object"),
    ],
)
def test_a_dice_file_that_cannot_play_the_game_stores_nothing(
    commish, table_game, script, expected
) -> None:
    before = snapshot()
    response = commish.post(f"/api/games/{table_game.pk}/dice/", script, format="json")
    assert response.status_code == 400
    assert expected in response.json()["detail"]
    assert response.json()["detail"].endswith(".")
    assert snapshot() == before


@pytest.mark.parametrize(
    ("path", "body", "expected"),
    [
        ("result", {"home_score": 1, "away_score": 0}, "its result cannot be entered again"),
        ("dice", dice_file(), "it cannot be played again from dice"),
    ],
)
def test_a_final_game_cannot_be_entered_again(commish, table_game, path, body, expected) -> None:
    services.game_play(game_id=table_game.pk)
    before = snapshot()
    response = commish.post(f"/api/games/{table_game.pk}/{path}/", body, format="json")
    assert response.status_code == 409
    assert response.json() == {"detail": f"Game {table_game.pk} is already final: {expected}."}
    assert snapshot() == before


@pytest.mark.parametrize(
    ("path", "body"),
    [("result", {"home_score": 1, "away_score": 0}), ("dice", dice_file())],
)
def test_others_cannot_store_a_table_top_game(refused, table_game, path, body) -> None:
    client, expected = refused
    before = snapshot()
    assert_refused(
        client.post(f"/api/games/{table_game.pk}/{path}/", body, format="json"), expected
    )
    assert snapshot() == before


def test_a_table_top_game_that_does_not_exist_is_a_404(commish) -> None:
    sheet = {"home_score": 1, "away_score": 0}
    assert commish.post("/api/games/999999/result/", sheet, format="json").status_code == 404
    assert commish.post("/api/games/999999/dice/", dice_file(), format="json").status_code == 404


# -- team files ------------------------------------------------------------------------------


@pytest.fixture
def team_file() -> dict[str, Any]:
    """A valid vabg-team/1 document of a team that is not in the database."""
    team = full_team(school="Kentucky", season=2012)
    document = team_document(team)
    team.delete()
    return document


def test_a_commissioner_imports_a_team_file_and_again_changes_nothing(commish, team_file) -> None:
    response = commish.post("/api/teams/import/", team_file, format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["created"], body["detail"]) == (True, "Kentucky 2012: created.")
    team = Team.objects.get(school="Kentucky", season=2012)
    assert body["team"]["id"] == team.pk
    assert response["Location"].endswith(f"/api/teams/{team.pk}/")
    assert len(body["team"]["roster"]) == team.players.count() == 6
    assert team_document(team) == team_file
    again = commish.post("/api/teams/import/", team_file, format="json")
    assert again.status_code == 200
    assert (again.json()["created"], again.json()["changed"]) == (False, False)


def test_importing_a_changed_file_updates_the_team_in_place(commish, team_file) -> None:
    commish.post("/api/teams/import/", team_file, format="json")
    changed = copy.deepcopy(team_file)
    changed["players"][0]["steal_top"] = 20
    response = commish.post("/api/teams/import/", changed, format="json")
    assert response.status_code == 200
    assert response.json()["changed"] is True
    assert Team.objects.filter(school="Kentucky").count() == 1
    name = changed["players"][0]["name"]
    assert Card.objects.get(player__name=name, team__school="Kentucky").steal_top == 20


def test_a_bad_team_file_lists_every_problem_and_writes_nothing(commish, team_file) -> None:
    bad = copy.deepcopy(team_file)
    bad["school"] = ""
    bad["players"][0]["steal_top"] = 99
    before = snapshot()
    response = commish.post("/api/teams/import/", bad, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["detail"].startswith("The team file is refused: ")
    assert body["detail"].endswith("; nothing was written.")
    assert any(p.startswith("team file: school:") for p in body["problems"])
    assert any("steal_top" in p for p in body["problems"])
    assert len(body["problems"]) >= 2
    assert snapshot() == before


def test_a_team_file_that_is_not_an_object_is_refused(commish) -> None:
    response = commish.post("/api/teams/import/", [1, 2], format="json")
    assert response.status_code == 400
    assert response.json()["problems"] == ["team file: a team file must be a JSON object"]


def test_others_cannot_import_a_team_file(refused, team_file) -> None:
    client, expected = refused
    before = snapshot()
    assert_refused(client.post("/api/teams/import/", team_file, format="json"), expected)
    assert snapshot() == before


# -- cards -----------------------------------------------------------------------------------


@pytest.fixture
def card() -> Card:
    return (
        Card.objects.filter(role="starter").select_related("player").get(team=full_team(), slot=2)
    )


def test_a_commissioner_edits_a_card(card) -> None:
    user = commissioner()
    response = client_for(user).patch(
        f"/api/cards/{card.pk}/", {"steal_top": 22, "extra_ball": 1}, format="json"
    )
    assert response.status_code == 200
    assert (response.json()["steal_top"], response.json()["ball_numbers"]) == (22, "2&7")
    card.refresh_from_db()
    assert (card.steal_top, card.ball_numbers) == (22, "2&7")
    assert card.history.first().history_user == user


def test_a_card_edit_that_would_leave_the_team_unplayable_is_refused_and_not_saved(
    card,
) -> None:
    commish = client_for(commissioner())
    # Benching slot 2's only starter would leave a team no season, matchup or team file
    # could use (moving him to slot 1, where a starter stands, the card's own rule refuses).
    response = commish.patch(f"/api/cards/{card.pk}/", {"role": "reserve"}, format="json")
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "would be left unplayable: slot 2 (SG) has no starter" in detail
    assert "Nothing was saved" in detail
    card.refresh_from_db()
    assert (card.slot, card.role) == (2, "starter")
    # The slot-1 starter benched, then slot 2's moved there: the first step is refused.
    first = Card.objects.get(team=card.team, slot=1, role="starter")
    response = commish.patch(f"/api/cards/{first.pk}/", {"role": "reserve"}, format="json")
    assert response.status_code == 400
    assert "slot 1 (PG) has no starter" in response.json()["detail"]
    assert commish.get(f"/api/teams/{card.team_id}/file/").status_code == 200


def test_a_commissioner_can_write_with_a_token(card) -> None:
    token = Token.objects.create(user=commissioner())
    client = client_for()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = client.patch(f"/api/cards/{card.pk}/", {"can_play": 40}, format="json")
    assert response.status_code == 200
    card.refresh_from_db()
    assert card.can_play == 40


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"steal_top": 99},
            {"steal_top": ["The steal range top must be 10 to 30, as on a VABG card."]},
        ),
        ({"slot": 9}, {"slot": ["The slot must be 1 to 5 (PG, SG, SF, PF, C)."]}),
        ({"role": "captain"}, {"role": ["The role must be starter or reserve."]}),
        (
            {"positions": [7]},
            {
                "positions": [
                    "The positions must be a non-empty list of distinct numbers 0-5, got [7]."
                ]
            },
        ),
        (
            {"d20_made3_hi": 4},
            {
                "non_field_errors": [
                    "The d20 ranges cover 3-4 more than once (3PM and 2PM).",
                ]
            },
        ),
        ({"slot": 1}, {"non_field_errors": ["This team already has a starter in this slot."]}),
    ],
)
def test_a_card_edit_breaking_a_card_rule_answers_the_cards_own_message(
    commish, card, change, expected
) -> None:
    before = snapshot()
    response = commish.patch(f"/api/cards/{card.pk}/", change, format="json")
    assert response.status_code == 400
    assert response.json() == expected
    assert snapshot() == before


def test_a_card_edit_names_every_problem_at_once(commish, card) -> None:
    # A value DRF cannot read and one the card's rules refuse: both in one answer, not the
    # second only after the first is mended.
    before = snapshot()
    response = commish.patch(
        f"/api/cards/{card.pk}/", {"can_play": 99, "steal_top": "x"}, format="json"
    )
    assert response.status_code == 400
    errors = response.json()
    assert set(errors) == {"can_play", "steal_top"}, errors
    assert "0 to 66" in errors["can_play"][0] and "valid integer" in errors["steal_top"][0]
    assert snapshot() == before


def test_others_cannot_edit_a_card(refused, card) -> None:
    client, expected = refused
    before = snapshot()
    assert_refused(
        client.patch(f"/api/cards/{card.pk}/", {"steal_top": 22}, format="json"), expected
    )
    assert snapshot() == before


def test_a_card_is_edited_with_patch_only(commish, card) -> None:
    response = commish.put(f"/api/cards/{card.pk}/", {"steal_top": 22}, format="json")
    assert response.status_code == 405
    assert commish.delete(f"/api/cards/{card.pk}/").status_code == 405
    assert Card.objects.filter(pk=card.pk).exists()


def test_a_method_no_one_may_use_is_405_to_everyone_before_credentials(
    refused, commish, card
) -> None:
    """DRF checked the credentials first: an anonymous DELETE of a card was 401 and a fan's
    403 "Only a commissioner can change the league", beside an Allow without DELETE."""
    client, _ = refused
    for who in (client, commish):
        for url in (f"/api/cards/{card.pk}/", "/api/teams/", "/api/seasons/"):
            response = who.delete(url)
            assert response.status_code == 405, (url, response.content)
            assert response.json() == {"detail": 'Method "DELETE" not allowed.'}
            assert "DELETE" not in response["Allow"]


def test_reads_stay_open_to_everyone(refused, card) -> None:
    client, _ = refused
    assert client.get(f"/api/cards/{card.pk}/").status_code == 200
    assert client.get("/api/seasons/").status_code == 200


def test_games_not_played_yet_sort_last_going_up_as_on_postgresql(
    commish, django_capture_on_commit_callbacks
) -> None:
    season = season_scheduled(teams=4)
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="round", round=1)
    up = commish.get("/api/games/", {"season": season.pk, "ordering": "played_at"}).json()
    down = commish.get("/api/games/", {"season": season.pk, "ordering": "-played_at"}).json()
    assert [g["played_at"] is None for g in up["results"]] == [False] * 2 + [True] * 4
    assert [g["played_at"] is None for g in down["results"]] == [True] * 4 + [False] * 2


@pytest.mark.parametrize("name", ["sixdice", "gridcourt"])
def test_player_lines_of_a_board_games_season_are_refused_naming_the_game(name: str) -> None:
    # A played board-game season has no player lines: an empty answer would read as "no
    # game played yet".
    season = make_season(game=name, seed=5)
    game = season.games.order_by("pk").first()
    services.game_simulate(game_id=game.pk)
    client = client_for()
    for address in (
        f"/api/seasons/{season.pk}/player-stats/",
        f"/api/seasons/{season.pk}/export/boxscores.csv",
        f"/api/seasons/{season.pk}/export/player-stats.csv",
    ):
        answer = client.get(address)
        assert answer.status_code == 400, address
        # A trial (2026-11-29) found grid court's refusal saying its box score is "one line a
        # team": its box score has a line a piece, which the answer names and points to.
        said = answer.content.decode()
        if name == "sixdice":
            assert "whose box score is one line a team: it has no player lines" in said
        else:
            assert "one line a team" not in said
            assert "whose box score has a line a piece, not a player" in said
            assert f"/api/seasons/{season.pk}/leaders/" in said
    assert client.get(f"/api/seasons/{season.pk}/team-stats/").status_code == 200
