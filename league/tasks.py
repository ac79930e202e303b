"""Celery tasks: thin, named, passed ids; the work is in ``league.services``."""

from __future__ import annotations

import contextlib
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from league import services

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
        services.game_play(game_id=game_id)
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
