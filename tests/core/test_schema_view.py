"""``/api/schema/`` is generated once a process: it walked every view and serializer on each
request (half a second to a second), and ``/api/docs/`` fetches it every time."""

from __future__ import annotations

from typing import Any

from django.test import Client

from core.schema_view import SchemaView


def test_the_schema_is_generated_once_and_served_the_same_after(monkeypatch: Any) -> None:
    monkeypatch.setattr(SchemaView, "_made", {})
    made: list[object] = []
    generate = SchemaView.generator_class.get_schema

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(self)
        return generate(self, *args, **kwargs)

    monkeypatch.setattr(SchemaView.generator_class, "get_schema", counted)
    first = Client().get("/api/schema/", {"format": "json"})
    again = Client().get("/api/schema/", {"format": "json"})
    assert first.status_code == again.status_code == 200
    assert (
        first.json() == again.json() and "/api/games/{id}/win-probability/" in first.json()["paths"]
    )
    assert len(made) == 1


def test_swagger_groups_each_operation_under_the_resource_its_path_names() -> None:
    """Swagger UI listed all 54 operations of /api/ under one "api" heading; each is now
    under its resource, the headings described and in the schema's order."""
    schema = Client().get("/api/schema/", {"format": "json"}).json()
    described = [tag["name"] for tag in schema["tags"]]
    used = set()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            (tag,) = operation["tags"]
            used.add(tag)
            resource = "table" if path.startswith("/table/api/") else path.split("/")[2]
            assert tag == resource, (method, path, tag)
    assert schema["paths"]["/api/seasons/{season_id}/leaders/"]["get"]["tags"] == ["seasons"]
    assert "api" not in used and used == set(described)
    assert all(tag["description"] for tag in schema["tags"])


def test_a_format_the_schema_does_not_come_in_is_a_406_in_json_naming_those_it_does() -> None:
    """An API reviewer: ?format=xml answered 404 "/api/schema/ is no address of the API",
    and Accept: text/html a 406 whose body was YAML ("detail: string: ...")."""
    refused = Client().get("/api/schema/", {"format": "xml"})
    assert (refused.status_code, refused.json()) == (
        406,
        {"detail": "format='xml' is not a format of this address: use yaml, json."},
    )
    refused = Client().get("/api/schema/", HTTP_ACCEPT="text/html")
    assert refused.status_code == 406 and refused.headers["Content-Type"] == "application/json"
    assert "application/json" in refused.json()["detail"]
    # a browser's own Accept (*/* among its types) still gets the schema
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    assert Client().get("/api/schema/", HTTP_ACCEPT=browser).status_code == 200
