"""Time the league: a whole 96-team tournament (eager, and on two workers) and standings.

    .venv/bin/python bench/league.py                      # eager, on a scratch SQLite file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/league.py --workers 2

It builds its own database (a scratch SQLite file, or the PostgreSQL database named in
DATABASE_URL, which it empties first), loads 96 copies of the fixture teams, and prints:

- the wall time to play the all-time 96 tournament (95 games) eagerly, in this process;
- with ``--workers N`` (needs DATABASE_URL and CELERY_BROKER_URL): the same on N real
  ``celery -A config worker`` processes, from the request to the champion;
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
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup(args: argparse.Namespace) -> None:
    if not os.environ.get("DATABASE_URL"):
        scratch = Path(tempfile.gettempdir()) / "vabg-bench.sqlite3"
        scratch.unlink(missing_ok=True)
        os.environ["SQLITE_PATH"] = str(scratch)
    if not args.workers:
        os.environ.pop("CELERY_BROKER_URL", None)
        os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()
    from django.core.management import call_command

    if os.environ.get("DATABASE_URL"):
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


def tournament(teams: list, name: str, workers: int) -> float:  # type: ignore[type-arg]
    from league import services, tournaments

    regions = {
        r: teams[i * 24 : (i + 1) * 24] for i, r in enumerate(("West", "East", "Midwest", "South"))
    }
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Bench"), name=name, regions=regions, seed=96
    )
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
        while services.run_next_game(run=run) is not None:
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


def league_play(season) -> float:  # type: ignore[no-untyped-def]
    """Play the season through ``manage.py simulate --all``; return the wall seconds."""
    from django.core.management import call_command

    from league import coaches

    coaches.clear()  # every pair's coach solved anew, as in a new worker
    start = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        call_command("simulate", str(season.pk), "--all", "--no-progress", stdout=quiet)
    elapsed = time.perf_counter() - start
    assert season.games.filter(status="final").count() == season.games.count()
    return elapsed


def engine_play(season) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    """Play the season's own games with the engine alone: the same cards, seeds, rules,
    court and coach (solved for each pair, as the league does), nothing stored.

    Return (seconds in all, of which solving the coaches, games whose score differs from
    the stored one: 0 when the baseline plays exactly the league's games).
    """
    from cards.mapping import team_card, teams_for_play
    from league import coaches
    from league.models import Game
    from simulator import SeededDice
    from simulator.vabg import play_game, preset

    games = list(season.games.select_related("result").order_by("pk"))
    ids = {g.home_id for g in games} | {g.away_id for g in games}
    cards = {t.pk: team_card(t) for t in teams_for_play().filter(pk__in=ids)}
    coaches.clear()
    solving = 0.0
    differ = 0
    start = time.perf_counter()
    for game in games:
        home, away = cards[game.home_id], cards[game.away_id]
        rules = preset(game.rules, strategy=game.strategy)
        solve = time.perf_counter()
        coach = coaches.coach_for(home=home, away=away, rules=rules, neutral=game.neutral)
        solving += time.perf_counter() - solve
        played = play_game(
            home, away, SeededDice(game.seed), rules=rules, neutral=game.neutral, coach=coach
        )
        if (played.home.score, played.away.score) != (
            game.result.home_score,
            game.result.away_score,
        ):
            differ += 1
    elapsed = time.perf_counter() - start
    assert all(g.status == Game.Status.FINAL for g in games)
    return elapsed, solving, differ


def ratio_report(label: str, games: int, league: float, engine: tuple[float, float, float]) -> None:
    """Print a stored game's cost against the engine's own game, with the coach's share."""
    seconds, solving, differ = engine
    print(f"{label}: {league:6.2f} s ({games / league:5.1f} games/s, "
          f"{1000 * league / games:5.1f} ms a game)")  # fmt: skip
    print(f"  the engine alone, the same {games} games: {seconds:6.2f} s "
          f"({1000 * seconds / games:5.2f} ms a game, of which solving the coach "
          f"{1000 * solving / games:5.2f} ms: {100 * solving / seconds:3.0f}%)"
          + ("" if not differ else f"; {differ} scores DIFFER from the stored games"))  # fmt: skip
    print(f"  a stored game costs {league / seconds:5.2f}x the engine's own game "
          f"(target at most 5x); past the coach: {(league - solving) / (seconds - solving):5.2f}x "
          f"({1000 * (league - seconds) / games:5.2f} ms a game to store)")  # fmt: skip


def start_workers(count: int) -> list[subprocess.Popen[bytes]]:
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
                f"bench{n}@%h",
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
    from league.models import Game, GameResult, document_digest, team_versions_store

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
    empty = team_versions_store([{}])[document_digest({})]
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


def workers_cpu(procs: list[subprocess.Popen[bytes]]) -> float:
    """Return the CPU seconds (user + system) used so far by the workers and their pools."""
    tick = os.sysconf("SC_CLK_TCK")
    groups = {proc.pid for proc in procs}
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a process that ended meanwhile
        if int(fields[2]) in groups:  # its process group: a worker or one of its pool
            total += int(fields[11]) + int(fields[12])
    return total / tick


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
    wall = league_play(season)
    ratio_report(
        "32-team round robin, 496 games, simulate --all eager in one process",
        496,
        wall,
        engine_play(season),
    )
    eager = tournament(teams, "Eager 96", workers=0)
    print(f"96-team tournament, 95 games, eager in one process: {eager:6.2f} s "
          f"({95 / eager:5.1f} games/s)")  # fmt: skip
    if args.workers:
        import redis

        redis.Redis.from_url(os.environ["CELERY_BROKER_URL"]).flushdb()
        app.conf.task_always_eager = False
        procs = start_workers(args.workers)
        try:
            season = round_robin_season(teams, f"Round robin, {args.workers} workers")
            cpu = workers_cpu(procs)
            wall = league_play(season)
            cpu = workers_cpu(procs) - cpu
            engine = engine_play(season)
            ratio_report(
                f"32-team round robin, 496 games, simulate --all on {args.workers} workers",
                496,
                wall,
                engine,
            )
            print(f"  the workers' CPU: {cpu:6.2f} s, {1000 * cpu / 496:5.1f} ms a game: "
                  f"{cpu / engine[0]:5.2f}x the engine's own game")  # fmt: skip
            on_workers = tournament(teams, f"On {args.workers} workers", workers=args.workers)
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
