"""Playing games: the one place where a game's result is computed and stored."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from cards.mapping import team_card, teams_for_play
from cards.models import Player, Team
from league.models import BoxLine, Game, GameResult
from simulator import GameResult as EngineResult
from simulator import SeededDice
from simulator.vabg import InvalidCardError, RotationError, TeamCard, play_game, preset


class GameNotPlayable(Exception):
    """Raise when a game cannot be simulated (a broken roster, a real-dice game...)."""


def new_seed() -> int:
    """Return a fresh dice seed that fits a signed 64-bit column."""
    return secrets.randbits(62)


@transaction.atomic
def game_create(
    *,
    home: Team,
    away: Team,
    neutral: bool = False,
    rules: str = "advanced",
    strategy: bool = False,
    seed: int | None = None,
    label: str = "",
) -> Game:
    """Schedule a simulated game; its seed is fixed now so it replays exactly later."""
    game = Game(
        home=home,
        away=away,
        neutral=neutral,
        rules=rules,
        strategy=strategy,
        seed=new_seed() if seed is None else seed,
        label=label,
    )
    game.full_clean()
    game.save()
    return game


def game_simulate(*, game_id: int) -> Game:
    """Simulate a scheduled game and store its result, box score and play-by-play at once.

    Safe to run twice or concurrently: the game row is locked, a final game is returned
    untouched, and the result's one-to-one key refuses a second result.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status == Game.Status.FINAL:
            return game
        if game.kind != Game.Kind.SIMULATED:
            raise GameNotPlayable(f"{game} is a real-dice game: type its box score in instead.")
        teams = {t.pk: t for t in teams_for_play().filter(pk__in=[game.home_id, game.away_id])}
        try:
            home, away = team_card(teams[game.home_id]), team_card(teams[game.away_id])
        except InvalidCardError as exc:
            raise GameNotPlayable(f"{game} cannot be played: {exc}") from exc
        if game.seed is None:
            game.seed = new_seed()
        try:
            played = play_game(
                home,
                away,
                SeededDice(game.seed),
                rules=preset(game.rules, strategy=game.strategy),
                neutral=game.neutral,
            )
        except RotationError as exc:
            raise GameNotPlayable(f"{game} cannot be played: {exc}") from exc
        result_store(game=game, played=played, home=home, away=away)
        game.status = Game.Status.FINAL
        game.played_at = timezone.now()
        game.error = ""
        game.save(update_fields=["status", "played_at", "error", "seed"])
    return game


def result_store(*, game: Game, played: EngineResult, home: TeamCard, away: TeamCard) -> GameResult:
    """Store an engine result: scores, the cards as played, events, dice and box lines."""
    result = GameResult.objects.create(
        game=game,
        home_score=played.home.score,
        away_score=played.away.score,
        overtimes=played.overtimes,
        home_periods=list(played.home.periods),
        away_periods=list(played.away.periods),
        home_team_turnovers=played.home.team_turnovers,
        away_team_turnovers=played.away.team_turnovers,
        home_team_file=home.to_json(),
        away_team_file=away.to_json(),
        events=[e.to_json() for e in played.events],
        dice=played.dice.to_json(),
        rules=played.rules.to_json(),
    )
    players = {
        (p.team_id, p.name): p.pk
        for p in Player.objects.filter(team__in=[game.home_id, game.away_id]).only(
            "id", "team_id", "name"
        )
    }
    lines = []
    for side, box, team_id in (
        (BoxLine.Side.HOME, played.home, game.home_id),
        (BoxLine.Side.AWAY, played.away, game.away_id),
    ):
        for order, line in enumerate(box.players):
            lines.append(
                BoxLine(
                    result=result,
                    side=side,
                    team_id=team_id,
                    player_id=players.get((team_id, line.name)),
                    order=order,
                    **line.to_json(),
                )
            )
    BoxLine.objects.bulk_create(lines)
    return result


def exhibition_play(
    *, home: Team, away: Team, neutral: bool = False, seed: int | None = None
) -> Game:
    """Schedule and play an exhibition game at once (advanced rules)."""
    game = game_create(home=home, away=away, neutral=neutral, seed=seed, label="Exhibition")
    return game_simulate(game_id=game.pk)
