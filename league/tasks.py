"""Celery tasks: thin, named, passed ids; the work is in ``league.services``.

This module is also where queued games meet Celery: ``send_to_workers`` receives
``league.dispatch.games_queued`` (sent after commit) and sends the games in chunks, one
task a chunk (``league.dispatch.games_chunks``). It is
loaded by ``LeagueConfig.ready``, so every process that queues games sends them. With no
broker, a web process hands the tasks to its own threads instead (``league.background``):
the same task code, run after the request has answered.
"""

from __future__ import annotations

import contextlib
import logging
from functools import partial
from typing import Any

from celery import current_app, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver
from kombu.exceptions import OperationalError as BrokerError

from league import background, odds, other_odds, research_runs, services
from league.dispatch import field_odds_wanted, games_chunks, games_queued
from league.errors import GamesNotSent
from league.models import Game, PairOdds, Season

log = logging.getLogger(__name__)

TRANSIENT = (OperationalError, InterfaceError)


RETRY_DELAY_MAX = 5
"""The longest a task waits before trying the database again (1, 2, 4, then 5 s), so its
games resume within seconds of the database coming back."""
RETRIES: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    "reject_on_worker_lost": True,
    # About 70 s of outage (1 + 2 + 4 + 5 * 13); past that the task gives up, and the
    # sweeper sends its games again once the database answers.
    "max_retries": 16,
}


def retry_delay(retries: int) -> int:
    """Seconds to wait before a task's next try after a transient error: doubling from one
    second, capped at ``RETRY_DELAY_MAX`` (Celery would wait its default 180 s)."""
    return int(min(RETRY_DELAY_MAX, 2 ** min(retries, 8)))


def _retry(task: Any, exc: Exception) -> Exception:
    """The exception that retries ``task`` after ``exc``, a short backed-off delay later."""
    return task.retry(exc=exc, countdown=retry_delay(task.request.retries))  # type: ignore[no-any-return]


def _play(task: Any, game_ids: list[int]) -> None:
    """Play a chunk of games for a task; a second delivery of the same chunk does nothing
    more. Each game is stored once and atomically with its count (``services.games_play``);
    a game another worker holds or has stored is left to it."""
    # The task id names the claim: this same task delivered again (its pool process
    # died) takes its games back at once instead of waiting for the lease.
    token = task.request.id or ""
    try:
        services.games_play(game_ids=game_ids, token=token)
    except TRANSIENT as exc:
        # The database hiccuped: give this claim's games back and try again later, a
        # bounded number of times. Anything else is a bug and fails the task loudly.
        # If even that fails, the leases run out and the sweeper hands the games out again.
        with contextlib.suppress(*TRANSIENT):
            services.games_release(game_ids=game_ids, token=token)
        raise _retry(task, exc) from exc


@shared_task(name="league.simulate_games", **RETRIES)
def simulate_games(self: Any, *, game_ids: list[int]) -> None:
    """Play a chunk of games (what ``send_to_workers`` sends)."""
    _play(self, game_ids)


@shared_task(name="league.simulate_game", **RETRIES)
def simulate_game(self: Any, *, game_id: int) -> None:
    """Play one game: a chunk of one (messages sent one game a task, before chunks)."""
    _play(self, [game_id])


@shared_task(name="league.sweep", acks_late=True)
def sweep() -> dict[str, int]:
    """Hand out again games whose worker or message was lost."""
    return services.games_sweep()


def _send(task: Any, lane: str, **kwargs: Any) -> None:
    """Send a task to the workers; with no broker, to this web process's own lane (or run
        it here and now, Celery's eager mode, in a command or a test).

        Odds (every lane but the games') are asked for again by the page that waits on them, so
        a broker out of reach costs a warning, not the request or command that sent them: a
        season made by ``create_season`` while Redis was down was stored, then the command died
        on a traceback after its transaction had committed. Games raise ``GamesNotSent`` (stored
    as queued, the sweeper sends them later): their callers say so, the API with a 503.
    """
    if background.in_process():
        # a season's odds take turns with other seasons' (a group each), not a place behind
        # every chunk of theirs queued before
        group = kwargs.get("season_id") if lane == "odds" else None
        background.lane(lane).submit(partial(task.apply, kwargs=kwargs), group)
        return
    try:
        task.delay(**kwargs)
    except BrokerError as exc:
        if lane == "games":
            broker = current_app.conf.broker_url.split("@")[-1]  # no password shown
            raise GamesNotSent(broker, str(exc)) from exc
        log.warning(
            "%s not sent: the broker cannot be reached (%s); a page that waits for it sends it "
            "again once the broker answers",
            task.name,
            exc,
        )


# The games lane sweeps as it starts and when idle, as beat schedules the sweeper beside
# a broker's workers: what a stopped web process left queued or running is played again.
background.on_idle("games", partial(sweep.apply))


@receiver(games_queued, sender=Game, dispatch_uid="league.send_to_workers")
def send_to_workers(sender: type[Game], *, game_ids: list[int], **kwargs: Any) -> None:
    """Send the queued games to the workers (or to this web process's games lane), a
    chunk a task."""
    for chunk in games_chunks(game_ids):
        _send(simulate_games, "games", game_ids=chunk)


@shared_task(name="league.odds_pair_table", acks_late=True)
def odds_pair_table(
    *, season_id: int, home_ids: list[int] | None = None, needed_only: bool = True
) -> dict[str, int]:
    """Compute and store the pairs of a season's table its pages can ask for (those of
    ``home_ids`` at home, or all): a bracket's pairs that can meet, a schedule's games.
    (``needed_only`` is read and ignored: a message queued before it was dropped still
    runs, as every table is now built of the needed pairs only.)"""
    try:
        return odds.pair_table_build(season_id=season_id, home_ids=home_ids)
    except SoftTimeLimitExceeded:
        # A slow or busy host: what was solved is stored (``PairTable.compute`` stores as
        # it goes), so the same rows are asked for again and go on from there.
        log.warning(
            "the odds of season %s (home teams %s) took longer than the task's time limit; "
            "what was solved is stored and the rest is sent again",
            season_id,
            home_ids,
        )
        _send(odds_pair_table, "odds", season_id=season_id, home_ids=home_ids)
        return {"computed": 0, "deleted": 0, "pairs": 0, "continued": 1}


@receiver(odds.pairs_wanted, sender=PairOdds, dispatch_uid="league.send_pair_table")
def send_pair_table(
    sender: type[PairOdds],
    *,
    season_id: int,
    home_ids: list[int],
    **kwargs: Any,
) -> None:
    """Send the rows of a season's pair table a page (or a new field) asked for to the
    workers."""
    _send(odds_pair_table, "odds", season_id=season_id, home_ids=home_ids)


@shared_task(name="league.odds_game_law", acks_late=True)
def odds_game_law(*, game_id: int) -> bool:
    """Solve the whole law of a game whose preview waits for it."""
    return odds.game_law_build(game_id=game_id)


@receiver(odds.game_law_wanted, sender=Game, dispatch_uid="league.send_game_law")
def send_game_law(sender: type[Game], *, game_id: int, **kwargs: Any) -> None:
    """Send a game's law to the workers (or this process's pairings lane: one pair, a
    fraction of a second, never behind a field's table of hundreds)."""
    _send(odds_game_law, "pairings", game_id=game_id)


@shared_task(name="league.odds_game_chart", acks_late=True)
def odds_game_chart(*, game_id: int) -> bool:
    """Work out and keep the win-probability chart of a played game whose page waits for it."""
    return odds.chart_build(game_id=game_id)


@receiver(odds.chart_wanted, sender=Game, dispatch_uid="league.send_game_chart")
def send_game_chart(sender: type[Game], *, game_id: int, **kwargs: Any) -> None:
    """Send a game's chart to the workers (or this process's pairings lane: one game's
    exact odds, a few hundredths of a second)."""
    _send(odds_game_chart, "pairings", game_id=game_id)


@shared_task(name="league.odds_season_places", acks_late=True)
def odds_season_places(*, season_id: int) -> bool:
    """Sample and keep a season's odds of finishing at each place, which its page waits for."""
    return odds.season_odds_build(season_id=season_id)


@receiver(odds.season_odds_wanted, sender=Season, dispatch_uid="league.send_season_places")
def send_season_places(sender: type[Season], *, season_id: int, **kwargs: Any) -> None:
    """Send a season's sampling to the workers (or this process's pairings lane: seconds at
    most, never behind a field's table of hundreds of pairs)."""
    _send(odds_season_places, "pairings", season_id=season_id)


@shared_task(name="league.odds_pair_law", acks_late=True)
def odds_pair_law(*, home_id: int, away_id: int, rules: str, neutral: bool, strategy: bool) -> bool:
    """Solve the whole law of two teams a fan's matchup page waits for."""
    return odds.pair_law_build(
        home_id=home_id, away_id=away_id, rules=rules, neutral=neutral, strategy=strategy
    )


@receiver(odds.pair_law_wanted, sender=PairOdds, dispatch_uid="league.send_pair_law")
def send_pair_law(
    sender: type[PairOdds],
    *,
    home_id: int,
    away_id: int,
    rules: str,
    neutral: bool,
    strategy: bool,
    **kwargs: Any,
) -> None:
    """Send a matchup's law to the workers (or this process's pairings lane)."""
    _send(
        odds_pair_law,
        "pairings",
        home_id=home_id,
        away_id=away_id,
        rules=rules,
        neutral=neutral,
        strategy=strategy,
    )


@shared_task(name="league.other_odds_pairings", acks_late=True)
def other_odds_pairings(*, game: str, options: dict[str, Any], pairings: list[list[Any]]) -> int:
    """Work out the odds of pairings of coach styles (six dice, grid court) a page asked
    for into the shared cache."""
    return other_odds.pairings_build(game, options, pairings)


@receiver(other_odds.pairings_wanted, sender=Game, dispatch_uid="league.send_pairings")
def send_pairings(
    sender: type[Game],
    *,
    game: str,
    options: dict[str, Any],
    pairings: list[list[Any]],
    **kwargs: Any,
) -> None:
    """Send the pairings a page is waiting for to the workers (or this process's lane of
    its own: a six-dice pairing, a fraction of a second, never waits behind a VABG field's
    table of hundreds of pairs)."""
    _send(other_odds_pairings, "pairings", game=game, options=options, pairings=pairings)


@receiver(field_odds_wanted, sender=Season, dispatch_uid="league.send_field_odds")
def send_field_odds(sender: type[Season], *, season_ids: list[int], **kwargs: Any) -> None:
    """Build the odds of new or changed fields in the background, where there is one.

    With no background (a command with no broker), nothing is sent: the first page that
    needs the odds sends them to its own process's lane.
    """
    if not background.available():
        return
    for season_id in season_ids:
        odds.pair_table_refresh(season_id=season_id)


@shared_task(
    name="league.research_chunk",
    **RETRIES,
    soft_time_limit=300,
    time_limit=330,
)
def research_chunk(self: Any, *, run_id: int, index: int) -> None:
    """Play one chunk of a research run; a second delivery stores nothing more."""
    try:
        research_runs.research_chunk_play(run_id=run_id, index=index)
    except TRANSIENT as exc:
        raise _retry(self, exc) from exc
