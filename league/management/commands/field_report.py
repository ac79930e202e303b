"""``manage.py field_report``: how the all-time 96 field plays, written into docs/field.md."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from cards.field import FIELD_DIR, TEAMS_DIR, FieldError, read_csv, read_field, shared_key
from cards.models import Team
from cards.services import team_file_name
from core.commands import Command as ProjectCommand
from league.fieldreport import FieldTeam, report_markdown
from league.management.commands._common import progress_report
from simulator.vabg import InvalidCardError, read_team_file

DOC = Path(__file__).resolve().parents[3] / "docs" / "field.md"
MARKER = (
    "<!-- Everything below is written by `manage.py field_report`; edit only above this line. -->"
)


class Command(ProjectCommand):
    help = (
        "Play the all-time 96 field as its tournaments play (advanced rules, coach policy on, "
        "neutral courts) and write docs/field.md's figures: exact title and Final Four odds, "
        "exact margins of the round-1 and round-2 games beside the author's (his games on record "
        "in fixtures/field/author_games.csv recounted), the 25+ ppg "
        "scorers' share of their team's points, and turnovers, steals and blocks a game."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--teams-dir", default=str(TEAMS_DIR))
        parser.add_argument("--field", default=str(FIELD_DIR / "alltime96.csv"))
        parser.add_argument("--games", type=int, default=2000, help="simulated games a figure")
        parser.add_argument("--out", default=str(DOC), help="default: docs/field.md")

    def handle(self, *args: Any, **options: Any) -> None:
        field_path = Path(options["field"])
        try:
            field = read_field(field_path)
            rosters = read_csv(field_path.with_name("rosters.csv"))
            ratings = read_csv(field_path.with_name("ratings.csv"))
            author_games = read_csv(field_path.with_name("author_games.csv"))
        except FieldError as exc:
            raise CommandError(str(exc)) from exc
        teams = []
        for key, t in field.items():
            path = Path(options["teams_dir"]) / _file_name(t.school, t.season)
            try:
                card = read_team_file(path)
            except (OSError, InvalidCardError) as exc:
                raise CommandError(f"{path}: {exc}") from exc
            if (card.school, card.season) != key:
                raise CommandError(f"{path} holds {card.label}, not {t.label}")
            teams.append(FieldTeam(card=card, region=t.region, seed=t.seed))
        team_ppg = {}
        for row in ratings:
            got = shared_key(row.get("school", ""), row.get("season", ""))
            if got is not None and (row.get("pts") or "").strip():
                team_ppg[f"{got[0]} {got[1]}"] = float(row["pts"])

        # A bar on a terminal; in a file or a pipe a plain line now and then (the bar's
        # carriage returns made one endless line of a log).
        bars: list[tuple[Callable[[int], object], Callable[[], object]]] = []

        def progress(done: int, total: int) -> None:
            if not bars:
                bars.append(
                    progress_report("exact odds", total, sys.stderr, quiet=False, unit="pair")
                )
            update, close = bars[0]
            update(done)
            if done == total:
                close()

        text = report_markdown(
            teams,
            rosters,
            team_ppg,
            games=options["games"],
            author_games=author_games,
            progress=progress,
        )
        out = Path(options["out"])
        head = out.read_text(encoding="utf-8").split(MARKER)[0] if out.exists() else ""
        out.write_text(head.rstrip() + "\n\n" + MARKER + "\n\n" + text, encoding="utf-8")
        self.stdout.write(f"wrote {out}")


def _file_name(school: str, season: int) -> str:
    return team_file_name(Team(school=school, season=season))
