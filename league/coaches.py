"""The coach of each pair the league plays, solved once (docs/engine.md, "The coach").

With the strategy choices on, the exact coach of a game is solved from both teams' cards,
the rules and the court (``simulator.vabg.coachodds.solve_coach``, 20-40 ms: most of what
a stored game costs); a season, a replay, a chart or a research run meets the same pair
again, so the coaches are kept twice over, keyed by exactly what they are solved from: in
a bounded least-recently-used map per process, and in the database (``SolvedCoach``) for
every process, a new worker's and the next run's. The key holds the simulator's source
digest besides the cards, rules and court: a card edited since, or another engine, is a
different key, solved again, never a stale coach. A coach solved inside a transaction is
stored once that transaction commits (one statement of its own, which never waits on
another game's transaction), and not at all if it rolls back.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import connection, transaction

from league.digests import document_digest, document_packed, document_unpacked
from league.models import SolvedCoach
from simulator import native
from simulator.vabg import GameRules, TeamCard
from simulator.vabg.coaching import Coach, ExactCoach, NumberCalls, Spans, Step
from simulator.vabg.engine import rules_coach
from simulator.vabg.rules import CoachKind

COACHES_KEPT = 256
"""Coaches kept per process (a few kilobytes each)."""

_COACHES: OrderedDict[str, Coach] = OrderedDict()
_LOCK = threading.Lock()


def coach_key(
    *,
    home: TeamCard,
    away: TeamCard,
    rules: GameRules,
    neutral: bool,
    digests: tuple[str, str] | None = None,
) -> str:
    """Return the key a coach is kept under: a SHA-256 of both cards' digests
    (``league.digests.document_digest`` of their team files; ``digests`` when the caller
    has them already), the rules and court."""
    if digests is None:
        digests = (document_digest(home.to_json()), document_digest(away.to_json()))
    doc = [*digests, rules.to_json(), neutral, _engine()]
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


@functools.cache
def _engine() -> str:
    """The simulator's source digest (``simulator.native.source_digest``), read once."""
    return native.source_digest()


COACH_DOC_VERSION = 1


def _spans(spans: Spans) -> list[list[int]]:
    return [[r.start, r.stop] for r in spans]


def _ranges(doc: list[list[int]]) -> Spans:
    return tuple(range(start, stop) for start, stop in doc)


def coach_doc(coach: ExactCoach) -> dict[str, Any]:
    """Return ``coach`` as JSON: for each period's numbers, each choice's margins as
    [start, stop) spans (about 4 KB)."""
    return {
        "version": COACH_DOC_VERSION,
        "reach": coach.reach,
        "periods": [
            [
                [_spans(c.foul), [_spans(t) for t in c.try3], _spans(c.home_extra),
                 _spans(c.away_extra)]
                for c in period
            ]
            for period in coach.periods
        ],
    }  # fmt: skip


def coach_from_doc(doc: dict[str, Any]) -> ExactCoach:
    """Return the coach :func:`coach_doc` wrote (``ValueError`` for a document it did not)."""
    if doc.get("version") != COACH_DOC_VERSION:
        raise ValueError(f"a stored coach of version {doc.get('version')!r}")
    try:
        periods = tuple(
            tuple(
                NumberCalls(
                    foul=_ranges(foul),
                    try3=tuple(_ranges(t) for t in try3),
                    home_extra=_ranges(home_extra),
                    away_extra=_ranges(away_extra),
                )
                for foul, try3, home_extra, away_extra in period
            )
            for period in doc["periods"]
        )
        reach = int(doc["reach"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"a stored coach that does not read: {exc}") from exc
    if any(len(c.try3) != len(Step) for period in periods for c in period):
        raise ValueError("a stored coach whose tries for 3 are not one a step")
    return ExactCoach(periods=periods, reach=reach)


def _read(packed: bytes | memoryview) -> ExactCoach | None:
    """The coach of a stored document, or None for one that no longer reads (solved again
    and stored over it)."""
    try:
        return coach_from_doc(document_unpacked(packed))
    except ValueError:
        return None


def _stored(key: str) -> ExactCoach | None:
    """The coach stored under ``key``, or None (none, or one that no longer reads)."""
    packed = SolvedCoach.objects.filter(pk=key).values_list("doc", flat=True).first()
    return None if packed is None else _read(packed)


def _store(coaches: Mapping[str, ExactCoach]) -> None:
    """Store ``coaches`` (by key) once the current transaction commits (at once with
    none): one statement of their own, so a chunk of games never waits on another's."""
    rows = [SolvedCoach(key=k, doc=document_packed(coach_doc(c))) for k, c in coaches.items()]
    if not rows:
        return

    def write() -> None:
        SolvedCoach.objects.bulk_create(rows, update_conflicts=True, update_fields=["doc"],
                                        unique_fields=["key"], batch_size=500)  # fmt: skip

    if connection.in_atomic_block:
        transaction.on_commit(write)
    else:
        write()


def _kept(key: str, coach: Coach) -> None:
    """Keep ``coach`` in this process's map, the least recently used one out past
    :data:`COACHES_KEPT`."""
    with _LOCK:
        _COACHES[key] = coach
        _COACHES.move_to_end(key)
        while len(_COACHES) > COACHES_KEPT:
            _COACHES.popitem(last=False)


def coaches_found(keys: Iterable[str]) -> dict[str, ExactCoach]:
    """Return the exact coaches kept by this process or stored under ``keys`` (one query
    for those not kept), by key; a key with none is left out."""
    keys = list(dict.fromkeys(keys))
    found: dict[str, ExactCoach] = {}
    with _LOCK:
        for key in keys:
            coach = _COACHES.get(key)
            if isinstance(coach, ExactCoach):
                found[key] = coach
    todo = [k for k in keys if k not in found]
    for start in range(0, len(todo), 500):
        rows = SolvedCoach.objects.filter(pk__in=todo[start : start + 500])
        for key, packed in rows.values_list("key", "doc"):
            coach = _read(packed)
            if coach is not None:
                found[key] = coach
    return found


def coaches_solved(coaches: Mapping[str, ExactCoach]) -> None:
    """Store coaches solved elsewhere (a table of odds solves each pair's: ``coachodds.
    coach_and_odds``), by :func:`coach_key`, as :func:`coach_for` stores its own."""
    _store(coaches)


def coach_for(
    *,
    home: TeamCard,
    away: TeamCard,
    rules: GameRules,
    neutral: bool,
    digests: tuple[str, str] | None = None,
) -> Coach:
    """Return the coach the rules name for this game (``engine.rules_coach``), solved once
    for these cards, rules and court, kept by this process and stored for every other
    (``digests``: see :func:`coach_key`)."""
    if not rules.strategy or rules.coach != CoachKind.EXACT:
        return rules_coach(home, away, rules=rules, neutral=neutral)  # nothing to solve
    key = coach_key(home=home, away=away, rules=rules, neutral=neutral, digests=digests)
    with _LOCK:
        coach = _COACHES.get(key)
        if coach is not None:
            _COACHES.move_to_end(key)
            return coach
    # Read and solved outside the lock: two threads may both solve a new pair, to the
    # same coach.
    coach = _stored(key)
    if coach is None:
        coach = rules_coach(home, away, rules=rules, neutral=neutral)
        if isinstance(coach, ExactCoach):
            _store({key: coach})
    _kept(key, coach)
    return coach


def clear(*, stored: bool = False) -> None:
    """Forget every coach this process keeps (as a new worker starts), and with ``stored``
    every stored one too (a benchmark's cold start: pairs never met before)."""
    with _LOCK:
        _COACHES.clear()
    if stored:
        SolvedCoach.objects.all().delete()
