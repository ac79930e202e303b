"""The front cache: a played game's page is marked for any cache to keep, and nginx in front
of the application (``make serve-cached``: config/nginx.conf, scripts/serve-cached.sh) keeps
exactly that, never a page that may still change."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils.http import parse_http_date

from league import services, tournaments
from league.models import Game
from tests.factories import full_team

ROOT = Path(__file__).resolve().parents[2]


def new_cup(name: str):  # type: ignore[no-untyped-def]
    return tournaments.tournament_create(
        league=services.league_get_or_create(name=f"{name} League"),
        name=name,
        teams=[full_team() for _ in range(3)],
        seed=7,
    )


def play(game: Game) -> Game:
    services.game_simulate(game_id=game.pk)
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_a_played_game_page_may_be_kept_by_any_cache_and_a_scheduled_one_may_not(
    client, settings, django_capture_on_commit_callbacks
) -> None:
    game = new_cup("Header Cup").games.get()
    scheduled = client.get(game.get_absolute_url())
    assert scheduled.status_code == 200
    assert "public" not in scheduled.headers.get("Cache-Control", "")
    assert "Last-Modified" not in scheduled.headers

    with django_capture_on_commit_callbacks(execute=True):
        game = play(game)
    played = client.get(game.get_absolute_url())
    assert played.headers["Cache-Control"] == "public, max-age=300"
    assert parse_http_date(played.headers["Last-Modified"]) == int(
        game.result.created_at.timestamp()
    )
    assert "Set-Cookie" not in played.headers  # the same page for every visitor

    settings.GAME_PAGE_MAX_AGE = 0
    assert "Cache-Control" not in client.get(game.get_absolute_url()).headers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(port: int, path: str, **headers: str) -> tuple[int, str, bytes]:
    """GET through the front: status, X-Cache-Status, body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheader("X-Cache-Status", ""), response.read()
    finally:
        conn.close()


@pytest.fixture
def front(live_server) -> Iterator[int]:  # type: ignore[no-untyped-def]
    """nginx, as make serve-cached configures it, in front of Django's live test server."""
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.fail("nginx is not installed: scripts/services.sh installs it (make test)")
    port = free_port()
    # Under /tmp itself, not pytest's private tmp_path: nginx's workers (www-data when the
    # tests run as root) write the cache there.
    run_dir = Path(tempfile.gettempdir()) / f"vabg-front-test-{os.getpid()}-{port}"
    server = subprocess.Popen(
        ["scripts/serve-cached.sh"],
        cwd=ROOT,
        env=os.environ
        | {
            "PORT": str(port),
            "UPSTREAM": live_server.url.removeprefix("http://"),
            "RUN_DIR": str(run_dir),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if get(port, "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                output = server.stdout.read().decode() if server.stdout else ""
                pytest.fail(f"nginx in front of the live server did not answer:\n{output}")
            time.sleep(0.1)
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        if server.stdout:
            server.stdout.close()
        shutil.rmtree(run_dir, ignore_errors=True)


@pytest.mark.django_db(transaction=True)
def test_nginx_keeps_a_played_game_page_and_nothing_that_may_change(front) -> None:
    cup = new_cup("Front Cup")
    game = cup.games.get()
    path = game.get_absolute_url()

    # A scheduled game's preview is asked of the application every time, so the result
    # shows as soon as the game is stored.
    for _ in range(2):
        status, cache, preview = get(front, path)
        assert (status, cache) == (200, "MISS")
    assert b"Not played yet" in preview

    game = play(game)
    status, cache, first = get(front, path)
    assert (status, cache) == (200, "MISS")
    assert b"Not played yet" not in first
    assert f"{game.result.home_score}".encode() in first
    status, cache, again = get(front, path)
    assert (status, cache, again) == (200, "HIT", first)

    # A signed-in commissioner always reaches the application, and is never stored.
    assert get(front, path, Cookie="sessionid=abc")[:2] == (200, "BYPASS")
    assert get(front, path)[1] == "HIT"

    # Standings change with every stored game: never kept.
    standings = f"/api/seasons/{cup.pk}/standings/"
    assert [get(front, standings)[:2] for _ in range(2)] == [(200, "MISS")] * 2
