"""``manage.py simulate``: play a season's games, with a progress bar."""

from __future__ import annotations

import json
from typing import Any, TextIO, cast

from celery import current_app
from django.core.management.base import CommandError, CommandParser
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from core.commands import Command as ProjectCommand
from league import services
from league.errors import GamesNotSent
from league.management.commands._common import date_argument, progress_report, season_find
from league.models import Game, SimulationRun


def _as_compared(events: list[Any]) -> list[Any]:
    """A game's events as a replay is compared with them: a VABG extra possession's call
    without its team, which named the visitor whoever took them until 2026-11-30 (the
    engine's fix changed no die, score or other event of a game stored before)."""
    return [
        {k: v for k, v in e.items() if k != "team"}
        if isinstance(e, dict) and e.get("type") == "call" and e.get("call") == "extra possession"
        else e
        for e in events
    ]


class Command(ProjectCommand):
    help = (
        "Simulate a season's or tournament's games: one game (--game), a round (--round), "
        "a day (--date), everything up to a date (--until) or the rest (--all). With a "
        "broker configured the games go to the workers and this waits for them; without "
        "one they are played here. --replay GAME plays a stored game again from its seed "
        "(a game rolled at the table: from its dice, with the choices made there by hand) "
        "and says whether it comes out the same. --retry-failed plays the season's failed "
        "games again once their cause is fixed, in a new run, and in a tournament "
        "the rest of the bracket. It always ends: exit 0 when every game is stored, "
        "non-zero with the reason otherwise. The same games asked for twice at once: the "
        "second command follows the first's run."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", nargs="?", help='id, slug or "league/season"')
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--game", type=int, metavar="ID")
        what.add_argument("--round", type=int, metavar="N")
        what.add_argument("--date", type=date_argument, metavar="YYYY-MM-DD")
        what.add_argument("--until", type=date_argument, metavar="YYYY-MM-DD")
        what.add_argument("--all", action="store_true")
        what.add_argument("--replay", type=int, metavar="ID")
        what.add_argument("--retry-failed", action="store_true", help="play failed games again")
        parser.add_argument(
            "--stall",
            type=float,
            default=60.0,
            metavar="SECONDS",
            help="stop following a run that has not moved for this long while no worker "
            "answers (default 60)",
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["replay"] is not None:
            self._replay(options["replay"])
            return
        if not options["season"]:
            raise CommandError("name the season to simulate")
        try:
            self._simulate(options)
        except (OperationalError, InterfaceError) as exc:
            first = (str(exc).strip().splitlines() or [""])[0]
            raise CommandError(
                f"the database is unreachable ({exc.__class__.__name__}: {first}); "
                "what is stored stays stored: run the same command again once it is back"
            ) from exc
        except (BrokerError, GamesNotSent) as exc:
            broker = current_app.conf.broker_url.split("@")[-1]  # no password shown
            error = exc.error if isinstance(exc, GamesNotSent) else str(exc)
            raise CommandError(
                f"the broker ({broker}) cannot be reached: {error.rstrip('.')}; the games "
                "asked for stay queued in the league (beat's sweeper sends them once it "
                "answers): start it, or play them here with no CELERY_BROKER_URL, then run "
                "the same command again to follow them"
            ) from exc

    def _simulate(self, options: dict[str, Any]) -> None:
        season = season_find(options["season"])
        game = None
        if options["game"] is not None:
            game = Game.objects.filter(pk=options["game"], season=season).first()
            if game is None:
                raise CommandError(f"{season} has no game {options['game']}")
        # Without a broker (eager tasks) this process plays the games itself, one by one.
        eager = bool(current_app.conf.task_always_eager)
        dispatch = not eager
        try:
            if options["retry_failed"]:
                run = services.simulation_retry(season=season, dispatch=dispatch)
            else:
                scope, extra = self._scope(options)
                run = services.simulation_start(
                    season=season, scope=scope, game=game, dispatch=dispatch, **extra
                )
        except services.SimulationRefused as exc:
            raise CommandError(str(exc)) from exc
        if run.redrawn:
            self.stdout.write(services.redrawn_text(run))
        if run.total == 0:
            scope, extra = ("all", {}) if options["retry_failed"] else self._scope(options)
            chosen = services.scope_filter(scope=scope, game=game, **extra)
            self.stdout.write(services.nothing_to_play(season, chosen))
            return
        if run.joined:
            self.stdout.write(
                f"Run {run.pk} is already simulating these games "
                f"({run.done + run.failed} of {run.total} so far): following it."
            )
        already = run.done + run.failed
        progress, close = progress_report(
            str(season),
            run.total,
            cast(TextIO, self.stderr._out),  # the real stream: a bar rewrites its line
            quiet=bool(options["no_progress"]),
            already=already,
        )
        try:
            if run.dispatch and not eager:
                services.run_wait(
                    run=run,
                    on_progress=lambda r: progress(r.done + r.failed),
                    on_outage=lambda text: self.stderr.write(text),
                    stall=options["stall"],
                )
            else:
                # With no broker this process plays the run, a web server's too (its lane
                # may be gone with its process): claims keep each game to one player.
                services.run_play(
                    run=run,
                    on_progress=lambda r: progress(r.done + r.failed),
                    stall=options["stall"],
                )
        except services.RunNotFollowed as exc:
            raise CommandError(str(exc)) from exc
        finally:
            close()
        run.refresh_from_db()
        self.stdout.write(
            f"Run {run.pk}: {run.done} of {run.total} games stored, {run.failed} failed."
        )
        for failed in Game.objects.filter(run=run, status=Game.Status.FAILED):
            self.stderr.write(f"  game {failed.pk} failed: {failed.error}")
        if run.status == SimulationRun.Status.FAILED:
            waiting = run.total - run.done - run.failed
            raise CommandError(
                f"{run.failed} game(s) could not be played"
                + (f" and {waiting} wait for them" if waiting > 0 else "")
                + "; fix the cause, then: manage.py simulate "
                + f"{season.league.slug}/{season.slug} --retry-failed"
            )

    @staticmethod
    def _scope(options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        if options["game"] is not None:
            return "game", {}
        if options["round"] is not None:
            return "round", {"round": options["round"]}
        if options["date"] is not None:
            return "date", {"game_date": options["date"]}
        if options["until"] is not None:
            return "until", {"game_date": options["until"]}
        return "all", {}

    def _replay(self, game_id: int) -> None:
        game = Game.objects.select_related("result").filter(pk=game_id).first()
        if game is None:
            raise CommandError(f"there is no game {game_id}")
        if game.status != Game.Status.FINAL:
            raise CommandError(f"game {game_id} has not been played")
        try:
            again = services.game_replay(game_id=game_id)
        except services.GameNotPlayable as exc:
            raise CommandError(str(exc)) from exc
        stored = game.result
        # Through JSON, as stored: a six-dice event's dice are tuples until then.
        replayed = json.loads(json.dumps([e.to_json() for e in again.events]))
        same = _as_compared(replayed) == _as_compared(stored.events)
        self.stdout.write(
            f"{game}: stored {stored.away_score}-{stored.home_score}, replayed "
            f"{again.away.score}-{again.home.score} "
            # as league.games.replay_dice chose: a game stored from dice before they cleared
            # its seed kept one it was never played from
            + (
                f"from seed {game.seed}: "
                if game.seed is not None and "seed" in stored.dice
                else "from its dice: "
            )
            + ("identical, event for event." if same else "DIFFERENT.")
        )
        if not same:
            raise CommandError("the replay differs from the stored game")
