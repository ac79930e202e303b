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


def test_a_password_given_must_pass_the_admins_own_rules() -> None:
    """A review made a commissioner with the password "x": the command applied none of the
    password rules the admin's forms apply."""
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=r"--password refused, nothing changed: .*too short"):
        add("bob", "--password", "x")
    assert not get_user_model().objects.filter(username="bob").exists()
    assert "(as given)" in add("bob", "--password", "a-long-enough-pass-for-bob-17")
