"""``manage.py create_season``: a season of conference round robins for any set of teams."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from cards.models import Team
from core.commands import Command as ProjectCommand
from core.text import counted
from league import services
from league.management.commands._common import (
    add_game_arguments,
    date_argument,
    game_choice,
    league_for,
    team_find,
    teams_anywhere,
)
from league.teamfiles import teams_playable
from simulator.seeds import seed_argument


class Command(ProjectCommand):
    help = (
        "Create a season and its schedule: a single or double round robin inside each "
        "conference, plus optional cross-conference games. Teams are named "
        '"School SEASON"; --all takes every team loaded. A team alone in its conference '
        "plays with the independents (Independent)."
    )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        return teams_anywhere(super().create_parser(prog_name, subcommand, **kwargs))

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("league", help="league name (created when new)")
        parser.add_argument("name", help='season name, e.g. "All-time 2026"')
        parser.add_argument("teams", nargs="*", metavar="TEAM", help='e.g. "Kentucky 2012"')
        parser.add_argument("--all", action="store_true", help="every team in the database")
        parser.add_argument(
            "--conferences",
            choices=["team", "none"],
            default="team",
            help="group teams by each team's own conference (default), or play one group",
        )
        parser.add_argument("--double", action="store_true", help="double round robin")
        parser.add_argument(
            "--cross", type=int, default=0, metavar="N", help="cross-conference games per team"
        )
        parser.add_argument("--neutral", action="store_true", help="every game on a neutral court")
        parser.add_argument("--start", type=date_argument, default=None, help="YYYY-MM-DD")
        parser.add_argument("--days-between", type=int, default=1, help="days between rounds")
        parser.add_argument("--rules", choices=["advanced", "basic"], default="advanced")
        parser.add_argument(
            "--seed", type=seed_argument, default=None, help="master seed (random if not)"
        )
        add_game_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        # Said once made: a pipe closed early (`| head -1`) cannot undo a season said made.
        for line in self._create(options):
            self.stdout.write(line)

    # Atomic: a refusal found after the league was made (a team misspelt, an option out
    # of range) leaves no new, empty league behind.
    @transaction.atomic
    def _create(self, options: dict[str, Any]) -> list[str]:
        """Create the season; return what to say of it."""
        left_out: list[str] = []
        if options["all"]:  # every team the game can play; one with incomplete cards is named
            game = options.get("game") or league_for(options["league"]).game
            teams, left_out = teams_playable(game, list(Team.objects.order_by("school", "season")))
        else:
            teams = [team_find(text) for text in options["teams"]]
        if len(teams) < 2:
            raise CommandError("name at least two teams, or use --all")
        conferences = (
            {t.pk: t.conference for t in teams} if options["conferences"] == "team" else None
        )
        try:
            season = services.season_create(
                league=league_for(options["league"]),
                name=options["name"],
                teams=teams,
                conferences=conferences,
                double_round_robin=options["double"],
                cross_conference_games=options["cross"],
                start_date=options["start"],
                days_between_rounds=options["days_between"],
                home_court=not options["neutral"],
                rules=options["rules"],
                seed=options["seed"],
                **game_choice(options),
            )
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        except (services.SeasonRefused, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        games = season.games.count()
        rounds = season.games.values("round").distinct().count()
        said = [
            f"Created {season.league.slug}/{season.slug} (id {season.pk}): "
            f"{counted(len(teams), 'team')}, {counted(games, 'game')} in "
            f"{counted(rounds, 'round')}, seed {season.seed}."
        ]
        said += [f"Left out: {why}." for why in left_out]
        if conferences:
            grouped = dict(season.entries.values_list("team_id", "conference"))
            moved = [t for t in teams if grouped[t.pk] != t.conference]
            for group in sorted({grouped[t.pk] for t in moved}):
                names = ", ".join(
                    f"{t} ({t.conference or 'no conference'})"
                    for t in moved
                    if grouped[t.pk] == group
                )
                said.append(f"Alone in their conference, these play in {group}: {names}.")
        return said
