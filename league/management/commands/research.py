"""``manage.py research``: play matchups, a season or a bracket many times; write the figures."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO, cast

from celery import current_app
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from league import research_runs as runs
from league.management.commands._common import season_find, team_find
from league.models import ResearchRun
from league.research import Plan, PlanError
from league.research_outputs import OutputsTaken, write_outputs
from league.tasks import research_chunk
from simulator.vabg import preset


class Command(BaseCommand):
    help = (
        "Play chosen matchups (--matchup HOME AWAY, repeatable), a season's schedule or a "
        "tournament's bracket (--season) --times N over, on the workers in chunks (here "
        "without a broker), and write per team, player and pairing means as CSV and Parquet "
        "into --out (default RESEARCH_DIR/run-ID; RESEARCH_DIR is research). No game is "
        "stored. Game k of a run is played with seed --seed + k. --resume RUN follows a run "
        "whose command stopped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--matchup", nargs=2, action="append", metavar=("HOME", "AWAY"))
        what.add_argument("--season", help='id, slug or "league/season"')
        what.add_argument("--resume", type=int, metavar="RUN")
        add = parser.add_argument
        add("--times", type=int, default=1000, help="repetitions (1000)")
        add("--rules", choices=["basic", "advanced"], default="advanced", help="matchups")
        add("--no-coach", action="store_true", help="matchups: no strategy choices")
        add("--home-court", action="store_true", help="matchups: HOME plays at home")
        add("--seed", type=int, help="the first game's seed (default: random)")
        add("--chunk", type=int, default=2000, help="games a chunk (2000)")
        add("--stall", type=float, default=30.0, help="seconds before re-sending (30)")
        add("--out", type=Path)
        add("--no-progress", action="store_true")

    def handle(self, *args: Any, **o: Any) -> None:
        run = ResearchRun.objects.filter(pk=o["resume"]).first() if o["resume"] else None
        if o["resume"] and run is None:
            raise CommandError(f"no research run {o['resume']}")
        try:
            run = run or runs.research_start(
                season=season_find(o["season"]) if o["season"] else None,
                pairs=[(team_find(h), team_find(a)) for h, a in o["matchup"] or ()],
                repetitions=o["times"], rules=preset(o["rules"], strategy=not o["no_coach"]),
                neutral=not o["home_court"], seed=o["seed"], games_per_chunk=o["chunk"],
            )  # fmt: skip
        except PlanError as exc:
            raise CommandError(str(exc)) from exc
        send = None if current_app.conf.task_always_eager else _send
        bar = tqdm(
            total=run.total_games,
            unit="game",
            disable=o["no_progress"],
            # The real stream: Django's wrapper ends every write with a newline, so each
            # redraw of the bar would be a line of its own.
            file=cast(TextIO, self.stderr._out),
        )
        ended = runs.research_follow(
            run, send=send, progress=lambda n: bar.update(n - bar.n), stall=o["stall"]
        )
        bar.close()
        if not ended.done:
            raise CommandError(
                f"run {run.pk}: {ended.missing} of {len(run.chunks)} chunks not played: no worker "
                f"stored any for {o['stall']:g} s, {runs.GIVE_UP} times in a row; start "
                f"workers, then: manage.py research --resume {run.pk}"
            )
        out = o["out"] or Path(settings.RESEARCH_DIR) / f"run-{run.pk}"
        made = {"id": run.pk, "label": str(run), "created_at": run.created_at.isoformat()}
        try:
            files = write_outputs(Plan.from_json(run.plan), runs.research_tally(run), out, run=made)
        except OutputsTaken as exc:
            raise CommandError(f"{exc} (the run is kept: --resume {run.pk} --out DIR)") from exc
        if ended.played:
            rate = f"{ended.played / max(ended.seconds, 1e-9):,.0f} a second"
            self.stdout.write(f"{run}: {ended.played:,} games in {ended.seconds:.1f} s ({rate})")
        else:
            self.stdout.write(f"{run}: its {run.total_games:,} games were already played")
        self.stdout.write("wrote " + ", ".join(str(f) for f in files))


def _send(run_id: int, index: int) -> None:
    research_chunk.delay(run_id=run_id, index=index)
