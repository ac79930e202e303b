"""``manage.py build_field``: a team file for every team of the all-time 96 field.

The shell of :func:`cards.field.field_files_write` (docs/field.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.field import (
    FIELD_DIR,
    ODDS_CACHE,
    PLAYER_SEASONS,
    TEAMS_DIR,
    FieldError,
    field_files_write,
)


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


class Command(BaseCommand):
    help = (
        "Write a vabg-team/1 file for every team of the all-time 96 field "
        "(fixtures/field/alltime96.csv) from fixtures/field/rosters.csv with the card "
        "calculator, its dunk numbers aimed by the exact odds at the teams' real seasons "
        "(fixtures/field/ratings.csv). Spots the rosters cannot fill become placeholder "
        'starters ("Auburn 1984 C (to complete)"). A file in --out that build_field did not '
        "write is kept as it is. Nothing is written unless every team builds. See docs/field.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add = parser.add_argument
        add("--out", default=str(TEAMS_DIR), help="default: fixtures/teams")
        add("--field", default=str(FIELD_DIR / "alltime96.csv"))
        add("--rosters", default=str(FIELD_DIR / "rosters.csv"))
        add("--ratings", default=str(FIELD_DIR / "ratings.csv"), help="used when it exists")
        add("--printed", help="the author's printed facts; default: printed.csv beside --field")
        add(
            "--odds-cache",
            metavar="FILE.json",
            help="exact-odds games computed before, read, then rewritten with the games this "
            "build used; dropped whole when the engine's source (simulator/), numpy or Python "
            "change (default: fixtures/field/odds-cache.json when --field is the field's own "
            "file, else none)",
        )
        add(
            "--copy-rosters",
            metavar="SHARED.csv",
            help="first rewrite --rosters from the shared alltime96_rosters.csv merged with "
            "--player-seasons and the printed player facts",
        )
        add("--player-seasons", metavar="SEASONS.csv", help=f"default: {PLAYER_SEASONS} beside")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = field_files_write(
                out=Path(options["out"]),
                field_path=Path(options["field"]),
                rosters_path=Path(options["rosters"]),
                ratings_path=Path(options["ratings"]),
                printed_path=_path(options["printed"]),
                copy_rosters=_path(options["copy_rosters"]),
                player_seasons=_path(options["player_seasons"]),
                odds_cache=_path(options["odds_cache"])
                or (ODDS_CACHE if Path(options["field"]) == FIELD_DIR / "alltime96.csv" else None),
                verbose=options["verbosity"] > 1,
            )
        except FieldError as exc:
            raise CommandError(str(exc)) from exc
        for warning in report.warnings:
            self.stderr.write(self.style.WARNING(warning))
        for line in report.lines:
            self.stdout.write(line)
