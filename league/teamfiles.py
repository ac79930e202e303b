"""What a game reads of a team (its team file) and whether the game can play the team.

One place for the league's games (``league.games``, which stores the file with each
result) and for the seasons and tournaments that refuse a team before scheduling games it
would fail (``league.services``, ``league.tournaments``: ``league.games`` reads the odds,
which read the brackets, so it could not serve them without an import cycle).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cards.mapping import team_document, teams_for_play
from cards.models import Team
from cards.styles import styles_document
from league.errors import SeasonRefused
from simulator.games import InvalidTeamError, find_game
from simulator.vabg import InvalidCardError


def team_file(game: str, team: Team) -> dict[str, Any]:
    """Return what ``game`` reads of a team: VABG its cards as a team file; a board game its
    school and season and the coach styles it plays (stored or derived, ``cards.styles``),
    kept with the result so a replay plays them again."""
    if find_game(game).has_players:
        return team_document(team)
    return {"school": team.school, "season": team.season, "styles": styles_document(team)}


def teams_playable(game: str, teams: Sequence[Team]) -> tuple[list[Team], list[str]]:
    """Split ``teams`` into those ``game`` can play, in their order, and why it cannot play
    each other one (a VABG roster without a starter in a slot): "every team loaded" leaves
    those out and says so."""
    engine = find_game(game)
    problems: dict[int, str] = {}
    for team in teams_for_play().filter(pk__in=[t.pk for t in teams]):
        try:
            engine.read_team(team_file(game, team))
        except (InvalidTeamError, InvalidCardError) as exc:
            problems[team.pk] = f"{team} cannot play {engine.title}: {exc}"
    return [t for t in teams if t.pk not in problems], [
        problems[t.pk] for t in teams if t.pk in problems
    ]


def teams_refused_unplayable(game: str, teams: Sequence[Team]) -> None:
    """Refuse a season or tournament of teams ``game`` cannot play, naming each and why:
    their games would be scheduled and fail only when simulated (a season's teams are fixed
    once it has games, so it could only be deleted)."""
    _, problems = teams_playable(game, teams)
    if problems:
        # One problem a line (a team's own are, as the engine lists them), the advice last.
        raise SeasonRefused(
            "\n".join(problems) + "\nComplete their cards in the admin, or leave them out."
        )
