"""The web processes' log lines: one a record, saying when, how bad and from where."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator

import pytest
from django.test import Client


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the configured console handler (settings.LOGGING) writes, caught."""
    handler = next(h for h in logging.getLogger().handlers if getattr(h, "name", "") == "console")
    assert isinstance(handler, logging.StreamHandler)
    caught = io.StringIO()
    old = handler.setStream(caught)
    try:
        yield caught
    finally:
        handler.setStream(old)


LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (WARNING|ERROR) [\w.]+: .+")


def test_a_scanner_s_host_header_is_one_warning_line_without_a_traceback(
    console: io.StringIO, settings
) -> None:
    settings.ALLOWED_HOSTS = ["vabg.example.org"]
    assert Client(HTTP_HOST="203.0.113.9").get("/").status_code == 400
    lines = console.getvalue().splitlines()
    assert lines == [lines[0]], "one line only (Django's default was ERROR and a 12-line traceback)"
    assert LINE.fullmatch(lines[0])
    assert (
        " WARNING django.security.DisallowedHost: Invalid HTTP_HOST header: '203.0.113.9'"
        in lines[0]
    )


def test_a_real_error_keeps_its_level_and_traceback(console: io.StringIO) -> None:
    try:
        raise ValueError("a bug")
    except ValueError:
        logging.getLogger("league.tasks").exception("a game could not be stored")
    text = console.getvalue()
    assert LINE.fullmatch(text.splitlines()[0])
    assert " ERROR league.tasks: a game could not be stored" in text
    assert "Traceback (most recent call last)" in text and "ValueError: a bug" in text
