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
