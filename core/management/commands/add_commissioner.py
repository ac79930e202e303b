"""``manage.py add_commissioner NAME``: an account that may edit teams, cards and games."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from core.roles import COMMISSIONER_GROUP, commissioner_create


class Command(BaseCommand):
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
        if options["if_none"] and users.filter(groups__name=COMMISSIONER_GROUP).exists():
            return
        user, password = commissioner_create(
            username=options["username"], password=options["password"]
        )
        shown = password if password and not options["password"] else "(unchanged)"
        if options["password"]:
            shown = "(as given)"
        self.stdout.write(
            f"Commissioner {user.username!r} can sign in at /admin/ with password: {shown}"
        )
