"""``manage.py add_commissioner NAME``: an account that may edit teams, cards and games."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError, CommandParser

from core.commands import Command as ProjectCommand
from core.roles import COMMISSIONER_GROUP, commissioner_create


class Command(ProjectCommand):
    help = (
        "Create a commissioner account (staff, in the Commissioner group), or promote an "
        "existing user. Prints a generated password unless --password is given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password", default=None)
        parser.add_argument(
            "--if-none",
            action="store_true",
            help="do nothing when a commissioner already exists (used by `make run`)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        existing = users.filter(groups__name=COMMISSIONER_GROUP).order_by("pk").first()
        if options["if_none"] and existing is not None:
            # A second `make run`: the password was printed the first time. Say whose it is
            # and how to set a new one, for whoever lost it.
            name = existing.get_username()
            self.stdout.write(
                f"Commissioner {name!r} signs in at /admin/ (its password was printed when it "
                f"was made; set a new one with: .venv/bin/python manage.py changepassword {name})"
            )
            return
        if options["password"] is not None:
            # The rules the admin's password forms apply (AUTH_PASSWORD_VALIDATORS).
            provisional = users.filter(username=options["username"]).first() or users.model(
                username=options["username"]
            )
            try:
                validate_password(options["password"], provisional)
            except ValidationError as exc:
                raise CommandError(
                    f"--password refused, nothing changed: {' '.join(exc.messages)}"
                ) from exc
        user, password = commissioner_create(
            username=options["username"], password=options["password"]
        )
        shown = password if password and not options["password"] else "(unchanged)"
        if options["password"]:
            shown = "(as given)"
        self.stdout.write(
            f"Commissioner {user.username!r} can sign in at /admin/ with password: {shown}"
        )
