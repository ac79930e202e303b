"""The admin login lockout README promises (django-axes): the fifth wrong password from one
address locks that username there, and the address is the real client's, never a header's.

The limit is asserted as README states it (5) on purpose: a test that read it back from the
settings would pass whatever it became.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
LOGIN = "/admin/login/"
RIGHT = "right-password-123"
# Documentation addresses (RFC 5737): the attacker, the commissioner he names in a header,
# and the front cache (nginx) that `make serve-cached` puts before gunicorn.
ATTACKER, COMMISSIONER, PROXY = "198.51.100.7", "192.0.2.44", "127.0.0.1"
LOCKED = "signing in as commish from here is locked for 15 minutes. Try again then."


@pytest.fixture
def commish(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("commish", password=RIGHT)


def sign_in(client: Client, password: str, *, address: str, forwarded: str = "") -> int:
    """Post the admin login form as ``commish`` from ``address``; return the status."""
    meta = {"REMOTE_ADDR": address}
    if forwarded:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    response = client.post(LOGIN, {"username": "commish", "password": password}, **meta)
    if response.status_code == 429:  # says for how long, and how to lift it
        page = " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())
        assert LOCKED in page and "The league's commissioner can lift the lock" in page
        # the server's command is for staff, not for whoever is locked out
        assert "axes_reset_username" not in page
    return response.status_code


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db
def test_four_wrong_passwords_leave_the_login_open(commish: Any, client: Client) -> None:
    assert [sign_in(client, "wrong", address=ATTACKER) for _ in range(4)] == [200] * 4
    assert sign_in(client, RIGHT, address=ATTACKER) == 302
    assert signed_in(client)


@pytest.mark.django_db
def test_the_fifth_wrong_password_locks_the_login_even_for_the_right_one(
    commish: Any, client: Client
) -> None:
    codes = [sign_in(client, "wrong", address=ATTACKER) for _ in range(5)]
    assert codes == [200, 200, 200, 200, 429]
    # The page says when to try again in its header too, as the API's lockout does.
    locked = client.post(LOGIN, {"username": "commish", "password": RIGHT}, REMOTE_ADDR=ATTACKER)
    assert locked.status_code == 429 and locked["Retry-After"] == "900"
    assert sign_in(client, RIGHT, address=ATTACKER) == 429
    assert not signed_in(client)


def sign_in_as(client: Client, name: str, password: str) -> int:
    answer = client.post(LOGIN, {"username": name, "password": password}, REMOTE_ADDR=ATTACKER)
    return answer.status_code


@pytest.mark.django_db
def test_a_user_name_signs_in_in_any_case_and_every_case_counts_toward_one_lock(
    commish: Any, client: Client
) -> None:
    """A phone's keyboard capitalises the first letter: "Commish" signed in nobody and
    counted as a wrong password, and each spelling of a name had five tries of its own."""
    assert sign_in_as(client, "Commish", RIGHT) == 302 and signed_in(client)
    other = Client()
    names = ["COMMISH", "Commish", "commisH", "cOmmish", "commiSh"]
    assert [sign_in_as(other, name, "wrong") for name in names] == [200, 200, 200, 200, 429]
    assert sign_in_as(other, "commish", RIGHT) == 429
    assert not signed_in(other)


@pytest.mark.django_db
def test_the_lock_is_for_that_address_only(commish: Any, client: Client) -> None:
    for _ in range(5):
        sign_in(client, "wrong", address=ATTACKER)
    elsewhere = Client()
    assert sign_in(elsewhere, RIGHT, address=COMMISSIONER) == 302
    assert signed_in(elsewhere)


@pytest.mark.django_db
def test_the_lockout_follows_axes_failure_limit(
    commish: Any, client: Client, settings: Any
) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    assert [sign_in(client, "wrong", address=ATTACKER) for _ in range(2)] == [200, 429]


def security_settings(env: dict[str, str]) -> dict[str, object]:
    """Read the lockout's settings in a fresh interpreter under ``env`` alone."""
    code = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps([settings.AXES_FAILURE_LIMIT,"
        " settings.AXES_COOLOFF_TIME.total_seconds(), settings.NUM_PROXIES,"
        " settings.REST_FRAMEWORK['NUM_PROXIES'], settings.AXES_CLIENT_IP_CALLABLE]))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("AXES_", "NUM_PROXIES"))}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    limit, cooloff, proxies, drf_proxies, client_ip = json.loads(proc.stdout)
    return {"limit": limit, "cooloff": cooloff, "proxies": (proxies, drf_proxies),
            "client_ip": client_ip}  # fmt: skip


def test_the_limit_the_cool_off_and_the_trusted_proxies_come_from_the_environment() -> None:
    assert security_settings({}) == {
        "limit": 5, "cooloff": 15 * 60, "proxies": (0, 0), "client_ip": "config.security.client_ip"
    }  # fmt: skip
    chosen = security_settings(
        {"AXES_FAILURE_LIMIT": "3", "AXES_COOLOFF_MINUTES": "2", "NUM_PROXIES": "1"}
    )
    assert (chosen["limit"], chosen["cooloff"], chosen["proxies"]) == (3, 120, (1, 1))


# --- X-Forwarded-For, with NUM_PROXIES=0 (the default): anyone can write the header ----------


@pytest.mark.django_db
def test_a_forged_forwarded_for_neither_resets_nor_dodges_the_count(
    commish: Any, client: Client
) -> None:
    # A new header for every try, as an attacker hoping each looks like a new address.
    codes = [
        sign_in(client, "wrong", address=ATTACKER, forwarded=f"203.0.113.{i}") for i in range(5)
    ]
    assert codes == [200, 200, 200, 200, 429]
    assert sign_in(client, RIGHT, address=ATTACKER, forwarded="203.0.113.99") == 429
    assert sign_in(client, RIGHT, address=ATTACKER) == 429


@pytest.mark.django_db
def test_a_forged_forwarded_for_does_not_lock_out_the_address_it_names(
    commish: Any, client: Client
) -> None:
    codes = [sign_in(client, "wrong", address=ATTACKER, forwarded=COMMISSIONER) for _ in range(5)]
    assert codes[-1] == 429
    commissioner = Client()
    assert sign_in(commissioner, RIGHT, address=COMMISSIONER) == 302
    assert signed_in(commissioner)


# --- behind one proxy (make serve-cached: NUM_PROXIES=1) --------------------------------------


@pytest.fixture
def one_proxy(settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}


@pytest.mark.django_db
@pytest.mark.usefixtures("one_proxy")
def test_behind_one_proxy_the_lockout_reads_the_address_the_proxy_saw(
    commish: Any, client: Client
) -> None:
    # nginx appends the address it saw to whatever the client sent: the last entry is real.
    codes = [
        sign_in(client, "wrong", address=PROXY, forwarded=f"{forged}, {ATTACKER}")
        for forged in ("203.0.113.1", COMMISSIONER, "203.0.113.2", COMMISSIONER, "203.0.113.3")
    ]
    assert codes == [200, 200, 200, 200, 429]
    assert sign_in(client, RIGHT, address=PROXY, forwarded=ATTACKER) == 429
    # Every client reaches gunicorn from the proxy's address: the commissioner is not locked.
    commissioner = Client()
    assert sign_in(commissioner, RIGHT, address=PROXY, forwarded=COMMISSIONER) == 302
    assert signed_in(commissioner)
