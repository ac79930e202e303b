"""``manage.py import_team FILE...``: import team files all or nothing."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

from django.core.management.base import CommandError, CommandParser

from cards.services import TeamFileError, uploads_import
from core.commands import Command as ProjectCommand


def read_files(paths: list[str]) -> list[tuple[str, bytes]]:
    """Read the named files whole (``load_teams`` reads the product's own fixtures with it);
    a missing or unreadable file is a clear command error."""
    files, problems = [], []
    for name in paths:
        try:
            files.append((name, Path(name).read_bytes()))
        except OSError as exc:
            problems.append(f"{name}: cannot be read ({exc.strerror})")
    if problems:
        raise CommandError("\n".join(problems))
    return files


def open_files(paths: list[str], stack: ExitStack) -> list[tuple[str, IO[bytes]]]:
    """Open the named files (closed with ``stack``); a missing or unreadable file is a clear
    command error."""
    files: list[tuple[str, IO[bytes]]] = []
    problems = []
    for name in paths:
        try:
            files.append((name, stack.enter_context(open(name, "rb"))))  # noqa: SIM115
        except OSError as exc:
            problems.append(f"{name}: cannot be read ({exc.strerror})")
    if problems:
        raise CommandError("\n".join(problems))
    return files


class Command(ProjectCommand):
    help = (
        "Import vabg-team/1 team files, or zips of them, within the upload limits (settings "
        "TEAM_FILE_MAX_BYTES, TEAM_NOTES_MAX_CHARS, TEAM_ZIP_MAX_ENTRIES, TEAM_ZIP_MAX_BYTES). "
        "A file with any problem refuses the whole batch, every problem is listed, and nothing "
        "is written. Importing a file again updates its team "
        "(matched by school and season) instead of duplicating it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "files", nargs="+", metavar="FILE", help="team files (JSON), or zips of them"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with ExitStack() as stack:
                outcomes = uploads_import(
                    uploads=open_files(options["files"], stack), source="Imported by import_team"
                )
        except TeamFileError as exc:
            raise CommandError(
                f"Nothing was imported; {len(exc.problems)} problem(s):\n  "
                + "\n  ".join(exc.problems)
            ) from exc
        for outcome in outcomes:
            self.stdout.write(outcome.describe())
