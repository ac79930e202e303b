"""``manage.py add_commissioner``: ``make run`` makes one the first time and, every time after,
says whose account it is and how to set a new password (a trial lost it and got silence)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def add(*args: str) -> str:
    out = StringIO()
    call_command("add_commissioner", *args, stdout=out)
    return out.getvalue()


def test_a_second_make_run_names_the_commissioner_and_how_to_reset_its_password() -> None:
    first = add("commissioner", "--if-none")
    assert "Commissioner 'commissioner' can sign in at /admin/ with password: " in first
    password_hash = get_user_model().objects.get(username="commissioner").password
    again = add("someone-else", "--if-none")
    assert "Commissioner 'commissioner' signs in at /admin/" in again
    assert "manage.py changepassword commissioner" in again
    # Nothing made, nothing changed.
    assert get_user_model().objects.count() == 1
    assert get_user_model().objects.get(username="commissioner").password == password_hash
