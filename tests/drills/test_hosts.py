"""Drill: workers on two hosts, one cut off the network in the middle of storing a game.

Each host is a network namespace of this machine with its own address, its workers reaching
the same PostgreSQL and Redis through its own link (``harness.Host``). Host A is cut while
its worker is inside the transaction that stores a game (held there by the drill's row
lock): its connections hang and nothing closes them. The server ends the cut-off session once
it has sat idle in its transaction for ``DATABASE_IDLE_TRANSACTION_SECONDS`` (set short
here), which frees the locks it held; the sweeper hands the game to host B when its lease
runs out, and B finishes the tournament. The results are those of an undisturbed run; how
long the recovery took is printed, not asserted.
"""

from __future__ import annotations

import time

import pytest

from league import services, tournaments
from tests.drills.harness import (
    Host,
    RowLock,
    Workers,
    assert_stored_once,
    mid_game,
    new_tournament,
    outcome,
    report,
    wait_for,
)
from tests.factories import full_team

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def test_a_host_cut_off_mid_game_loses_nothing_and_the_other_host_finishes(
    workers: Workers, hosts: tuple[Host, Host]
) -> None:
    a, b = hosts
    workers.env["DATABASE_IDLE_TRANSACTION_SECONDS"] = "3"
    teams = [full_team() for _ in range(8)]
    calm = new_tournament(teams, "Undisturbed cup")
    undisturbed = services.simulation_start(season=calm, scope="all", dispatch=False)
    while services.run_next_game(run=undisturbed) is not None:
        pass

    cut_cup = new_tournament(teams, "Cut-off cup")
    workers.start("a1", host=a)
    run = services.simulation_start(season=cut_cup, scope="all")
    wait_for(
        lambda: cut_cup.games.filter(status="final").exists(),
        what="a first game stored from host A",
        pool=workers,
    )
    lock = RowLock("league_simulationrun", run.pk)
    mid_game(lock, workers)
    a.cut()
    cut = time.monotonic()
    lock.release()
    workers.start("b1", host=b)
    workers.start("beat")  # the sweeper, on this machine
    wait_for(
        lambda: tournaments.champion(cut_cup) is not None,
        what="the tournament after host A was cut off",
        pool=workers,
    )
    report("a host cut off mid-game: the champion after the cut", time.monotonic() - cut)
    assert_stored_once(cut_cup)
    assert outcome(cut_cup) == outcome(calm)
    run.refresh_from_db()
    assert (run.done, run.total, run.status) == (7, 7, "done")
    assert workers.log_has("b1", "succeeded")
