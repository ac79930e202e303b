"""``manage.py bracket``: a tournament's bracket in the terminal, round by round."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from core.commands import Command as ProjectCommand
from league import tournaments
from league.management.commands._common import season_find
from league.models import Season


def _slot(slot: dict[str, Any] | None, winner: int | None) -> str:
    if slot is None:
        return "(to come)"
    score = "" if slot["score"] is None else f" {slot['score']}"
    mark = "*" if winner is not None and slot["team_id"] == winner else " "
    return f"{mark}#{slot['seed']} {slot['team']}{score}"


class Command(ProjectCommand):
    help = (
        "Print a tournament's bracket round by round: seeds, teams and scores, the winner "
        "of each game marked *, and the champion."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", help='id, slug or "league/season" of a tournament')
        parser.add_argument("--round", type=int, help="only this round")

    def handle(self, *args: Any, **options: Any) -> None:
        season = season_find(options["season"])
        if season.kind != Season.Kind.TOURNAMENT:
            raise CommandError(f"{season} is not a tournament")
        view = tournaments.bracket_view(season)
        for round_ in view["rounds"]:
            if options["round"] and round_["number"] != options["round"]:
                continue
            name = round_["name"]
            if name != f"Round {round_['number']}":
                name += f" (round {round_['number']})"
            self.stdout.write(f"\n{name}")
            for game in round_["games"]:
                where = f"{game['region']:>8} " if game["region"] else ""
                top = _slot(game["top"], game["winner_id"])
                bottom = _slot(game["bottom"], game["winner_id"])
                self.stdout.write(f"  {where}{top:34} v {bottom}")
        champion = view["champion"]
        self.stdout.write(
            f"\nChampion: #{champion['seed']} {champion['team']}"
            if champion
            else "\nChampion: not decided yet"
        )
