"""Sending games to workers, without this layer knowing the workers.

``games_enqueue`` marks games queued and, once the transaction commits, sends the
``games_queued`` signal; ``league.tasks`` listens and hands the games to Celery in chunks
(``games_chunks``). So the
services (and the bracket, which draws rounds while a worker stores a game) point down to
this module, and only the tasks module points at Celery: no import cycle. The odds of a
new field, or of the fields a changed team plays in, are asked for the same way
(``field_odds_enqueue``, ``team_odds_enqueue``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from league.models import Game, Season, SimulationRun
from simulator.games import find_game, game_names

# Sent after commit with ``game_ids``: the games to play. ``league.tasks`` receives it.
games_queued = Signal()
# Sent after commit with ``season_ids``: fields whose pair odds to build. ``league.tasks``.
field_odds_wanted = Signal()


CHUNK_GAMES = 16
"""The most games one task plays: a chunk is claimed, played and stored at once, which
spares each game most of its round trips; a chunk of 16 VABG games is a few tenths of a
second of a worker's time, far inside a lease."""
SPREAD_OVER = 4
"""Fewer games than ``CHUNK_GAMES * SPREAD_OVER`` are cut into up to this many chunks, so
a short round (a tournament's late rounds) still spreads over the workers."""


def games_chunks(game_ids: Sequence[int]) -> list[list[int]]:
    """Cut games to send into chunks, in order: at most ``CHUNK_GAMES`` games each, and
    chunks of a ``SPREAD_OVER``-th of the games (rounded up) when that makes them smaller:
    6 games, 3 chunks of 2; one game, one chunk."""
    ids = list(game_ids)
    size = max(1, min(CHUNK_GAMES, math.ceil(len(ids) / SPREAD_OVER)))
    return [ids[i : i + size] for i in range(0, len(ids), size)]


class NoWorkers(RuntimeError):
    """Raise when games are queued but nothing listens to send them (tasks not loaded)."""


def games_enqueue(*, game_ids: Iterable[int]) -> None:
    """Mark games queued now and send each to a worker once the transaction commits."""
    ids = list(game_ids)
    if not ids:
        return
    if not games_queued.has_listeners(Game):
        raise NoWorkers("no receiver sends games to workers: is the league app installed?")
    Game.objects.filter(pk__in=ids).update(queued_at=timezone.now())
    transaction.on_commit(lambda: games_queued.send(sender=Game, game_ids=ids))


def runs_attach(*, season: Season, game_ids: list[int]) -> None:
    """Give newly drawn games to the season's running "all" run, sending them if it does."""
    run = (
        SimulationRun.objects.filter(
            season=season, scope=SimulationRun.Scope.ALL, status=SimulationRun.Status.RUNNING
        )
        .order_by("-pk")
        .first()
    )
    if run is None:
        return
    Game.objects.filter(pk__in=game_ids).update(run=run)
    if run.dispatch:
        games_enqueue(game_ids=game_ids)


_PAIR_ODDS_GAMES = [name for name in game_names() if find_game(name).has_odds]
"""The games with odds: a VABG field gets a pair table (its odds read the cards), another
game's season its pairings of coach styles (``league.other_odds``)."""


def field_odds_enqueue(*, season_ids: Iterable[int]) -> None:
    """Ask for the odds of these seasons' fields once the transaction commits."""
    ids = list(
        Season.objects.filter(pk__in=list(season_ids), game__in=_PAIR_ODDS_GAMES).values_list(
            "pk", flat=True
        )
    )
    if ids:
        transaction.on_commit(lambda: field_odds_wanted.send(sender=Season, season_ids=ids))


def team_odds_enqueue(*, team_ids: Iterable[int]) -> None:
    """Ask again for the odds of every field these teams play in with games still to play.

    A changed card changes its team's card version: its stored pairs no longer match, and
    they are built again in the background instead of inside the next page.
    """
    in_play = Game.objects.exclude(status=Game.Status.FINAL).values("season_id")
    seasons = Season.objects.filter(entries__team__in=list(team_ids), pk__in=in_play)
    field_odds_enqueue(season_ids=seasons.values_list("pk", flat=True).distinct())
