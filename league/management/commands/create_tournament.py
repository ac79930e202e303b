"""``manage.py create_tournament``: a single-elimination bracket, or the all-time 96 field."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from core.commands import Command as ProjectCommand
from core.text import counted
from league import services, tournaments
from league.management.commands._common import (
    add_game_arguments,
    game_choice,
    league_for,
    season_find,
    team_find,
    teams_anywhere,
)
from simulator.seeds import seed_argument


@contextmanager
def refusals_said() -> Iterator[None]:
    """Turn a tournament the services refuse into the command's error, in their words."""
    try:
        yield
    except ValidationError as exc:
        raise CommandError("; ".join(exc.messages)) from exc
    except services.SeasonRefused as exc:
        raise CommandError(str(exc)) from exc


class Command(ProjectCommand):
    help = (
        "Create a single-elimination tournament. Name the teams in seed order "
        '("Kentucky 2012" ...; top seeds get byes), or use --field alltime-96 for the '
        "original all-time field (4 regions of 24, seeds from fixtures/field/alltime96.csv), "
        "or --from-season SEASON --advance K to seed the top K of each conference of a "
        "finished round-robin season. Games are on neutral courts unless --home-court."
    )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        return teams_anywhere(super().create_parser(prog_name, subcommand, **kwargs))

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("league", help="league name (created when new)")
        parser.add_argument("name", help='tournament name, e.g. "All-time March Madness"')
        parser.add_argument("teams", nargs="*", metavar="TEAM", help="teams in seed order")
        parser.add_argument(
            "--field", choices=sorted(tournaments.FIELDS), help="a ready-made field"
        )
        parser.add_argument("--from-season", metavar="SEASON", help="a finished group stage")
        parser.add_argument(
            "--again",
            metavar="TOURNAMENT",
            help="play a tournament's very bracket again (its teams, regions, seeds, game, "
            "rules and court) as NAME in its league, with a new seed unless --seed",
        )
        parser.add_argument("--advance", type=int, default=2, help="teams per group advancing")
        parser.add_argument("--reseed", action="store_true", help="re-pair after each round")
        parser.add_argument("--home-court", action="store_true", help="better seed at home")
        parser.add_argument("--rules", choices=["advanced", "basic"], default="advanced")
        parser.add_argument(
            "--seed", type=seed_argument, default=None, help="master seed (random if not)"
        )
        add_game_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        # Said once made: a pipe closed early (`| head -1`) cannot undo a season said made.
        self.stdout.write(self._create(options))

    # Atomic: a refusal found after the league was made (a team misspelt, an option out
    # of range) leaves no new, empty league behind.
    @transaction.atomic
    def _create(self, options: dict[str, Any]) -> str:
        """Create the tournament; return what to say of it."""
        chosen = [
            bool(options["teams"]),
            bool(options["field"]),
            bool(options["from_season"]),
            bool(options["again"]),
        ]
        if sum(chosen) != 1:
            raise CommandError(
                "give the teams in seed order, or --field, or --from-season, or --again"
            )
        if options["again"]:
            return self._again(options)
        common = {
            "league": league_for(options["league"]),
            "name": options["name"],
            "reseed": options["reseed"],
            "neutral": not options["home_court"],
            "rules": options["rules"],
            "seed": options["seed"],
            **game_choice(options),
        }
        with refusals_said():
            if options["field"]:
                season = tournaments.tournament_field_create(field=options["field"], **common)
            elif options["from_season"]:
                group_stage = season_find(options["from_season"])
                season = tournaments.tournament_from_groups(
                    group_stage=group_stage, advance=options["advance"], **common
                )
            else:
                teams = [team_find(text) for text in options["teams"]]
                season = tournaments.tournament_create(teams=teams, **common)
        return (
            f"Created {season.league.slug}/{season.slug} (id {season.pk}): "
            f"{counted(season.entries.count(), 'team')}, "
            f"{counted(tournaments.games_to_come(season=season), 'game')}; "
            f"first round drawn ({counted(season.games.count(), 'game')}), seed {season.seed}."
        )

    def _again(self, options: dict[str, Any]) -> str:
        first = season_find(options["again"])
        if options["league"] not in (first.league.name, first.league.slug):
            raise CommandError(
                f"{first} is in the league {first.league.name!r}: a replay stays in its "
                "tournament's league"
            )
        with refusals_said():
            season = tournaments.tournament_again(
                season=first, name=options["name"], seed=options["seed"]
            )
        return (
            f"Created {season.league.slug}/{season.slug} (id {season.pk}), {first}'s bracket "
            f"again: {counted(season.entries.count(), 'team')}, first round drawn "
            f"({counted(season.games.count(), 'game')}), seed {season.seed}."
        )
