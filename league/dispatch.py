"""Sending games to workers, without this layer knowing the workers.

``games_enqueue`` marks games queued and, once the transaction commits, sends the
``games_queued`` signal; ``league.tasks`` listens and hands each game to Celery. So the
services (and the bracket, which draws rounds while a worker stores a game) point down to
this module, and only the tasks module points at Celery: no import cycle.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from league.models import Game, Season, SimulationRun

# Sent after commit with ``game_ids``: the games to play. ``league.tasks`` receives it.
games_queued = Signal()


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
