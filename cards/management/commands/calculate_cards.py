"""``manage.py calculate_cards STATS.csv``: write a vabg-team/1 file per team of a stats file."""

from __future__ import annotations

import csv
import json
from argparse import RawDescriptionHelpFormatter
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.text import slugify

from cards.calculator import StatsFileError, TeamResult, teams_from_rows
from core.commands import Command as ProjectCommand

COLUMNS_HELP = """
Columns (named as in alltime96_rosters.csv; any order; others ignored; docs/cards.md §12):
  school, season (or year), player (or name)      required
  pos, height, class, role (starter/reserve), slot (1-5)
  g, mpg, and per game: ppg, rpg, orpg, drpg, apg, spg, bpg, tov, pf
  fg_pct, fg3_pct, ft_pct                          0.455 or 45.5
  fgm, fga, fg3m, fg3a, ftm, fta                   season totals, divided by g
  source_url, notes                                kept on the card
  conference, pace, rating, predicted_pts, predicted_allowed   the team's, optional
Empty cells are missing statistics: the card fills them in and is marked estimated.
"""


class Command(ProjectCommand):
    help = (
        "Calculate VABG cards from players' season statistics (a CSV with a header row)\n"
        "and write one vabg-team/1 file per school and season, named like\n"
        "kentucky-2012.json. A bad file is refused as a whole, every problem named by\n"
        "row and column; nothing is written.\n" + COLUMNS_HELP
    )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.formatter_class = RawDescriptionHelpFormatter  # keep the column list's lines
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("stats", metavar="STATS.csv", help="players' season lines")
        parser.add_argument(
            "--teams",
            metavar="TEAMS.csv",
            help="team context by school and season (year): conference, pace, rating, "
            "predicted_pts, predicted_allowed, as in alltime96_teams.csv",
        )
        parser.add_argument("--out", default=".", help="directory to write into (default: .)")

    def handle(self, *args: Any, **options: Any) -> None:
        stats = Path(options["stats"])
        rows = _read_rows(stats)
        team_rows = _read_rows(Path(options["teams"])) if options["teams"] else []
        try:
            calculated = teams_from_rows(
                rows,
                team_rows=team_rows,
                source=stats.name,
                teams_source=Path(options["teams"] or "TEAMS.csv").name,
            )
        except StatsFileError as exc:
            raise CommandError("Nothing was written:\n  " + "\n  ".join(exc.problems)) from exc
        for warning in calculated.warnings:
            self.stderr.write(self.style.WARNING(warning))
        if not calculated.teams:
            raise CommandError("No team has 5 players; nothing was written.")
        named = _file_names(calculated.teams)
        out = Path(options["out"])
        out.mkdir(parents=True, exist_ok=True)
        for name, result in named.items():
            path = out / name
            path.write_text(json.dumps(result.team, indent=2, ensure_ascii=False) + "\n")
            self.stdout.write(str(path))


def _read_rows(path: Path) -> list[dict[str, str | None]]:
    """Read a CSV file's data rows as dictionaries keyed by its (trimmed) header."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            if reader.fieldnames is None:
                raise CommandError(f"{path}: the file is empty; it needs a header row.")
            reader.fieldnames = [name.strip().lower() for name in reader.fieldnames]
            return [dict(row) for row in reader]
    except OSError as exc:
        raise CommandError(f"{path}: cannot be read ({exc.strerror}).") from exc
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path}: is not UTF-8 text ({exc.reason}).") from exc
    except csv.Error as exc:
        raise CommandError(f"{path}: is not a CSV file ({exc}).") from exc


def _file_names(teams: tuple[TeamResult, ...]) -> dict[str, TeamResult]:
    """Name each team's file as the fixtures are (``kentucky-2012.json``), refusing clashes."""
    named: dict[str, TeamResult] = {}
    for result in teams:
        school, season = result.team["school"], result.team["season"]
        name = f"{slugify(school) or 'team'}-{season}.json"
        if name in named:
            other = named[name].team["school"]
            raise CommandError(
                f"Nothing was written: {school!r} and {other!r} {season} would both be {name}."
            )
        named[name] = result
    return named
