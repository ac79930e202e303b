"""``manage.py standings``: a season's standings in the terminal, tiebreakers noted."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from core.commands import Command as ProjectCommand
from league.management.commands._common import season_find
from league.selectors import standings_for_season


class Command(ProjectCommand):
    help = (
        "Print a season's standings per conference: W-L, win %, games behind, conference, "
        "home, away and neutral records, points for and against, streak, and which "
        "tiebreaker placed a team level with others."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", help='id, slug or "league/season"')

    def handle(self, *args: Any, **options: Any) -> None:
        season = season_find(options["season"])
        self.stdout.write(f"{season}")
        splits = (
            ("conf_record", "Conf"),
            ("home_record", "Home"),
            ("away_record", "Away"),
            ("neutral_record", "Neut"),
        )
        for conference, rows in standings_for_season(season_id=season.pk):
            # As the season page: only the records its teams have (no "Conf 0-0" column in
            # a season without conferences, no "Neut" in a home-and-away one).
            shown = [(k, label) for k, label in splits if any(r[k] != "0-0" for r in rows)]
            header = (
                f"{'':3} {'Team':28} {'W':>3} {'L':>3} {'Pct':>5} {'GB':>4} "
                + "".join(f"{label:>6} " for _, label in shown)
                + f"{'PF':>5} {'PA':>5} {'Diff':>5} {'Strk':>4}"
            )
            self.stdout.write("")
            if conference:
                self.stdout.write(conference)
            self.stdout.write(header)
            notes = []
            for r in rows:
                pct = r["pct_text"]
                self.stdout.write(
                    f"{r['rank']:>2}. {r['team'][:28]:28} {r['wins']:>3} {r['losses']:>3} "
                    f"{pct:>5} {r['games_behind_text']:>4} "
                    + "".join(f"{r[k]:>6} " for k, _ in shown)
                    + f"{r['points_for']:>5} {r['points_against']:>5} {r['diff_text']:>5} "
                    f"{r['streak']:>4}" + (" *" if r["tiebreaker"] else "")
                )
                if r["tiebreaker"]:
                    notes.append(f"{r['team']} placed by {r['tiebreaker']}")
            for note in notes:
                self.stdout.write(f"  * {note}")
