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

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
