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


def test_gunicorn_logs_every_request_but_a_healthy_probe(capfd: pytest.CaptureFixture[str]) -> None:
    """A load balancer's /healthz every few seconds on every host buried the requests."""
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn.config import Config

    from config.gunicorn_logs import QuietProbes

    config = Config()
    config.set("accesslog", "-")
    log = QuietProbes(config)
    request = SimpleNamespace(headers=[], method="GET", version=(1, 1))

    def asked(path: str, status: str) -> None:
        response = SimpleNamespace(status=status, headers=[], response_length=2, sent=2)
        environ = {"PATH_INFO": path, "RAW_URI": path, "REMOTE_ADDR": "10.0.0.9",
                   "REQUEST_METHOD": "GET", "SERVER_PROTOCOL": "HTTP/1.1", "QUERY_STRING": ""}  # fmt: skip
        log.access(response, request, environ, timedelta(milliseconds=3))

    asked("/healthz", "200 OK")
    asked("/healthz", "503 Service Unavailable")
    asked("/seasons/1/", "200 OK")
    lines = capfd.readouterr().out.splitlines()
    assert len(lines) == 2
    assert (
        '"GET /healthz HTTP/1.1" 503' in lines[0] and '"GET /seasons/1/ HTTP/1.1" 200' in lines[1]
    )


def test_gunicorn_says_where_it_listens_with_each_worker_s_own_socket(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """With --reuse-port the master holds no socket when it says where it listens: the set's
    log read "Listening at:  (pid)"."""
    from gunicorn.config import Config

    from config.gunicorn_logs import QuietProbes

    config = Config()
    config.set("bind", ["127.0.0.1:8001"])
    config.set("errorlog", "-")
    log = QuietProbes(config)
    log.info("Listening at: %s (%s)", "", 4242)
    log.info("Listening at: %s (%s)", "http://127.0.0.1:9000", 4243)
    said = capfd.readouterr().err
    assert (
        "Listening at: http://127.0.0.1:8001 (each worker's own socket: --reuse-port) (4242)"
        in said
    )
    assert "Listening at: http://127.0.0.1:9000 (4243)" in said


def test_under_supervisord_gunicorn_s_own_and_access_lines_name_their_program(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every program of a set writes to supervisord's one stream: gunicorn's lines were
    the only ones that did not say whose they were."""
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn.config import Config

    from config.gunicorn_logs import QuietProbes

    monkeypatch.setenv("LOG_PROGRAM", "gunicorn")
    config = Config()
    config.set("accesslog", "-")
    config.set("errorlog", "-")
    log = QuietProbes(config)
    log.info("Booting worker with pid: %s", 77)
    response = SimpleNamespace(status="200 OK", headers=[], response_length=2, sent=2)
    environ = {"PATH_INFO": "/teams/", "RAW_URI": "/teams/", "REMOTE_ADDR": "10.0.0.9",
               "REQUEST_METHOD": "GET", "SERVER_PROTOCOL": "HTTP/1.1", "QUERY_STRING": ""}  # fmt: skip
    request = SimpleNamespace(headers=[], method="GET", version=(1, 1))
    log.access(response, request, environ, timedelta(milliseconds=3))
    captured = capfd.readouterr()
    assert "[INFO] gunicorn Booting worker with pid: 77" in captured.err
    assert captured.out.startswith("gunicorn 10.0.0.9 ")
