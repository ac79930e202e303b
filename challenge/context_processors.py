"""What the league's tournament pages show of the challenge: the public pools of the
tournament on the page, each with its state. The league's views know nothing of the
challenge (imports point one way, docs/architecture.md); this processor, listed in the
settings, hands their templates the pools by the page's own address."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from challenge.models import Challenge

# The league's pages of one tournament (league/urls.py), by URL name; ``pk`` is the season.
TOURNAMENT_PAGES = frozenset({"season", "bracket"})


def pool_state(pool: Challenge, now: Any) -> str:
    """How a pool's state is told: "" while it takes picks, else locked or over; from the
    pool's own columns and its season's bracket (loaded with it), no query."""
    games = len((pool.season.bracket or {}).get("games", ()))
    if games and pool.scored_games >= games:
        return "Over: every game played"
    if pool.scored_games or (pool.lock_at is not None and pool.lock_at <= now):
        return f"Locked: {pool.scored_games} of {games} games played"
    return ""


def _pools(season_id: int) -> list[Challenge]:
    pools = list(
        Challenge.objects.filter(season_id=season_id, public=True)
        .select_related("season")
        .order_by("created_at", "pk")
    )
    now = timezone.now()
    for p in pools:
        p.state = pool_state(p, now)  # type: ignore[attr-defined]
    return pools


def tournament_pools(request: HttpRequest) -> dict[str, Any]:
    """``challenge_pools``: the public pools of the tournament a league page shows (read only
    if the template asks), or nothing on any other page."""
    match = getattr(request, "resolver_match", None)
    if match is None or match.url_name not in TOURNAMENT_PAGES or "pk" not in match.kwargs:
        return {}
    season_id = match.kwargs["pk"]
    return {"challenge_pools": SimpleLazyObject(lambda: _pools(season_id))}
