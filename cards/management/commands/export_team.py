"""``manage.py export_team``: write teams as vabg-team/1 files that import back unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.mapping import teams_for_play
from cards.services import team_file_text, teams_export


class Command(BaseCommand):
    help = (
        'Export teams as vabg-team/1 files. Name teams as "School SEASON" (e.g. "Kentucky '
        '2012"), or use --all. Writes into --out (default: the current directory), or to '
        "standard output with --print."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("teams", nargs="*", metavar="TEAM", help='e.g. "Kentucky 2012"')
        parser.add_argument("--all", action="store_true", help="export every team")
        parser.add_argument("--out", default=".", help="directory to write into")
        parser.add_argument("--print", action="store_true", help="print one team's file instead")

    def handle(self, *args: Any, **options: Any) -> None:
        teams = teams_for_play()
        if options["all"]:
            selected = list(teams)
        elif options["teams"]:
            selected = []
            for label in options["teams"]:
                school, _, season = label.rpartition(" ")
                team = (
                    teams.filter(school=school, season=season).first() if season.isdigit() else None
                )
                if team is None:
                    raise CommandError(f'No team "{label}" (write it as "School SEASON").')
                selected.append(team)
        else:
            raise CommandError("Name at least one team, or use --all.")
        if options["print"]:
            if len(selected) != 1:
                raise CommandError("--print prints exactly one team.")
            self.stdout.write(team_file_text(selected[0]), ending="")
            return
        for path in teams_export(teams=selected, directory=Path(options["out"])):
            self.stdout.write(str(path))
