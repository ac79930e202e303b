"""What a third-party client (a bracket app, a stats site, a bot) relies on: seeds it can read
exactly, every list refusing what it does not read (a misspelt filter, a page size that is
no number, a round no column holds) by field, as every other refusal is answered."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import jsonschema
import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from referencing import Registry, Resource

from league import services, tournaments
from league.models import Game, Season
from tests.factories import commissioner, fan, full_team, make_season
from tests.league.api import client_for, season_played, throttle_reset, tournament_drawn

pytestmark = pytest.mark.django_db

BIG_SEED = 2**62 + 1  # 4611686018427387905: JSON.parse in a browser reads ...7388000


@pytest.fixture(autouse=True)
def _no_throttle() -> None:
    throttle_reset()


@pytest.fixture(scope="module")
def played(module_world: None) -> int:
    from django.test import TestCase

    return season_played(TestCase.captureOnCommitCallbacks, name="Contract 2001").pk


@pytest.fixture
def season(played: int) -> Season:
    return Season.objects.get(pk=played)


@pytest.fixture
def api():  # type: ignore[no-untyped-def]
    return client_for()


def test_a_seed_past_2_53_is_also_given_exactly_as_a_string(api) -> None:
    teams = [full_team(), full_team()]
    created = client_for(commissioner()).post(
        "/api/seasons/",
        {"league": services.league_get_or_create(name="Seeds").pk, "name": "Big",
         "teams": [t.pk for t in teams], "conferences": "none", "seed": str(BIG_SEED)},
        format="json",
    )  # fmt: skip
    assert created.status_code == 201, created.json()
    assert created.json()["seed_str"] == "4611686018427387905"
    season = api.get(created["Location"]).json()
    assert (season["seed"], season["seed_str"]) == (BIG_SEED, str(BIG_SEED))
    games = api.get("/api/games/", {"season": season["id"]}).json()["results"]
    stored = dict(Game.objects.filter(season_id=season["id"]).values_list("pk", "seed"))
    assert [g["seed_str"] for g in games] == [str(stored[g["id"]]) for g in games]
    # What a JavaScript client reads: the number loses its last digits, the string does not.
    assert float(season["seed"]) != BIG_SEED
    assert int(json.loads(json.dumps(season["seed_str"]))) == BIG_SEED


def test_a_misspelt_filter_is_refused_naming_what_the_list_reads(api, season) -> None:
    team_a, team_b = season.entries.values_list("team_id", flat=True)[:2]
    refused = api.get("/api/games/", {"seasons": season.pk})
    assert refused.status_code == 400
    assert refused.json() == {
        "seasons": [
            "Not a parameter of this list; it reads conference_game, date, date_from, "
            "date_to, format, kind, league, neutral, ordering, page, page_size, player, round, "
            "season, status, team."
        ]
    }
    # A client's own parameter (a cache-buster) is let through, not taken for a filter.
    busted = api.get("/api/games/", {"season": season.pk, "_": "1700000000"})
    assert busted.status_code == 200 and busted.json()["count"] == season.games.count()
    for url, wrong in ((f"/api/seasons/{season.pk}/player-stats/", "mingames"),
                       (f"/api/seasons/{season.pk}/team-stats/", "teams"),
                       (f"/api/seasons/{season.pk}/leaders/", "limits"),
                       ("/api/seasons/", "leauge"), ("/api/runs/", "seasn")):  # fmt: skip
        answer = api.get(url, {wrong: 1, "category": "pts"} if "leaders" in url else {wrong: 1})
        assert answer.status_code == 400, url
        assert list(answer.json()) == [wrong], url
    # A filter given twice answered the last alone: refused, as it takes one value.
    twice = api.get(f"/api/games/?team={team_a}&team={team_b}&season={season.pk}")
    assert twice.status_code == 400
    assert twice.json() == {
        "team": ["Given 2 times: give it once (each parameter takes one value)."]
    }
    # What a list does read still answers, with the renderer's own format.
    assert api.get("/api/games/", {"season": season.pk, "format": "json"}).status_code == 200
    assert api.get(f"/api/seasons/{season.pk}/leaders/", {"category": "pts"}).status_code == 200


def test_every_address_refuses_a_parameter_it_does_not_read_not_only_the_lists(api, season) -> None:
    # Each answered as if the parameter had not been asked: a conference's standings
    # asked for all of them, a pool's ordering kept its own, a sample size the default.
    game = season.games.filter(status=Game.Status.FINAL).first()
    assert game is not None
    pool = client_for(commissioner()).post(
        "/api/challenges/", {"season": tournament_drawn(name="Refusals").pk, "name": "Office"},
        format="json",
    )  # fmt: skip
    assert pool.status_code == 201, pool.json()
    pool_id = pool.json()["id"]
    for url, wrong in ((f"/api/seasons/{season.pk}/standings/", "conference"),
                       (f"/api/seasons/{season.pk}/odds/", "samples"),
                       (f"/api/seasons/{season.pk}/", "expand"),
                       (f"/api/seasons/{season.pk}/export/boxscores.csv", "team"),
                       (f"/api/games/{game.pk}/box-score/", "side"),
                       (f"/api/games/{game.pk}/", "fields"),
                       (f"/api/challenges/{pool_id}/standings/", "ordering"),
                       (f"/api/challenges/{pool_id}/", "invite")):  # fmt: skip
        answer = api.get(url, {wrong: "x"})
        assert answer.status_code == 400, url
        assert answer["Content-Type"] == "application/json", url
        (message,) = answer.json()[wrong]
        assert message.startswith("Not a parameter of this address; it reads "), url
    odds = api.get(f"/api/seasons/{season.pk}/odds/", {"samples": 100}).json()["samples"]
    assert odds == ["Not a parameter of this address; it reads format, seasons, seed."]
    # What each does read still answers: a pool's pages and code, the odds' sample size.
    assert api.get(f"/api/challenges/{pool_id}/standings/", {"page": 1}).status_code == 200
    assert api.get(f"/api/challenges/{pool_id}/", {"invite_code": "x"}).status_code == 200
    assert api.get(f"/api/seasons/{season.pk}/odds/", {"seasons": 100}).status_code in (200, 202)
    assert api.get(f"/api/games/{game.pk}/box-score/", {"_": "17"}).status_code == 200


def test_a_tournament_s_season_odds_point_at_its_odds_by_round(api) -> None:
    cup = tournament_drawn(name="Not a league")
    answer = api.get(f"/api/seasons/{cup.pk}/odds/")
    assert answer.status_code == 404
    assert answer.json()["detail"] == (
        f"{cup} is a tournament: its odds are by round, at /api/tournaments/{cup.pk}/odds/."
    )


def test_a_page_size_that_is_no_whole_number_is_refused_not_ignored(api, season) -> None:
    for asked in ("abc", "0", "-5", "2.5"):
        refused = api.get("/api/games/", {"page_size": asked})
        assert refused.status_code == 400, asked
        assert refused.json() == {
            "page_size": [f"{asked!r} is not a page size: give a whole number from 1 to 500."]
        }
    two = api.get("/api/games/", {"season": season.pk, "page_size": "2"}).json()
    assert len(two["results"]) == 2 and "page_size=2" in two["next"]
    refused = api.get(f"/api/seasons/{season.pk}/team-stats/", {"page_size": "x"})
    assert refused.status_code == 400


def test_seasons_of_an_unknown_league_are_none_and_a_league_that_is_no_number_is_refused(
    api, season
) -> None:
    for url in ("/api/seasons/", "/api/tournaments/"):
        assert api.get(url, {"league": 999999}).json()["count"] == 0
        refused = api.get(url, {"league": "abc"})
        assert refused.status_code == 400
        assert refused.json() == {"league": ["Enter a whole number."]}
    assert api.get("/api/seasons/", {"league": season.league_id}).json()["count"] >= 1


def test_a_round_no_column_holds_is_refused_naming_the_field(api, season) -> None:
    refused = api.get("/api/games/", {"round": 32768})
    assert refused.status_code == 400
    assert refused.json() == {"round": ["Ensure this value is less than or equal to 32767."]}
    assert api.get("/api/games/", {"round": "1.5"}).json() == {"round": ["Enter a whole number."]}
    first = api.get("/api/games/", {"season": season.pk, "round": 1}).json()["results"]
    assert first and {g["round"] for g in first} == {1}


def test_team_stats_refuse_by_field_and_order_by_several_columns(api, season) -> None:
    url = f"/api/seasons/{season.pk}/team-stats/"
    refused = api.get(url, {"team": "abc"})
    assert refused.status_code == 400
    assert refused.json() == {"team": ["A valid integer is required."]}
    wrong = api.get(url, {"ordering": "g,dunks"})
    assert wrong.status_code == 400 and list(wrong.json()) == ["ordering"]
    assert wrong.json()["ordering"][0].startswith("dunks: not a field to order by; use blk")
    rows = api.get(url, {"ordering": "-g,team_school"}).json()["results"]
    assert [(r["g"], r["team_school"]) for r in rows] == sorted(
        ((r["g"], r["team_school"]) for r in rows), key=lambda k: (-k[0], k[1])
    )


def test_a_page_of_another_site_may_read_the_api_and_sign_in_with_a_token(api, season) -> None:
    origin = {"HTTP_ORIGIN": "https://bracket.example"}
    answer = api.get("/api/games/", {"season": season.pk}, **origin)
    assert answer.status_code == 200
    assert answer["Access-Control-Allow-Origin"] == "*"
    exposed = {h.strip() for h in answer["Access-Control-Expose-Headers"].split(",")}
    assert exposed >= {"Location", "Retry-After", "ETag", "Content-Disposition"}
    # ... and send the ETag back: a header the browser asks leave for first.
    conditional = api.options(
        "/api/games/",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match",
        **origin,
    )
    allowed = {h.strip().lower() for h in conditional["Access-Control-Allow-Headers"].split(",")}
    assert {"if-none-match", "if-modified-since"} <= allowed
    # The browser asks first before sending a token or a JSON body: answered, no view run.
    preflight = api.options(
        f"/api/seasons/{season.pk}/simulate/",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
        **origin,
    )
    assert preflight.status_code == 200
    assert preflight["Access-Control-Allow-Origin"] == "*"
    assert "POST" in preflight["Access-Control-Allow-Methods"]
    assert {h.strip().lower() for h in preflight["Access-Control-Allow-Headers"].split(",")} >= {
        "authorization", "content-type",
    }  # fmt: skip
    # An error's answer is readable too (a script shows its detail), and the site's own
    # pages are not opened to other sites.
    missing = api.get("/api/games/999999/", **origin)
    assert missing.status_code == 404 and missing["Access-Control-Allow-Origin"] == "*"
    assert not api.get("/", **origin).has_header("Access-Control-Allow-Origin")


def test_a_table_game_started_through_the_api_says_where_it_is() -> None:
    client = client_for(fan())
    home, away = full_team(), full_team()
    started = client.post(
        "/table/api/games/", {"home": home.pk, "away": away.pk, "game": "sixdice"}, format="json"
    )
    assert started.status_code == 201, started.json()
    game = client.get(started["Location"])
    assert game.status_code == 200 and game.json()["id"] == started.json()["id"]
    listed = client.get("/table/api/games/").json()
    assert [(g["id"], g["status"]) for g in listed] == [(started.json()["id"], "playing")]


def test_a_format_an_address_does_not_give_is_a_406_naming_those_it_does(api, season) -> None:
    listed = api.get("/api/games/", {"format": "xml"})
    assert listed.status_code == 406
    assert listed.json() == {
        "detail": "format='xml' is not a format of this address: use json, api."
    }
    export = api.get(f"/api/seasons/{season.pk}/export/boxscores/", {"format": "xml"})
    assert export.status_code == 406
    assert export.json()["detail"].endswith("use csv, json.")
    odds = api.get(f"/api/seasons/{season.pk}/odds/", {"format": "yaml"})
    assert odds.status_code == 406
    assert api.get("/api/games/", {"format": "json", "season": season.pk}).status_code == 200
    # The same asked by an Accept header: the 406 names the types the address gives.
    xml = api.get("/api/games/", HTTP_ACCEPT="application/xml")
    assert xml.status_code == 406
    assert xml.json() == {
        "detail": "Accept: application/xml is not a type of this address: ask for "
        "application/json, text/html."
    }
    assert api.get("/api/games/", HTTP_ACCEPT="application/xml, */*;q=0.1").status_code == 200


def _json_schema(node: Any) -> Any:
    """Return OpenAPI 3.0's schema as JSON Schema: ``nullable`` as a null type, refs rooted."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items()}
    if "$ref" in node:
        node["$ref"] = "openapi" + node["$ref"]
    if node.pop("nullable", False):
        node = {"anyOf": [node, {"type": "null"}]}
    return node


@functools.cache
def _served() -> tuple[Any, Registry[Any]]:
    schema = _json_schema(SchemaGenerator().get_schema(request=None, public=True))
    return schema, Registry().with_resource("openapi", Resource.opaque(schema))


def conforms(answer: Any, path: str, method: str = "get") -> None:
    """Check an answer against what the served schema says its status returns."""
    schema, registry = _served()
    documented = schema["paths"][path][method]["responses"][str(answer.status_code)]
    shape = documented["content"]["application/json"]["schema"]
    jsonschema.validate(answer.json(), shape, registry=registry)


def test_the_odds_answer_in_the_shapes_the_schema_gives(api, season) -> None:
    cup = tournament_drawn(teams=4, name="Odds Cup")
    bracket = api.get(f"/api/tournaments/{cup.pk}/odds/")
    assert bracket.status_code == 200
    conforms(bracket, "/api/tournaments/{id}/odds/")
    assert [row["slots"] for row in bracket.json()["rounds"]] == [4, 2]
    key = cup.games.order_by("id").first()
    whatif = api.post(
        f"/api/tournaments/{cup.pk}/odds/",
        {"winners": {key.bracket_key: key.home_id}},
        format="json",
    )
    conforms(whatif, "/api/tournaments/{id}/odds/", "post")
    assert whatif.json()["whatif"][0]["winner_id"] == key.home_id
    table = api.get(f"/api/seasons/{season.pk}/odds/", {"seasons": 100, "seed": BIG_SEED})
    assert table.status_code == 200
    conforms(table, "/api/seasons/{id}/odds/")
    assert table.json()["seed_str"] == str(BIG_SEED)
    conforms(api.get(f"/api/games/{season.games.first().pk}/story/"), "/api/games/{id}/story/")
    # An answer that breaks the schema is caught: the check is not vacuous.
    broken = api.get(f"/api/tournaments/{cup.pk}/odds/")
    broken.json()["teams"][0]["reach"] = "all"
    with pytest.raises(jsonschema.ValidationError):
        conforms(broken, "/api/tournaments/{id}/odds/")


def test_a_number_of_games_is_a_whole_number(api, season) -> None:
    url = f"/api/seasons/{season.pk}/player-stats/"
    for asked in ("2.5", "1e400"):
        refused = api.get(url, {"min_games": asked})
        assert refused.json() == {"min_games": ["Enter a whole number."]}, asked
    assert api.get(url, {"min_games": -1}).status_code == 400
    rows = api.get(url, {"min_games": 3}).json()["results"]
    assert rows and all(row["g"] >= 3 for row in rows)


def test_a_null_character_in_a_search_is_refused_in_the_shape_of_every_error(api) -> None:
    """``?search=%00`` was refused with a bare list, the one error not ``{"detail": ...}``."""
    refused = api.get("/api/teams/", {"search": "\x00"})
    assert refused.status_code == 400
    assert refused.json() == {"detail": "Null characters are not allowed."}


def test_options_describes_the_body_each_write_takes(season) -> None:
    boss = client_for(commissioner())
    simulate = boss.options(f"/api/seasons/{season.pk}/simulate/").json()
    body = simulate["actions"]["POST"]
    assert set(body) == {"scope", "round", "date", "game"}  # not a season's own fields
    assert {c["value"] for c in body["scope"]["choices"]} >= {"game", "round", "all"}
    created = boss.options("/api/seasons/").json()["actions"]["POST"]
    assert {"league", "name", "teams"} <= set(created)
    # A fan, who may not write, is told of no body at all, as DRF's own metadata does.
    assert "actions" not in client_for(fan()).options(f"/api/seasons/{season.pk}/simulate/").json()


def test_options_on_every_write_address_describes_the_fields_the_schema_documents() -> None:
    from tests.openapi import served

    schema = served()
    boss = client_for(commissioner())
    checked = 0
    for path, operations in schema["paths"].items():
        for method in ("post", "put", "patch"):
            body = operations.get(method, {}).get("requestBody", {}).get("content", {})
            documented = body.get("application/json", {}).get("schema", {})
            if "$ref" in documented:
                documented = schema["components"]["schemas"][documented["$ref"].split("/")[-1]]
            if "properties" not in documented:
                continue  # no body, or a file of its own format (a dice file, a team file)
            address = path.replace("{id}", "1").replace("{side}", "home")
            answer = boss.options(address)
            assert answer.status_code == 200, (address, answer.content)
            described = answer.json().get("actions", {}).get(method.upper())
            assert described is not None, (address, method)
            assert set(described) == set(documented["properties"]), (address, method)
            checked += 1
    assert checked >= 15  # leagues, seasons, simulate, tournaments, pools, the table's writes


def test_every_query_parameter_the_schema_documents_is_one_its_address_reads() -> None:
    """The schema listed ?season= on a pool's standings (the pools list's filter) while the
    address refused it as "Not a parameter of this address": a client generated from the
    schema, or Swagger's Try it out, got a 400 for a documented field. The refusal comes
    before any object is looked up, so any id shows it."""

    schema = SchemaGenerator().get_schema(request=None, public=True)
    client = client_for(commissioner())  # never throttled
    refused = []
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        if get is None:
            continue
        url = re.sub(r"\{[^}]+\}", "1", path)
        for parameter in get.get("parameters", ()):
            if parameter["in"] == "query" and parameter["name"] != "format":
                answer = client.get(url, {parameter["name"]: "1"})
                if answer.status_code == 400 and "Not a parameter" in answer.content.decode():
                    refused.append((path, parameter["name"]))
    assert refused == []


def test_a_yes_no_query_value_that_is_neither_is_refused_naming_the_words(api) -> None:
    """DRF's query serializers said "Must be a valid boolean." where the filters name the
    words they take."""
    season = make_season(teams=2)
    leaders = api.get(
        f"/api/seasons/{season.pk}/leaders/", {"category": "pts", "per_game": "maybe"}
    )
    assert leaders.status_code == 400
    assert leaders.json() == {
        "per_game": ["Not true or false: give true or false (1 or 0, yes or no)."]
    }
    home, away = (e.team_id for e in season.entries.all())
    matchup = api.get("/api/matchup/", {"home": home, "away": away, "neutral": "maybe"})
    assert matchup.status_code == 400 and "1 or 0, yes or no" in matchup.json()["neutral"][0]


def test_what_an_anonymous_client_may_send_is_refused_never_a_server_error(api) -> None:
    """A security review's requests answered 500 with a traceback in the log: "²" passed
    str.isdigit and then int() refused it; JSON nested too deeply in a query parameter; a
    search of 1,200 words (SQLite: "Expression tree is too large")."""
    teams = [full_team() for _ in range(4)]
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Review League"), name="Cup", teams=teams,
        seed=3, strategy=False,
    )  # fmt: skip
    matchup = api.get("/api/matchup/", {"home": "²", "away": teams[0].pk})
    assert matchup.status_code == 400 and "is not a team id" in matchup.json()["home"][0]
    assert api.get("/api/tournaments/²/").status_code == 404
    whatif = Client().get(f"/seasons/{cup.pk}/bracket/", {"w_R1-1": "²"})
    assert whatif.status_code == 200  # a malformed what-if is left out
    nested = api.get(
        "/api/matchup/",
        {"home": teams[0].pk, "away": teams[1].pk, "game": "sixdice", "options": "[" * 1500},
    )
    assert nested.status_code == 400
    assert nested.json()["options"] == [
        "Nested too deeply: give one JSON object of names and values."
    ]
    words = " ".join(f"w{n}" for n in range(1200))
    assert api.get("/api/players/", {"search": words}).status_code == 200
    assert Client().get("/search/", {"q": words}).status_code == 200
