"""Answers are compressed for a client that takes gzip: a table game's state after each die
carried every play so far (a finished six-dice game's, 250 KB) uncompressed to a phone."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from django.test import Client

from tests.factories import full_team

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/teams/", "/api/teams/", "/api/schema/?format=json"])
def test_a_client_that_takes_gzip_gets_it_and_one_that_does_not_gets_plain(path: str) -> None:
    for _ in range(4):
        full_team()
    plain = Client().get(path)
    packed: Any = Client().get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert plain.status_code == packed.status_code == 200
    assert not plain.has_header("Content-Encoding")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    body = gzip.decompress(packed.content)
    if path.startswith("/api/"):
        assert body == plain.content
    else:  # a page carries its own CSRF token: the same page, token apart
        assert (
            body.decode().split("csrfmiddlewaretoken")[0]
            == plain.content.decode().split("csrfmiddlewaretoken")[0]
        )
    assert len(packed.content) < len(plain.content) / 2
