"""Time the league: what a stored game costs against the engine's own, a 96-team
tournament (eager, and on workers) and a season's standings.

    .venv/bin/python bench/league.py                      # eager, on a scratch SQLite file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/league.py --workers 2

It builds its own database (a scratch SQLite file, or the PostgreSQL database named in
DATABASE_URL, which it empties first), loads 96 copies of the fixture teams, and prints:

- a 32-team round robin (496 games, home court, the exact coach) played through
  ``manage.py simulate --all``, eagerly in this process (and with ``--workers N`` on N real
  ``celery -A config worker`` processes): wall clock and CPU time (this process, or the
  workers and their pool processes; the database server's apart), then the engine alone
  playing the very same games (the same cards, seeds, rules, court and coach, each pair's
  coach solved anew as the league does, scores checked against the stored ones) by CPU
  time, the coach's share, and the ratio of the two: the cost of a stored game against
  the engine's own game, in one run;
- the wall time to play the all-time 96 tournament (95 games) eagerly, in this process,
  and with ``--workers N`` on the workers, from the request to the champion;
- the time to recompute the standings of a 96-team season (8 conferences of 12, a double
  round robin: 1,056 games), from the stored results.

Nothing is asserted: this prints, it does not judge.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.scratch import scratch_database  # noqa: E402


def setup(args: argparse.Namespace) -> None:
    postgres = scratch_database("vabg-bench.sqlite3")
    if not args.workers:
        os.environ.pop("CELERY_BROKER_URL", None)
        os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()
    from django.core.management import call_command

    if postgres:
        call_command("flush", "--noinput", verbosity=0)
    call_command("migrate", "--noinput", verbosity=0)


def teams_96() -> list:  # type: ignore[type-arg]
    import json

    from cards.services import teams_import

    files = sorted((ROOT / "fixtures" / "teams").glob("*.json"))
    docs = [json.loads(f.read_text()) for f in files]
    clones = []
    for n in range(96):
        doc = json.loads(json.dumps(docs[n % len(docs)]))
        doc["school"] = f"Bench {n + 1:02d}"
        doc["conference"] = f"Conference {n // 12 + 1}"
        clones.append((f"bench-{n}.json", json.dumps(doc).encode()))
    teams_import(files=clones)
    from cards.models import Team

    return list(Team.objects.filter(school__startswith="Bench ").order_by("school"))


def cup_create(teams: list, name: str):  # type: ignore[type-arg,no-untyped-def]
    """The all-time 96 bracket of the bench's teams (4 regions of 24)."""
    from league import services, tournaments

    regions = {
        r: teams[i * 24 : (i + 1) * 24] for i, r in enumerate(("West", "East", "Midwest", "South"))
    }
    return tournaments.tournament_create(
        league=services.league_get_or_create(name="Bench"), name=name, regions=regions, seed=96
    )


def tournament(cup, workers: int) -> float:  # type: ignore[no-untyped-def]
    """Play the cup to its champion, on the workers or in this process; return the wall time."""
    from league import services, tournaments

    start = time.perf_counter()
    if workers:
        services.simulation_start(season=cup, scope="all")
        while tournaments.champion(cup) is None:
            failed = cup.games.filter(status="failed").first()
            if failed:
                raise SystemExit(f"game {failed.pk} failed: {failed.error}")
            time.sleep(0.05)
    else:
        run = services.simulation_start(season=cup, scope="all", dispatch=False)
        while services.run_next_games(run=run):
            pass
    elapsed = time.perf_counter() - start
    assert cup.games.filter(status="final").count() == 95
    return elapsed


def round_robin_season(teams: list, name: str):  # type: ignore[type-arg,no-untyped-def]
    """A 32-team single round robin (496 games), home court and the coach, as a league plays."""
    from league import services

    field = teams[:32]
    return services.season_create(
        league=services.league_get_or_create(name="Bench"),
        name=name,
        teams=field,
        conferences={t.pk: "" for t in field},
        seed=496,
    )


def proc_cpu(pids: set[int], *, groups: bool = False) -> float:
    """Return the CPU seconds (user + system) used so far by processes (Linux ``/proc``):
    those of ``pids``, or with ``groups`` every process in those process groups."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a process that ended meanwhile
        pid = int(stat.parent.name)
        if (int(fields[2]) if groups else pid) in pids:
            total += int(fields[11]) + int(fields[12])
    return total / tick


def database_pids() -> set[int]:
    """Return the server processes of this database (PostgreSQL); none for SQLite, which
    works inside this process."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return set()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        return {row[0] for row in cursor.fetchall()}


class Cost(NamedTuple):
    """What playing a set of games cost: wall seconds, CPU seconds, of which the coaches."""

    wall: float
    cpu: float
    coach: float = 0.0


def league_play(season, workers: list[subprocess.Popen[bytes]]) -> tuple[Cost, float | None]:  # type: ignore[no-untyped-def]
    """Play the season through ``manage.py simulate --all``; return its cost and the CPU
    seconds of this database's server processes (eager only: a worker's connection lasts
    one task, so its server process is gone before it can be read).

    The CPU is this process's (eager: it plays the games) or the workers' (their pool
    processes included); the database's is counted apart (SQLite's is in the process).
    """
    from django.core.management import call_command

    from league import coaches

    # Every pair's coach solved anew, as for a pair no process met before: none kept in
    # memory, none stored (league.coaches keeps them for every process once solved).
    coaches.clear(stored=True)
    groups = {proc.pid for proc in workers}
    db_pids = database_pids()
    db_before = proc_cpu(db_pids)
    cpu = proc_cpu(groups, groups=True) if workers else time.process_time()
    start = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        call_command("simulate", str(season.pk), "--all", "--no-progress", stdout=quiet)
    wall = time.perf_counter() - start
    cpu = (proc_cpu(groups, groups=True) if workers else time.process_time()) - cpu
    assert season.games.filter(status="final").count() == season.games.count()
    return Cost(wall, cpu), None if workers else proc_cpu(db_pids) - db_before


def engine_play(season) -> tuple[Cost, int]:  # type: ignore[no-untyped-def]
    """Play the season's own games with the engine alone: the same cards, seeds, rules,
    court and coach (solved for each pair, as the league does), nothing stored.

    Return the cost and how many scores differ from the stored ones (0: the baseline
    plays exactly the league's games).
    """
    from cards.mapping import team_card, teams_for_play
    from league import coaches
    from league.models import Game
    from simulator import SeededDice
    from simulator.vabg import play_game, preset

    games = list(season.games.select_related("result").order_by("pk"))
    assert all(g.status == Game.Status.FINAL for g in games)
    ids = {g.home_id for g in games} | {g.away_id for g in games}
    cards = {t.pk: team_card(t) for t in teams_for_play().filter(pk__in=ids)}
    coaches.clear(stored=True)  # solved anew, as the league pass solved them
    solving = 0.0
    scores = []
    start, cpu = time.perf_counter(), time.process_time()
    for game in games:
        home, away = cards[game.home_id], cards[game.away_id]
        rules = preset(game.rules, strategy=game.strategy)
        solve = time.process_time()
        coach = coaches.coach_for(home=home, away=away, rules=rules, neutral=game.neutral)
        solving += time.process_time() - solve
        played = play_game(
            home, away, SeededDice(game.seed), rules=rules, neutral=game.neutral, coach=coach
        )
        scores.append((played.home.score, played.away.score))
    cost = Cost(time.perf_counter() - start, time.process_time() - cpu, solving)
    stored = [(g.result.home_score, g.result.away_score) for g in games]
    return cost, sum(a != b for a, b in zip(scores, stored, strict=True))


def ratio_report(label: str, games: int, league: Cost, database: float | None, where: str) -> None:
    """Print what the league's games cost: wall clock, CPU, the database server's CPU."""
    server = "" if database is None else f" and the database server's {database:5.2f} s"
    print(label)
    print(f"  the league: {league.wall:6.2f} s by the wall clock ({games / league.wall:5.1f} "
          f"games/s); CPU {league.cpu:6.2f} s ({1000 * league.cpu / games:5.2f} ms a game, "
          f"{where}){server}")  # fmt: skip


def engine_report(
    games: int, league: Cost, database: float | None, engine: Cost, differ: int
) -> None:
    """Print the engine's own cost of the same games and the ratio, by CPU time."""
    same = "scores identical" if not differ else f"{differ} scores DIFFER from the stored games"
    coach = engine.coach
    print(f"  the engine alone, the same {games} games ({same}): CPU {engine.cpu:6.2f} s "
          f"({1000 * engine.cpu / games:5.2f} ms a game), of which solving each pair's "
          f"coach {1000 * coach / games:5.2f} ms ({100 * coach / engine.cpu:3.0f}%)")  # fmt: skip
    ratio = league.cpu / engine.cpu
    met = "met" if ratio <= 5 else "NOT met"
    server = (
        ""
        if not database
        else (f"; with the database server's CPU {(league.cpu + database) / engine.cpu:5.2f}x")
    )
    print(f"  a stored game costs {ratio:5.2f}x the engine's own game by CPU (target at "
          f"most 5x: {met}){server}")  # fmt: skip
    print(f"  past the coach: {(league.cpu - coach) / (engine.cpu - coach):5.2f}x; storing "
          f"costs {1000 * (league.cpu - engine.cpu) / games:5.2f} ms a game"
          + ("" if not database else
             f" (and {1000 * database / games:5.2f} ms of the database server)"))  # fmt: skip


def start_workers(count: int, name: str = "bench") -> list[subprocess.Popen[bytes]]:
    """Start ``count`` Celery workers of one process each (``NAME0@host``...) on the
    environment's database and broker (bench/research.py starts its workers here too)."""
    celery = str(Path(sys.executable).with_name("celery"))
    procs = [
        subprocess.Popen(
            [
                celery,
                "-A",
                "config",
                "worker",
                "-c",
                "1",
                "-n",
                f"{name}{n}@%h",
                "-l",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
            ],
            cwd=ROOT,
            env=os.environ.copy(),
            start_new_session=True,
        )
        for n in range(count)
    ]
    time.sleep(4)  # let them connect before the clock starts
    return procs


def standings_season(teams: list) -> float:  # type: ignore[type-arg]
    from league import selectors, services
    from league.digests import document_digest
    from league.models import Game, GameResult, team_versions_store

    season = services.season_create(
        league=services.league_get_or_create(name="Bench"),
        name="Standings",
        teams=teams,
        conferences={t.pk: t.conference for t in teams},
        double_round_robin=True,
        seed=1,
    )
    rng = random.Random(7)
    games = list(season.games.all())
    empty = team_versions_store({document_digest({}): {}})[document_digest({})]
    results = []
    for game in games:
        home, away = rng.randint(55, 95), rng.randint(55, 95)
        if home == away:
            home += 1
        results.append(
            GameResult(
                game=game,
                home_score=home,
                away_score=away,
                home_version_id=empty,
                away_version_id=empty,
                events=[],
                dice={},
                rules={},
            )
        )
    GameResult.objects.bulk_create(results, batch_size=500)
    Game.objects.filter(season=season).update(status="final")
    start = time.perf_counter()
    tables = selectors.standings_for_season(season_id=season.pk)
    elapsed = time.perf_counter() - start
    assert sum(len(rows) for _, rows in tables) == 96 and len(games) == 1056
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=0, help="also play on N real workers")
    args = parser.parse_args()
    if args.workers and not (
        os.environ.get("DATABASE_URL") and os.environ.get("CELERY_BROKER_URL")
    ):
        raise SystemExit("--workers needs DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis)")
    setup(args)
    from django.conf import settings
    from django.db import connection

    teams = teams_96()
    print(f"VABG league benchmark on {connection.vendor} ({settings.DATABASES['default']['NAME']})")
    from config.celery import app

    app.conf.task_always_eager = True
    season = round_robin_season(teams, "Round robin, eager")
    league, database = league_play(season, workers=[])
    ratio_report(
        f"32-team round robin, 496 games, simulate --all eager in one process "
        f"({connection.vendor})",
        496,
        league,
        database,
        "this process",
    )
    engine_report(496, league, database, *engine_play(season))
    eager = tournament(cup_create(teams, "Eager 96"), workers=0)
    print(f"96-team tournament, 95 games, eager in one process: {eager:6.2f} s "
          f"({95 / eager:5.1f} games/s)")  # fmt: skip
    if args.workers:
        import redis

        # Made before the workers start, eagerly: a new field's odds (what its pages show)
        # would otherwise go to the workers and be counted as the games' work.
        season = round_robin_season(teams, f"Round robin, {args.workers} workers")
        cup = cup_create(teams, f"On {args.workers} workers")
        redis.Redis.from_url(os.environ["CELERY_BROKER_URL"]).flushdb()
        app.conf.task_always_eager = False
        procs = start_workers(args.workers)
        try:
            league, database = league_play(season, workers=procs)
            ratio_report(
                f"32-team round robin, 496 games, simulate --all on {args.workers} workers "
                "(PostgreSQL, Redis)",
                496,
                league,
                database,
                "the workers",
            )
            engine_report(496, league, database, *engine_play(season))
            on_workers = tournament(cup, workers=args.workers)
        finally:
            for proc in procs:
                os.killpg(proc.pid, signal.SIGTERM)
            for proc in procs:
                proc.wait(timeout=30)
        print(f"96-team tournament, 95 games, on {args.workers} workers:     {on_workers:6.2f} s "
              f"({95 / on_workers:5.1f} games/s)")  # fmt: skip
    took = standings_season(teams)
    print(f"standings of a 96-team season (1,056 games):      {took * 1000:6.0f} ms")


if __name__ == "__main__":
    main()
