#!/usr/bin/env python
"""Django's command-line utility for the VABG league manager."""

import os
import sys


def main() -> None:
    """Run a management command."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018  (loads the settings, which read the environment)
    except ImproperlyConfigured as refused:
        # A setting the environment gives that the settings refuse ("DEBUG='ture' is
        # neither true nor false"): the message alone, not forty lines of Django's frames.
        sys.exit(f"{os.path.basename(sys.argv[0])}: {refused}")

    from django.db import OperationalError, connection

    try:
        execute_from_command_line(sys.argv)
    except OperationalError as error:
        if connection.connection is not None:
            raise  # a failure on a working connection: its traceback says where
        # No connection could be made (a typo in DATABASE_URL, a database not created, the
        # server down): one line naming the database, as `make backup` says it.
        from config.backups import database_label

        lines = [line.strip() for line in str(error).strip().splitlines()]
        reason = " ".join(lines).removeprefix("connection failed: ").rstrip(".")
        end = "" if reason.endswith("?") else "."
        command = " ".join(sys.argv[1:2])
        sys.exit(
            f"{os.path.basename(sys.argv[0])} {command}: cannot reach {database_label()}: "
            f'{reason}{end} Check DATABASE_URL (README, "Configuration").'
        )


if __name__ == "__main__":
    main()
