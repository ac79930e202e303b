"""``manage.py research``: play matchups, a season or a bracket many times; write the figures."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO, cast

from celery import current_app
from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from kombu.exceptions import OperationalError as BrokerError

from core.commands import Command as ProjectCommand
from league import research_runs as runs
from league.management.commands._common import (
    game_choice,
    progress_report,
    season_find,
    team_find,
)
from league.models import ResearchRun
from league.research import Plan, PlanError
from league.research_outputs import (
    OWNER,
    OutputsTaken,
    OutputsUnwritable,
    outputs_check,
    write_outputs,
)
from league.services import workers_answering
from league.tasks import research_chunk
from simulator.games import DEFAULT_GAME, find_game, game_names
from simulator.seeds import seed_argument
from simulator.vabg import preset


class Command(ProjectCommand):
    help = (
        "Play chosen matchups (--matchup HOME AWAY, repeatable; VABG unless --game), a "
        "season's schedule or a tournament's bracket of any game (--season) --times N over, "
        "on the workers in chunks (here without a broker), and write per team, player and "
        "pairing means as CSV and Parquet into --out (default RESEARCH_DIR/run-ID; "
        "RESEARCH_DIR is research). No game is stored. Game k of a run is played with seed "
        "game_seed(--seed, k) (league/research.py: runs of seeds 1 and 2 share no game). "
        "--resume RUN follows a run whose command stopped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--matchup", nargs=2, action="append", metavar=("HOME", "AWAY"))
        what.add_argument("--season", help='id, slug or "league/season"')
        what.add_argument("--resume", type=int, metavar="RUN")
        add = parser.add_argument
        # None: not given (a new run takes the default; a resumed one refuses it).
        add("--times", type=int, help="repetitions (1000)")
        add("--game", choices=game_names(), help="matchups: the game they play (vabg)")
        add(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="matchups of another game: a rule option, e.g. pieces=3 or chip_reroll=true",
        )
        add("--rules", choices=["basic", "advanced"], help="matchups (advanced)")
        add("--no-coach", action="store_true", help="matchups: no strategy choices")
        add("--home-court", action="store_true", help="matchups: HOME plays at home")
        add("--seed", type=seed_argument, help="the first game's seed (default: random)")
        add("--chunk", type=int, help="games a chunk (2000)")
        add("--stall", type=float, default=30.0, help="seconds before re-sending (30)")
        add("--out", type=_folder)
        add("--no-progress", action="store_true")

    def handle(self, *args: Any, **o: Any) -> None:
        _refuse_what_would_be_ignored(o)
        run = ResearchRun.objects.filter(pk=o["resume"]).first() if o["resume"] else None
        if o["resume"] and run is None:
            raise CommandError(f"no research run {o['resume']}")
        try:
            if run is None:
                # Where the figures go is checked before a game is played, not after a
                # million of them: a new run's folder holds no figures yet.
                outputs_check(o["out"] or Path(settings.RESEARCH_DIR))
            run = run or runs.research_start(
                season=season_find(o["season"]) if o["season"] else None,
                pairs=[(team_find(h), team_find(a)) for h, a in o["matchup"] or ()],
                repetitions=1000 if o["times"] is None else o["times"],
                rules=preset(o["rules"] or "advanced", strategy=not o["no_coach"]),
                neutral=not o["home_court"], seed=o["seed"],
                games_per_chunk=2000 if o["chunk"] is None else o["chunk"],
                **game_choice({**o, "game": o["game"] or DEFAULT_GAME}),
            )  # fmt: skip
        except (PlanError, OutputsTaken, OutputsUnwritable) as exc:
            raise CommandError(str(exc)) from exc
        # A run resumed without --out goes on in the folder its first command named (a
        # reviewer's went to RESEARCH_DIR/run-N, the folder first named left empty).
        kept_out = run.plan.get("out") if o["resume"] else None
        out = o["out"] or (Path(kept_out) if kept_out else None)
        out = out or Path(settings.RESEARCH_DIR) / f"run-{run.pk}"
        # What to type to follow the run again: its folder too, when it was given.
        again = f"manage.py research --resume {run.pk}"
        if o["out"] is not None:
            again += f" --out {shlex.quote(str(o['out']))}"
        made = runs.run_record(run)
        kept = f"(the run is kept: --resume {run.pk} --out DIR)"
        try:
            outputs_check(out, run=made)
        except (OutputsTaken, OutputsUnwritable) as exc:
            raise CommandError(f"{exc} {kept}") from exc
        if o["out"] is not None and not o["resume"]:
            runs.research_out_keep(run, o["out"])
        send = None if current_app.conf.task_always_eager else _send
        stream = cast(TextIO, self.stderr._out)
        close: Callable[[], object] = _nothing
        try:
            if send is not None and runs.research_missing(run) and not workers_answering():
                # Said at once, not after three stalls: the chunks would wait in the broker.
                stream.write(
                    f"{run}: no worker answers a ping: its chunks wait in the broker until one "
                    "starts (.venv/bin/celery -A config worker); with none, this stops after "
                    f"{runs.GIVE_UP} stalls of {o['stall']:g} s and says how to resume\n"
                )
            already = runs.research_stored_games(run)
            progress, close = progress_report(
                str(run), run.total_games, stream, quiet=o["no_progress"], already=already
            )
            ended = runs.research_follow(run, send=send, progress=progress, stall=o["stall"])
        except KeyboardInterrupt:
            # Ctrl-C: a line saying how to go on, not thirty of Python's frames. What was
            # stored is kept; with workers, the chunks they hold are still played.
            close()
            played = runs.research_stored_games(run)
            raise CommandError(
                f"run {run.pk} stopped: {played:,} of {run.total_games:,} games played and "
                f"kept; to go on: {again}",
                returncode=130,
            ) from None
        except BrokerError as exc:
            broker = current_app.conf.broker_url.split("@")[-1]  # no password shown
            raise CommandError(
                f"run {run.pk}: cannot send its chunks to the broker ({broker}): "
                f"{str(exc).rstrip('.')}; start it (or play the run here, with no "
                f"CELERY_BROKER_URL), then: {again}"
            ) from exc
        finally:
            close()
        if not ended.done:
            stalled = (
                f"run {run.pk}: {ended.missing} of {len(run.chunks)} chunks not played: no worker "
                f"took any for {o['stall']:g} s, {runs.GIVE_UP} times in a row"
            )
            if send is not None and workers_answering():
                raise CommandError(
                    f"{stalled}, though workers answer: they are busy with other work (a "
                    "field's odds, a run's games) and its chunks wait in the broker for them; "
                    f"follow it again later: {again}"
                )
            raise CommandError(f"{stalled}; start workers, then: {again}")
        try:
            files = write_outputs(Plan.from_json(run.plan), runs.research_tally(run), out, run=made)
        except (OutputsTaken, OutputsUnwritable) as exc:
            raise CommandError(f"{exc} {kept}") from exc
        except OSError as exc:
            raise CommandError(f"cannot write the figures into {out}: {exc} {kept}") from exc
        if ended.played:
            rate = f"{ended.played / max(ended.seconds, 1e-9):,.0f} a second"
            self.stdout.write(f"{run}: {ended.played:,} games in {ended.seconds:.1f} s ({rate})")
        else:
            self.stdout.write(f"{run}: its {run.total_games:,} games were already played")
        # A random first seed said, as a given one is: --seed S --times N plays them again.
        self.stdout.write(f"seed {made['seed']} ({made['seeds']}), in {OWNER}")
        self.stdout.write("wrote " + ", ".join(str(f) for f in files))


def _folder(text: str) -> Path:
    """Read ``--out``: an empty one names no folder (it wrote the figures into the
    directory the command ran in)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty --out names no folder")
    return Path(text)


def _refuse_what_would_be_ignored(o: dict[str, Any]) -> None:
    """Refuse an option the run would not use, naming it: a season plays its own rules
    and courts, and a resumed run is the run it was made as."""
    given = {
        "--times": o["times"] is not None,
        "--rules": o["rules"] is not None,
        "--no-coach": o["no_coach"],
        "--home-court": o["home_court"],
        "--seed": o["seed"] is not None,
        "--chunk": o["chunk"] is not None,
        "--game": o["game"] is not None,
        "--option": bool(o["option"]),
    }
    if o["season"]:
        unused = [
            name
            for name in ("--game", "--option", "--rules", "--no-coach", "--home-court")
            if given[name]
        ]
        if unused:
            raise CommandError(
                f"{', '.join(unused)}: a season or tournament plays its own game, rules, "
                "coaching and courts; these are for --matchup"
            )
    game = o["game"] or DEFAULT_GAME
    if o["matchup"] and game == DEFAULT_GAME and given["--option"]:
        raise CommandError(
            "--option: VABG's matchups take --rules and --no-coach; --option is another "
            "game's rule option (with --game gridcourt or sixdice)"
        )
    if o["matchup"] and game != DEFAULT_GAME:
        vabg_only = ["--rules", "--no-coach"]
        if not find_game(game).neutral_matters:
            vabg_only.append("--home-court")
        unused = [name for name in vabg_only if given[name]]
        if unused:
            court = "; no court changes it" if "--home-court" in unused else ""
            raise CommandError(
                f"{', '.join(unused)}: {find_game(game).title} plays by its rule options "
                f"(--option) with its teams' coach styles{court}"
            )
    if o["resume"]:
        unused = [name for name, on in given.items() if on]
        if unused:
            raise CommandError(
                f"{', '.join(unused)}: run {o['resume']} plays as it was made; --resume takes "
                "only --out, --stall and --no-progress (start a new run to change the others)"
            )


def _nothing() -> None:
    """End no report (none was begun)."""


def _send(run_id: int, index: int) -> None:
    research_chunk.delay(run_id=run_id, index=index)
