"""The coach of each pair the league plays, solved once per process (docs/engine.md, "The coach").

With the strategy choices on, the exact coach of a game is solved from both teams' cards,
the rules and the court (``simulator.vabg.coachodds.solve_coach``, a few milliseconds);
a season or a research run plays the same pair many times, so the coaches are kept in a
bounded least-recently-used map keyed by exactly what they are solved from. A card edited
since is a different key: its games get a coach solved for the new card.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict

from league.digests import document_digest
from simulator.vabg import GameRules, TeamCard
from simulator.vabg.coaching import Coach
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
    doc = [*digests, rules.to_json(), neutral]
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def coach_for(
    *,
    home: TeamCard,
    away: TeamCard,
    rules: GameRules,
    neutral: bool,
    digests: tuple[str, str] | None = None,
) -> Coach:
    """Return the coach the rules name for this game (``engine.rules_coach``), solved once
    per process for these cards, rules and court (``digests``: see :func:`coach_key`)."""
    if not rules.strategy or rules.coach != CoachKind.EXACT:
        return rules_coach(home, away, rules=rules, neutral=neutral)  # nothing to solve
    key = coach_key(home=home, away=away, rules=rules, neutral=neutral, digests=digests)
    with _LOCK:
        coach = _COACHES.get(key)
        if coach is not None:
            _COACHES.move_to_end(key)
            return coach
    # Solved outside the lock: two threads may both solve a new pair, to the same coach.
    coach = rules_coach(home, away, rules=rules, neutral=neutral)
    with _LOCK:
        _COACHES[key] = coach
        _COACHES.move_to_end(key)
        while len(_COACHES) > COACHES_KEPT:
            _COACHES.popitem(last=False)
    return coach


def clear() -> None:
    """Forget every coach kept (a benchmark's cold start, as in a new worker)."""
    with _LOCK:
        _COACHES.clear()
