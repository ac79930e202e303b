"""Playing games: the one place where a game's result is computed and stored.

Games are played a chunk at a time (``games_play``; one game is a chunk of one), in three
steps. ``games_claim`` marks the chunk running with a lease in one conditional UPDATE of
its own (two workers never both claim a game); the engine plays each game, outside any
transaction; ``games_store`` then stores them in one transaction with their rows locked:
results, box-score lines, play-by-play, the team files as played (each version once),
seeds, the runs' progress and, in a tournament, the next round once this one is complete.
A game another player stored meanwhile is skipped. While it plays a chunk, the player's
heartbeat renews the chunk's short lease (``lease_kept``); a worker killed in between stops
renewing it, its games are left running past their lease, and ``games_sweep`` hands them
out again, up to ``LEAGUE_MAX_ATTEMPTS``."""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date, datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import (
    DataError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
    transaction,
)
from django.db.models import F, Max, Min, Q
from django.utils import timezone
from django.utils.text import slugify
from kombu.exceptions import ChannelError
from tenacity import (
    RetryCallState,
    retry,
    retry_if_exception_type,
    wait_exponential,
)

from cards.models import Team
from core.errors import sentence
from core.text import counted, wait_words
from league import tournaments
from league.dispatch import CHUNK_GAMES, field_odds_enqueue, games_enqueue
from league.errors import GameNotPlayable, ResultRefused, SeasonRefused, SimulationRefused
from league.games import Played, league_game
from league.models import (
    BoxLine,
    Game,
    GameResult,
    League,
    Season,
    SeasonTeam,
    SimulationRun,
    season_name_checked,
    team_versions_store,
)
from league.scheduling import ScheduleError, build_schedule, conference_groups
from league.seeds import derived_seed, new_seed
from league.signals import tournament_games_stored
from league.teamfiles import teams_playable, teams_refused_unplayable
from simulator import GameResult as EngineResult
from simulator.dice import DiceError, DiceSource
from simulator.games import DEFAULT_GAME, find_game
from simulator.games import Result as PlayedGame
from simulator.results import LINE_FIELDS

logger = logging.getLogger(__name__)

__all__ = [  # the refusals callers catch, raised here and defined in league.errors
    "GameNotPlayable",
    "ResultRefused",
    "RunNotFollowed",
    "SeasonRefused",
    "SimulationRefused",
]


BOX_MAX = ROUND_MAX = 32767  # the largest a small-integer column holds (box scores, rounds)


def lease_length() -> timedelta:
    return timedelta(seconds=settings.LEAGUE_LEASE_SECONDS)


def heartbeat_every() -> float:
    """How often a player renews the lease of the games it holds: every third of a lease,
    so a healthy player's lease outlives a missed beat or two, while a dead one's runs out
    at most a lease after its last beat."""
    return float(settings.LEAGUE_LEASE_SECONDS) / 3


@transaction.atomic
def game_create(
    *,
    home: Team,
    away: Team,
    neutral: bool = False,
    rules: str = "advanced",
    strategy: bool = False,
    seed: int | None = None,
    label: str = "",
    game: str = DEFAULT_GAME,
    options: dict[str, object] | None = None,
) -> Game:
    """Schedule a simulated game; its seed is fixed now so it replays exactly later.

    ``game`` names the game (VABG unless told), ``options`` its rule options.
    """
    game_row = Game(
        home=home,
        away=away,
        neutral=neutral,
        rules=rules,
        strategy=strategy,
        seed=new_seed() if seed is None else seed,
        label=label,
        game=game,
        options=options or {},
    )
    game_row.full_clean()
    game_row.save()
    return game_row


def game_claim(*, game_id: int, token: str = "") -> bool:
    """Mark a game running for one lease; return False when it is not this caller's to play.

    A game can be claimed when it is scheduled, or running with its lease run out (its
    worker died), and fewer than ``LEAGUE_MAX_ATTEMPTS`` attempts were made. ``token``
    names the claimer (a worker passes its task id): the same task delivered again holds
    the game at once, since Celery redelivers a task whose pool process died, so a lost
    process's game is played again without waiting for its lease.
    """
    return _claim([game_id], token=token, lease=timezone.now() + lease_length()) == 1


def _claim(game_ids: list[int], *, token: str, lease: datetime) -> int:
    """Claim every claimable game of ``game_ids`` in one conditional UPDATE (so two
    claimers never both hold a game) until ``lease``; return how many."""
    claimable = Q(status=Game.Status.SCHEDULED) | Q(
        status=Game.Status.RUNNING, lease_expires_at__lt=timezone.now()
    )
    if token:
        claimable |= Q(status=Game.Status.RUNNING, claimed_by=token)
    return (
        Game.objects.filter(claimable, pk__in=game_ids, kind=Game.Kind.SIMULATED)
        .filter(attempts__lt=settings.LEAGUE_MAX_ATTEMPTS)
        .update(
            status=Game.Status.RUNNING,
            attempts=F("attempts") + 1,
            lease_expires_at=lease,
            claimed_by=token,
        )
    )


def games_claim(*, game_ids: Iterable[int], token: str = "") -> list[int]:
    """Claim a chunk of games at once (as :func:`game_claim` each); return those claimed.

    Two statements for the whole chunk: the claim, then reading back the games this very
    claim holds (its token and lease). Without a token, one is made up for the claim.
    """
    ids = sorted(set(game_ids))
    token = token or f"local-{uuid.uuid4().hex}"
    if len(ids) == 1:
        return ids if game_claim(game_id=ids[0], token=token) else []
    lease = timezone.now() + lease_length()
    if not _claim(ids, token=token, lease=lease):
        return []
    return list(
        Game.objects.filter(
            pk__in=ids, status=Game.Status.RUNNING, claimed_by=token, lease_expires_at=lease
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def game_release(*, game_id: int) -> None:
    """Give a claimed game back (a transient error): it is scheduled again, still queued."""
    games_release(game_ids=[game_id])


def games_release(*, game_ids: Iterable[int], token: str = "") -> None:
    """Give claimed games back (a transient error): scheduled again, still queued. With a
    token, only the games that claim still holds."""
    held = Game.objects.filter(pk__in=list(game_ids), status=Game.Status.RUNNING)
    if token:
        held = held.filter(claimed_by=token)
    held.update(status=Game.Status.SCHEDULED, lease_expires_at=None, claimed_by="")


def games_renew(*, game_ids: Iterable[int], token: str) -> int:
    """Renew the lease of the games this claim (``token``) still holds; return how many.

    A game whose row is locked is skipped, not waited for: it is being stored (by this
    player, whose transaction will make it final, or by another that took it over), so
    its lease no longer matters, and a renewal never waits behind a store."""
    with transaction.atomic():
        held = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk__in=list(game_ids), status=Game.Status.RUNNING, claimed_by=token)
            .values("pk")
        )
        return Game.objects.filter(pk__in=held).update(
            lease_expires_at=timezone.now() + lease_length()
        )


@contextlib.contextmanager
def lease_kept(*, game_ids: list[int], token: str) -> Iterator[None]:
    """Keep renewing a claim's lease (``games_renew``) from a thread of its own while the
    block runs: however long a healthy player takes (a busy machine, a lock to wait for),
    its games stay its own, while a player that dies stops renewing and its games are
    handed out again once the short lease has run out.

    The thread first beats a third of a lease after the claim, so a chunk played faster
    than that (nearly all are) never touches the database for it. It uses a connection of
    its own, closed when it stops; a beat that fails (the database is down) is tried again
    at the next one."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(heartbeat_every()):
                try:
                    games_renew(game_ids=game_ids, token=token)
                except (OperationalError, InterfaceError):
                    connection.close()  # the next beat connects again
        finally:
            connection.close()

    thread = threading.Thread(target=beat, name=f"lease {token}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        # At most one beat is under way; it renews nothing once the games are stored or
        # given back. Not waited for beyond a beat's worth: a dead database may hold it.
        thread.join(timeout=heartbeat_every())


def game_play(*, game_id: int, token: str = "") -> Game | None:
    """Claim and simulate a game (what a worker does); None when another caller has it.

    A game that cannot be played (a broken roster) is marked failed with the reason.
    """
    if not games_play(game_ids=[game_id], token=token):
        return None
    return Game.objects.get(pk=game_id)


def games_play(*, game_ids: Iterable[int], token: str = "") -> list[int]:
    """Claim a chunk of games, play them and store them; return the ids this call claimed.

    The chunk is claimed at once (:func:`games_claim`), its teams are read once, the
    engine plays each game outside any transaction (the claim keeps it this caller's,
    its lease renewed by a heartbeat meanwhile: :func:`lease_kept`),
    and every game played is stored in one transaction (:func:`games_store`): each game
    with its result, box score, status and count, or none of them. A game that cannot be
    played is marked failed with the reason; the others are stored all the same. Every
    game, whatever its kind, goes this way (``league.games``: its adapter plays it).
    """
    token = token or f"local-{uuid.uuid4().hex}"
    claimed = games_claim(game_ids=game_ids, token=token)
    if not claimed:
        return []
    with lease_kept(game_ids=claimed, token=token):
        _chunk_play(claimed)
    return claimed


def _chunk_play(claimed: list[int]) -> None:
    """Play and store the games of a chunk this caller claimed (:func:`games_play`): each
    game's teams are read once per game kind (VABG's cards), every game is played by its
    league game (``league.games``), and the plays are stored together."""
    games = list(Game.objects.filter(pk__in=claimed).select_related("home", "away").order_by("pk"))
    failures: list[tuple[int, str]] = []
    plays = []
    for name in dict.fromkeys(g.game for g in games):
        kind = league_game(name)
        group = [g for g in games if g.game == name]
        teams_read = kind.teams_read(group)
        for game in group:
            try:
                plays.append(kind.play(game, teams_read=teams_read))
            except GameNotPlayable as exc:
                failures.append((game.pk, str(exc)))
    try:
        if plays:
            _chunk_store(sorted(plays, key=lambda play: play.game.pk))
    finally:
        for game_id, error in failures:
            game_fail(game_id=game_id, error=error)


def _chunk_store(plays: list[Played]) -> None:
    """Store a chunk's games at once; should the database refuse one of them (a bug: it
    never should), store the others one by one and raise that game's error, as a chunk of
    one would: only the game at fault is left to its lease."""
    try:
        games_store(plays=plays)
    except (IntegrityError, DataError):
        if len(plays) == 1:
            raise
    else:
        return
    refused: Exception | None = None
    for play in plays:
        try:
            games_store(plays=[play])
        except (IntegrityError, DataError) as exc:
            refused = refused or exc
    if refused is not None:
        raise refused


def games_store(*, plays: list[Played]) -> list[GameResult]:
    """Store games the engine played, in one transaction; return the results stored.

    The games are locked (in id order); one already final (another player stored it) is
    left untouched, and the result's one-to-one key refuses a second result anyway. The
    rest are stored at once: the team files they played (each version once), results, box
    lines, statuses, the bracket's next round and the runs' counts.
    """
    with transaction.atomic():
        locked = {
            g.pk: g
            for g in Game.objects.select_for_update()
            .filter(pk__in=[p.game.pk for p in plays])
            .order_by("pk")
        }
        fresh = [
            p._replace(game=_with_seed(locked[p.game.pk], p.game.seed))
            for p in plays
            # Gone (its season deleted meanwhile) or stored by another player: left alone.
            if p.game.pk in locked and locked[p.game.pk].status != Game.Status.FINAL
        ]
        if not fresh:
            return []
        results = results_store(plays=fresh)
        games_finish(games=[p.game for p in fresh])
    return results


def _with_seed(game: Game, seed: int | None) -> Game:
    """Return the locked game row with the seed it was played from (one drawn now, when it
    had none, is written down with it)."""
    if game.seed is None and seed is not None:
        game.seed = seed
        Game.objects.filter(pk=game.pk).update(seed=seed)
    return game


@transaction.atomic
def game_fail(*, game_id: int, error: str) -> None:
    """Mark a game failed with its reason and count it in its run."""
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status in (Game.Status.FINAL, Game.Status.FAILED):
        return
    game.status = Game.Status.FAILED
    game.error = error
    game.lease_expires_at = None
    game.claimed_by = ""
    game.save(update_fields=["status", "error", "lease_expires_at", "claimed_by"])
    if game.run_id is not None:
        _run_count(run_id=game.run_id, field="failed")


def game_simulate(
    *,
    game_id: int,
    dice: DiceSource | None = None,
    rules: Any = None,
    teams: tuple[dict[str, Any], dict[str, Any]] | None = None,
    choices: Sequence[str] = (),
    hands: Sequence[str] = (),
    questions: int | None = None,
) -> Game:
    """Simulate a game and store its result, box score and play-by-play at once.

    Safe to run twice or concurrently: the game row is locked, a final game is returned
    untouched, and the result's one-to-one key refuses a second result. ``dice`` replays
    a table-top script instead of the game's seed; ``rules`` replace the rules of its
    preset or options (``LeagueGame.rules``), for a table game begun under an older rules
    version; ``teams`` replace the home and away team files of a game without players (the
    coach styles a table game was played with); ``hands`` are the sides that made their own
    ``choices`` at the table, answering the hand ``questions`` of that version (``None``:
    today's; ``Game.questions_version``).
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("home", "away").get(pk=game_id)
        if game.status == Game.Status.FINAL:
            return game
        if game.kind != Game.Kind.SIMULATED and dice is None:
            raise GameNotPlayable(
                f"{game} is a real-dice game: type its box score in or replay its dice file."
            )
        kind = league_game(game.game)
        seeded = game.seed is not None
        play = kind.play(
            game,
            teams_read=kind.teams_read([game]),
            dice=dice,
            rules=rules,
            files=teams,
            choices=choices,
            hands=hands,
            questions=questions,
        )
        if not seeded:
            _seed_written(game)
        results_store(plays=[play])
        games_finish(games=[game])
    return game


def _seed_written(game: Game) -> None:
    """Write down the seed a game without one was just given."""
    if game.seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=game.seed)


def game_finish(*, game: Game) -> None:
    """Mark a game whose result was just stored final; count it and advance its bracket.

    Runs inside the transaction that stored the result, with the game row locked.
    """
    games_finish(games=[game])


def games_finish(*, games: list[Game]) -> None:
    """Mark games whose results were just stored final, count them and advance brackets.

    Runs inside the transaction that stored the results, with the game rows locked: one
    UPDATE for the games, then once per tournament the draw of its next round (when the
    round is complete) and once per run its count.
    """
    now = timezone.now()
    Game.objects.filter(pk__in=[g.pk for g in games]).update(
        status=Game.Status.FINAL, played_at=now, error="", lease_expires_at=None, claimed_by=""
    )
    for game in games:
        game.status, game.played_at, game.error = Game.Status.FINAL, now, ""
        game.lease_expires_at, game.claimed_by = None, ""
    # Drawn first, so the run counting these games sees the next round's games as its own.
    for season_id in sorted({g.season_id for g in games if g.season_id and g.bracket_key}):
        tournaments.tournament_advance(season_id=season_id)
        tournament_games_stored.send(
            sender=Game,
            season_id=season_id,
            game_ids=[g.pk for g in games if g.season_id == season_id and g.bracket_key],
        )
    counts = Counter(g.run_id for g in games if g.run_id is not None)
    for run_id in sorted(counts):
        _run_count(run_id=run_id, field="done", games=counts[run_id])


def _run_count(*, run_id: int, field: str, games: int = 1) -> None:
    """Count ``games`` more games done (or failed) in a run and close it when it is over.

    A run is over when every game it holds is stored or failed, or when a game failed and
    nothing of the run is left to play: in a tournament the next round is drawn only once
    the failed game is retried and stored, so the run ends as failed, with the reason.
    """
    run = SimulationRun.objects.select_for_update().get(pk=run_id)
    setattr(run, field, getattr(run, field) + games)
    run.total = max(run.total, run.done + run.failed)
    if run.status == SimulationRun.Status.RUNNING and (
        run.done + run.failed >= run.total
        or (
            run.failed
            and not Game.objects.filter(
                run=run, status__in=[Game.Status.SCHEDULED, Game.Status.RUNNING]
            ).exists()
        )
    ):
        run.status = SimulationRun.Status.FAILED if run.failed else SimulationRun.Status.DONE
        run.finished_at = timezone.now()
        run.error = _run_failures(run) if run.failed else ""
    run.save(update_fields=["done", "failed", "total", "status", "finished_at", "error"])


def _run_failures(run: SimulationRun) -> str:
    """Say why a run failed: each failed game and its reason, and what is left waiting."""
    failed = Game.objects.filter(run=run, status=Game.Status.FAILED).select_related("home", "away")
    lines = [f"game {game.pk} ({game}) failed: {game.error}" for game in failed]
    left = run.total - run.done - run.failed
    if left > 0:
        lines.append(
            f"{left} game(s) after it wait for it: retry it once its cause is fixed "
            "(simulate --retry-failed, the admin's retry action or the API)"
        )
    return "\n".join(lines)


def results_store(*, plays: list[Played]) -> list[GameResult]:
    """Store played games at once, whatever their game, in a few statements whatever their
    number: the team files as played (each version once), the result rows (score, events,
    dice, rules and what each game's ``result_fields`` adds), then what each game keeps
    beside them (``rows_store``: VABG's box lines)."""
    kinds = [league_game(play.game.game) for play in plays]
    files = [kind.team_files(play) for kind, play in zip(kinds, plays, strict=True)]
    versions = team_versions_store({digest: doc for pair in files for digest, doc in pair})
    results = []
    for kind, play, ((home, _), (away, _)) in zip(kinds, plays, files, strict=True):
        events = [e.to_json() for e in play.played.events]
        results.append(
            GameResult(
                game=play.game,
                home_version_id=versions[home],
                away_version_id=versions[away],
                events=events,
                dice=kind.dice_json(play),
                **kind.result_fields(play, events),
            )
        )
    GameResult.objects.bulk_create(results)
    for kind in dict.fromkeys(kinds):
        mine = [i for i, k in enumerate(kinds) if k is kind]
        kind.rows_store([plays[i] for i in mine], [results[i] for i in mine])
    return results


@transaction.atomic
def exhibition_play(
    *, home: Team, away: Team, neutral: bool = False, seed: int | None = None
) -> Game:
    """Schedule and play an exhibition game at once (advanced rules).

    One transaction: a game that cannot be played leaves no scheduled game behind, so its
    refusal names no game number (the admin named "#6095", a game rolled back), and a team
    the game cannot play is named, each of its problems on a line of its own.
    """
    _, problems = teams_playable(DEFAULT_GAME, [home, away])
    if problems:
        raise GameNotPlayable("\n".join(problems))
    game = game_create(home=home, away=away, neutral=neutral, seed=seed, label="Exhibition")
    try:
        return game_simulate(game_id=game.pk)
    except GameNotPlayable as exc:
        raise GameNotPlayable(str(exc).replace(f" #{game.pk}", "", 1)) from exc


# -- sending games to workers --------------------------------------------------------------


def games_send(*, game_ids: Iterable[int]) -> int:
    """Send the scheduled simulated games among ``game_ids`` to the workers; return how many.

    Final games, games played at the table and games a worker holds are left as they are.
    """
    with transaction.atomic():
        ids = list(
            Game.objects.filter(
                pk__in=list(game_ids), kind=Game.Kind.SIMULATED, status=Game.Status.SCHEDULED
            ).values_list("pk", flat=True)
        )
        games_enqueue(game_ids=ids)
    return len(ids)


def scope_filter(
    *,
    scope: str,
    round: int | None = None,
    game_date: date | None = None,
    game: Game | None = None,
    game_ids: Iterable[int] | None = None,
) -> Q:
    """Return the games a simulation of ``scope`` takes (its round, day, days up to a date,
    one game, given games or all), or refuse a scope without what it needs."""
    if scope == SimulationRun.Scope.GAME:
        if game is None:
            raise SimulationRefused("a one-game simulation needs the game")
        return Q(pk=game.pk)
    if scope == SimulationRun.Scope.ROUND:
        if round is None:
            raise SimulationRefused("a round simulation needs the round number")
        return Q(round=round)
    if scope == SimulationRun.Scope.DATE:
        if game_date is None:
            raise SimulationRefused("a day's simulation needs the date")
        return Q(game_date=game_date)
    if scope == SimulationRun.Scope.UNTIL:
        if game_date is None:
            raise SimulationRefused("a simulation up to a date needs the date")
        return Q(game_date__lte=game_date)
    if scope == SimulationRun.Scope.ALL:
        return Q()
    if scope == SimulationRun.Scope.RETRY:
        return Q(pk__in=list(game_ids or ()))
    raise SimulationRefused(
        f"unknown simulation scope {scope!r}: use game, round, date, until or all"
    )


@transaction.atomic
def simulation_start(
    *,
    season: Season,
    scope: str,
    round: int | None = None,
    game_date: date | None = None,
    game: Game | None = None,
    game_ids: Iterable[int] | None = None,
    user: object = None,
    dispatch: bool = True,
) -> SimulationRun:
    """Start simulating a season's unplayed games in ``scope``; return the run to poll.

    With ``dispatch`` the games go to workers after commit (with no broker, to a web
    process's games lane, ``league.background``, or played where they were queued in a
    command or a test); without it the caller plays them (``run_play``, ``run_next_game``).
    A tournament's "all" run also plays every later round as it is drawn.

    Games already in a running run are never taken from it: the same simulation asked
    again joins that run (returned with ``joined`` set), and a different one that would
    share its games is refused, naming the run.
    """
    if round is not None and not 1 <= round <= ROUND_MAX:
        raise SimulationRefused(f"round must be 1 to {ROUND_MAX}, got {round}")
    season = Season.objects.select_for_update().get(pk=season.pk)
    if game is not None and game.season_id != season.pk:
        raise SimulationRefused(f"{game} is not a game of {season}")
    redrawn = _bracket_mended(season)
    chosen = scope_filter(
        scope=scope, round=round, game_date=game_date, game=game, game_ids=game_ids
    )
    if scope in (SimulationRun.Scope.ROUND, SimulationRun.Scope.DATE) and (
        not season.games.filter(chosen).exists()
    ):
        # A round or a day the schedule does not have: no run of nothing is made.
        rounds = season.games.aggregate(lo=Min("round"), hi=Max("round"))
        if scope == SimulationRun.Scope.ROUND:
            known = f" (its rounds are {rounds['lo']}-{rounds['hi']})" if rounds["hi"] else ""
            raise SimulationRefused(f"{season} has no round {round}{known}")
        raise SimulationRefused(f"{season} has no game on {game_date}")
    games = Game.objects.filter(
        chosen,
        season=season,
        kind=Game.Kind.SIMULATED,
        status__in=[Game.Status.SCHEDULED, Game.Status.RUNNING],
    )
    busy = SimulationRun.objects.filter(season=season, status=SimulationRun.Status.RUNNING)
    held = set(games.filter(run__in=busy).values_list("run_id", flat=True))
    if held:
        running = list(busy.filter(pk__in=held))
        same = [
            r
            for r in running
            if (r.scope, r.round, r.game_date, r.game_id)
            == (scope, round, game_date, game.pk if game else None)
        ]
        if len(running) == 1 and same:
            joined = same[0]
            joined.joined = True
            return joined
        names = " and ".join(f"run {r.pk} ({r.get_scope_display().lower()})" for r in running)
        them = "it" if len(running) == 1 else "them"
        refused = SimulationRefused(
            f"some of these games of {season} are being simulated by {names}: wait for "
            f"{them} to finish, or follow {them} by asking for the same games again"
        )
        refused.status = 409  # a fine request, made while those runs play
        raise refused
    ids = list(games.values_list("pk", flat=True))
    total = len(ids)
    if season.kind == Season.Kind.TOURNAMENT and scope == SimulationRun.Scope.ALL:
        total = tournaments.games_to_come(season=season)
        if total and not ids:
            raise SimulationRefused(tournaments.stalled_reason(season=season))
    if not total:
        # Nothing to play: the finished run of nothing already stored for the same games is
        # the answer again (a script asking every minute made a row a minute of /api/runs/).
        empty = (
            SimulationRun.objects.filter(
                season=season, scope=scope, round=round, game_date=game_date, game=game,
                total=0, status=SimulationRun.Status.DONE,
            )
            .order_by("-pk")
            .first()
        )  # fmt: skip
        if empty is not None:
            empty.redrawn = redrawn
            return empty
    run = SimulationRun.objects.create(
        season=season,
        scope=scope,
        round=round,
        game_date=game_date,
        game=game,
        total=total,
        dispatch=dispatch,
        created_by_id=getattr(user, "pk", None),  # an anonymous user has no pk: None
        status=SimulationRun.Status.RUNNING if total else SimulationRun.Status.DONE,
    )
    if not total:  # nothing to play: done as it begins (a clock read before the row's own
        # creation stamp had it finish a few microseconds before it started)
        run.finished_at = run.created_at
        run.save(update_fields=["finished_at"])
    Game.objects.filter(pk__in=ids).update(run=run)
    if dispatch:
        games_enqueue(game_ids=ids)
    run.redrawn = redrawn
    return run


def nothing_to_play(season: Season, chosen: Q) -> str:
    """Say why a run found no game to play: all played, or the rest at the table."""
    # A game opened at the table is played there with real dice, not simulated.
    at_table = season.games.filter(
        chosen, status=Game.Status.SCHEDULED, kind=Game.Kind.REAL_DICE
    ).order_by("pk")
    held = list(at_table.values_list("pk", flat=True))
    if not held:
        return "Nothing to simulate: those games are already played."
    # opened at the table, or only marked "Real dice" (in the admin: a result to be typed in)
    playing = set(at_table.filter(table_games__status="playing").values_list("pk", flat=True))
    parts = []
    for games, words in (
        ([pk for pk in held if pk in playing], "being played at the table (game{s} {shown}): "
         "finish or abandon {it} there (/table/)"),
        ([pk for pk in held if pk not in playing], "marked to be played with real dice "
         "(game{s} {shown}): store {its} score sheet or dice (the API), play {it} at the "
         "table, or set {its} kind back to Simulated in the admin"),
    ):  # fmt: skip
        if games:
            one = len(games) == 1
            shown = ", ".join(map(str, games[:10])) + (", ..." if len(games) > 10 else "")
            parts.append(
                f"{len(games)} {'is' if one else 'are'} "
                + words.format(
                    s="" if one else "s",
                    shown=shown,
                    it="it" if one else "them",
                    its="its" if one else "their",
                )
            )
    one = len(held) == 1
    return (
        f"Nothing to simulate: {len(held)} game{'' if one else 's'} of {season} still to "
        f"play: " + "; ".join(parts) + "."
    )


def _bracket_mended(season: Season) -> list[Game]:
    """Draw again the games a tournament's bracket is missing (``tournaments.bracket_mend``:
    a game deleted after it was drawn), so the rest can be played; return them.

    The bracket challenge's pools are scored again at once: they counted the game that is
    gone. Refused, saying which game is missing, when it cannot be drawn again.
    """
    if season.kind != Season.Kind.TOURNAMENT:
        return []
    try:
        drawn = tournaments.bracket_mend(season=season)
    except SeasonRefused as exc:
        raise SimulationRefused(str(exc)) from exc
    if drawn:
        logger.warning(
            "%s: the bracket was missing %s: drawn again",
            season,
            ", ".join(g.bracket_key for g in drawn),
        )
        tournament_games_stored.send(sender=Game, season_id=season.pk, game_ids=[])
    return drawn


def redrawn_text(run: SimulationRun) -> str:
    """Say which missing bracket games a run's start drew again ("" when none)."""
    games = run.redrawn
    if not games:
        return ""
    named = ", ".join(f"game {g.pk}, {g.label} ({g.away} at {g.home})" for g in games)
    return (
        f"The bracket of {run.season} was missing {counted(len(games), 'game')}, deleted after "
        f"{'it was' if len(games) == 1 else 'they were'} drawn: drawn again with the same "
        f"teams and seed, to be played in run {run.pk}: "
        f"{named}."
    )


@transaction.atomic
def simulation_retry(
    *,
    season: Season,
    game_ids: Iterable[int] | None = None,
    user: object = None,
    dispatch: bool = True,
) -> SimulationRun:
    """Play a season's failed games again (all, or those of ``game_ids``) once fixed.

    Each is scheduled again with its attempts reset, and a new run plays it: in a league
    a run of the retried games, in a tournament a run of the rest of the bracket (the
    retried games, then each round as it is drawn). The run they failed in stays as it
    ended, failed with its reason: a run's record is final once it ends, and its counts
    change only as its games are stored.

    Refused while a run holding the failed games (in a tournament, any of its runs) is
    still playing: the retried games would be left out of both runs.
    """
    failed = Game.objects.select_for_update().filter(
        season=season, status=Game.Status.FAILED, kind=Game.Kind.SIMULATED
    )
    if game_ids is not None:
        failed = failed.filter(pk__in=list(game_ids))
    rows = list(failed.values_list("pk", "run_id"))
    if not rows:
        hint = ""
        if season.kind == Season.Kind.TOURNAMENT and tournaments.bracket_stalled(season=season):
            hint = (
                ": its bracket is missing a game, deleted after it was drawn; simulating the "
                "rest (simulate --all, the admin's action or the API) draws it again and "
                "plays on"
            )
        raise SimulationRefused(f"{season} has no failed game to retry{hint}")
    ids = [pk for pk, _ in rows]
    playing = SimulationRun.objects.filter(season=season, status=SimulationRun.Status.RUNNING)
    if season.kind != Season.Kind.TOURNAMENT:
        playing = playing.filter(pk__in={run for _, run in rows if run is not None})
    busy = list(playing.order_by("pk").values_list("pk", flat=True))
    if busy:
        names = ", ".join(f"run {pk}" for pk in busy)
        raise SimulationRefused(
            f"{names} of {season} is still playing: retry its failed games once it has "
            "ended, as soon as its other games are stored"
        )
    Game.objects.filter(pk__in=ids).update(
        status=Game.Status.SCHEDULED,
        attempts=0,
        error="",
        lease_expires_at=None,
        claimed_by="",
        run=None,
    )
    if season.kind == Season.Kind.TOURNAMENT:
        return simulation_start(season=season, scope="all", user=user, dispatch=dispatch)
    return simulation_start(
        season=season, scope="retry", game_ids=ids, user=user, dispatch=dispatch
    )


def _run_claimable(run: SimulationRun) -> Any:
    """The run's games this process may take: scheduled, or held past their lease (their
    player died: taken back here, as the sweeper would hand them out again)."""
    claimable = Q(status=Game.Status.SCHEDULED) | Q(
        status=Game.Status.RUNNING, lease_expires_at__lt=timezone.now()
    )
    return (
        Game.objects.filter(claimable, run=run, kind=Game.Kind.SIMULATED)
        .filter(attempts__lt=settings.LEAGUE_MAX_ATTEMPTS)
        .order_by("round", "game_date", "pk")
    )


def run_next_game(*, run: SimulationRun) -> Game | None:
    """Play the run's next unplayed game in this process; None when nothing is left.

    A game another player holds is left to it, unless its lease ran out (its player died):
    then it is taken back here, as the sweeper would hand it out again.
    """
    while True:
        game = _run_claimable(run).first()
        if game is None:
            return None
        played = game_play(game_id=game.pk)
        if played is not None:
            return played
        # Another player claimed it first: try the next game.


def run_next_games(*, run: SimulationRun, limit: int = CHUNK_GAMES) -> int:
    """Play the run's next unplayed games in this process, a chunk of at most ``limit``
    (:func:`games_play`); return how many were played or failed, 0 when nothing is left.
    Games another player holds are left to it, as in :func:`run_next_game`."""
    while True:
        ids = list(_run_claimable(run).values_list("pk", flat=True)[:limit])
        if not ids:
            return 0
        claimed = games_play(game_ids=ids)
        if claimed:
            return len(claimed)
        # Another player claimed them first: try the next ones.


def run_play(
    *,
    run: SimulationRun,
    on_progress: Callable[[SimulationRun], object],
    stall: float = 60.0,
    poll: float = 0.5,
) -> SimulationRun:
    """Play a run's games in this process, a chunk at a time, until the run is over.

    Games another player holds (a web server's lane on the same run, another ``simulate``)
    are waited for, and one whose lease runs out is taken back here. When nothing has
    moved for ``stall`` seconds past a lease, ``RunNotFollowed`` says so.
    """
    seen, moved = -1, time.monotonic()
    while True:
        while run_next_games(run=run):
            on_progress(_run_read(run=run))
        on_progress(_run_read(run=run))
        if run.status != SimulationRun.Status.RUNNING:
            return run
        if run.done + run.failed != seen:
            seen, moved = run.done + run.failed, time.monotonic()
        elif time.monotonic() - moved > stall + settings.LEAGUE_LEASE_SECONDS:
            left = run.total - run.done - run.failed
            raise RunNotFollowed(
                f"run {run.pk} has not moved for {time.monotonic() - moved:.0f} s: "
                f"{left} game(s) are held by another process; ask for the same games again "
                "to follow it"
            )
        time.sleep(poll)


def games_waiting_in_broker() -> int | None:
    """Return how many messages wait in the broker's queue of games (shared with the odds'
    and research's tasks), not yet taken by a worker; None when there is no broker (tasks
    run in this process) or it cannot be asked. One attempt to reach it, no retries: the
    sweeper asking must not hang on it."""
    app = current_app
    if app.conf.task_always_eager:
        return None
    with app.connection_for_read() as conn:
        unreachable: tuple[type[BaseException], ...] = (
            *conn.connection_errors,
            *conn.channel_errors,
            OSError,
        )
        try:
            conn.connect()
            with conn.channel() as channel:
                declared = channel.queue_declare(  # type: ignore[attr-defined]
                    queue=app.conf.task_default_queue, passive=True
                )
                return int(declared.message_count)
        except ChannelError:
            return 0  # no such queue (a broker restarted empty): nothing waits in it
        except unreachable as exc:
            logger.warning("the sweeper could not ask the broker what waits: %r", exc)
            return None


def games_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Hand out again games whose worker or message was lost; fail those out of attempts.

    A game running past its lease lost its worker (a live one renews it): it is scheduled
    again and sent. A game still
    scheduled lost its message (a broker restarted empty) when it was queued more than a
    sweep ago and nothing waits in the broker's games queue: while messages wait, its own
    may be among them, and one sent again would only wait behind them. When there is no
    broker to ask (tasks run in this process's lanes) or it cannot say, a game queued more
    than a lease ago is taken as lost. Games whose rows are locked are being stored, and
    are left to the player storing them. Return what was done.
    """
    now = now or timezone.now()
    lost = Q(status=Game.Status.RUNNING, lease_expires_at__lt=now)
    since = now - timedelta(seconds=settings.LEAGUE_SWEEP_EVERY)
    queued_long_ago = Q(status=Game.Status.SCHEDULED, queued_at__lt=since)
    if Game.objects.filter(queued_long_ago, kind=Game.Kind.SIMULATED).exists():
        waiting = games_waiting_in_broker()
        if waiting is None:
            lost |= Q(status=Game.Status.SCHEDULED, queued_at__lt=now - lease_length())
        elif waiting == 0:
            lost |= queued_long_ago
    counts = {"requeued": 0, "failed": 0}
    requeue = []
    with transaction.atomic():
        for game in (
            Game.objects.select_for_update(skip_locked=True)
            .filter(lost, kind=Game.Kind.SIMULATED)
            .only("pk", "attempts", "status")
            .order_by("pk")
        ):
            if game.attempts >= settings.LEAGUE_MAX_ATTEMPTS:
                game_fail(
                    game_id=game.pk,
                    error=f"gave up after {game.attempts} attempts: the worker was lost each time",
                )
                counts["failed"] += 1
            else:
                requeue.append(game.pk)
        # Scheduled again, not left running: a lost worker's game was otherwise sent again on
        # every sweep until a worker reached its first copy (an operator's review counted
        # 704 messages for 32 games behind a 9,120-game backlog); scheduled, it is sent again
        # only as a lost message is (queued a sweep ago, nothing waiting in the broker).
        Game.objects.filter(pk__in=requeue, status=Game.Status.RUNNING).update(
            status=Game.Status.SCHEDULED, lease_expires_at=None, claimed_by=""
        )
        games_enqueue(game_ids=requeue)
    counts["requeued"] = len(requeue)
    return counts


class RunNotFollowed(Exception):
    """Raise when a run can no longer be followed (no worker, no database); it goes on."""


def _database_down(retry: RetryCallState) -> None:
    """Before waiting out a database outage: drop the broken connection and say so."""
    close_old_connections()
    connection.close()
    report = retry.kwargs.get("on_outage")
    if retry.attempt_number == 1 and report is not None and retry.outcome is not None:
        exc = retry.outcome.exception()
        first = (str(exc).strip().splitlines() or [""])[0]
        report(
            f"database unreachable ({exc.__class__.__name__}: {first}); "
            f"retrying for up to {settings.LEAGUE_OUTAGE_SECONDS:g} s"
        )


def _outage_over(retry: RetryCallState) -> bool:
    """Stop waiting out a database outage after ``LEAGUE_OUTAGE_SECONDS`` (read each time)."""
    limit: float = settings.LEAGUE_OUTAGE_SECONDS
    return (retry.seconds_since_start or 0.0) >= limit


@retry(
    retry=retry_if_exception_type((OperationalError, InterfaceError)),
    wait=wait_exponential(multiplier=0.5, max=5),
    stop=_outage_over,
    before_sleep=_database_down,
    reraise=True,
)
def _run_read(
    *, run: SimulationRun, on_outage: Callable[[str], None] | None = None
) -> SimulationRun:
    run.refresh_from_db()
    return run


RUN_STALL_SECONDS = 60
"""A running run none of whose games a worker holds, and none stored, for this long is said
to be waiting on its pages and in the API (``run_stalled``)."""


def run_stalled(run: SimulationRun, *, now: datetime | None = None) -> str:
    """Say, for a running run that has not moved for ``RUN_STALL_SECONDS``, that no worker
    holds its games: no worker runs, or all are busy with other work. Empty while a worker
    holds one of its games or stored one lately, and once it has ended. Read from the
    games' leases and times (one query), never by pinging the workers from a page."""
    if run.status != SimulationRun.Status.RUNNING:
        return ""
    now = now or timezone.now()
    since = now - timedelta(seconds=RUN_STALL_SECONDS)
    if run.created_at > since:
        return ""
    moved = Game.objects.filter(run=run).aggregate(
        held=Max("lease_expires_at"), stored=Max("played_at")
    )
    if moved["held"] is not None and moved["held"] > now:
        return ""
    last = max(t for t in (run.created_at, moved["stored"]) if t is not None)
    if last > since:
        return ""
    waited = wait_words(round((now - last).total_seconds()))
    return (
        f"No worker has taken a game of this run for {waited}: the workers are stopped, or "
        "busy with other work (odds, research). Its games stay queued and are played as soon "
        'as one is free (README, "Workers and recovery").'
    )


def workers_answering() -> int:
    """Return how many Celery workers answer a ping (0: none is running).

    A broker that cannot be reached raises kombu's ``OperationalError`` at once: the broker
    is tried once first, where the ping's own publishing would retry it for 6 s."""
    with current_app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=0)
    return len(current_app.control.ping(timeout=1.0) or [])


def run_wait(
    *,
    run: SimulationRun,
    poll: float = 0.5,
    on_progress: Callable[[SimulationRun], object],
    on_outage: Callable[[str], None] | None = None,
    stall: float = 60.0,
) -> SimulationRun:
    """Poll a dispatched run until it is finished, reporting progress as it moves.

    A database outage is waited out with backoff (``LEAGUE_OUTAGE_SECONDS``, reported once
    through ``on_outage``); when nothing moves for ``stall`` seconds and no worker answers a
    ping, waiting stops. Either way ``RunNotFollowed`` says why; the run itself goes on
    (the games stay queued for the workers) and can be followed again.
    """
    seen, moved = -1, time.monotonic()
    while True:
        try:
            _run_read(run=run, on_outage=on_outage)
        except (OperationalError, InterfaceError) as exc:
            raise RunNotFollowed(
                f"the database was unreachable for {settings.LEAGUE_OUTAGE_SECONDS:g} s "
                f"({exc.__class__.__name__}); the workers carry on with run {run.pk}: "
                "ask for the same games again to follow it"
            ) from exc
        on_progress(run)
        if run.status != SimulationRun.Status.RUNNING:
            return run
        if run.done + run.failed != seen:
            seen, moved = run.done + run.failed, time.monotonic()
        elif time.monotonic() - moved > stall:
            if not workers_answering():
                raise RunNotFollowed(
                    f"no worker answers and run {run.pk} has not moved for {stall:g} s: "
                    "start one (celery -A config worker); the games stay queued for it"
                )
            moved = time.monotonic()
        time.sleep(poll)


# -- table-top games ------------------------------------------------------------------------


def game_replay_dice(
    *,
    game_id: int,
    script: object,
    rules: Any = None,
    teams: tuple[dict[str, Any], dict[str, Any]] | None = None,
    choices: Sequence[str] = (),
    hands: Sequence[str] = (),
    questions: int | None = None,
) -> Game:
    """Play a real-dice game from its ``vabg-dice/1`` script and store it like any other.

    ``script`` is the parsed dice file; every problem with it is reported at once.
    ``rules`` are the rules the game was rolled under when they are not its preset's or
    options' rules of today (a table game begun under an older rules version); ``hands``
    the sides that made their own ``choices`` at the table (six dice), answering the hand
    ``questions`` of that version, stored with the dice so that the game replays choice
    for choice.
    """
    name = Game.objects.filter(pk=game_id).values_list("game", flat=True).first()
    try:
        # Each game reads its own dice file (six dice may write its dice as letters).
        dice = find_game(name or DEFAULT_GAME).read_dice(script)
    except DiceError as exc:
        raise GameNotPlayable(f"the dice file is refused: {exc}") from exc
    with transaction.atomic():
        # Played from real dice: not the seed it was scheduled with (the API and a replay
        # said "from seed N" of a game that seed never played), all or nothing with it.
        Game.objects.filter(pk=game_id, status=Game.Status.SCHEDULED).update(
            kind=Game.Kind.REAL_DICE, seed=None
        )
        return game_simulate(
            game_id=game_id,
            dice=dice,
            rules=rules,
            teams=teams,
            choices=choices,
            hands=hands,
            questions=questions,
        )


def game_replay(*, game_id: int) -> EngineResult | PlayedGame:
    """Play a stored game again from its seed (a game rolled at the table: from its dice,
    with the choices made there by hand), the cards and the rules it was played with.

    The rules are the stored switches of its rules version (an older game keeps, for
    example, its 5-possession overtimes); a game whose rules this engine cannot play
    is refused with the reason. Each game plays it again its own way
    (``LeagueGame.replay``): VABG from the cards as played, the others from the team
    files and rules stored.
    """
    game = Game.objects.select_related("result").get(pk=game_id)
    result = game.result
    replayed: EngineResult | PlayedGame = league_game(game.game).replay(game, result)
    return replayed


def game_result_enter(
    *,
    game_id: int,
    home_score: int,
    away_score: int,
    home_lines: Iterable[dict[str, object]] = (),
    away_lines: Iterable[dict[str, object]] = (),
    overtimes: int = 0,
) -> Game:
    """Store the score sheet of a game played with real dice at the table.

    Lines are optional; when given, each names a player of that team and the team's
    points equal the sum of its players' points. Every problem is reported at once.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("home", "away").get(pk=game_id)
        if game.status == Game.Status.FINAL:
            raise ResultRefused([f"{game} already has a result"])
        problems: list[str] = []
        if home_score < 0 or away_score < 0:
            problems.append("scores cannot be negative")
        if max(home_score, away_score, overtimes) > BOX_MAX:
            problems.append(f"scores and overtimes must be at most {BOX_MAX}")
        if home_score == away_score:
            problems.append(
                f"a {game.get_game_display()} game never ends tied ({home_score}-{away_score})"
            )
        home_lines, away_lines = list(home_lines), list(away_lines)
        kind = league_game(game.game)
        if home_score != away_score and min(home_score, away_score) >= 0:
            problems += kind.final_score_problems(home_score, away_score)
        if (not kind.has_players and (home_lines or away_lines)) or (
            not kind.has_overtimes and overtimes
        ):
            problems.append(
                f"a {game.get_game_display()} game has no player lines and no overtime: "
                "enter its score only"
            )
        if overtimes < 0:
            problems.append("overtimes cannot be negative")
        sides = {"home": (game.home, list(home_lines), home_score),
                 "away": (game.away, list(away_lines), away_score)}  # fmt: skip
        rows: list[BoxLine] = []
        result = GameResult(
            game=game,
            home_score=home_score,
            away_score=away_score,
            overtimes=overtimes,
            events=[],
            dice={"entered": "score sheet typed in"},
            rules=kind.rules(game).to_json(),
        )
        result.home_team_file = kind.team_file(game.home)
        result.away_team_file = kind.team_file(game.away)
        for side, (team, lines, score) in sides.items():
            roster = {p.name: p.pk for p in team.players.all()}
            total = 0
            named: set[str] = set()
            for order, line in enumerate(lines):
                name = str(line.get("name", ""))
                if not name.strip():
                    problems.append(f"{side}: line {order + 1} names no player (its name)")
                elif name not in roster:
                    problems.append(f"{side}: {name!r} is not on the {team} roster")
                elif name in named:  # one line a player a game (the box score's own rule)
                    problems.append(f"{side}: {name!r} has two lines: give him one")
                named.add(name)
                values = {}
                for field in LINE_FIELDS:
                    value = line.get(field, 0)
                    if (
                        not isinstance(value, int)
                        or isinstance(value, bool)
                        or not 0 <= value <= BOX_MAX
                    ):
                        problems.append(
                            f"{side}: {name}: {field} must be a whole number 0-{BOX_MAX}"
                        )
                        value = 0
                    values[field] = value
                if values["reb"] == 0:
                    values["reb"] = values["oreb"] + values["dreb"]
                for made, tried in (("fgm", "fga"), ("tpm", "tpa"), ("ftm", "fta")):
                    if values[made] > values[tried]:
                        problems.append(f"{side}: {name}: {made} is more than {tried}")
                if values["tpm"] > values["fgm"]:
                    problems.append(f"{side}: {name}: tpm is more than fgm")
                if values["reb"] < values["oreb"] + values["dreb"]:
                    problems.append(f"{side}: {name}: reb is less than oreb + dreb")
                total += values["pts"]
                rows.append(
                    BoxLine(
                        side=side,
                        team=team,
                        player_id=roster.get(name),
                        name=name,
                        order=order,
                        **values,
                    )
                )
            if lines and total != score:
                problems.append(
                    f"{side}: the players' points add up to {total}, not the score {score}"
                )
        if problems:
            raise ResultRefused(problems)
        game.kind = Game.Kind.REAL_DICE
        # Played with real dice: not the seed it was scheduled with, which the API says
        # replays the game exactly (as a game played from a dice file).
        game.seed = None
        game.save(update_fields=["kind", "seed"])
        result.save()
        for row in rows:
            row.result = result
        BoxLine.objects.bulk_create(rows)
        game_finish(game=game)
    return game


# -- seasons ---------------------------------------------------------------------------------


@transaction.atomic
def league_create(*, name: str, description: str = "") -> League:
    """Create a league; its slug is made from the name.

    Refused with a ``ValidationError`` keyed by field, as any admin save: a slug taken by
    another league (or a name with no letter or digit to make one) is the name's error.
    """
    league = League(name=name.strip(), slug=slugify(name), description=description)
    try:
        league.full_clean()
    except ValidationError as exc:
        errors = dict(exc.message_dict)
        if errors.pop("slug", None) and "name" not in errors:
            errors["name"] = [
                f"Another league has the slug {league.slug!r} this name makes."
                if league.slug
                else "The name needs a letter or a digit, to make the league's slug."
            ]
        raise ValidationError(errors) from exc
    problem = league_name_problem(name=league.name)
    if problem:
        raise ValidationError({"name": [sentence(problem)]})
    league.save()
    return league


def league_name_problem(*, name: str, league_id: int | None = None) -> str:
    """Say why a league (``league_id``, or a new one) may not be called ``name``; "" when it
    may. The one rule of the admin's league form and of the commands (``create_season``):
    the name needs a letter or a digit, and must not read as another league's, the slug it
    makes being that league's slug or the one its name makes ("all-time league" next to
    "All-time League" let a command pick either by how it was written)."""
    slug = slugify(name)
    if not slug:
        return f"a league name needs letters or digits, got {name!r}"
    others = League.objects.exclude(pk=league_id) if league_id else League.objects.all()
    for other in others.only("name", "slug").order_by("pk"):
        if slug in (other.slug, slugify(other.name)):
            return (
                f"the league name {name!r} is too close to an existing one: {other.name} "
                f"({other.slug})"
            )
    return ""


def league_get_or_create(*, name: str) -> League:
    """Return the league called ``name``, creating it (checked like any admin save) if new."""
    name = name.strip()
    league = League.objects.filter(name=name).first()
    if league is not None:
        return league
    problem = league_name_problem(name=name)
    if problem:
        raise SeasonRefused(problem)
    league = League(name=name, slug=slugify(name))
    league.full_clean()
    league.save()
    return league


SEASON_PLAY_FIELDS = ("game", "options", "rules", "strategy", "home_court")
"""What a season's games are played with: copied onto each game when it is made (a
tournament's later rounds as they are drawn), so fixed once the season has games."""

SEASON_MADE_FIELDS = ("kind", "reseed", "seed")
"""What a season is made with and never changes: a round robin or a tournament (its bracket,
reseeded or not, drawn by ``tournaments.tournament_create``), and the seed of every game."""


def season_fixed_reason(season: Season) -> str:
    """Say why a season's play settings (``SEASON_PLAY_FIELDS``) and its teams can no longer
    change: it has games, made with them. "" while it has none."""
    games = season.games.count()
    if not games:
        return ""
    played = season.games.filter(status=Game.Status.FINAL).count()
    other = "draw a new tournament" if season.kind == Season.Kind.TOURNAMENT else "add a season"
    # VABG's own settings named only for a VABG season (a reviewer read "coach policy and
    # home court" on a grid court season's page, which has neither)
    made_with = (
        "options, rules, coach policy and home court"
        if season.game == DEFAULT_GAME
        else "rule options"
    )
    return (
        f"{season} has {counted(games, 'game')}, {played} played: they were made with its game, "
        f"{made_with}, and with its teams, so these are "
        "fixed (like its kind and seed, fixed when it was made). Changed, they would leave "
        "its games, standings, stats, leaders and bracket saying otherwise. To play another "
        f"game or other rules, {other}"
    )


@transaction.atomic
def season_create(
    *,
    league: League,
    name: str,
    teams: Iterable[Team],
    conferences: dict[int, str] | None = None,
    double_round_robin: bool = False,
    cross_conference_games: int = 0,
    start_date: date | None = None,
    days_between_rounds: int = 1,
    home_court: bool = True,
    rules: str = "advanced",
    strategy: bool = True,
    seed: int | None = None,
    game: str | None = None,
    options: dict[str, object] | None = None,
) -> Season:
    """Create a season and its whole schedule.

    ``game`` names the game every one of its games plays (the league's game unless
    told: ``vabg``, ``gridcourt`` or ``sixdice``) and ``options`` its rule options,
    checked by the game's own rules (a ``ValidationError`` on ``options`` says why).

    ``conferences`` maps a team id to its conference; teams left out (or no mapping at
    all) play in one group named "" (no conferences). A team alone in its conference plays
    with the independents (``scheduling.conference_groups``), and its season entry names
    that group. Every conference plays a single or double round robin, after
    ``cross_conference_games`` games per team outside it. With
    ``home_court`` the home team has the home-court foul ranges; without it every game is
    on a neutral court.
    """
    season_name_checked(name)
    team_list = list(teams)
    if len({t.pk for t in team_list}) != len(team_list):
        raise SeasonRefused("a team is listed twice")
    if len(team_list) < 2:
        raise SeasonRefused(f"a season needs at least 2 teams, got {len(team_list)}")
    conference_of = conference_groups({t.pk: (conferences or {}).get(t.pk, "") for t in team_list})
    groups: dict[str, list[int]] = {}
    for team in sorted(team_list, key=lambda t: (t.school, t.season)):
        groups.setdefault(conference_of[team.pk], []).append(team.pk)
    start_date = start_date or timezone.localdate()
    season = Season(
        league=league,
        name=name,
        slug=slugify(name),
        kind=Season.Kind.SEASON,
        rules=rules,
        strategy=strategy,
        home_court=home_court,
        seed=new_seed() if seed is None else seed,
        start_date=start_date,
        game=league.game if game is None else game,
        options=options or {},
    )
    season.full_clean()
    teams_refused_unplayable(season.game, team_list)
    season.save()
    SeasonTeam.objects.bulk_create(
        SeasonTeam(season=season, team_id=pk, conference=conference_of[pk]) for pk in conference_of
    )
    try:
        schedule = build_schedule(
            conferences=groups,
            start_date=start_date,
            days_between_rounds=days_between_rounds,
            double_round_robin=double_round_robin,
            cross_conference_games=cross_conference_games,
            neutral=not home_court,
            cross_conference_neutral=not home_court,
            rng=random.Random(season.seed),
        )
    except ScheduleError as exc:
        raise SeasonRefused(str(exc)) from exc
    Game.objects.bulk_create(
        Game(
            season=season,
            home_id=g.home_id,
            away_id=g.away_id,
            neutral=g.neutral,
            rules=rules,
            strategy=strategy,
            game=season.game,
            options=season.options,
            round=g.round,
            game_date=g.game_date,
            conference_game=g.conference is not None and g.conference != "",
            seed=derived_seed(season.seed, f"r{g.round}:{g.home_id}-{g.away_id}"),
            label=f"Round {g.round}",
        )
        for g in schedule
    )
    field_odds_enqueue(season_ids=[season.pk])  # previews and season odds, in the background
    return season
