"""Celery tasks: thin, named, passed ids; the work is in ``league.services``.

This module is also where queued games meet Celery: ``send_to_workers`` receives
``league.dispatch.games_queued`` (sent after commit) and sends one task per game. It is
loaded by ``LeagueConfig.ready``, so every process that queues games sends them.
"""

from __future__ import annotations

import contextlib
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver

from league import odds, services
from league.dispatch import games_queued
from league.models import Game, PairOdds

TRANSIENT = (OperationalError, InterfaceError)


@shared_task(
    name="league.simulate_game",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=5,
    retry_backoff=True,
    retry_backoff_max=60,
)
def simulate_game(self: Any, *, game_id: int) -> None:
    """Play one game; a second delivery of the same game does nothing."""
    try:
        # The task id names the claim: this same task delivered again (its pool process
        # died) takes the game back at once instead of waiting for the lease.
        services.game_play(game_id=game_id, token=self.request.id or "")
    except TRANSIENT as exc:
        # The database hiccuped: give the claim back and try again later, a bounded
        # number of times. Anything else is a bug and fails the task loudly.
        # If even that fails, the lease runs out and the sweeper hands the game out again.
        with contextlib.suppress(*TRANSIENT):
            services.game_release(game_id=game_id)
        raise self.retry(exc=exc) from exc


@shared_task(name="league.sweep", acks_late=True)
def sweep() -> dict[str, int]:
    """Hand out again games whose worker or message was lost."""
    return services.games_sweep()


@receiver(games_queued, sender=Game, dispatch_uid="league.send_to_workers")
def send_to_workers(sender: type[Game], *, game_ids: list[int], **kwargs: Any) -> None:
    """Send each queued game to a worker (played in-process when Celery runs eagerly)."""
    for game_id in game_ids:
        simulate_game.delay(game_id=game_id)


@shared_task(name="league.odds_pair_table", acks_late=True)
def odds_pair_table(*, season_id: int, home_ids: list[int] | None = None) -> dict[str, int]:
    """Compute and store a season's pairwise odds (the rows of ``home_ids``, or all)."""
    return odds.pair_table_build(season_id=season_id, home_ids=home_ids)


@receiver(odds.pairs_wanted, sender=PairOdds, dispatch_uid="league.send_pair_table")
def send_pair_table(
    sender: type[PairOdds], *, season_id: int, home_ids: list[int], **kwargs: Any
) -> None:
    """Send the rows of a season's pair table a page asked for to the workers."""
    odds_pair_table.delay(season_id=season_id, home_ids=home_ids)
