"""Time the fans' bracket challenge at 10,000 entries in one pool of the all-time 96 bracket.

    .venv/bin/python bench/challenge.py                   # scratch SQLite file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challenge_bench \
    CACHE_URL=redis://127.0.0.1:6379/1 .venv/bin/python bench/challenge.py

It builds its own database (a scratch SQLite file, or the PostgreSQL database of
DATABASE_URL, which it empties first: its name must contain "bench"), loads the 96 team
files, draws the all-time 96 tournament and opens one pool with ``--entries`` fans' entries
(10,000 by default), each a whole bracket of 95 picks drawn from the pair odds. The pair
odds are SYNTHETIC (a logistic of the seed difference, written as the pair table's rows):
solving the real 4,560 coached pairs takes minutes and changes none of the timings here.

Then it plays the tournament's games one by one as a worker stores them (each rescoring the
pool in its storing transaction, ``challenge.receivers``) and prints, for the first games:
the rescoring of the whole pool alone (``challenge_rescore``: points, max, picks alive,
the exact expected score; the target of issue 28 is within one second at 10,000 entries),
the whole store of the game with it, and the pool's win chances (``--samples`` simulated
tournaments, computed after the commit). Finally the pool's standings page and one entry
page through Django's test client. Nothing is asserted: this prints, it does not judge.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.scratch import SECRET_KEY, scratch_database  # noqa: E402


def setup() -> None:
    postgres = scratch_database("vabg-bench-challenge.sqlite3")
    for name in ("CELERY_BROKER_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="ERROR",
        # DEBUG off needs a shared cache (CACHE_URL); without one the pages run with DEBUG on.
        DEBUG="false" if os.environ.get("CACHE_URL") else "true",
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="false",
        LEAGUE_IN_PROCESS_WORKER="false",
    )
    import django

    django.setup()
    from django.core.management import call_command

    if postgres:
        call_command("flush", "--noinput", verbosity=0)
    call_command("migrate", "--noinput", verbosity=0)
    call_command("load_teams", verbosity=0)


def synthetic_odds(season: Any) -> None:
    from league import bracket as brackets
    from league import odds
    from league.models import PairOdds
    from league.odds import RULES_VERSION

    table = odds.season_table(season)
    bracket = brackets.bracket_from_json(season.bracket)
    pairs = brackets.possible_pairs(bracket, {}) or set()
    keys = {table.stored_key(h, a)[:2] for h, a in pairs}
    rows = []
    for h, a in sorted(keys):
        p = 1.0 / (1.0 + math.exp(-0.15 * (bracket.seeds[a] - bracket.seeds[h])))
        rows.append(
            PairOdds(
                rules=table.rules, rules_version=RULES_VERSION, neutral=table.neutral,
                strategy=table.strategy, home_id=h, away_id=a,
                home_version=table.entries[h].version, away_version=table.entries[a].version,
                p_home_win=p, p_overtime=0.05, expected_overtimes=0.05,
                expected_home_pts=70.0, expected_away_pts=68.0, margin={},
            )
        )  # fmt: skip
    PairOdds.objects.bulk_create(rows, batch_size=1000)
    print(f"{len(rows)} synthetic pair odds written")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=5, help="games to play and time")
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    setup()

    import numpy as np
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client

    from challenge import scoring, services
    from challenge.models import Entry
    from league import dispatch, tournaments
    from league import odds as league_odds
    from league import services as league_services
    from league.models import Game, Season

    dispatch.field_odds_wanted.receivers.clear()  # the bench writes its own pair odds
    season = tournaments.tournament_field_create(
        field="alltime-96",
        league=league_services.league_get_or_create(name="Bench League"),
        name="Bench Madness",
        seed=28,
    )
    synthetic_odds(season)
    pool = services.challenge_create(season=season, name="Bench pool")
    field = services.Field.of(season)
    p = league_odds.season_table(season).matrix(field.teams)
    outcomes = scoring.simulate_winners(
        field.bracket, {}, field.index, p, samples=args.entries, seed=1
    )
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"fan{i}", password="!") for i in range(args.entries)],
        batch_size=2000,
    )
    started = time.perf_counter()
    Entry.objects.bulk_create(
        [
            Entry(
                challenge=pool,
                user=u,
                name=f"fan{i}'s bracket",
                picks=(picks := {k: field.teams[outcomes[i, j]] for j, k in enumerate(field.keys)}),
                pick_row=scoring.pick_row(picks, field.keys),
            )
            for i, u in enumerate(users)
        ],
        batch_size=1000,
    )
    print(f"{args.entries} entries of 95 picks written in {time.perf_counter() - started:.1f} s")

    rescore, rescore_cpu, store, chances = [], [], [], []
    for n in range(args.games):
        game = season.games.filter(status=Game.Status.SCHEDULED).order_by("pk").first()
        assert game is not None
        with transaction.atomic():
            t1, c1 = time.perf_counter(), time.process_time()
            result = services.challenge_rescore(challenge_ids=[pool.pk])
            rescore.append(time.perf_counter() - t1)
            rescore_cpu.append(time.process_time() - c1)
        t0 = time.perf_counter()
        league_services.game_simulate(game_id=game.pk)  # rescores in its transaction
        store.append(time.perf_counter() - t0)
        odds_run = services.challenge_win_odds(challenge_id=pool.pk, samples=args.samples)
        chances.append(odds_run["seconds"])
        print(
            f"game {n + 1}: rescoring {result['entries']} entries {rescore[-1] * 1000:.0f} ms "
            f"({rescore_cpu[-1] * 1000:.0f} ms of this process's CPU); "
            f"storing the game with it {store[-1] * 1000:.0f} ms; win chances "
            f"({args.samples} tournaments) {chances[-1]:.2f} s"
        )
    print(
        f"median rescoring of {args.entries} entries: {statistics.median(rescore) * 1000:.0f} ms "
        f"({statistics.median(rescore_cpu) * 1000:.0f} ms of CPU; target: 1,000 ms); "
        f"median win chances: {statistics.median(chances):.2f} s"
    )
    client = Client()
    entry = Entry.objects.filter(challenge=pool).order_by("-points").first()
    assert entry is not None
    for label, url in (("standings page", pool.get_absolute_url()),
                       ("entry page", entry.get_absolute_url())):  # fmt: skip
        client.get(url)
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - t0)
        print(f"{label}: {response.status_code}, median {statistics.median(times) * 1000:.0f} ms")
    best = Entry.objects.filter(challenge=pool).order_by("-expected").first()
    assert best is not None
    print(
        f"the pool's best expected score {best.expected:.1f}, its win chance "
        f"{best.win_probability:.3f} ± {best.win_error:.3f}"
    )
    del np, Season


if __name__ == "__main__":
    main()
