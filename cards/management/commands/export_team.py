"""``manage.py export_team``: write teams as vabg-team/1 files that import back unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from cards.lookup import TeamNotFound, team_named
from cards.mapping import teams_for_play
from cards.services import (
    ExportDirectoryError,
    TeamNotWritable,
    left_out_notice,
    renamed_files,
    team_file_names,
    team_file_text,
    teams_export,
)
from core.commands import Command as ProjectCommand
from core.errors import sentence
from core.text import counted


class Command(ProjectCommand):
    help = (
        'Export teams as vabg-team/1 files. Name teams as "School SEASON" (e.g. "Kentucky '
        '2012"; the school in any case), or use --all. Writes into --out (default: the current '
        "directory), or to standard output with --print."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("teams", nargs="*", metavar="TEAM", help='e.g. "Kentucky 2012"')
        parser.add_argument("--all", action="store_true", help="export every team")
        parser.add_argument("--out", default=".", help="directory to write into")
        parser.add_argument("--print", action="store_true", help="print one team's file instead")

    @staticmethod
    def _writable(teams: list[Any]) -> tuple[list[Any], list[str]]:
        """Split ``teams`` into those a team file can be written of and why the others
        cannot."""
        writable, refused = [], []
        for team in teams:
            try:
                team_file_text(team)
            except TeamNotWritable as exc:
                refused.append(str(exc))
            else:
                writable.append(team)
        return writable, refused

    def handle(self, *args: Any, **options: Any) -> None:
        teams = teams_for_play()
        if options["all"]:
            selected = list(teams)
        elif options["teams"]:
            try:
                selected = [team_named(label, teams) for label in options["teams"]]
            except TeamNotFound as exc:
                raise CommandError(str(exc)) from exc
        else:
            raise CommandError("Name at least one team, or use --all.")
        for team in selected:
            notice = left_out_notice(team)
            if notice:
                self.stderr.write(sentence(notice, name_first=True))
        try:
            if options["print"]:
                if len(selected) != 1:
                    raise CommandError("--print prints exactly one team.")
                self.stdout.write(team_file_text(selected[0]), ending="")
                return
            unwritable: list[str] = []
            if options["all"]:  # one team half-entered in the admin holds back no other
                selected, unwritable = self._writable(selected)
            paths = teams_export(teams=selected, directory=Path(options["out"]))
        except (TeamNotWritable, ExportDirectoryError) as exc:
            raise CommandError(sentence(f"{exc}; nothing was written")) from exc
        for path in paths:
            self.stdout.write(str(path))
        renamed = renamed_files(team_file_names(selected))
        for line in renamed:
            self.stdout.write(
                sentence(f"{line} (their file names would be the same)", name_first=True)
            )
        if renamed:
            self.stdout.write(f"{len(paths)} team files written, one for each team.")
        if unwritable:
            raise CommandError(
                f"{counted(len(unwritable), 'team')} not written ("
                f"{counted(len(paths), 'team file')} written):\n"
                + "\n".join(sentence(u) for u in unwritable)
            )
