"""Live scoring: every stored tournament game rescores its pools in the storing transaction.

The win chances (a simulation, longer) are computed right after that transaction commits,
in the same process (the worker or the command that stored the games), never on a page view.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils import timezone

from challenge.models import Challenge, Entry
from challenge.services import challenge_rescore, challenge_win_odds
from league.models import Season
from league.signals import season_odds_ready, tournament_games_stored

log = logging.getLogger(__name__)


@receiver(tournament_games_stored)
def games_stored(sender: Any, *, season_id: int, game_ids: list[int], **kwargs: Any) -> None:
    pools = list(Challenge.objects.filter(season_id=season_id).values_list("pk", flat=True))
    if not pools:
        return
    challenge_rescore(challenge_ids=pools)

    def chances() -> None:
        for pk in pools:
            try:
                challenge_win_odds(challenge_id=pk)
            except Exception:  # the games are stored; a failed estimate must not undo them
                log.exception("challenge %s: the win chances could not be computed", pk)

    transaction.on_commit(chances)


@receiver(season_odds_ready, sender=Season)
def odds_ready(sender: Any, *, season_id: int, **kwargs: Any) -> None:
    """A tournament's exact odds were still being built when its pools were scored (their
    expected scores and win chances waited, shown as "-"): work them out now, not at the
    next stored game."""
    pools = list(Challenge.objects.filter(season_id=season_id).values_list("pk", flat=True))
    if not pools:
        return
    challenge_rescore(challenge_ids=pools)
    for pk in pools:
        try:
            challenge_win_odds(challenge_id=pk)
        except Exception:  # the table is stored; a failed estimate must not undo it
            log.exception("challenge %s: the win chances could not be computed", pk)


@receiver(post_delete, sender=Entry, dispatch_uid="challenge.entry_deleted")
def entry_deleted(sender: Any, instance: Entry, **kwargs: Any) -> None:
    """An entry deleted (the admin, a fan's account deleted) leaves its pool's count (kept
    so that no page counts 10,000 rows) one lower at once, not at the next rescore; once
    the deletion is committed, the pool's best expected score and its win chances are
    worked out again without it (a reviewer's pool kept the deleted fan's share, its
    chances adding up to 36%, and a finished pool its deleted winner's win)."""
    Challenge.objects.filter(pk=instance.challenge_id, entry_count__gt=0).update(
        entry_count=F("entry_count") - 1
    )
    pool, asked = instance.challenge_id, timezone.now()
    transaction.on_commit(lambda: _pool_without_deleted(pool, asked))


def _pool_without_deleted(pool: int, asked: Any) -> None:
    """Score ``pool`` again after entries were deleted at ``asked``: once, however many of
    its entries went in that transaction (the first call refreshes it, the rest find its
    chances newer than their deletion)."""
    row = Challenge.objects.filter(pk=pool).values("odds_updated_at").first()
    if row is None or (row["odds_updated_at"] is not None and row["odds_updated_at"] >= asked):
        return  # the pool went too, or another deletion's call scored it since
    try:
        challenge_rescore(challenge_ids=[pool])
        challenge_win_odds(challenge_id=pool)
    except Exception:  # the deletion is done; a failed estimate waits for the next game
        log.exception("challenge %s: scoring it again after a deletion failed", pool)
