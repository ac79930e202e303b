"""Research runs in the league: made from its teams and seasons, played by the workers in
chunks, each chunk stored once, followed to the end and written out (``manage.py research``).

A run's plan (``league.research.Plan``) holds the cards as they stood when it was made, so
an edit in the admin during a run changes nothing in it. Chunks are Celery tasks
(``league.research_chunk``) on whatever workers serve the broker, on any hosts: a chunk
played twice (a message delivered again, a chunk sent again after a stall) is stored once,
by the chunk row's unique key, and plays the same games from the same seeds either way.
With no broker, the command plays the chunks itself.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from cards.mapping import team_card, teams_for_play
from cards.models import Team
from league import background
from league import bracket as brackets
from league.games import league_game
from league.models import Game, ResearchChunk, ResearchRun, Season, SeasonTeam
from league.research import (
    GAMES_PER_CHUNK,
    SEEDING,
    Kind,
    Plan,
    PlanError,
    Tally,
    play_chunk,
    player_for,
)
from league.seeds import new_seed
from simulator.games import DEFAULT_GAME, InvalidOptionError, InvalidTeamError
from simulator.vabg import GameRules, InvalidCardError, TeamCard, preset


def _teams(team_ids: Sequence[int]) -> tuple[tuple[TeamCard, ...], dict[int, int]]:
    """Return the teams' cards in ``team_ids`` order and each id's index among them."""
    teams = {t.pk: t for t in teams_for_play().filter(pk__in=set(team_ids))}
    cards: list[TeamCard] = []
    for pk in team_ids:
        try:
            cards.append(team_card(teams[pk]))
        except InvalidCardError as exc:
            raise PlanError(f"{teams[pk]} cannot be played: {exc}") from exc
    return tuple(cards), {pk: i for i, pk in enumerate(team_ids)}


def _team_files(
    name: str, team_ids: Sequence[int]
) -> tuple[tuple[dict[str, Any], ...], dict[int, int]]:
    """Return the teams as game ``name`` (not VABG) plays them, its team files (school,
    season, coach styles), in ``team_ids`` order, and each id's index among them."""
    game = league_game(name)
    teams = Team.objects.in_bulk(set(team_ids))
    files = []
    for pk in team_ids:
        doc = game.team_file(teams[pk])
        try:
            game.engine.read_team(doc)
        except InvalidTeamError as exc:
            raise PlanError(f"{teams[pk]} cannot be played: {exc}") from exc
        files.append(doc)
    return tuple(files), {pk: i for i, pk in enumerate(team_ids)}


def _rules(game: str, options: Mapping[str, Any], what: str) -> Any:
    """Return game ``game``'s rules for these rule options; refuse bad ones as ``what``."""
    try:
        return league_game(game).engine.make_rules(**dict(options))
    except InvalidOptionError as exc:
        raise PlanError(f"{what}: {exc}") from exc


def plan_for_matchups(
    *,
    pairs: Sequence[tuple[Team, Team]],
    repetitions: int,
    rules: GameRules,
    neutral: bool,
    seed: int | None = None,
    game: str = DEFAULT_GAME,
    options: Mapping[str, Any] | None = None,
) -> Plan:
    """Return a plan playing each (home, away) pair once a repetition: VABG by ``rules``,
    another ``game`` by its rule ``options``."""
    if not pairs:
        raise PlanError("name at least one matchup")
    ids = list(dict.fromkeys(t.pk for pair in pairs for t in pair))
    for home, away in pairs:
        if home.pk == away.pk:
            raise PlanError(f"{home} cannot play itself")
    cards: tuple[Any, ...]
    if game != DEFAULT_GAME:
        rules = _rules(game, options or {}, f"{league_game(game).label} cannot be played")
        cards, index = _team_files(game, ids)
    else:
        cards, index = _teams(ids)
    return Plan(
        game=game,
        kind=Kind.MATCHUPS,
        teams=cards,
        team_ids=tuple(ids),
        rules=rules,
        repetitions=repetitions,
        seed=new_seed() if seed is None else seed,
        games=tuple((index[h.pk], index[a.pk], neutral) for h, a in pairs),
    )


def plan_for_season(*, season: Season, repetitions: int, seed: int | None = None) -> Plan:
    """Return a plan playing ``season`` again and again: a tournament's bracket from its
    first round (with the season's courts), or a season's whole schedule; VABG with the
    teams' cards and the season's preset, another game with its teams' coach styles and the
    season's rule options."""
    vabg = season.game == DEFAULT_GAME

    def teams(ids: Sequence[int]) -> tuple[tuple[Any, ...], dict[int, int]]:
        return _teams(ids) if vabg else _team_files(season.game, ids)

    rules = (
        preset(season.rules, strategy=season.strategy)
        if vabg
        else _rules(season.game, season.options or {}, f"{season} cannot be played")
    )
    seed = new_seed() if seed is None else seed
    if season.bracket:
        bracket = brackets.bracket_from_json(season.bracket)
        ids = sorted(bracket.seeds)
        cards, index = teams(ids)
        return Plan(
            game=season.game,
            kind=Kind.BRACKET,
            teams=cards,
            team_ids=tuple(ids),
            rules=rules,
            repetitions=repetitions,
            seed=seed,
            bracket=brackets.bracket_relabelled(bracket, index),
            neutral=not season.home_court,
        )
    schedule = list(
        Game.objects.filter(season=season)
        .order_by("round", "game_date", "pk")
        .values_list("home_id", "away_id", "neutral")
    )
    if not schedule:
        raise PlanError(f"{season} has no games scheduled")
    ids = list(dict.fromkeys(pk for h, a, _ in schedule for pk in (h, a)))
    cards, index = teams(ids)
    groups = dict(SeasonTeam.objects.filter(season=season).values_list("team_id", "conference"))
    return Plan(
        game=season.game,
        kind=Kind.SEASON,
        teams=cards,
        team_ids=tuple(ids),
        rules=rules,
        repetitions=repetitions,
        seed=seed,
        games=tuple((index[h], index[a], n) for h, a, n in schedule),
        conferences=tuple(groups.get(pk, "") for pk in ids),
    )


MAX_GAMES = 10**9
"""A run's most games: some four days of the field's on this project's two workers (a
research reviewer's --times 10**12 built its list of chunks until memory ran out)."""
MAX_CHUNKS = 100_000
"""A run's most chunks (they are listed in its row): a bigger run takes a bigger --chunk."""


def research_run_create(
    *, plan: Plan, label: str, games_per_chunk: int = GAMES_PER_CHUNK
) -> ResearchRun:
    """Store a new run of ``plan``, cut into chunks of about ``games_per_chunk`` games;
    refused (:class:`PlanError`) past :data:`MAX_GAMES` games or :data:`MAX_CHUNKS`
    chunks."""
    if plan.total_games > MAX_GAMES:
        raise PlanError(
            f"{plan.repetitions:,} times {plan.games_per_repetition:,} games is "
            f"{plan.total_games:,}: a run plays at most {MAX_GAMES:,} games"
        )
    per = max(1, games_per_chunk // plan.games_per_repetition)
    count = -(-plan.repetitions // per)
    if count > MAX_CHUNKS:
        raise PlanError(
            f"{plan.total_games:,} games in chunks of {per * plan.games_per_repetition:,} "
            f"make {count:,} chunks: a run has at most {MAX_CHUNKS:,}; give a larger --chunk"
        )
    return ResearchRun.objects.create(
        label=label[:200],
        kind=str(plan.kind),
        plan=plan.to_json(),
        repetitions=plan.repetitions,
        total_games=plan.total_games,
        chunks=[list(c) for c in plan.chunks(games_per_chunk)],
    )


def research_start(
    *,
    season: Season | None = None,
    pairs: Sequence[tuple[Team, Team]] = (),
    repetitions: int,
    rules: GameRules,
    neutral: bool = True,
    seed: int | None = None,
    games_per_chunk: int = GAMES_PER_CHUNK,
    game: str = DEFAULT_GAME,
    options: Mapping[str, Any] | None = None,
) -> ResearchRun:
    """Make a run of ``season`` (its game, rules and courts) or of ``pairs`` (VABG's
    ``rules`` and ``neutral``, or another ``game``'s rule ``options``)."""
    if games_per_chunk < 1:
        raise PlanError(f"a chunk plays at least one game, not {games_per_chunk}")
    if repetitions > MAX_GAMES:  # before a plan is made of it (a trillion: gigabytes)
        raise PlanError(f"--times {repetitions:,}: a run plays at most {MAX_GAMES:,} games")
    if season is not None:
        plan = plan_for_season(season=season, repetitions=repetitions, seed=seed)
        label = f"{season} x{repetitions}"
    else:
        plan = plan_for_matchups(
            pairs=pairs, repetitions=repetitions, rules=rules, neutral=neutral, seed=seed,
            game=game, options=options,
        )  # fmt: skip
        label = "; ".join(f"{h} v {a}" for h, a in pairs) + f" x{repetitions}"
        if game != DEFAULT_GAME:
            label += f" ({league_game(game).label})"
    return research_run_create(plan=plan, label=label, games_per_chunk=games_per_chunk)


def research_out_keep(run: ResearchRun, out: Path) -> None:
    """Keep the folder a run's command named (``--out``, as an absolute path) beside its
    plan, where a later ``--resume`` without ``--out`` finds it (workers read no more than
    the plan's own keys)."""
    run.plan = {**run.plan, "out": str(out.resolve())}
    ResearchRun.objects.filter(pk=run.pk).update(plan=run.plan)


def run_record(run: ResearchRun) -> dict[str, object]:
    """Return what a run's folder says of it (``run.json``): which run it is (``id`` and
    ``created_at``, what the folder is checked against) and all it was made with, so the
    figures can be read, and played again, without the database: the first seed (game k
    of the run, from 0, is played with ``game_seed(seed, k)``), the repetitions, the rules, the
    courts and the teams by id and name."""
    plan = _plan(run)
    record: dict[str, object] = {
        "id": run.pk,
        "label": str(run),
        "created_at": run.created_at.isoformat(),
        "game": plan.game,
        "kind": str(plan.kind),
        "seed": plan.seed,
        "seed_str": str(plan.seed),  # past 2**53 a JSON reader may round the number
        "seeds": (
            "game k of the run, from 0, is played with seed game_seed(seed, k) of "
            "league/research.py"
            if plan.seeding == SEEDING
            else "game k of the run, from 0, is played with seed + k"
        ),
        "repetitions": plan.repetitions,
        "games_per_repetition": plan.games_per_repetition,
        "total_games": plan.total_games,
        "rules": plan.rules.to_json(),
        "teams": [{"id": pk, "name": plan.label(i)} for i, pk in enumerate(plan.team_ids)],
    }
    if plan.bracket is not None:
        record["neutral"] = plan.neutral
    else:
        record["games"] = [
            {"home": plan.team_ids[h], "away": plan.team_ids[a], "neutral": n}
            for h, a, n in plan.games
        ]
    return record


_PLANS: dict[str, Plan] = {}


def _run_key(run: ResearchRun) -> str:
    """Name a run for this process's caches: its id and when it was made (an id alone may
    come back, in a restored or a test database)."""
    return f"{run.pk}@{run.created_at.isoformat()}"


def _plan(run: ResearchRun) -> Plan:
    """Return the run's plan, read once per process (a worker plays many of its chunks)."""
    key = _run_key(run)
    got = _PLANS.get(key)
    if got is None:
        _PLANS.clear()
        got = _PLANS[key] = Plan.from_json(run.plan)
    return got


def research_chunk_play(*, run_id: int, index: int) -> bool:
    """Play chunk ``index`` of run ``run_id`` and store its tally once; return whether this
    call stored it (False: it was already stored, by this worker or another)."""
    if ResearchChunk.objects.filter(run_id=run_id, index=index).exists():
        return False
    held = _held_key(run_id, index)
    if not background.ask_once(held, CHUNK_HOLD_SECONDS):
        return False  # another worker is playing it now (a copy sent while it was slow)
    try:
        run = ResearchRun.objects.get(pk=run_id)
        first, stop = run.chunks[index]
        plan = _plan(run)
        renewed = [time.monotonic()]

        def renew() -> None:  # the hold outlives the worker by at most CHUNK_HOLD_SECONDS
            if time.monotonic() - renewed[0] >= CHUNK_HOLD_SECONDS / 4:
                cache.set(held, socket.gethostname(), CHUNK_HOLD_SECONDS)
                renewed[0] = time.monotonic()

        tally = play_chunk(
            plan, first, stop, player=player_for(_run_key(run), plan), after_each=renew
        )
        try:
            with transaction.atomic():
                ResearchChunk.objects.create(
                    run=run,
                    index=index,
                    games=tally.games,
                    tally=tally.to_json(),
                    played_by=socket.gethostname()[:200],
                )
        except IntegrityError:
            return False  # another delivery of the same chunk stored it first: the same tally
        return True
    finally:
        cache.delete(held)


CHUNK_HOLD_SECONDS = 40
"""How long a worker's hold on a chunk it plays lasts unless renewed; it renews it every
quarter of that, after a repetition, as it plays. A worker that died with a chunk holds it
at most this long: the next stall of the follow after that sends it again."""


def _held_key(run_id: int, index: int) -> str:
    return f"league.research.held.{run_id}.{index}"


def research_chunk_held(run_id: int, index: int) -> bool:
    """Tell whether a worker is playing chunk ``index`` of run ``run_id`` now (its hold, in
    the cache every process shares)."""
    return cache.get(_held_key(run_id, index)) is not None


def research_missing(run: ResearchRun) -> list[int]:
    """Return the indexes of the run's chunks not stored yet."""
    stored = set(ResearchChunk.objects.filter(run=run).values_list("index", flat=True))
    return [i for i in range(len(run.chunks)) if i not in stored]


def research_tally(run: ResearchRun) -> Tally:
    """Return the sum of the run's stored chunks."""
    total = Tally()
    for data in ResearchChunk.objects.filter(run=run).values_list("tally", flat=True).iterator():
        total.add(Tally.from_json(data))
    return total


GIVE_UP = 3
"""Stalls in a row (nothing stored, the missing chunks sent again) before a follow gives up."""


@dataclass(frozen=True)
class Followed:
    """How following a run ended: every chunk stored, or a stall with chunks missing."""

    done: bool
    missing: int
    seconds: float
    played: int = 0
    """Games stored while it was followed (none when a finished run is resumed)."""


def research_follow(
    run: ResearchRun,
    *,
    send: Callable[[int, int], None] | None,
    progress: Callable[[int], object],
    stall: float = 30.0,
    poll: float = 0.5,
) -> Followed:
    """Play or follow ``run`` until every chunk is stored.

    With ``send`` (a broker), each missing chunk is sent to the workers and this waits,
    reporting games stored to ``progress``. Whenever nothing has been stored for ``stall``
    seconds, the missing chunks no worker holds (a worker died with one, a message was
    lost) are sent again: a chunk is played by one worker at a time and stored once. While
    workers hold some chunks the run is slow, not stalled; after ``GIVE_UP`` stalls in a row
    with none held this gives up; the run can be resumed. Without ``send``, the chunks are
    played here.
    """
    start, first = time.monotonic(), research_stored_games(run)
    if send is None:
        for index in research_missing(run):
            research_chunk_play(run_id=run.pk, index=index)
            progress(research_stored_games(run))
        return _finish(run, start, first)
    for index in research_missing(run):
        send(run.pk, index)
    stored, moved, stalls = research_stored_games(run), time.monotonic(), 0
    progress(stored)
    while stored < run.total_games:
        time.sleep(poll)
        now_stored = research_stored_games(run)
        if now_stored != stored:
            stored, moved, stalls = now_stored, time.monotonic(), 0
            progress(stored)
        elif time.monotonic() - moved > stall:
            missing = research_missing(run)
            free = [i for i in missing if not research_chunk_held(run.pk, i)]
            if len(free) < len(missing):
                stalls = 0  # workers are playing some: slow chunks, not a stall
            else:
                stalls += 1
                if stalls >= GIVE_UP:
                    return Followed(False, len(missing), time.monotonic() - start, stored - first)
            for index in free:  # a copy of a chunk a worker holds would only wait for it
                send(run.pk, index)
            moved = time.monotonic()
    return _finish(run, start, first)


def research_stored_games(run: ResearchRun) -> int:
    """Return how many of the run's games its stored chunks hold."""
    total = ResearchChunk.objects.filter(run=run).aggregate(n=Sum("games"))["n"]
    return int(total or 0)


def _finish(run: ResearchRun, start: float, first: int) -> Followed:
    missing = len(research_missing(run))
    if not missing:
        ResearchRun.objects.filter(pk=run.pk, finished_at=None).update(finished_at=timezone.now())
    played = research_stored_games(run) - first
    return Followed(not missing, missing, time.monotonic() - start, played)
