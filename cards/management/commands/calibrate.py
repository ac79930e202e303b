"""``manage.py calibrate``: the author's first-game predictions played exactly, pair by pair."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from cards.calibration_run import OUT, CalibrationRequest, run_calibration
from cards.field import FieldError
from core.commands import Command as ProjectCommand


class Command(ProjectCommand):
    help = (
        "Play the author's predicted first games of the field exactly, as tournaments play "
        "them, and write docs/calibration.md (cards/calibration_run.py): in sample and, "
        "with --holdout, out of sample."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        source = parser.add_mutually_exclusive_group()
        source.add_argument(
            "--teams-dir", help="a directory of vabg-team/1 files (default: fixtures/teams)"
        )
        source.add_argument("--from-db", action="store_true", help="the teams in the database")
        parser.add_argument(
            "--field",
            help="the field file: school, season, region, seed, predicted_pts, "
            "predicted_allowed (default: fixtures/field/alltime96.csv)",
        )
        parser.add_argument(
            "--ratings", help="real seasons: srs, pts, opp (default: ratings.csv beside --field)"
        )
        parser.add_argument(
            "--printed",
            help="the author's printed dunk numbers (default: printed.csv beside --field)",
        )
        parser.add_argument("--out", default=str(OUT), help="default: docs/calibration.md")
        parser.add_argument(
            "--holdout",
            action="store_true",
            help="also measure out of sample: for each half of the games, rebuild the whole "
            "field from fixtures/field with that half's predictions removed from every step, "
            "then play the half's games (two field builds)",
        )
        parser.add_argument(
            "--odds-cache",
            metavar="FILE.json",
            help="with --holdout: exact-odds games computed before, as build_field's",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        fields = CalibrationRequest.__dataclass_fields__
        request = CalibrationRequest(**{k: v for k, v in options.items() if k in fields})
        try:
            printed = run_calibration(request)
        except FieldError as exc:
            raise CommandError(str(exc)) from exc
        for line in printed:
            self.stdout.write(line)
