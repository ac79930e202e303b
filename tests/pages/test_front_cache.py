"""The front cache: a played game's page is marked for any cache to keep, the fans' pages and
the API's public reads for a few seconds (anonymous visitors only), and nginx in front of the
application (``make serve-cached``: config/nginx.conf, scripts/serve-cached.sh) keeps exactly
that: never a signed-in visitor's page, never a page past its stated freshness."""

from __future__ import annotations

import http.client
import json
import os
import re
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
    assert played.headers["Cache-Control"] == "public, max-age=300, stale-while-revalidate=5"
    assert parse_http_date(played.headers["Last-Modified"]) == int(
        game.result.created_at.timestamp()
    )
    assert "Set-Cookie" not in played.headers  # the same page for every visitor

    settings.GAME_PAGE_MAX_AGE = 0
    assert "Cache-Control" not in client.get(game.get_absolute_url()).headers


@pytest.mark.django_db
def test_a_page_or_api_list_a_client_holds_is_answered_304_until_a_game_changes_it(
    client, django_capture_on_commit_callbacks
) -> None:
    cup = new_cup("Etag Cup")
    for path in (f"/seasons/{cup.pk}/leaders/", f"/seasons/{cup.pk}/", "/api/seasons/"):
        first = client.get(path)
        assert first.status_code == 200 and first.headers["ETag"], path
        again = client.get(path, HTTP_IF_NONE_MATCH=first.headers["ETag"])
        assert again.status_code == 304 and again.content == b"", path
        # A cache told to keep the page for a few seconds is told so again.
        assert again.headers["Cache-Control"] == first.headers["Cache-Control"], path
        # ... and what it varies by: a 304 without Accept-Encoding in Vary has a cache
        # that takes its headers for the copy's serve gzip to a client that cannot read it.
        assert again.headers["Vary"] == first.headers["Vary"], path
        assert "Accept-Encoding" in again.headers["Vary"], path
    held = client.get(f"/seasons/{cup.pk}/").headers["ETag"]
    with django_capture_on_commit_callbacks(execute=True):
        play(cup.games.get())
    changed = client.get(f"/seasons/{cup.pk}/", HTTP_IF_NONE_MATCH=held)
    assert changed.status_code == 200 and changed.headers["ETag"] != held


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

    # A run's progress is polled while games are stored: never kept.
    progress = f"/seasons/{cup.pk}/progress/"
    assert [get(front, progress)[:2] for _ in range(2)] == [(200, "MISS")] * 2


# -- the fans' pages: public for a few seconds to anonymous visitors (core.caching) ----------

FAN_HEADER = "public, max-age=5, stale-while-revalidate=5"

# Each {name} is filled from a played season: the fans' pages and the API's public reads...
PUBLIC_PATHS = (
    "/", "/seasons/", "/tournaments/", "/seasons/{season}/", "/seasons/{season}/leaders/",
    "/seasons/{cup}/", "/seasons/{cup}/bracket/", "/teams/", "/teams/{team}/",
    "/players/{player}/", "/api/teams/", "/api/teams/{team}/", "/api/players/",
    "/api/players/{player}/", "/api/cards/", "/api/leagues/", "/api/seasons/",
    "/api/seasons/{season}/", "/api/seasons/{season}/standings/", "/api/seasons/{cup}/bracket/",
    "/api/seasons/{season}/player-stats/", "/api/seasons/{season}/team-stats/",
    "/api/seasons/{season}/leaders/?category=pts", "/api/tournaments/", "/api/games/?season={season}",
    "/api/games/{game}/", "/api/games/{game}/box-score/", "/api/games/{game}/story/",
    "/api/games/{game}/play-by-play/", "/api/players/{player}/games/",
)  # fmt: skip
# ... and what is never kept for them: a run's progress, health, the admin, forms, exports.
PRIVATE_PATHS = (
    "/healthz", "/admin/login/", "/seasons/{season}/progress/", "/search/?q=a", "/matchup/",
    "/api/runs/", "/api/schema/", "/api/seasons/{season}/export/boxscores/",
)  # fmt: skip
# Not requested here (they build odds tables): only checked against nginx's lock locations.
NEVER_LOCKED = ("/seasons/{season}/odds/", "/api/seasons/{season}/odds/", "/games/{game}/")


@pytest.fixture
def league_paths(django_capture_on_commit_callbacks) -> dict[str, int]:  # type: ignore[no-untyped-def]
    from tests.league.api import play_all, season_played, throttle_reset

    throttle_reset()
    season = season_played(django_capture_on_commit_callbacks, teams=3)
    cup = new_cup("Paths Cup")
    play_all(cup, django_capture_on_commit_callbacks)
    game = season.games.filter(status=Game.Status.FINAL).first()
    assert game is not None
    player = game.home.players.first()
    assert player is not None
    return {"season": season.pk, "cup": cup.pk, "team": game.home_id, "player": player.pk,
            "game": game.pk}  # fmt: skip


def nginx_lock_locations() -> list[re.Pattern[str]]:
    """The regular expressions of config/nginx.conf's locations with proxy_cache_lock on."""
    text = (ROOT / "config" / "nginx.conf").read_text()
    blocks = re.findall(r"location ~ (\S+) \{([^}]*)\}", text)
    return [re.compile(pattern) for pattern, body in blocks if "proxy_cache_lock on;" in body]


@pytest.mark.django_db
def test_fan_pages_are_public_for_a_few_seconds_to_anonymous_visitors_only(
    client, settings, league_paths
) -> None:
    from tests.factories import commissioner

    locks = nginx_lock_locations()
    assert locks, "config/nginx.conf has no location with proxy_cache_lock"
    for template in PUBLIC_PATHS:
        path = template.format(**league_paths)
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers.get("Cache-Control") == FAN_HEADER, path
        assert not response.cookies, path
        # nginx lets one request at a time render a page it has no copy of.
        assert any(lock.match(path.split("?")[0]) for lock in locks), path
    for template in PRIVATE_PATHS:
        path = template.format(**league_paths)
        response = client.get(path)
        assert "public" not in response.headers.get("Cache-Control", ""), path
        assert not any(lock.match(path.split("?")[0]) for lock in locks), path
    for template in NEVER_LOCKED:
        path = template.format(**league_paths)
        assert not any(lock.match(path) for lock in locks), path

    season = f"/seasons/{league_paths['season']}/"
    standings = f"/api/seasons/{league_paths['season']}/standings/"
    # Not the visitor's own page: an error, the browsable API's HTML (it carries a CSRF token).
    assert "Cache-Control" not in client.get("/seasons/999999/").headers
    assert "Cache-Control" not in client.get("/api/teams/999999/").headers
    assert "Cache-Control" not in client.get(standings, HTTP_ACCEPT="text/html").headers
    # A request with an API token or a session (a signed-in commissioner) is never public.
    assert "Cache-Control" not in client.get(standings, HTTP_AUTHORIZATION="Token x").headers
    client.force_login(commissioner())
    for path in (season, standings):
        assert client.get(path).status_code == 200
        assert "Cache-Control" not in client.get(path).headers
    client.logout()

    settings.FAN_PAGE_MAX_AGE = 0
    assert "Cache-Control" not in client.get(season).headers


@pytest.mark.django_db
def test_pages_that_follow_a_run_are_kept_by_no_cache_until_it_ends(client) -> None:
    """A season, tournament or bracket page with a run going on polls it and reloads itself
    when a game is stored: a copy of a few seconds would show it the same run again, and it
    would reload every two seconds until the copy expired."""
    season = services.season_create(
        league=services.league_get_or_create(name="Followed League"), name="Live",
        teams=[full_team() for _ in range(3)], seed=3,
    )  # fmt: skip
    cup = new_cup("Followed Cup")
    paths = (f"/seasons/{season.pk}/", f"/seasons/{cup.pk}/", f"/seasons/{cup.pk}/bracket/")
    runs = [services.simulation_start(season=s, scope="all", dispatch=False) for s in (season, cup)]
    for path in paths:
        response = client.get(path)
        assert b'id="progress"' in response.content, path  # the page that polls and reloads
        cache_control = response.headers["Cache-Control"]
        assert "no-store" in cache_control and "public" not in cache_control, path
    for run in runs:
        services.run_play(run=run, on_progress=lambda _run: None)
    for path in paths:
        response = client.get(path)
        assert b'id="progress"' not in response.content, path
        assert response.headers["Cache-Control"] == FAN_HEADER, path


@pytest.mark.django_db
def test_a_throttled_api_answer_is_never_public(client, league_paths) -> None:
    from django.core.cache import cache
    from rest_framework.throttling import AnonRateThrottle

    cache.clear()
    original = AnonRateThrottle.THROTTLE_RATES
    AnonRateThrottle.THROTTLE_RATES = {**original, "anon": "1/min"}
    try:
        answers = [client.get("/api/teams/") for _ in range(2)]
    finally:
        AnonRateThrottle.THROTTLE_RATES = original
        cache.clear()
    assert [a.status_code for a in answers] == [200, 429]
    assert answers[0].headers["Cache-Control"] == FAN_HEADER
    assert "public" not in answers[1].headers.get("Cache-Control", "")


def wins(body: bytes) -> int:
    """The wins in a season's standings (the API's JSON): one per final game."""
    return sum(row["wins"] for table in json.loads(body) for row in table["rows"])


@pytest.mark.django_db(transaction=True)
def test_nginx_answers_a_fan_page_from_one_rendering_and_never_past_its_window(
    front, settings
) -> None:
    from rest_framework.authtoken.models import Token

    from tests.factories import commissioner
    from tests.league.api import season_scheduled

    settings.FAN_PAGE_MAX_AGE, settings.FAN_PAGE_STALE_SECONDS = 1, 1
    window = settings.FAN_PAGE_MAX_AGE + settings.FAN_PAGE_STALE_SECONDS
    season = season_scheduled(teams=3)
    page = f"/seasons/{season.pk}/"
    standings = f"/api/seasons/{season.pk}/standings/"

    status, cache, first = get(front, page)
    assert (status, cache) == (200, "MISS")
    assert get(front, page) == (200, "HIT", first)
    # Keyed by what Django builds its links from, the Host header as sent (port included)
    # and the forwarded scheme: another port or scheme gets, and leaves, a copy of its own
    # (keyed by $host, "127.0.0.1:6666" left its links in every visitor's copy).
    assert get(front, page, Host="127.0.0.1:6666")[:2] == (200, "MISS")
    assert get(front, page, **{"X-Forwarded-Proto": "https"})[:2] == (200, "MISS")
    assert get(front, page) == (200, "HIT", first)
    # A signed-in commissioner or an API token always reaches the application.
    assert get(front, page, Cookie="sessionid=abc")[:2] == (200, "BYPASS")
    token = Token.objects.create(user=commissioner())
    assert get(front, standings, Authorization=f"Token {token.key}")[:2] == (200, "BYPASS")

    status, cache, before = get(front, standings)
    assert (status, cache, wins(before)) == (200, "MISS", 0)
    cached_at = time.monotonic()
    assert get(front, standings)[:2] == (200, "HIT")

    # A stored game shows within the window: at first (perhaps) the copy, then one request
    # renders it again while the others get the copy, then the new standings.
    games = list(season.games.order_by("pk"))
    play(games[0])
    seen: list[str] = []
    deadline = cached_at + window + 10
    while True:
        status, cache, body = get(front, standings)
        seen.append(cache)
        if wins(body) == 1:
            break
        assert time.monotonic() < deadline, f"the stored game never showed: {seen}"
        time.sleep(0.05)
    print(f"a stored game showed on the standings after {seen}")

    # Idle past the whole window (and the second nginx's clock may add: it counts whole
    # seconds), the first request after a stored game gets it from the application, not a
    # copy the visitor would wait a window more to see changed (as "proxy_cache_use_stale
    # updating" would serve, however old).
    play(games[1])
    idle_until = time.monotonic() + window + 1.5
    while time.monotonic() < idle_until:
        time.sleep(0.1)
    status, cache, body = get(front, standings)
    assert (status, cache, wins(body)) == (200, "EXPIRED", 2)
