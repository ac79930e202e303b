"""The base of the project's management commands: the system checks a command runs first.

Django runs every system check before a management command, and several import the whole
site to check it: the admin's (every ModelAdmin), the URLs' (config/urls.py: the API, DRF,
drf-spectacular), the templates' (every template tag library) and DRF's pagination check
(its settings' classes). On a 2-core machine that was about a second of every command's
start, where the rest of Django's start takes about 1.5 s. No command of this project serves
a page, an admin form or the API, so each checks what it uses, :data:`COMMAND_CHECKS`,
and the site's checks are left to what serves it: ``runserver``, ``migrate`` and ``check``
run every check, as does the suite (``tests/config/test_settings.py`` runs ``manage.py check
--deploy``). A Celery worker runs none (config/celery.py: Celery's own run of them threw
their findings away).
"""

from __future__ import annotations

from django.core.checks import Tags
from django.core.management.base import BaseCommand

COMMAND_CHECKS = [Tags.models, Tags.database, Tags.caches, Tags.files, Tags.translation]
"""What a command uses: the models, the database, the cache, the file settings, the language."""


class Command(BaseCommand):
    """A management command of this project: :data:`COMMAND_CHECKS` before it runs."""

    requires_system_checks = COMMAND_CHECKS
