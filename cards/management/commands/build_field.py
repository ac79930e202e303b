"""``manage.py build_field``: the 96 field's team files (:func:`cards.field.field_files_write`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from cards.field import FIELD_DIR, ODDS_CACHE, TEAMS_DIR, FieldError, field_files_write
from core.commands import Command as ProjectCommand

FIELD = FIELD_DIR / "alltime96.csv"


class Command(ProjectCommand):
    help = (
        "Write a team file for every team of the all-time 96 field from fixtures/field/ with "
        "the card calculator, every team's dunk numbers aimed by the exact odds of the "
        "coached game (docs/field.md). A file build_field did not write keeps its players. "
        "Nothing is written unless every team builds."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add = parser.add_argument
        add("--out", default=str(TEAMS_DIR), help="default: fixtures/teams")
        add("--field", default=str(FIELD))
        add("--rosters", default=str(FIELD_DIR / "rosters.csv"))
        add("--ratings", default=str(FIELD_DIR / "ratings.csv"), help="used when it exists")
        add("--printed", help="the author's printed facts; default: printed.csv beside --field")
        add("--odds-cache", metavar="FILE.json", help="games computed before, rewritten with "
            "the games this build used (default: fixtures/field/odds-cache.json for the "
            "field's own file, else none; read but not rewritten when --out is not "
            "fixtures/teams); dropped whole when the engine changes")  # fmt: skip
        add("--copy-rosters", metavar="SHARED.csv", help="first rewrite --rosters from the "
            "shared rosters, --player-seasons, printed.csv and found_players.csv")  # fmt: skip
        add("--player-seasons", metavar="SEASONS.csv", help="default: beside SHARED.csv")

    def handle(self, *args: Any, **options: Any) -> None:
        def path(name: str) -> Path | None:
            return Path(options[name]) if options[name] else None

        cache = path("odds_cache") or (ODDS_CACHE if Path(options["field"]) == FIELD else None)
        # The committed cache holds the games of the committed field: a build into another
        # folder (without the rulebook's three teams, say: another field) reads it, never
        # replaces it with its own games (the next plain rebuild then took 28 s, not 4).
        elsewhere = Path(options["out"]).resolve() != TEAMS_DIR.resolve()
        written = cache is not None and not (elsewhere and options["odds_cache"] is None)
        try:
            report = field_files_write(
                out=Path(options["out"]),
                field_path=Path(options["field"]),
                rosters_path=Path(options["rosters"]),
                ratings_path=Path(options["ratings"]),
                printed_path=path("printed"),
                copy_rosters=path("copy_rosters"),
                player_seasons=path("player_seasons"),
                odds_cache=cache,
                cache_written=written,
                verbose=options["verbosity"] > 1,
            )
        except FieldError as exc:
            raise CommandError(str(exc)) from exc
        for warning in report.warnings:
            self.stderr.write(self.style.WARNING(warning))
        for line in report.lines:
            self.stdout.write(line)
        if cache is not None and not written:
            self.stdout.write(
                f"{cache} was read, not rewritten (a build outside fixtures/teams; give "
                "--odds-cache FILE to keep this build's games)"
            )
