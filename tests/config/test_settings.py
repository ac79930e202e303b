"""The settings pick their servers from the environment, with a server-free default."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.first_run

STRONG_KEY = "vabg-test-key-" + "q7Hk2pLw9Xz" * 5
"""A key production accepts (50+ characters, 5+ different)."""
PRODUCTION_DB = "postgres://vabg@db.example.org/vabg"
"""Production's database (the settings make no connection)."""

ROOT = Path(__file__).resolve().parents[2]


def settings_under(env: dict[str, str]) -> dict[str, object]:
    """Import the settings in a fresh interpreter under ``env`` and return what they chose
    (read as every process reads them first; the apps are not loaded: a third of the time)."""
    code = (
        "import json; from django.conf import settings;"
        "db = settings.DATABASES['default'];"
        "print(json.dumps({'engine': db['ENGINE'], 'name': str(db['NAME']),"
        " 'options': db.get('OPTIONS', {}), 'eager': settings.CELERY_TASK_ALWAYS_EAGER,"
        " 'broker': settings.CELERY_BROKER_URL, 'debug': settings.DEBUG}))"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "CELERY_BROKER_URL",
            "REDIS_URL",
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "SQLITE_PATH",
        }
    }
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode:
        return {"error": proc.stderr.strip().splitlines()[-1]}
    return json.loads(proc.stdout)


def test_with_nothing_set_it_runs_on_sqlite_with_celery_eager() -> None:
    chosen = settings_under({})
    assert chosen["engine"] == "django.db.backends.sqlite3"
    assert chosen["options"] == {"transaction_mode": "IMMEDIATE", "timeout": 20}
    assert chosen["eager"] is True


def test_database_url_switches_to_postgresql_and_broker_url_to_redis() -> None:
    chosen = settings_under(
        {
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/3",
        }
    )
    assert chosen["engine"] == "django.db.backends.postgresql"
    assert chosen["name"] == "test"
    assert chosen["eager"] is False
    assert chosen["broker"] == "redis://127.0.0.1:6379/3"


def test_redis_url_is_accepted_as_the_broker() -> None:
    assert settings_under({"REDIS_URL": "redis://127.0.0.1:6379/4"})["eager"] is False


def test_it_refuses_a_database_url_that_is_not_postgresql() -> None:
    chosen = settings_under({"DATABASE_URL": "mysql://root@127.0.0.1/test"})
    assert "DATABASE_URL must be a postgres:// URL" in str(chosen["error"])


def test_it_refuses_to_run_without_a_secret_key_when_debug_is_off() -> None:
    chosen = settings_under({"DEBUG": "false"})
    assert "SECRET_KEY must be set when DEBUG is off" in str(chosen["error"])


@pytest.mark.parametrize(
    "key",
    ["changeme", "s" * 60, "django-insecure-" + "q7Hk2pLw9Xz" * 5],
    ids=["short", "one-character", "django-insecure"],
)
def test_it_refuses_a_weak_secret_key_when_debug_is_off(key: str) -> None:
    """`check --deploy` only warns (and nobody runs it); a session signed with 'changeme'
    can be forged by anyone who guesses it."""
    chosen = settings_under({"DEBUG": "false", "SECRET_KEY": key, "ALLOWED_HOSTS": "x.org"})
    assert "SECRET_KEY is too weak for DEBUG off: it needs 50 characters or more" in str(
        chosen["error"]
    )


def test_a_weak_secret_key_is_still_fine_for_development() -> None:
    assert settings_under({"SECRET_KEY": "changeme"})["debug"] is True


@pytest.mark.django_db
def test_healthz_reports_the_database_and_broker(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_postgres_run_really_talks_to_postgresql(client) -> None:
    assert client.get("/healthz").json()["database_vendor"] == "postgresql"


@pytest.mark.redis
@pytest.mark.django_db
def test_the_redis_run_reaches_the_real_broker(client) -> None:
    assert client.get("/healthz").json()["broker"] == "ok"


def test_production_settings_pass_the_deploy_checks_with_no_warning() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    proc = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env={
            **env,
            "DEBUG": "false",
            "SECRET_KEY": "k" * 30 + "-production-key-" + "x" * 30,
            "ALLOWED_HOSTS": "vabg.example.org",
            "CACHE_URL": "redis://127.0.0.1:6379/1",
            "DATABASE_URL": PRODUCTION_DB,
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "no issues" in proc.stdout


def test_each_https_setting_can_be_turned_off_by_its_variable() -> None:
    code = (
        "import json; from django.conf import settings;"
        "print(json.dumps([settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS,"
        " settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE]))"
    )
    base = {k: v for k, v in os.environ.items() if k != "DEBUG"}
    base |= {"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "false", "SECRET_KEY": STRONG_KEY,
             "CACHE_URL": "redis://127.0.0.1:6379/1", "ALLOWED_HOSTS": "vabg.example.org",
             "DATABASE_URL": PRODUCTION_DB}  # fmt: skip
    on = subprocess.run([sys.executable, "-c", code], env=base, cwd=ROOT, capture_output=True,
                        text=True, check=True)  # fmt: skip
    assert json.loads(on.stdout) == [True, 31_536_000, True, True]
    off = {"SECURE_SSL_REDIRECT": "false", "SECURE_HSTS_SECONDS": "0",
           "SESSION_COOKIE_SECURE": "false", "CSRF_COOKIE_SECURE": "false"}  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", code], env=base | off, cwd=ROOT,
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert json.loads(proc.stdout) == [False, 0, False, False]


@pytest.mark.django_db
def test_a_forged_forwarded_for_header_does_not_dodge_the_anonymous_throttle() -> None:
    from django.core.cache import cache
    from rest_framework.test import APIClient
    from rest_framework.throttling import AnonRateThrottle

    cache.clear()
    original = AnonRateThrottle.THROTTLE_RATES
    AnonRateThrottle.THROTTLE_RATES = {**original, "anon": "3/min"}
    try:
        client = APIClient()
        codes = [
            client.get("/api/teams/", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code
            for i in range(5)
        ]
    finally:
        AnonRateThrottle.THROTTLE_RATES = original
        cache.clear()
    assert codes == [200, 200, 200, 429, 429]


@pytest.mark.django_db
def test_a_signed_in_fan_is_throttled_by_user_from_any_address_and_a_commissioner_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.core.cache import cache
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient
    from rest_framework.throttling import SimpleRateThrottle

    from tests.factories import commissioner, fan

    cache.clear()
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "anon": "2/min", "user": "3/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)

    def codes(user: object | None, n: int) -> list[int]:
        client = APIClient()
        if user is not None:  # a real token, as a fan's script sends it
            token, _ = Token.objects.get_or_create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return [
            client.get("/api/teams/", REMOTE_ADDR=f"198.51.100.{i}").status_code for i in range(n)
        ]

    try:
        # Each request from another address: the token is still one client.
        assert codes(fan("throttled"), 5) == [200, 200, 200, 429, 429]
        assert codes(fan("another"), 3) == [200, 200, 200]  # counted apart
        assert codes(commissioner("runs-the-league"), 6) == [200] * 6
    finally:
        cache.clear()


@pytest.mark.django_db
def test_passwords_tried_for_an_api_token_are_throttled_by_address(monkeypatch) -> None:
    """DRF's token view has no throttle: a security review sent wrong passwords at it,
    each a password hash's cost, while the anonymous API answered 429. A signed-in client
    trying passwords is counted by address too; revoking is not a try."""
    from django.core.cache import cache
    from rest_framework.test import APIClient
    from rest_framework.throttling import SimpleRateThrottle

    from tests.factories import fan

    cache.clear()
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "signin": "3/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    fan("sprayed")
    try:
        tries = [
            APIClient().post("/api/auth/token/", {"username": f"n{i}", "password": "x"})
            for i in range(4)
        ]
        assert [t.status_code for t in tries] == [400, 400, 400, 429]
        assert "Retry-After" in tries[-1]
        right = APIClient().post("/api/auth/token/", {"username": "sprayed", "password": "x"})
        assert right.status_code == 429  # from the same address, until the minute is over
        other = APIClient(REMOTE_ADDR="198.51.100.7")
        assert (
            other.post("/api/auth/token/", {"username": "n9", "password": "x"}).status_code == 400
        )
    finally:
        cache.clear()


def test_production_refuses_to_run_without_its_host_names() -> None:
    """Left unset, ALLOWED_HOSTS was the development hosts: every visitor of the site's
    real name got a 400, though README promised a refusal naming the variable."""
    production = {
        "DEBUG": "false",
        "SECRET_KEY": STRONG_KEY,
        "CACHE_URL": "redis://127.0.0.1:6379/10",
        "DATABASE_URL": PRODUCTION_DB,
    }
    for unset in ({}, {"ALLOWED_HOSTS": ""}, {"ALLOWED_HOSTS": " "}, {"ALLOWED_HOSTS": " , "}):
        refused = settings_under(production | unset)
        assert str(refused["error"]).startswith(
            "django.core.exceptions.ImproperlyConfigured: ALLOWED_HOSTS must be set when DEBUG is off"
        )
    assert settings_under(production | {"ALLOWED_HOSTS": "vabg.example.org"})["debug"] is False
    assert "error" not in settings_under({"DEBUG": "true"})  # development: its own hosts


def test_production_refuses_the_embedded_sqlite_unless_it_is_asked_for() -> None:
    """A reviewer's production environment with DATABASE_URL empty, or its name misspelt,
    served from the checkout's db.sqlite3 without a word (`check --deploy` said nothing)."""
    production = {"DEBUG": "false", "SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "vabg.example.org",
                  "CACHE_URL": "redis://127.0.0.1:6379/10"}  # fmt: skip
    for unset in ({}, {"DATABASE_URL": ""}, {"DATABSE_URL": PRODUCTION_DB}):
        refused = settings_under(production | unset)
        assert str(refused["error"]).startswith(
            "django.core.exceptions.ImproperlyConfigured: DATABASE_URL must be set when DEBUG "
            "is off: the site's PostgreSQL"
        ), unset
    assert settings_under(production | {"DATABASE_URL": PRODUCTION_DB})["engine"] == (
        "django.db.backends.postgresql"
    )
    chosen = settings_under(production | {"SQLITE_PATH": "/srv/vabg/db.sqlite3"})  # on purpose
    assert (chosen["engine"], chosen["name"]) == (
        "django.db.backends.sqlite3",
        "/srv/vabg/db.sqlite3",
    )
    assert "error" not in settings_under({})  # development: the embedded default, as ever


def test_a_misspelt_switch_or_number_is_refused_naming_the_variable() -> None:
    """django-environ alone reads DEBUG=ture as false and stops on LEAGUE_LEASE_SECONDS=ten
    with a bare ValueError: an operator's typo must say which variable it is."""
    production = {"SECRET_KEY": STRONG_KEY, "CACHE_URL": "redis://127.0.0.1:6379/10",
                  "ALLOWED_HOSTS": "vabg.example.org", "DATABASE_URL": PRODUCTION_DB}  # fmt: skip
    assert settings_under({"DEBUG": "ture"})["error"].endswith(
        "DEBUG='ture' is neither true nor false (write true or false)"
    )
    refused = settings_under({**production, "DEBUG": "false", "SECURE_SSL_REDIRECT": "flase"})
    assert "SECURE_SSL_REDIRECT='flase'" in str(refused["error"])
    refused = settings_under({"LEAGUE_LEASE_SECONDS": "ten"})
    assert str(refused["error"]).endswith("LEAGUE_LEASE_SECONDS='ten' is not a whole number")
    assert "LEAGUE_SWEEP_EVERY='5s' is not a number" in str(
        settings_under({"LEAGUE_SWEEP_EVERY": "5s"})["error"]
    )
    assert settings_under({**production, "DEBUG": "False"})["debug"] is False
    assert settings_under({"DEBUG": " YES "})["debug"] is True


def test_manage_py_says_what_the_settings_refuse_in_one_line() -> None:
    """An operator's typo stopped every command with forty lines of Django's frames, the
    variable named only at the bottom."""
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_SETTINGS_MODULE"}}
    proc = subprocess.run(
        [sys.executable, "manage.py", "check"], env={**env, "DEBUG": "ture"}, cwd=ROOT,
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 1
    assert (
        proc.stderr == "manage.py: DEBUG='ture' is neither true nor false (write true or false)\n"
    )


def test_healthz_answers_plain_http_in_production_while_pages_go_to_https(tmp_path: Path) -> None:
    """A load balancer probes the application over HTTP and by its address: a 301 to https
    or a 400 for the Host would read as down."""
    code = (
        "import django; django.setup(); from django.test import Client;"
        "c = Client(); h = c.get('/healthz'); p = c.get('/teams/');"
        "ip = c.get('/healthz', HTTP_HOST='10.0.0.5'); bad = c.get('/teams/', HTTP_HOST='10.0.0.5');"
        "print(h.status_code, p.status_code, p.get('Location'), ip.status_code, bad.status_code)"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "false", "SECRET_KEY": STRONG_KEY,
            "ALLOWED_HOSTS": "testserver", "CACHE_URL": "redis://127.0.0.1:6379/10",
            "SQLITE_PATH": str(tmp_path / "db.sqlite3")}  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=True)  # fmt: skip
    # A balancer probing the host by its address gets the health, not a 400; pages do not.
    assert proc.stdout.split() == ["200", "301", "https://testserver/teams/", "200", "400"]


def test_a_log_level_that_is_no_level_is_refused_naming_it() -> None:
    chosen = settings_under({"LOG_LEVEL": "verbose"})
    assert "LOG_LEVEL='VERBOSE' is not a level: DEBUG, INFO, WARNING, ERROR or CRITICAL" in str(
        chosen["error"]
    )
    assert "error" not in settings_under({"LOG_LEVEL": "info"})


@pytest.mark.parametrize(
    ("variable", "value"),
    [("API_ANON_RATE", "lots"), ("API_USER_RATE", "10/Min"), ("API_ANON_RATE", "120 / min"),
     ("CHALLENGE_SIGNUP_RATE", "0/hour"), ("CHALLENGE_SIGNIN_RATE", "30/month")],
)  # fmt: skip
def test_a_rate_written_wrong_is_refused_at_start_naming_it(variable: str, value: str) -> None:
    """API_ANON_RATE=lots passed every check and then answered every API request with a
    500 (DRF's throttle reads the rate on each request)."""
    refused = settings_under({variable: value})
    assert f"{variable}={value!r} is not a rate: write a count and a period" in str(
        refused["error"]
    )


def test_every_rate_the_throttles_read_is_accepted_and_read_alike() -> None:
    from challenge.accounts import parse_rate
    from config.settings import _Env

    assert "error" not in settings_under({"API_ANON_RATE": "50/h", "API_USER_RATE": "9/day"})
    assert "error" not in settings_under({"CHALLENGE_SIGNIN_RATE": "50/s"})
    # What the settings let through, the challenge's own counter reads as DRF does (by the
    # period's first letter).
    seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    for period in _Env.RATE_PERIODS:
        assert parse_rate(f"50/{period}") == (50, seconds[period[0]]), period


def test_a_negative_connection_age_is_refused() -> None:
    refused = settings_under(
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test", "CONN_MAX_AGE": "-5"}
    )
    assert "CONN_MAX_AGE must be 0 or more" in str(refused["error"])


def test_a_database_url_that_reaches_no_database_is_said_in_one_line() -> None:
    """An operator's review: a mistyped DATABASE_URL made `make serve-cached`'s migrate, and
    every command, print some 90 lines of traceback; a URL without its "://" 33 lines ending
    in KeyError: 'ENGINE'."""
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    for url, said in (
        ("postgres://postgres@127.0.0.1:1/vabg", "manage.py migrate: cannot reach the PostgreSQL "
         'database vabg on 127.0.0.1:1: connection to server at "127.0.0.1", port 1 failed: '),
        ("postgres//postgres@127.0.0.1/vabg", "manage.py: DATABASE_URL must be a postgres:// URL"),
    ):  # fmt: skip
        proc = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            env=clean | {"DATABASE_URL": url}, cwd=ROOT, capture_output=True, text=True,
            check=False,
        )  # fmt: skip
        assert proc.returncode == 1, proc.stderr
        assert "Traceback" not in proc.stderr
        assert proc.stderr.splitlines()[-1].startswith(said), proc.stderr
