"""``manage.py load_teams``: load every team file of fixtures/teams (idempotent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.management.commands.import_team import read_files
from cards.services import TeamFileError, teams_import


class Command(BaseCommand):
    help = (
        "Load every team file in fixtures/teams (or --dir). Safe to run again: teams are "
        "matched by school and season and updated in place."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", default=str(Path(settings.BASE_DIR) / "fixtures" / "teams"))

    def handle(self, *args: Any, **options: Any) -> None:
        paths = sorted(str(p) for p in Path(options["dir"]).glob("*.json"))
        if not paths:
            raise CommandError(f"No team files (*.json) in {options['dir']}.")
        try:
            outcomes = teams_import(files=read_files(paths))
        except TeamFileError as exc:
            raise CommandError("Nothing was loaded:\n  " + "\n  ".join(exc.problems)) from exc
        counts = {"created": 0, "updated": 0, "unchanged": 0}
        for outcome in outcomes:
            counts[outcome.describe().rsplit(": ", 1)[1]] += 1
        self.stdout.write(
            f"{len(outcomes)} teams: {counts['created']} created, {counts['updated']} updated, "
            f"{counts['unchanged']} unchanged"
        )
