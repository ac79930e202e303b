"""The OpenAPI schema says what a client generated from it needs: who may call what, every
answer's shape, and what each query parameter means. No database: the schema is built
from the views alone."""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any

from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator
from rest_framework.views import APIView

from core.api import AllowedMethodsFirst, ApiViewSet, ReadsItsQuery


@cache
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def operation(path: str, method: str) -> dict[str, Any]:
    return schema()["paths"][path][method]


def anonymous_allowed(op: dict[str, Any]) -> bool:
    return {} in op.get("security", [{}])


def test_public_reads_are_callable_without_a_token_and_writes_are_not() -> None:
    for path in ("/api/games/", "/api/games/{id}/box-score/", "/api/seasons/{id}/standings/",
                 "/api/seasons/{season_id}/leaders/", "/api/teams/", "/api/cards/{id}/",
                 "/api/challenges/", "/api/runs/{id}/"):  # fmt: skip
        assert anonymous_allowed(operation(path, "get")), path
    for path, method in (("/api/seasons/", "post"), ("/api/cards/{id}/", "patch"),
                         ("/api/seasons/{id}/simulate/", "post")):  # fmt: skip
        assert not anonymous_allowed(operation(path, method)), path


def test_a_read_for_signed_in_users_only_documents_its_401() -> None:
    table = operation("/table/api/games/", "get")
    assert not anonymous_allowed(table)
    assert "401" in table["responses"]
    assert "Not signed in" in table["responses"]["401"]["description"]
    # A public read answers 401 only to a token that is not valid: it says so.
    public = operation("/api/games/", "get")["responses"]["401"]["description"]
    assert "token sent is not valid (send none" in public


def test_the_story_is_typed_field_by_field() -> None:
    ref = operation("/api/games/{id}/story/", "get")["responses"]["200"]["content"][
        "application/json"
    ]["schema"]["$ref"]
    story = schema()["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert set(story["properties"]) == {
        "game", "headline", "sentences", "text", "upset", "overtimes", "markdown", "html",
    }  # fmt: skip
    assert story["properties"]["upset"]["type"] == "boolean"


def test_a_preview_still_being_worked_out_is_a_documented_202() -> None:
    preview = operation("/api/games/{id}/preview/", "get")
    assert "202" in preview["responses"]
    assert "202" in preview["description"]


def test_seeds_are_also_given_as_strings_for_javascript_clients() -> None:
    for name in ("Season", "Game"):
        field = schema()["components"]["schemas"][name]["properties"]["seed_str"]
        assert field["type"] == "string"
        assert "2**53" in field["description"]


CARDS_LISTS = ("/api/teams/", "/api/players/", "/api/cards/")
"""The cards' lists, whose filters are cards/api.py's."""


def test_every_query_and_path_parameter_of_the_league_api_says_what_it_does() -> None:
    bare = [
        f"{method.upper()} {path} {parameter['name']}"
        for path, item in schema()["paths"].items()
        if path.startswith("/api/") and path not in CARDS_LISTS
        for method, op in item.items()
        for parameter in op.get("parameters", [])
        if not parameter.get("description")
    ]
    assert bare == []


def test_page_size_is_documented_with_its_limit() -> None:
    parameters = {p["name"]: p for p in operation("/api/games/", "get")["parameters"]}
    assert "500" in parameters["page_size"]["description"]
    assert parameters["page_size"]["schema"] == {"type": "integer", "minimum": 1}


def test_asking_for_a_token_and_a_what_if_need_no_token() -> None:
    for path in ("/api/auth/token/", "/api/tournaments/{id}/odds/"):
        post = operation(path, "post")
        assert anonymous_allowed(post), path
        assert "token sent is not valid" in post["responses"]["401"]["description"], path
    # Anyone may ask what if: no commissioner's 403 either.
    assert "403" not in operation("/api/tournaments/{id}/odds/", "post")["responses"]


def test_every_body_documents_its_413_and_415_and_a_busy_simulation_its_409() -> None:
    for path, method in (("/api/seasons/", "post"), ("/api/cards/{id}/", "patch"),
                         ("/api/challenge-entries/{id}/", "patch")):  # fmt: skip
        assert {"413", "415"} <= set(operation(path, method)["responses"]), path
    assert "409" in operation("/api/seasons/{id}/simulate/", "post")["responses"]


def test_the_table_lists_its_games_as_an_array_of_typed_rows() -> None:
    listed = operation("/table/api/games/", "get")["responses"]["200"]["content"][
        "application/json"
    ]["schema"]
    assert listed["type"] == "array"
    row = schema()["components"]["schemas"][listed["items"]["$ref"].rsplit("/", 1)[1]]
    assert {"id", "game", "home", "away", "status", "league_game"} <= set(row["properties"])


def test_the_challenge_actions_say_what_they_do_not_what_the_view_set_is() -> None:
    docstring = "Pools of the fans' bracket challenge; the public ones are listed."
    for path, method in (("/api/challenges/{id}/join/", "post"),
                         ("/api/challenges/{id}/standings/", "get"),
                         ("/api/challenges/", "post")):  # fmt: skip
        assert operation(path, method)["description"] != docstring, path
    assert "invitation code" in operation("/api/challenges/{id}/join/", "post")["description"]
    join = schema()["components"]["schemas"]["Join"]["properties"]
    assert all(field.get("description") for field in join.values())


def test_the_schema_is_generated_without_a_warning_and_validates(tmp_path) -> None:
    """What ``manage.py spectacular --fail-on-warn --validate`` checks: no two components of
    one name, no field whose type the generator must guess, a valid OpenAPI document."""
    call_command(
        "spectacular", "--fail-on-warn", "--validate", "--file", str(tmp_path / "schema.yml")
    )
    assert (tmp_path / "schema.yml").read_text().startswith("openapi: 3.")


def test_the_games_filters_are_typed_as_the_server_reads_them() -> None:
    # A generated client read neutral as a boolean with an enum of strings no value meets,
    # and round as nullable from 0, which the server refuses.
    parameters = {p["name"]: p["schema"] for p in operation("/api/games/", "get")["parameters"]}
    assert parameters["neutral"] == parameters["conference_game"] == {"type": "boolean"}
    assert parameters["round"] == {"type": "integer"}


def test_the_player_stats_filters_are_plain_ids() -> None:
    # A box line's player is a nullable column: read from it, the schema said the player
    # filter was nullable; it takes a player's id.
    parameters = {
        p["name"]: p["schema"]
        for p in operation("/api/seasons/{season_id}/player-stats/", "get")["parameters"]
    }
    assert parameters["player"] == parameters["team"] == {"type": "integer"}


def test_no_operation_is_described_by_a_base_class_every_view_shares() -> None:
    """drf-spectacular describes an operation that says nothing by the nearest docstring of
    its view's classes: the table's and the what-if's operations read "A read (GET, HEAD)
    that refuses a query parameter...", the mixin's, POSTs included."""
    shared = [
        " ".join(inspect.getdoc(cls).split())[:60]  # type: ignore[union-attr]
        for cls in (ReadsItsQuery, AllowedMethodsFirst, ApiViewSet, APIView)
        if inspect.getdoc(cls)
    ]
    for path, methods in schema()["paths"].items():
        for method, op in methods.items():
            described = " ".join(op.get("description", "").split())
            assert described, f"{method} {path} has no description"
            assert not any(described.startswith(doc) for doc in shared), (method, path)
    undo = operation("/table/api/games/{id}/undo/", "post")["description"]
    assert '"trip"' in undo and "409" in undo


def test_no_body_is_described_by_a_helper_s_words() -> None:
    """An API reviewer: 17 components (SeasonCreate, Simulate, Dice...) were described by
    the docstring of the mixin that closes a body ("Put it first among a body serializer's
    bases..."), which drf-spectacular read for a serializer with none of its own."""
    described = {
        name: component.get("description", "")
        for name, component in schema()["components"]["schemas"].items()
    }
    assert not [n for n, d in described.items() if "serializer's bases" in d or "DRF" in d]
