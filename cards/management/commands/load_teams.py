"""``manage.py load_teams``: load every team file of fixtures/teams (idempotent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from cards.management.commands.import_team import read_files
from cards.models import Team
from cards.services import TeamFileError, teams_import, teams_parse
from core.commands import Command as ProjectCommand


class Command(ProjectCommand):
    help = (
        "Load every team file in fixtures/teams (or --dir). Safe to run again: a team already "
        "here (same school and season) is left as it is, so the commissioner's edits survive "
        "`make run`; --update overwrites such teams from their files instead."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", default=str(Path(settings.BASE_DIR) / "fixtures" / "teams"))
        parser.add_argument(
            "--update",
            action="store_true",
            help="also update teams already here from their files (undoes edits made since)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        paths = sorted(str(p) for p in Path(options["dir"]).glob("*.json"))
        if not paths:
            raise CommandError(f"No team files (*.json) in {options['dir']}.")
        # Each file by its own name: the refusals and the rows' history name it so.
        files: list[tuple[str, bytes | str]] = [
            (Path(name).name, content) for name, content in read_files(paths)
        ]
        kept = 0
        if not options["update"]:
            # Every file is still checked, so a broken fixture is reported even when its
            # team is already loaded; only the teams not here yet are written.
            here = set(Team.objects.values_list("school", "season"))
            try:
                parsed = teams_parse(files=files)
            except TeamFileError as exc:
                raise CommandError("Nothing was loaded:\n  " + "\n  ".join(exc.problems)) from exc
            missing: list[tuple[str, bytes | str]] = []
            for name, content, card in parsed:
                if (card.school, card.season) in here:
                    kept += 1
                else:
                    missing.append((name, content))
            files = missing
        try:
            outcomes = teams_import(files=files, source="Loaded by load_teams")
        except TeamFileError as exc:
            raise CommandError("Nothing was loaded:\n  " + "\n  ".join(exc.problems)) from exc
        counts = {"created": 0, "updated": 0, "unchanged": 0}
        for outcome in outcomes:
            counts[outcome.verb] += 1
            # An update can remove players (one added in the admin, or renamed by the file)
            # and unlink their box lines: each updated team is said as import_team says it.
            if outcome.verb == "updated":
                self.stdout.write(outcome.describe())
        summary = (
            f"{len(outcomes) + kept} teams: {counts['created']} created, "
            f"{counts['updated']} updated, {counts['unchanged']} unchanged"
        )
        if kept:
            summary += f", {kept} already here and kept as they are (--update reloads them)"
        self.stdout.write(summary)
