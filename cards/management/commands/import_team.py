"""``manage.py import_team FILE...``: import team files all or nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.services import TeamFileError, teams_import


def read_files(paths: list[str]) -> list[tuple[str, bytes]]:
    """Read the named files; a missing or unreadable file is a clear command error."""
    files, problems = [], []
    for name in paths:
        try:
            files.append((name, Path(name).read_bytes()))
        except OSError as exc:
            problems.append(f"{name}: cannot be read ({exc.strerror})")
    if problems:
        raise CommandError("\n".join(problems))
    return files


class Command(BaseCommand):
    help = (
        "Import vabg-team/1 team files. A file with any problem refuses the whole batch, every "
        "problem is listed, and nothing is written. Importing a file again updates its team "
        "(matched by school and season) instead of duplicating it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="team files (JSON)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            outcomes = teams_import(files=read_files(options["files"]))
        except TeamFileError as exc:
            raise CommandError(
                f"Nothing was imported; {len(exc.problems)} problem(s):\n  "
                + "\n  ".join(exc.problems)
            ) from exc
        for outcome in outcomes:
            self.stdout.write(outcome.describe())
