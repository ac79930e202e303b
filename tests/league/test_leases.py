"""Short leases kept by a heartbeat, a sweeper that hands out only what is really lost, and
tasks that try the database again within seconds.

A player renews its chunk's lease while it plays, so a lease can be short (a dead worker's
game is free again seconds after its last beat) without a slow healthy game being taken
from it. The sweeper leaves alone games being stored and games whose messages still wait in
the broker. These tests wait on states, never for a length of time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import psycopg
import pytest
import redis
from celery import current_app
from celery.exceptions import Retry
from django.db import OperationalError, connection
from django.utils import timezone

from config.celery import RECONNECT_EVERY_MAX, Consumer
from league import services, tasks
from league.models import Game, Season
from tests import factories


def two_team_season(name: str) -> Season:
    return factories.make_season(
        teams=2, league="Leases", name=name, seed=7, start_date=date(2024, 1, 1)
    )


WAIT = 60.0


def wait_until(check: Callable[[], bool], what: str) -> None:
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > WAIT:
            pytest.fail(f"{what} did not happen within {WAIT:g} s")
        time.sleep(0.02)


def lease_of(game: Game) -> Any:
    return Game.objects.values_list("lease_expires_at", flat=True).get(pk=game.pk)


def row_lock(game: Game) -> psycopg.Connection[Any]:
    """Lock a game's row from a connection of the test's own, as a worker storing it does."""
    db = connection.settings_dict
    conn = psycopg.connect(
        f"host={db['HOST']} port={db['PORT']} user={db['USER']} dbname={db['NAME']}"
    )
    conn.execute("SELECT id FROM league_game WHERE id = %s FOR UPDATE", (game.pk,))
    return conn


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_keeps_a_slow_games_lease_and_a_stopped_one_lets_it_go(settings) -> None:
    settings.LEAGUE_LEASE_SECONDS = 2  # a beat every 2/3 s
    game = two_team_season("Slow").games.get()
    assert services.games_claim(game_ids=[game.pk], token="slow-worker") == [game.pk]
    first = lease_of(game)
    with services.lease_kept(game_ids=[game.pk], token="slow-worker"):
        # The game takes longer than its lease: the heartbeat keeps it this worker's.
        wait_until(lambda: timezone.now() > first + timedelta(seconds=1), "the first lease to end")
        assert lease_of(game) > timezone.now()
        assert services.games_sweep() == {"requeued": 0, "failed": 0}
        assert services.games_claim(game_ids=[game.pk], token="another-worker") == []
    # The worker stopped beating (it died): its lease runs out and the game is free again.
    wait_until(lambda: lease_of(game) < timezone.now(), "the last lease to end")
    assert services.games_sweep()["requeued"] == 1  # and played at once (eager)
    game.refresh_from_db()
    assert (game.status, game.attempts) == ("final", 2)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_game_being_stored_is_neither_renewed_nor_handed_out_and_neither_waits() -> None:
    game = two_team_season("Storing").games.get()
    services.games_claim(game_ids=[game.pk], token="storing-worker")
    Game.objects.filter(pk=game.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    lock = row_lock(game)  # the worker is inside the transaction that stores it
    try:
        assert services.games_renew(game_ids=[game.pk], token="storing-worker") == 0
        assert services.games_sweep() == {"requeued": 0, "failed": 0}
    finally:
        lock.rollback()  # the store failed (its worker died mid-transaction)
        lock.close()
    assert services.games_sweep()["requeued"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_renewal_holds_only_this_claims_games() -> None:
    season = two_team_season("Mine")
    game = season.games.get()
    services.games_claim(game_ids=[game.pk], token="worker-1")
    assert services.games_renew(game_ids=[game.pk], token="worker-2") == 0
    assert services.games_renew(game_ids=[game.pk], token="worker-1") == 1
    services.games_play(game_ids=[game.pk], token="worker-1")  # stored: final
    assert services.games_renew(game_ids=[game.pk], token="worker-1") == 0


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_game_queued_long_ago_is_sent_again_only_when_nothing_waits_in_the_broker(
    settings,
) -> None:
    game = two_team_season("Queued").games.get()
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()  # the field's odds, sent
    assert services.games_waiting_in_broker() == 0  # a broker restarted empty: no queue
    # Queued a moment ago: its message may be on its way to a worker.
    Game.objects.filter(pk=game.pk).update(queued_at=timezone.now())
    assert services.games_sweep() == {"requeued": 0, "failed": 0}
    Game.objects.filter(pk=game.pk).update(queued_at=timezone.now() - timedelta(minutes=1))
    # A message waits in the queue (the game's own, behind a backlog): nothing is sent.
    tasks.simulate_games.delay(game_ids=[game.pk])
    assert services.games_waiting_in_broker() == 1
    assert services.games_sweep() == {"requeued": 0, "failed": 0}
    # The queue is empty and the game is still not taken: its message was lost.
    current_app.control.purge()
    assert services.games_waiting_in_broker() == 0
    assert services.games_sweep() == {"requeued": 1, "failed": 0}
    assert services.games_waiting_in_broker() == 1
    current_app.control.purge()


@pytest.mark.django_db
def test_a_task_tries_the_database_again_within_seconds_for_over_a_minute(
    monkeypatch,
) -> None:
    game = two_team_season("Outage").games.get()

    def down(**kwargs: object) -> list[int]:
        raise OperationalError("connection refused")

    monkeypatch.setattr(services, "games_play", down)
    delays = []

    def retry(**kwargs: Any) -> Retry:
        delays.append(kwargs["countdown"])
        return Retry(exc=kwargs["exc"], when=kwargs["countdown"])

    monkeypatch.setattr(tasks.simulate_games, "retry", retry)
    for tries in range(tasks.simulate_games.max_retries):
        with pytest.raises(Retry):
            tasks.simulate_games.apply(kwargs={"game_ids": [game.pk]}, retries=tries)
    assert delays[:5] == [1, 2, 4, 5, 5]
    assert max(delays) == tasks.RETRY_DELAY_MAX
    assert sum(delays) >= 60  # a database restart is waited out before the sweeper steps in


def test_a_worker_tries_a_lost_broker_again_every_few_seconds() -> None:
    assert current_app.conf.worker_consumer == "config.celery:Consumer"
    tries: list[dict[str, Any]] = []

    class Broker:
        def ensure_connection(self, *args: Any, **kwargs: Any) -> Broker:
            tries.append(kwargs)
            return self

    consumer = Consumer.__new__(Consumer)
    consumer.app = current_app
    consumer.first_connection_attempt = False
    consumer.ensure_connected(Broker())
    assert tries[0]["interval_max"] == RECONNECT_EVERY_MAX <= 2
    assert tries[0]["interval_start"] == 1
