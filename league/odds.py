"""The league's exact odds: the pairwise table, previews, win-probability charts, bracket
odds, what-ifs and season odds (issue 13, docs/odds.md "In the league").

Everything here reads the engine's exact odds (``simulator.vabg.odds``,
``simulator.vabg.liveodds``); nothing samples a game. The pairwise table of a field is
stored in :class:`~league.models.PairOdds`, keyed by the rules preset and version, the
court, and each team's *card version*: the SHA-256 of the team's engine document
(``team_card(team).to_json()``), so editing one card changes one team's version and only
the pairs involving that team stop matching. Versions are kept in the process under a
fingerprint of the team's stored rows (:func:`card_versions`), so reading the table builds
no card. Tables are built in the background (``league.tasks.odds_pair_table``: workers, or
the web process's lanes) and pages that lack a pair wait for it; only with no background (a
command, a test) are a few missing pairs computed on demand (with the engine's
``field_odds``).

The engine's odds are solved with the coach policy off (its late fouls and tries for 3
read the score). A season played with the policy on gets the odds of the same game
without it, and says so (``coach_policy_note``).

Bracket odds are an exact dynamic program over the bracket from the stored results (so
they move the moment a game is stored: nothing is kept but the pair table). Reseeded
rounds couple the branches of a bracket (who meets whom depends on every survivor), so
there the program runs over the *set* of survivors; when that set has too many possible
values (more than ``STATE_LIMIT`` transitions in a round, e.g. a reseeded field of 32),
the odds are sampled from the exact pair table instead (``SAMPLED_BRACKETS`` seeded
brackets) and marked ``"method": "sampled"`` with their standard error.
"""

from __future__ import annotations

import contextvars
import hashlib
import itertools
import json
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, F, JSONField, Q, Sum, TextField
from django.db.models.functions import Cast
from django.dispatch import Signal

from cards.mapping import team_card, teams_for_play
from cards.models import Card, Player, Team
from core.text import wait_words
from league import background, other_odds, season_sampling, selectors
from league import bracket as brackets
from league.coaches import coach_for, coach_key, coaches_found, coaches_solved
from league.errors import OddsUnavailable as OddsUnavailable
from league.errors import PairingsPending, retry_after
from league.errors import WhatIfRefused as WhatIfRefused
from league.models import Game, GameChart, GameResult, PairOdds, Season, SeasonTeam
from league.presentation import current_names, renamed_events
from league.selectors import standings_order
from league.signals import season_odds_ready
from league.tournaments import round_name, season_bracket
from league.whatif import whatif_winners as whatif_winners
from simulator.games import DEFAULT_GAME
from simulator.vabg import (
    RULES_VERSION,
    GameRules,
    InvalidCardError,
    RulesVersionError,
    TeamCard,
    preset,
    team_from_json,
)
from simulator.vabg.coaching import ExactCoach
from simulator.vabg.coachodds import (
    CoachLiveOdds,
    coach_and_odds,
    coach_odds,
    exact_field_odds,
    exact_odds,
)
from simulator.vabg.events import FreeThrow, PeriodEnd, Shot, Steal, Trip, event_from_json
from simulator.vabg.liveodds import LiveOdds
from simulator.vabg.odds import GameOdds
from simulator.vabg.render import describe
from simulator.vabg.rules import CoachKind

ON_DEMAND_PAIRS = 120
"""With nothing in the background (a command, a test, ``LEAGUE_IN_PROCESS_WORKER=false``),
a page computes at most this many missing pairs itself (about 0.5 s); more raise
:class:`OddsPending`. With workers or the web process's lanes a page computes none: they go
to the background and the page says how far they are."""
ON_DEMAND_COACHED_PAIRS = 25
"""The same with the coach policy on, each pair solved on its own with its exact coach
(about 10-20 ms a pair)."""
STORE_EVERY = 128
"""A table build with the coach policy stores its pairs this many at a time, a second or
two of coached pairs on a quiet host, so a task stopped by its time limit keeps all but the
last few seconds of its work."""
FIELD_STORE_EVERY = 1024
"""The same without the policy: the field solver walks each team of a call once, so a call
of 128 pairs (some 50 teams walked for them) took four times as long a pair as one of 2,000
(the 96 field: 4.3 s against 1.0 s for 2,000 pairs on a slow host); 1,024 pairs are a second
or two there."""
PRUNE_BATCH = 500
"""A table's stale rows deleted a statement (a bound on the statement's variables)."""
STATE_LIMIT = 200_000
"""Reseeded brackets: transitions per round beyond which the odds are sampled."""
SAMPLED_BRACKETS = 20_000
"""Brackets sampled when the exact program over survivor sets is too large."""
SWINGS = 5
BUILD_LOCK_SECONDS = 120
"""A season's table is sent to the workers at most once in this long."""

game_law_wanted = Signal()
"""Sent (``sender=Game``, ``game_id``) for the whole law of a scheduled game whose page is
waiting for it (:func:`game_law_build`); ``league.tasks`` sends it to the background."""
GAME_LAW_ASKED_SECONDS = 120
"""A game's law sent to the background is not sent again for this long (its page reloads
every few seconds while it waits; a lost worker's is sent again after it)."""

pair_law_wanted = Signal()
"""Sent (``sender=PairOdds``, ``home_id``, ``away_id``, ``rules``, ``neutral``,
``strategy``) for the whole law of two teams a fan picked on the matchup page
(:func:`pair_law_build`); ``league.tasks`` sends it to the background."""

pairs_wanted = Signal()
"""Sent (``sender=PairOdds``, ``season_id``, ``home_ids``) for rows of a season's table to
build (only the pairs its pages can ask for: :func:`season_pairs`); ``league.tasks``
receives it and sends the work to the workers (or, with no broker, to the web process's
odds lane)."""
"""Plays marked on a win-probability chart: the trips that moved it most."""

COACH_POLICY_NOTE = (
    "With the coach policy: late intentional fouls, tries for 3 and fast-break extra "
    "possessions, each made by the trailing team where it raises its chance of winning; "
    "solved exactly over the margin."
)


NO_WORKER_NOTE = (
    "These are the exact odds of the game without the coach policy: with the policy, this "
    "field's odds are computed by the workers, and none is running (docs/odds.md)."
)
EAGER_COACHED_PAIRS = 250
"""With no background at all (Celery eager outside a web process: a command, a test), a
request computes a coached table this far from built (about 5 s at 20 ms a pair); more,
and the page shows the odds without the policy instead."""
_POLICY_OFF: contextvars.ContextVar[bool] = contextvars.ContextVar("policy_off", default=False)


def on_demand_limit(strategy: bool) -> int:
    """Return how many missing pairs a request computes itself: none when the background
    (workers, or the web process's lanes) can build them, else a moment's work."""
    if background.available():
        return 0
    return ON_DEMAND_COACHED_PAIRS if strategy else ON_DEMAND_PAIRS


def season_policy(season: Season) -> bool:
    """Return whether a season's odds are solved with the coach policy (its own rule, unless
    a page fell back to the game without it: :func:`with_table`)."""
    return season.strategy and not _POLICY_OFF.get()


def _policy_note(season: Season) -> str:
    if season_policy(season):
        return COACH_POLICY_NOTE
    return NO_WORKER_NOTE if season.strategy else ""


class OddsPending(Exception):
    """Raise when too many pairs are missing to compute them in a request.

    ``missing`` lists the teams whose rows to build (home ids); the caller sends them to
    the workers and shows how far the table is.
    """

    def __init__(self, *, ready: int, needed: int, home_ids: Sequence[int]) -> None:
        super().__init__(f"{needed - ready} of {needed} pairs are still being computed")
        self.ready = ready
        self.needed = needed
        self.home_ids = list(home_ids)


# -- card versions and rules -----------------------------------------------------------------


def card_version(card: TeamCard) -> str:
    """Return a team's card version: the SHA-256 of its engine team document."""
    doc = json.dumps(card.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(doc.encode()).hexdigest()


def odds_rules(rules: str, strategy: bool = False) -> GameRules:
    """Return the rules the odds are solved for: the preset, the coach policy on or off."""
    return preset(rules, strategy=strategy)


class Entry:
    """A team as the odds see it: its id, card version and engine card.

    The card is built only when something reads it (a pair to compute, a preview): the
    version alone is enough to read the pair table (:func:`card_versions`).
    """

    __slots__ = ("_card", "team_id", "version")

    def __init__(self, team_id: int, card: TeamCard | None, version: str) -> None:
        self.team_id = team_id
        self.version = version
        self._card = card

    @property
    def card(self) -> TeamCard:
        if self._card is None:
            team = teams_for_play().filter(pk=self.team_id).first()
            if team is None:
                raise OddsUnavailable(f"team {self.team_id} does not exist")
            self._built(team)
        assert self._card is not None
        return self._card

    def _built(self, team: Team) -> None:
        """Build the card; its version is the card's own (an edit since the version was
        read must not store a pair under the old version)."""
        try:
            card = team_card(team)
        except InvalidCardError as exc:
            raise OddsUnavailable(f"{team}: {exc}") from exc
        self._card = card
        self.version = card_version(card)

    @property
    def label(self) -> str:
        return self.card.label

    def __repr__(self) -> str:
        return f"Entry({self.team_id}, {self.version[:12]})"


_VERSIONS: dict[str, str] = {}
"""Card versions by fingerprint (:func:`_fingerprints`), so a request that only reads the
pair table does not build the field's cards."""
_VERSIONS_KEPT = 20_000


def _fingerprints(team_ids: Sequence[int]) -> dict[int, str]:
    """Return, per team, a fingerprint of every stored column :func:`team_card` can read (the
    team's row, its players' and their cards'), read in three queries without building
    anything. Any edit, by any path, changes it."""
    rows: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for model, team in ((Team, "pk"), (Player, "team_id"), (Card, "team_id")):
        # JSON columns are read as their stored text: nothing is decoded.
        columns = [
            Cast(f.attname, TextField()) if isinstance(f, JSONField) else f.attname
            for f in model._meta.concrete_fields
        ]
        found = model.objects.filter(**{f"{team}__in": team_ids}).order_by("pk")
        for row in found.values_list(team, *columns):
            rows[row[0]].append(row)
    # Only this process reads them (:data:`_VERSIONS`): Python's own hash of the rows is
    # enough, with the team's id beside it.
    return {team_id: f"{team_id}:{hash(tuple(team_rows))}" for team_id, team_rows in rows.items()}


def card_versions(team_ids: Iterable[int]) -> dict[int, Entry]:
    """Return the teams' entries with their card versions, building a card only when its
    stored rows changed since its version was last taken (raise :class:`OddsUnavailable`
    for a card the engine refuses)."""
    ids = sorted(set(team_ids))
    prints = _fingerprints(ids)
    out: dict[int, Entry] = {}
    unknown = [t for t in ids if t in prints and prints[t] not in _VERSIONS]
    if unknown:
        if len(_VERSIONS) > _VERSIONS_KEPT:
            _VERSIONS.clear()
        for team in teams_for_play().filter(pk__in=unknown):
            try:
                card = team_card(team)
            except InvalidCardError as exc:
                raise OddsUnavailable(f"{team}: {exc}") from exc
            version = card_version(card)
            _VERSIONS[prints[team.pk]] = version
            out[team.pk] = Entry(team.pk, card, version)
    for t in ids:
        if t in prints and t not in out:
            out[t] = Entry(t, None, _VERSIONS[prints[t]])
    return out


def load_cards(entries: Iterable[Entry]) -> None:
    """Build the cards of ``entries`` not built yet, in one query."""
    todo = {e.team_id: e for e in entries if e._card is None}
    if not todo:
        return
    for team in teams_for_play().filter(pk__in=list(todo)):
        todo[team.pk]._built(team)


def entries_for(team_ids: Iterable[int]) -> dict[int, Entry]:
    """Return the current versions of teams, their cards built when read (raise for a
    card the engine refuses)."""
    return card_versions(team_ids)


def entry_as_played(team_id: int, team_file: Mapping[str, Any]) -> Entry:
    """Return a team as a stored game played it (its team file)."""
    try:
        card = team_from_json(dict(team_file))
    except InvalidCardError as exc:
        raise OddsUnavailable(str(exc)) from exc
    return Entry(team_id, card, card_version(card))


# -- the pairwise table ----------------------------------------------------------------------


def _mirror(odds: GameOdds) -> GameOdds:
    """Return the odds with home and away exchanged (a neutral court's other order)."""
    return GameOdds(
        p_home_win=odds.p_away_win,
        p_away_win=odds.p_home_win,
        p_overtime=odds.p_overtime,
        expected_overtimes=odds.expected_overtimes,
        expected_home_pts=odds.expected_away_pts,
        expected_away_pts=odds.expected_home_pts,
        margin={-m: p for m, p in sorted(odds.margin.items(), reverse=True)},
        home_score=dict(odds.away_score),
        away_score=dict(odds.home_score),
        lost=odds.lost,
    )


def _from_row(row: PairOdds) -> GameOdds:
    if row.laws:
        laws = row.laws
        return GameOdds(
            p_home_win=laws["p_home_win"],
            p_away_win=laws["p_away_win"],
            p_overtime=laws["p_overtime"],
            expected_overtimes=laws["expected_overtimes"],
            expected_home_pts=laws["expected_home_pts"],
            expected_away_pts=laws["expected_away_pts"],
            margin={int(m): p for m, p in laws["margin"].items()},
            home_score={int(s): p for s, p in laws["home_score"].items()},
            away_score={int(s): p for s, p in laws["away_score"].items()},
        )
    margin = {int(m): p for m, p in row.margin.items()}
    return GameOdds(
        p_home_win=row.p_home_win,
        p_away_win=sum(p for m, p in margin.items() if m < 0),
        p_overtime=row.p_overtime,
        expected_overtimes=row.expected_overtimes,
        expected_home_pts=row.expected_home_pts,
        expected_away_pts=row.expected_away_pts,
        margin=margin,
    )


def _solved(
    solve: Callable[..., GameOdds], home: TeamCard, away: TeamCard, **options: Any
) -> GameOdds:
    """Return the engine's odds, or raise :class:`OddsUnavailable` for cards it refuses
    (a game that cannot end)."""
    try:
        return solve(home, away, **options)
    except InvalidCardError as exc:
        raise OddsUnavailable(f"{home.label} v {away.label}: {exc}") from exc


class PairTable:
    """The pairwise odds of a set of teams for one rules preset, court and coach policy.

    Pairs are read from :class:`PairOdds` rows whose card versions match the teams'
    current ones, computed (and stored) when missing. On a neutral court without the coach
    policy a pair is stored once, the lower id as home, and read back mirrored for the other
    order; with the policy both orders are stored (the visitor has the ball first in every
    number, and the policy reads who leads).
    """

    def __init__(
        self, entries: Mapping[int, Entry], *, rules: str, neutral: bool, strategy: bool = False
    ) -> None:
        self.entries = dict(entries)
        self.rules = rules
        self.neutral = neutral
        self.strategy = strategy
        self.mirrored = neutral and not strategy
        self.game_rules = odds_rules(rules, strategy)
        self._p: dict[tuple[int, int], float] = {}
        self._loaded = False

    @classmethod
    def for_teams(
        cls, team_ids: Iterable[int], *, rules: str, neutral: bool, strategy: bool = False
    ) -> PairTable:
        return cls(entries_for(team_ids), rules=rules, neutral=neutral, strategy=strategy)

    def stored_key(self, home: int, away: int) -> tuple[int, int, bool]:
        """Return (stored home, stored away, mirrored) for an ordered pair."""
        if self.mirrored and home > away:
            return away, home, True
        return home, away, False

    def _rows(self) -> Any:
        return PairOdds.objects.filter(
            rules=self.rules,
            rules_version=RULES_VERSION,
            neutral=self.neutral,
            strategy=self.strategy,
        )

    def _current(self, row: Any) -> bool:
        home, away = self.entries.get(row[0]), self.entries.get(row[1])
        return (
            home is not None
            and away is not None
            and home.version == row[2]
            and away.version == row[3]
        )

    def load(self) -> None:
        """Read every stored P(home wins) of the teams whose versions are current."""
        ids = list(self.entries)
        for row in (
            self._rows()
            .filter(home_id__in=ids, away_id__in=ids)
            .values_list("home_id", "away_id", "home_version", "away_version", "p_home_win")
        ):
            if self._current(row):
                self._p[(row[0], row[1])] = row[4]
        self._loaded = True

    def has(self, home: int, away: int) -> bool:
        if not self._loaded:
            self.load()
        h, a, _ = self.stored_key(home, away)
        return (h, a) in self._p

    def all_pairs(self) -> list[tuple[int, int]]:
        """Return every pair the table holds: ordered pairs, or unordered on neutral courts
        without the coach policy."""
        ids = sorted(self.entries)
        if self.mirrored:
            return list(itertools.combinations(ids, 2))
        return list(itertools.permutations(ids, 2))

    def missing(self, pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        """Return the stored keys of the pairs not computed yet."""
        if not self._loaded:
            self.load()
        keys = {self.stored_key(h, a)[:2] for h, a in pairs}
        return sorted(k for k in keys if k not in self._p)

    def compute(self, pairs: Iterable[tuple[int, int]]) -> int:
        """Compute and store the missing ones of ``pairs``, ``STORE_EVERY`` at a time
        (``FIELD_STORE_EVERY`` without the coach policy): a task stopped by its time limit
        on a slow host keeps what it solved, and the next one goes on from there. Return
        how many were computed."""
        todo = self.missing(pairs)
        computed = 0
        every = STORE_EVERY if self.game_rules.strategy else FIELD_STORE_EVERY
        for start in range(0, len(todo), every):
            rows = []
            for (home, away), odds in self._solve(todo[start : start + every]).items():
                rows.append(self._row(home, away, odds))
                self._p[(home, away)] = odds.p_home_win
            PairOdds.objects.bulk_create(rows, ignore_conflicts=True, batch_size=500)
            computed += len(rows)
        return computed

    def _solve(self, todo: Sequence[tuple[int, int]]) -> dict[tuple[int, int], GameOdds]:
        """Return the odds of the stored keys ``todo``: the engine's field solver for many
        pairs at once (docs/odds.md, "Speed"); one pair at a time when a card is refused,
        so the error names the pair. With the exact coach, each pair's coach is kept for its
        games (:meth:`_solve_coached`)."""
        if self.game_rules.strategy and self.game_rules.coach == CoachKind.EXACT:
            return self._solve_coached(todo)
        if len(todo) > 1:
            ids = sorted({t for pair in todo for t in pair})
            at = {t: i for i, t in enumerate(ids)}
            load_cards(self.entries[t] for t in ids)
            try:
                solved = exact_field_odds(
                    [self.entries[t].card for t in ids],
                    [(at[h], at[a]) for h, a in todo],
                    rules=self.game_rules,
                    neutral=self.neutral,
                )
            except InvalidCardError:
                pass
            else:
                return {(ids[h], ids[a]): odds for (h, a), odds in solved.items()}
        return {
            (home, away): _solved(
                exact_odds,
                self.entries[home].card,
                self.entries[away].card,
                rules=self.game_rules,
                neutral=self.neutral,
                scores=False,
            )
            for home, away in todo
        }

    def _solve_coached(self, todo: Sequence[tuple[int, int]]) -> dict[tuple[int, int], GameOdds]:
        """Return the odds of the stored keys ``todo`` with the exact coach, each pair on
        its own: a pair whose coach is stored (its games met it first) is walked with it,
        about half the cost; the others are solved, and their coaches stored for the games
        the table is built for (``league.coaches``: the same key as a game's)."""
        load_cards(self.entries[t] for pair in todo for t in pair)
        keys = {
            (h, a): coach_key(
                home=self.entries[h].card,
                away=self.entries[a].card,
                rules=self.game_rules,
                neutral=self.neutral,
                digests=(self.entries[h].version, self.entries[a].version),
            )
            for h, a in todo
        }
        stored = coaches_found(keys.values())
        solved: dict[str, ExactCoach] = {}
        out: dict[tuple[int, int], GameOdds] = {}
        for (h, a), key in keys.items():
            home, away = self.entries[h].card, self.entries[a].card
            options: dict[str, Any] = {"rules": self.game_rules, "neutral": self.neutral}
            coach = stored.get(key)
            if coach is not None:
                out[(h, a)] = _solved(coach_odds, home, away, coach=coach, scores=False, **options)
                continue
            try:
                solved[key], out[(h, a)] = coach_and_odds(home, away, scores=False, **options)
            except InvalidCardError as exc:
                raise OddsUnavailable(f"{home.label} v {away.label}: {exc}") from exc
        coaches_solved(solved)
        return out

    def ensure(self, pairs: Iterable[tuple[int, int]], *, limit: int | None = None) -> None:
        """Make sure ``pairs`` are in the table: compute them here when at most ``limit``
        are missing, else raise :class:`OddsPending` naming the home teams to build. By
        default nothing is computed here when a background can build them (a page never
        solves odds while its reader waits), else up to ``ON_DEMAND_PAIRS``."""
        pairs = list(pairs)
        todo = self.missing(pairs)
        if limit is None:
            limit = on_demand_limit(self.strategy)
        if len(todo) > limit:
            needed = len({self.stored_key(h, a)[:2] for h, a in pairs})
            raise OddsPending(
                ready=needed - len(todo),
                needed=needed,
                home_ids=sorted({h for h, _ in todo}),
            )
        self.compute(todo)

    def _row(self, home: int, away: int, odds: GameOdds, *, laws: bool = False) -> PairOdds:
        return PairOdds(
            rules=self.rules,
            rules_version=RULES_VERSION,
            neutral=self.neutral,
            strategy=self.strategy,
            home_id=home,
            away_id=away,
            home_version=self.entries[home].version,
            away_version=self.entries[away].version,
            p_home_win=odds.p_home_win,
            p_overtime=odds.p_overtime,
            expected_overtimes=odds.expected_overtimes,
            expected_home_pts=odds.expected_home_pts,
            expected_away_pts=odds.expected_away_pts,
            margin={str(m): p for m, p in odds.margin.items()},
            laws=odds.to_json() if laws else None,
        )

    def p(self, home: int, away: int) -> float:
        """Return P(home beats away), computing the pair if it is missing."""
        h, a, mirrored = self.stored_key(home, away)
        if not self.has(h, a):
            self.compute([(h, a)])
        p = self._p[(h, a)]
        return 1.0 - p if mirrored else p

    def matrix(self, order: Sequence[int]) -> npt.NDArray[np.float64]:
        """Return ``P[i, j]`` = P(order[i] beats order[j] at home, or on this court);
        pairs not in the table are NaN (the caller ensured the ones it reads)."""
        if not self._loaded:
            self.load()
        n = len(order)
        out = np.full((n, n), np.nan)
        at = {team: i for i, team in enumerate(order)}
        rows, cols, values = [], [], []
        for (h, a), p in self._p.items():
            i, j = at.get(h), at.get(a)
            if i is not None and j is not None:
                rows.append(i)
                cols.append(j)
                values.append(p)
        p_home = np.array(values)
        out[rows, cols] = p_home
        if self.mirrored:  # stored once, the lower id at home: the other order mirrored
            out[cols, rows] = 1.0 - p_home
        np.fill_diagonal(out, 0.5)
        return out

    def _game_rows(self, home: int, away: int) -> Any:
        h, a, _ = self.stored_key(home, away)
        eh, ea = self.entries[h], self.entries[a]
        return self._rows().filter(
            home_id=h, away_id=a, home_version=eh.version, away_version=ea.version
        )

    def law_key(self, home: int, away: int) -> str:
        """Return a key naming this game's law for these cards, preset, court and coach."""
        h, a, _ = self.stored_key(home, away)
        versions = (self.entries[h].version, self.entries[a].version)
        parts = (str(self.rules), RULES_VERSION, self.neutral, self.strategy, h, a, versions)
        return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()

    def has_law(self, home: int, away: int) -> bool:
        """Tell whether the table holds the whole law of this game (its score laws too)."""
        return bool(self._game_rows(home, away).filter(laws__isnull=False).exists())

    def game_law(self, home: int, away: int) -> GameOdds:
        """Return the whole law of a game (score laws too), from the table when it holds it."""
        h, a, mirrored = self.stored_key(home, away)
        eh, ea = self.entries[h], self.entries[a]
        row = self._game_rows(home, away).first()
        if row is not None and row.laws:
            odds = _from_row(row)
        else:
            odds = self._whole_law(eh, ea)
            if row is None:
                PairOdds.objects.bulk_create(
                    [self._row(h, a, odds, laws=True)], ignore_conflicts=True
                )
            # The row stored without its laws, here or by the table's builder meanwhile (a
            # conflict the insert ignored), takes them.
            self._game_rows(home, away).filter(laws__isnull=True).update(laws=odds.to_json())
            self._p[(h, a)] = odds.p_home_win
        return _mirror(odds) if mirrored else odds

    def _whole_law(self, eh: Entry, ea: Entry) -> GameOdds:
        """Solve the whole law of a game (its score laws too). With the exact coach, the
        pair's coach is the one its games play (``league.coaches``: read if stored, else
        solved and stored for them): a preview read before its game saves the game the
        solve, and a game played first saves the preview its backward program."""
        options: dict[str, Any] = {"rules": self.game_rules, "neutral": self.neutral}
        if not (self.game_rules.strategy and self.game_rules.coach == CoachKind.EXACT):
            return _solved(exact_odds, eh.card, ea.card, **options)
        try:
            coach = coach_for(
                home=eh.card, away=ea.card, digests=(eh.version, ea.version), **options
            )
        except InvalidCardError as exc:
            raise OddsUnavailable(f"{eh.card.label} v {ea.card.label}: {exc}") from exc
        return _solved(coach_odds, eh.card, ea.card, coach=coach, **options)


def season_table(season: Season) -> PairTable:
    """Return the pair table of a season's (or tournament's) field, its preset and court."""
    ids = list(SeasonTeam.objects.filter(season=season).values_list("team_id", flat=True))
    return PairTable.for_teams(
        ids, rules=season.rules, neutral=not season.home_court, strategy=season_policy(season)
    )


def season_pairs(season: Season, table: PairTable) -> list[tuple[int, int]]:
    """Return the stored keys of the pairs a season's pages can ask for.

    A tournament: every pair its bracket lets meet, whatever is stored (a what-if may undo
    a result), in the order the bracket sets (the top team at home): 4,560 of the 96
    field's 9,120 ordered pairs; any two teams when it is reseeded. A round robin: its
    games still to play, as scheduled. On a neutral court without the coach policy a pair
    is one stored key whichever its order (:meth:`PairTable.stored_key`).
    """
    pairs: Iterable[tuple[int, int]]
    if season.bracket:
        pairs = brackets.meeting_pairs(season_bracket(season))
    else:
        pairs = season.games.exclude(status=Game.Status.FINAL).values_list("home_id", "away_id")
    return sorted({table.stored_key(h, a)[:2] for h, a in pairs})


def pair_table_build(*, season_id: int, home_ids: Sequence[int] | None = None) -> dict[str, int]:
    """Compute and store the pairs of a season's table its pages can ask for
    (:func:`season_pairs`: a bracket's pairs that can meet, a schedule's games), those of
    ``home_ids`` at home or all of them; no other pair is ever solved for it.

    Rows of the field's teams left from earlier card versions or rules versions are
    deleted: they can never match again. Return how many pairs were computed and deleted;
    a season deleted since it was asked for has none (its tasks still queued drop quietly:
    each was a traceback in the workers' log).
    """
    season = Season.objects.filter(pk=season_id).first()
    if season is None:
        return {"computed": 0, "deleted": 0, "pairs": 0}
    table = season_table(season)
    needed = season_pairs(season, table)
    pairs = needed
    if home_ids is not None:
        wanted = set(home_ids)
        pairs = [(h, a) for h, a in pairs if h in wanted]
    deleted = pair_table_prune(table.entries.values())
    try:
        computed = table.compute(pairs)
    except OddsUnavailable as exc:  # cards the engine refuses: the waiting pages say so
        cache.set(_refused_key(season.pk), str(exc), timeout=BUILD_LOCK_SECONDS)
        raise
    if not table.missing(needed):
        cache.delete(_build_lock(season.pk))
        if computed:  # this task completed it: what waited for the odds can follow now
            season_odds_ready.send(sender=Season, season_id=season.pk)
    return {"computed": computed, "deleted": deleted, "pairs": len(pairs)}


def pair_table_prune(entries: Iterable[Entry]) -> int:
    """Delete the stored pairs of these teams that no longer match their cards or rules.

    One read of the teams' rows' keys and one delete of the stale ones by id: a query a
    team (96 for the field, each a scan of the table, on every task of a build) cost more
    than the pairs it pruned."""
    versions = {entry.team_id: entry.version for entry in entries}
    if not versions:
        return 0
    rows = PairOdds.objects.filter(Q(home_id__in=versions) | Q(away_id__in=versions))
    stale = [
        pk
        for pk, home, away, home_version, away_version, rules_version in rows.values_list(
            "pk", "home_id", "away_id", "home_version", "away_version", "rules_version"
        )
        if rules_version != RULES_VERSION
        or versions.get(home, home_version) != home_version
        or versions.get(away, away_version) != away_version
    ]
    deleted = 0
    for start in range(0, len(stale), PRUNE_BATCH):
        deleted += PairOdds.objects.filter(pk__in=stale[start : start + PRUNE_BATCH]).delete()[0]
    return deleted


def _build_lock(season_id: int) -> str:
    return f"league.odds.build.{season_id}"


def _refused_key(season_id: int) -> str:
    """The cache key of the refusal a build of this season's table met (a pair of cards
    the engine refuses), kept as long as a build request is."""
    return f"league.odds.refused.{season_id}"


def pair_table_request(*, season_id: int, home_ids: Sequence[int]) -> bool:
    """Ask the workers for the rows of ``home_ids`` (in chunks), unless a request for this
    season went out less than ``BUILD_LOCK_SECONDS`` ago; return whether it was sent."""
    if not background.ask_once(_build_lock(season_id), BUILD_LOCK_SECONDS):
        return False
    for chunk in build_plan(home_ids):
        pairs_wanted.send(sender=PairOdds, season_id=season_id, home_ids=chunk)
    return True


PACE_SECONDS = 3 * 3600
"""How long the first sighting of a table's progress is kept to measure its pace by."""


def build_pace(season_id: int, ready: int, needed: int, *, now: float | None = None) -> str:
    """Say how long a season's table has left at the pace seen since a page first looked
    ("about 4 minutes left at the pace so far"), that it has not moved (the background busy
    with other work first), or nothing while too little is known. The first sighting is
    kept in the cache; a table started again (fewer pairs ready) is timed afresh."""
    now = time.time() if now is None else now
    key = f"league.odds.pace.{season_id}.{needed}"
    if not cache.add(key, (now, ready), timeout=PACE_SECONDS):
        first = cache.get(key)
        if first is None or ready < first[1]:
            cache.set(key, (now, ready), timeout=PACE_SECONDS)
            return ""
        since, then = first
        elapsed, done = now - since, ready - then
        if done > 0 and elapsed >= 5:
            left = (needed - ready) * elapsed / done
            words = wait_words(max(1, round(left)))
            return f"{words[0].upper()}{words[1:]} left at the pace so far."
        if done == 0 and elapsed >= 60:
            return (
                f"No pair was finished for {wait_words(round(elapsed))}: the "
                "background is working on something queued before (another field's odds, a "
                "run's games)."
            )
    return ""


def pending_view(season: Season, pending: OddsPending) -> dict[str, Any]:
    """Return what a page or the API shows while a season's table is being built."""
    pace = build_pace(season.pk, pending.ready, pending.needed)
    return {
        "pending": True,
        "pairs_ready": pending.ready,
        "pairs_needed": pending.needed,
        # the few pairs a card edit leaves are a tenth of a second or so of work
        "retry_after": retry_after(pending.needed - pending.ready, ON_DEMAND_COACHED_PAIRS),
        "message": f"The exact odds of this field are being computed {background.where()}: "
        f"{pending.ready} of {pending.needed} pairs are ready." + (f" {pace}" if pace else ""),
    }


def pair_table_refresh(*, season_id: int) -> None:
    """Ask the workers for the pairs a season's pages can ask for (a new field, or one
    whose cards changed), in chunks of rows: each task computes only its pairs still
    missing. Pages then wait for these instead of asking again for ``BUILD_LOCK_SECONDS``."""
    game = Season.objects.filter(pk=season_id).values_list("game", flat=True).first()
    if game is None:
        return
    if other_odds.handles(game):  # six dice, grid court: no pair table, their pairings
        other_odds.season_pairings_request(season_id)
        return
    cache.set(_build_lock(season_id), True, timeout=BUILD_LOCK_SECONDS)
    cache.delete(_refused_key(season_id))  # changed cards: try them again
    ids = SeasonTeam.objects.filter(season_id=season_id).values_list("team_id", flat=True)
    for chunk in build_plan(list(ids)):
        pairs_wanted.send(sender=PairOdds, season_id=season_id, home_ids=chunk)


def with_table(season: Season, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Return ``compute()``; when it needs more pairs than a request computes, send the
    table to the workers and try once more (in a command or a test with no broker the
    workers run eagerly and have built it), else return :func:`pending_view`: the page
    shows how far the table is. With a background no request solves a pair; without one,
    at most ``ON_DEMAND_PAIRS`` (:func:`on_demand_limit`). Raise :class:`OddsUnavailable`
    when the background found cards the engine refuses."""
    try:
        return compute()
    except PairingsPending as pairings:  # six dice, grid court: sent to the background
        return pairings.view()
    except OddsPending as pending:
        far = pending.needed - pending.ready > EAGER_COACHED_PAIRS
        # With no background at all, this request would build the table itself.
        if not background.available() and season_policy(season) and far:
            # No workers: this request would solve the coached field for minutes. Show the
            # game without the policy (the 96 field's 4,560 pairs: about 10 s on a slow
            # host, the table then stored for every later page), and say so.
            token = _POLICY_OFF.set(True)
            try:
                return with_table(season, compute)
            finally:
                _POLICY_OFF.reset(token)
        refused = cache.get(_refused_key(season.pk))
        if refused and background.available():  # the background met cards it refuses
            raise OddsUnavailable(refused) from pending
        pair_table_request(season_id=season.pk, home_ids=pending.home_ids)
        if background.available():  # the workers have it now: no sense asking again
            return pending_view(season, pending)
    try:
        return compute()
    except OddsPending as pending:
        return pending_view(season, pending)


def table_status(season: Season) -> dict[str, int]:
    """Return how many of a season's pairs (:func:`season_pairs`) are computed for the
    current cards."""
    table = season_table(season)
    pairs = season_pairs(season, table)
    return {"pairs": len(pairs), "ready": len(pairs) - len(table.missing(pairs))}


def build_plan(home_ids: Sequence[int], *, chunk: int = 8) -> list[list[int]]:
    """Split the home teams whose rows are to be built into tasks of ``chunk`` teams."""
    ids = sorted(home_ids)
    return [ids[i : i + chunk] for i in range(0, len(ids), chunk)]


# -- previews --------------------------------------------------------------------------------


def _law_list(law: Mapping[int, float], cut: float = 1e-6) -> list[dict[str, float]]:
    return [{"x": k, "p": p} for k, p in sorted(law.items()) if p >= cut]


def preview_from(
    odds: GameOdds, home: Entry, away: Entry, *, rules: str, neutral: bool, strategy: bool
) -> dict[str, Any]:
    """Return a game preview: P(win), predicted score, spread, total and the laws."""
    spread = odds.expected_home_pts - odds.expected_away_pts
    favourite = home if spread >= 0 else away
    likely = max(odds.margin.items(), key=lambda kv: kv[1])[0] if odds.margin else 0
    return {
        "home": {"team_id": home.team_id, "team": home.label, "card_version": home.version},
        "away": {"team_id": away.team_id, "team": away.label, "card_version": away.version},
        "rules": rules,
        "rules_version": RULES_VERSION,
        "neutral": neutral,
        "coach_policy": strategy,
        "note": COACH_POLICY_NOTE if strategy else "",
        "p_home_win": odds.p_home_win,
        "p_away_win": odds.p_away_win,
        "p_overtime": odds.p_overtime,
        "expected_overtimes": odds.expected_overtimes,
        "expected_home_pts": odds.expected_home_pts,
        "expected_away_pts": odds.expected_away_pts,
        "predicted_score": {
            "home": round(odds.expected_home_pts),
            "away": round(odds.expected_away_pts),
        },
        "spread": spread,
        # a pairing even to the tenth is said so ("by 0.0" named a favourite it has not)
        "spread_text": f"{favourite.label} by {abs(spread):.1f}" if round(spread, 1) else "even",
        "total": odds.expected_home_pts + odds.expected_away_pts,
        "most_likely_margin": likely,
        "margin": _law_list(odds.margin),
        "home_score": _law_list(odds.home_score),
        "away_score": _law_list(odds.away_score),
    }


def matchup_preview(
    *,
    home_id: int,
    away_id: int,
    rules: str = "advanced",
    neutral: bool = False,
    strategy: bool = False,
    game: str = DEFAULT_GAME,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Return the preview of any two teams a fan picks: VABG's from the pair table (its
    ``rules`` and ``strategy``), another game's from its own odds between the two teams'
    coach styles under its ``options`` (its pending view while that pairing is worked out
    in the background)."""
    if home_id == away_id:
        raise OddsUnavailable("pick two different teams")
    if other_odds.handles(game):  # six dice, grid court: league/other_odds.py
        teams = Team.objects.in_bulk([home_id, away_id])
        if len(teams) != 2:
            raise OddsUnavailable("no such team")
        try:
            return other_odds.matchup_preview(
                game=game,
                options=options or {},
                home=teams[home_id],
                away=teams[away_id],
                neutral=neutral,
            )
        except PairingsPending as pending:
            return pending.view()
    table = PairTable.for_teams([home_id, away_id], rules=rules, neutral=neutral, strategy=strategy)
    if len(table.entries) != 2:
        raise OddsUnavailable("no such team")
    if background.available() and not table.has_law(home_id, away_id):
        # Solved in the background, never while the fan waits: the page looks again.
        return _law_wanted(
            table,
            home_id,
            away_id,
            "this matchup",
            lambda: pair_law_wanted.send(
                sender=PairOdds,
                home_id=home_id,
                away_id=away_id,
                rules=str(rules),
                neutral=neutral,
                strategy=strategy,
            ),
        )
    odds = table.game_law(home_id, away_id)
    return preview_from(
        odds,
        table.entries[home_id],
        table.entries[away_id],
        rules=rules,
        neutral=neutral,
        strategy=strategy,
    )


def game_preview(game: Game) -> dict[str, Any]:
    """Return a game's preview: the current cards, or the cards as played once it is final."""
    if other_odds.handles(game.game):  # six dice, grid court: league/other_odds.py
        try:
            return other_odds.game_preview(game)
        except PairingsPending as pending:  # sent to the background: say how far
            return pending.view()
    result, entries, table = _game_table(game)
    if background.available() and not table.has_law(game.home_id, game.away_id):
        # Solved in the background, never while the reader waits: the page looks again.
        return _law_wanted(
            table,
            game.home_id,
            game.away_id,
            "this game",
            lambda: game_law_wanted.send(sender=Game, game_id=game.pk),
        )
    odds = table.game_law(game.home_id, game.away_id)
    out = preview_from(
        odds,
        entries[game.home_id],
        entries[game.away_id],
        rules=game.rules,
        neutral=game.neutral,
        strategy=game.strategy,
    )
    out["game_id"] = game.pk
    out["cards"] = "as played" if result is not None else "current"
    return out


REFUSED_SECONDS = 24 * 3600
"""How long a law the engine refused is remembered (its key names the cards: an edit that
mends them names another)."""


def _law_wanted(
    table: PairTable, home: int, away: int, what: str, send: Callable[[], object]
) -> dict[str, Any]:
    """Send a game's law to the background (once in ``GAME_LAW_ASKED_SECONDS``) and return
    the waiting answer; raise :class:`OddsUnavailable` when the background found that the
    engine refuses these cards (a game that cannot end), as a request would have."""
    key = table.law_key(home, away)
    refused = cache.get(f"law-refused:{key}")
    if refused:
        raise OddsUnavailable(refused)
    if background.ask_once(f"law-asked:{key}", GAME_LAW_ASKED_SECONDS):
        send()
    return law_pending(what)


def _law_solved(table: PairTable, home: int, away: int) -> bool:
    """Solve and store a game's whole law in the background; a refusal is remembered for
    the pages waiting on it (:func:`_law_wanted`) and the task ends quietly."""
    if table.has_law(home, away):
        return False
    try:
        table.game_law(home, away)
    except OddsUnavailable as exc:
        cache.set(f"law-refused:{table.law_key(home, away)}", str(exc), REFUSED_SECONDS)
        return False
    return True


def law_pending(what: str) -> dict[str, Any]:
    """Return the preview's answer while the background solves its pair's law (a tenth of
    a second or so: the page looks again in a second)."""
    return {
        "pending": True,
        "pairs_ready": 0,
        "pairs_needed": 1,
        "retry_after": 1,
        "message": f"The exact odds of {what} are being worked out {background.where()}.",
    }


def pair_law_build(
    *, home_id: int, away_id: int, rules: str, neutral: bool, strategy: bool
) -> bool:
    """Solve and store the whole law of two teams' game for their current cards (what the
    matchup page reads); return whether there was one to solve."""
    table = PairTable.for_teams([home_id, away_id], rules=rules, neutral=neutral, strategy=strategy)
    if len(table.entries) != 2:
        return False
    return _law_solved(table, home_id, away_id)


def game_law_build(*, game_id: int) -> bool:
    """Solve and store the whole law of a game's pair (what its preview reads): the current
    cards before it is played, the cards as played after; return whether there was one to
    solve."""
    game = Game.objects.filter(pk=game_id).select_related("season", "result").first()
    if game is None or other_odds.handles(game.game):
        return False
    return _law_solved(_game_table(game)[2], game.home_id, game.away_id)


def _game_table(game: Game) -> tuple[GameResult | None, dict[int, Entry], PairTable]:
    """Return a game's stored result (``None`` before it is played), its two teams' entries
    (the cards as played once it is, the current ones before) and their table."""
    result = getattr(game, "result", None) if game.status == Game.Status.FINAL else None
    if result is not None:
        entries = {
            game.home_id: entry_as_played(game.home_id, result.home_team_file),
            game.away_id: entry_as_played(game.away_id, result.away_team_file),
        }
    else:
        entries = entries_for([game.home_id, game.away_id])
    table = PairTable(entries, rules=game.rules, neutral=game.neutral, strategy=game.strategy)
    return result, entries, table


# -- the win-probability chart ---------------------------------------------------------------


chart_wanted = Signal()
"""Sent (``sender=Game``, ``game_id``) for the win-probability chart of a played game whose
page or API answer is waiting for it (:func:`chart_build`); ``league.tasks`` sends it to
the background."""


def win_probability(game: Game) -> dict[str, Any]:
    """Return a played game's win-probability chart as its page and the API show it.

    The chart is worked out once (:func:`chart_build`) and kept (:class:`GameChart`): with a
    background (workers, or the web process's lanes) a game asked for the first time is sent
    there and the answer is pending (``retry_after``: a second), never solved while the
    reader waits; with none (a command, a test) it is worked out here and kept. The names
    and the swing plays are read afresh from the stored events each time (a rename shows at
    once). Raise :class:`OddsUnavailable` for a game that has no chart, saying why.
    """
    result = _charted_result(game)
    chart = GameChart.objects.filter(result=result).first()
    if chart is None:
        if background.available():
            if background.ask_once(f"chart-asked:{result.pk}", GAME_LAW_ASKED_SECONDS):
                chart_wanted.send(sender=Game, game_id=game.pk)
            return law_pending("this game's win-probability chart")
        chart = _chart_kept(game, result)
    if chart.refused or chart.chances is None:
        raise OddsUnavailable(chart.refused or "this game has no chart")
    return _chart(game, result, chart.chances)


def chart_build(*, game_id: int) -> bool:
    """Work out and keep a played game's win-probability chart (the background's job);
    return whether there was one to work out. A game that can have none keeps why."""
    game = Game.objects.filter(pk=game_id).select_related("home", "away", "result").first()
    if game is None:
        return False
    try:
        result = _charted_result(game)
    except OddsUnavailable:
        return False  # not played (any more), or no chart by its kind: nothing to keep
    if GameChart.objects.filter(result=result).exists():
        return False
    _chart_kept(game, result)
    return True


def _charted_result(game: Game) -> GameResult:
    """Return the stored result a game's chart reads; raise :class:`OddsUnavailable` when
    the game has none or its kind of game has no odds during a game (nothing to work out)."""
    result: GameResult | None = getattr(game, "result", None)
    if game.status != Game.Status.FINAL or result is None:
        raise OddsUnavailable("the game is not played yet")
    if not result.events:
        raise OddsUnavailable("this score sheet was typed in: there is no play-by-play")
    if other_odds.handles(game.game):
        other_odds.check_charted(game)
    return result


def _chart_kept(game: Game, result: GameResult) -> GameChart:
    """Work out a game's chart and keep it (a chart kept meanwhile by another worker wins)."""
    try:
        chances = (
            other_odds.chart_chances(game)
            if other_odds.handles(game.game)
            else _chart_chances(game, result)
        )
        chart = GameChart(result=result, chances=chances)
    except OddsUnavailable as exc:
        chart = GameChart(result=result, refused=str(exc))
    GameChart.objects.bulk_create([chart], ignore_conflicts=True)
    return chart


def _chart(game: Game, result: GameResult, chances: list[Any]) -> dict[str, Any]:
    """Return the chart of a game from its kept chances, names and plays read afresh."""
    if other_odds.handles(game.game):  # six dice: league/other_odds.py
        return other_odds.win_probability(game, chances)
    return _vabg_chart(game, result, [float(p) for p in chances])


def _live_odds(game: Game, result: GameResult) -> LiveOdds | CoachLiveOdds:
    """Return the exact odds from any point of a stored VABG game, as it was played."""
    try:
        rules = GameRules.from_json(result.rules)
        home = team_from_json(dict(result.home_team_file))
        away = team_from_json(dict(result.away_team_file))
        if not rules.strategy:
            return LiveOdds(home, away, rules=rules, neutral=game.neutral)
        return CoachLiveOdds(
            home,
            away,
            rules=rules,
            neutral=game.neutral,
            coach=coach_for(home=home, away=away, rules=rules, neutral=game.neutral),
        )
    except (InvalidCardError, RulesVersionError) as exc:
        raise OddsUnavailable(str(exc)) from exc


def _chart_chances(game: Game, result: GameResult) -> list[float]:
    """Return P(home wins) at the start of every trip of a stored VABG game (the costly
    part of its chart: exact odds from each point)."""
    live = _live_odds(game, result)
    chances: list[float] = []
    _vabg_chart(game, result, chances, live)
    return chances


def _vabg_chart(
    game: Game,
    result: GameResult,
    chances: list[float],
    live: LiveOdds | CoachLiveOdds | None = None,
) -> dict[str, Any]:
    """Return P(home wins) after every trip of a stored game, from its play-by-play.

    Each point is taken at the start of a trip (the engine's own trips of the period:
    shot-clock re-rolls and the coach policy's extra possessions are inside them), from
    the exact suffix laws of the trips left and the margin then (with the coach policy on,
    its backward program, which also reads whether the visitor's trip already owes the
    extra possessions); the series starts with the pre-game P and ends with the result (1
    or 0). ``swings`` are the trips that moved it most. With ``live`` odds the chances are
    worked out and appended to ``chances``; without, ``chances`` are those kept.
    """
    labels = {"home": str(game.home), "away": str(game.away)}
    margin = 0
    points: list[dict[str, Any]] = []
    texts: list[list[str]] = []
    ran = False  # the home team fast-broke on the visitor's trip of this number
    in_away_trip = False
    for data in renamed_events(result.events, current_names(result)):
        event = event_from_json(data)
        if isinstance(event, Trip) and event.kind == "":
            if live is not None:
                trips = live.trips_in(event.period)
                index = trips - 2 * event.number + (1 if event.team == "home" else 0)
                index = min(max(index, 0), trips)
                # §8: still trailing after its fast break, the home team took the extra trips.
                owed = (
                    isinstance(live, CoachLiveOdds)
                    and event.team == "home"
                    and ran
                    and live.home_takes_extra(event.period, event.number, margin)
                )
                chances.append(live.p_home_win(event.period, index, margin, owed=owed))
            elif len(points) >= len(chances):
                raise OddsUnavailable("the kept chart does not match the play-by-play")
            ran = False
            in_away_trip = event.team == "away"
            points.append(
                {
                    "period": event.period,
                    "number": event.number,
                    "team": event.team,
                    "margin": margin,
                    "p_home": chances[len(points)],
                }
            )
            texts.append([])
        elif isinstance(event, Trip) and event.kind != "reroll":
            in_away_trip = False  # an extra or fouled possession
        if isinstance(event, Steal) and event.fast_break and event.team == "home":
            ran = ran or in_away_trip
        if isinstance(event, Shot) and event.made:
            margin += event.value if event.team == "home" else -event.value
        elif isinstance(event, FreeThrow) and event.made:
            margin += 1 if event.team == "home" else -1
        if texts and not isinstance(event, Trip | PeriodEnd):
            line = describe(event, labels)
            if line:
                texts[-1].append(line)
    final = result.home_score - result.away_score
    if not points or margin != final or len(points) != len(chances):
        raise OddsUnavailable("the play-by-play does not add up to the final score")
    points.append(
        {
            "period": result.overtimes,
            "number": 0,
            "team": "",
            "margin": final,
            "p_home": 1.0 if final > 0 else 0.0,
        }
    )
    swings = []
    for i, (point, text) in enumerate(zip(points, texts, strict=False)):
        delta = points[i + 1]["p_home"] - point["p_home"]
        # A swing that rounds to no whole percentage point is no swing a fan would see.
        if round(abs(delta) * 100) >= 1:
            swings.append({"trip": i, "delta": delta, "text": _sentences(text)})
    swings.sort(key=lambda s: -abs(s["delta"]))
    return {
        "game_id": game.pk,
        "home": labels["home"],
        "away": labels["away"],
        "coach_policy": game.strategy,
        "note": COACH_POLICY_NOTE if game.strategy else "",
        "pregame": points[0]["p_home"],
        "points": points,
        "swings": sorted(swings[:SWINGS], key=lambda s: s["trip"]),
    }


def _sentences(plays: list[str]) -> str:
    """Join a trip's plays as sentences: "Smith misses a 3-pointer. Key defensive rebound." """
    return " ".join(f"{play[:1].upper()}{play[1:].rstrip('.')}." for play in plays if play)


# -- bracket odds ----------------------------------------------------------------------------


def _stored_games(season: Season) -> dict[str, tuple[int, frozenset[int]]]:
    """Return ``{key: (winner, {home, away})}`` of the tournament's final games."""
    out = {}
    for key, home, away, hs, as_ in (
        Game.objects.filter(season=season, status=Game.Status.FINAL)
        .exclude(bracket_key="")
        .values_list(
            "bracket_key", "home_id", "away_id", "result__home_score", "result__away_score"
        )
    ):
        out[key] = (home if hs > as_ else away, frozenset((home, away)))
    return out


def _alive(bracket: brackets.Bracket, winners: Mapping[str, int]) -> list[int]:
    lost = set()
    teams = brackets.entrants(bracket, winners)
    for key, winner in winners.items():
        top, bottom = teams[key]
        lost.add(bottom if winner == top else top)
    return [t for t in bracket.seeds if t not in lost]


class _TooMany(Exception):
    pass


def _future_refs(bracket: brackets.Bracket, after: int) -> set[str]:
    return {
        s.game_key
        for g in bracket.games
        if g.round > after
        for s in (g.top, g.bottom)
        if isinstance(s, brackets.WinnerOf)
    }


def _resolve(source: brackets.Source, done: Mapping[str, int], ranked: Sequence[int]) -> int:
    """Return the team a source names, given the winners so far and the survivors by seed."""
    if isinstance(source, brackets.Seeded):
        return source.team_id
    if isinstance(source, brackets.WinnerOf):
        return done[source.game_key]
    return ranked[source.rank - 1]


def _set_dp(
    bracket: brackets.Bracket,
    winners: Mapping[str, int],
    index: Mapping[int, int],
    p: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Exact odds of any bracket, reseeded rounds included: a program over the states
    (teams still alive, winners a later game still reads) after each round."""
    n = len(index)
    seed = bracket.seeds
    reach = np.zeros((n, bracket.rounds))
    champion = np.zeros(n)
    states: dict[tuple[frozenset[int], tuple[tuple[str, int], ...]], float] = {
        (frozenset(bracket.seeds), ()): 1.0
    }
    for number in range(1, bracket.rounds + 1):
        games = [g for g in bracket.games if g.round == number]
        undecided = sum(1 for g in games if g.key not in winners)
        if len(states) * (1 << undecided) > STATE_LIMIT:
            raise _TooMany
        keep = _future_refs(bracket, number)
        after: dict[tuple[frozenset[int], tuple[tuple[str, int], ...]], float] = defaultdict(float)
        for (alive, held), chance in states.items():
            ranked = sorted(alive, key=lambda t: seed[t])
            done = dict(held)

            outcomes = []
            for g in games:
                top = _resolve(g.top, done, ranked)
                bottom = _resolve(g.bottom, done, ranked)
                reach[index[top], number - 1] += chance
                reach[index[bottom], number - 1] += chance
                if g.key in winners:
                    w = winners[g.key]
                    outcomes.append([(g.key, w, bottom if w == top else top, 1.0)])
                else:
                    q = p[index[top], index[bottom]]
                    outcomes.append([(g.key, top, bottom, q), (g.key, bottom, top, 1.0 - q)])
            for combo in itertools.product(*outcomes):
                prob = chance
                lost = set()
                now = dict(done)
                for key, w, loser, q in combo:
                    prob *= q
                    lost.add(loser)
                    now[key] = w
                if prob == 0.0:
                    continue
                state = (alive - lost, tuple(sorted((k, v) for k, v in now.items() if k in keep)))
                after[state] += prob
                if number == bracket.rounds:
                    champion[index[combo[-1][1]]] += prob
        states = after
    return reach, champion


def _sampled(
    bracket: brackets.Bracket,
    winners: Mapping[str, int],
    index: Mapping[int, int],
    p: npt.NDArray[np.float64],
    *,
    samples: int = SAMPLED_BRACKETS,
    seed: int = 13,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Sample brackets from the exact pair table (reseeding included), vectorised."""
    rng = np.random.default_rng(seed)
    n = len(index)
    by_seed = sorted(bracket.seeds, key=lambda t: bracket.seeds[t])
    rank_of = np.array([index[t] for t in by_seed])  # seed order -> team index
    alive = np.ones((samples, n), dtype=bool)  # by seed order
    position = {index[t]: i for i, t in enumerate(by_seed)}
    pos = np.array([position[i] for i in range(n)])
    won: dict[str, npt.NDArray[np.int64]] = {}
    reach = np.zeros((n, bracket.rounds))
    champion = np.zeros(n)
    rows = np.arange(samples)
    for number in range(1, bracket.rounds + 1):
        games = [g for g in bracket.games if g.round == number]
        ranks = np.cumsum(alive, axis=1)
        losers = []

        def pick(source: brackets.Source, ranks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
            if isinstance(source, brackets.Seeded):
                return np.full(samples, index[source.team_id])
            if isinstance(source, brackets.WinnerOf):
                return won[source.game_key]
            at = np.argmax((ranks == source.rank) & alive, axis=1)
            picked: npt.NDArray[np.int64] = rank_of[at]
            return picked

        for g in games:
            top, bottom = pick(g.top, ranks), pick(g.bottom, ranks)
            np.add.at(reach[:, number - 1], top, 1.0)
            np.add.at(reach[:, number - 1], bottom, 1.0)
            if g.key in winners:
                w = np.full(samples, index[winners[g.key]])
            else:
                w = np.where(rng.random(samples) < p[top, bottom], top, bottom)
            won[g.key] = w
            losers.append(np.where(w == top, bottom, top))
            if number == bracket.rounds:
                np.add.at(champion, w, 1.0)
        for loser in losers:
            alive[rows, pos[loser]] = False
    return reach / samples, champion / samples


def bracket_odds(
    season: Season, *, whatif: Mapping[str, int] | None = None, before_start: bool = False
) -> dict[str, Any]:
    """Return every team's chance to reach each round of a tournament and to win it.

    Computed from the stored results (and the what-if's winners, nothing written) and the
    pair table; raise :class:`OddsPending` when the table is too far from built. With
    ``before_start``, the odds as they stood before the first game (no result, no what-if):
    a finished tournament's history.
    """
    if other_odds.handles(season.game):  # six dice, grid court: league/other_odds.py
        return other_odds.bracket_odds(season, whatif=whatif, before_start=before_start)
    started = time.perf_counter()
    bracket = season_bracket(season)
    stored = {} if before_start else _stored_games(season)
    whatif = {} if before_start else whatif or {}
    winners, kinds = whatif_winners(bracket, stored, whatif)
    teams = sorted(bracket.seeds, key=lambda t: (bracket.seeds[t], t))
    index = {t: i for i, t in enumerate(teams)}
    entries = entries_for(teams)
    table = PairTable(
        entries, rules=season.rules, neutral=not season.home_court, strategy=season_policy(season)
    )
    pairs = brackets.possible_pairs(bracket, winners)
    if pairs is None:
        alive = _alive(bracket, winners)
        pairs = set(itertools.permutations(alive, 2))
    table.ensure(pairs)
    p = table.matrix(teams)
    method, error = "exact", 0.0
    reseeded = any(
        isinstance(s, brackets.Reseeded) for g in bracket.games for s in (g.top, g.bottom)
    )
    if not reseeded:
        reach, champion = brackets.bracket_law(bracket, winners, index, p)
    else:
        try:
            reach, champion = _set_dp(bracket, winners, index, p)
        except _TooMany:
            reach, champion = _sampled(bracket, winners, index, p)
            method, error = "sampled", 0.5 / np.sqrt(SAMPLED_BRACKETS)
    entry_of = {
        e.team_id: e for e in SeasonTeam.objects.filter(season=season).select_related("team")
    }
    rounds = [
        {
            "number": r,
            "name": round_name(bracket, r),
            "slots": 2 * sum(1 for g in bracket.games if g.round == r),
        }
        for r in range(1, bracket.rounds + 1)
    ]
    rows: list[dict[str, Any]] = [
        {
            "team_id": t,
            "team": str(entry_of[t].team) if t in entry_of else entries[t].label,
            "seed": bracket.seeds[t],
            "region": entry_of[t].region if t in entry_of else "",
            "reach": [float(x) for x in reach[index[t]]],
            "champion": float(champion[index[t]]),
        }
        for t in teams
    ]
    rows.sort(key=lambda r: (-r["champion"], r["seed"], r["team"]))
    return {
        "season_id": season.pk,
        "rules": season.rules,
        "neutral": not season.home_court,
        "coach_policy": season_policy(season),
        "note": _policy_note(season),
        "method": method,
        "standard_error": error,
        "final_games": len(stored),
        "whatif": [{"key": k, "winner_id": v, "kind": kinds[k]} for k, v in sorted(whatif.items())],
        "rounds": rounds,
        "teams": rows,
        "seconds": time.perf_counter() - started,
    }


def whatif_choices(season: Season, whatif: Mapping[str, int]) -> list[dict[str, Any]]:
    """Return the games a what-if can set now: every game whose two teams are known given
    the stored results and the what-if so far, with the current choice."""
    bracket = season_bracket(season)
    stored = _stored_games(season)
    winners, kinds = whatif_winners(bracket, stored, whatif)
    teams = brackets.entrants(bracket, winners)
    names = {t.pk: str(t) for t in Team.objects.filter(pk__in=list(bracket.seeds))}
    out = []
    for game in bracket.games:
        top, bottom = teams[game.key]
        if top is None or bottom is None:
            continue
        played = stored.get(game.key)
        out.append(
            {
                "key": game.key,
                "round": game.round,
                "round_name": round_name(bracket, game.round),
                "region": game.region or "",
                "top": {
                    "team_id": top,
                    "team": names.get(top, str(top)),
                    "seed": bracket.seeds.get(top),
                },
                "bottom": {
                    "team_id": bottom,
                    "team": names.get(bottom, str(bottom)),
                    "seed": bracket.seeds.get(bottom),
                },
                "played_winner": played[0] if played and played[1] == {top, bottom} else None,
                "choice": whatif.get(game.key),
                "kind": kinds.get(game.key, ""),
            }
        )
    return out


# -- season odds -----------------------------------------------------------------------------


def season_odds_version(season: Season) -> str:
    """Return a key of everything a season's odds read: its version (the stored results and
    the names: ``selectors.season_version``), each team's conference (a move regroups the
    places), the last card edit, the games still to play as scheduled (teams and court) and
    the simulator's source."""
    cards = Card.history.model.objects.order_by("-history_id").values_list("history_id")[:1]
    groups = season.entries.order_by("team_id").values_list("team_id", "conference")
    left = Game.objects.filter(season=season).exclude(status=Game.Status.FINAL)
    schedule = left.aggregate(
        n=Count("id"),
        teams=Sum(F("home_id") * 7 + F("away_id") * 3),
        neutral=Count("id", filter=Q(neutral=True)),
    )
    parts = (
        2,  # the rows' order: 2 since the expected place parts teams level on P(first)
        season.seed,
        season.created_at.isoformat(),  # with no final game the version names nothing
        selectors.season_version(season.pk),
        list(cards),
        list(groups),
        schedule,
        other_odds.engine_fingerprint(),
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


season_odds_wanted = Signal()
"""Sent (``sender=Season``, ``season_id``) for a season's sampled odds that its page waits
for (:func:`season_odds_build`); ``league.tasks`` sends it to the background."""
SEASON_ODDS_ASKED_SECONDS = 60
"""A season's odds sent to the background are not sent again for this long (its page
looks again every few seconds while it waits; a lost worker's are sent again after it)."""


def _season_odds_key(season_id: int, version: str) -> str:
    return selectors.season_key("odds", season_id, version)


def season_odds_page(season: Season) -> dict[str, Any]:
    """Return a season's sampled odds as its page shows them (:func:`season_odds`, 10,000
    seasons), kept in the cache by everything they read (:func:`season_odds_version`).

    Odds not sampled yet for what the season is now are never sampled while the reader
    waits (a 96-team double round robin's 9,120 games left take seconds): with a background
    (workers, or the web process's lanes) they are sent there, and the page shows the odds
    last sampled, marked ``updating``, or, with none yet, that they are being worked out
    (``pending``; the pair table's progress while it is built). With no background (a
    command, a test) they are sampled here. Raise :class:`OddsUnavailable` when the
    background found cards the engine refuses.
    """
    version = season_odds_version(season)
    found = cache.get(_season_odds_key(season.pk, version))
    if found is not None:
        return cast(dict[str, Any], found)
    if not background.available():
        return _season_odds_kept(season, version)
    if not other_odds.handles(season.game):
        # The table first: while it is built the page says how far (the pairings of the
        # other games are sent and said by the sampling itself).
        table = with_table(season, lambda: season_table_ready(season))
        if table.get("pending"):
            return table
    if background.ask_once(f"season-odds-asked:{season.pk}:{version}", SEASON_ODDS_ASKED_SECONDS):
        season_odds_wanted.send(sender=Season, season_id=season.pk)
    waiting = cache.get(f"season:odds-waiting:{season.pk}")
    if waiting is not None:  # what the last sampling met: the table being built, or refused
        if waiting.get("refused"):
            raise OddsUnavailable(waiting["refused"])
        return cast(dict[str, Any], waiting)
    latest = cache.get(f"season:odds-latest:{season.pk}")
    if latest is not None:
        return {
            **latest,
            "updating": True,
            "updating_message": "These odds are as they stood before the latest change to the "
            "season (a result, a card, the schedule): new ones are being sampled "
            f"{background.where()}.",
        }
    # Six dice's and grid court's games have their own odds (grid court's simulated).
    law = "odds" if other_odds.handles(season.game) else "exact odds"
    return {
        **law_pending("this season"),
        "retry_after": 2,
        "message": "This season's odds are being sampled (10,000 seasons from each game's "
        f"{law}) {background.where()}.",
    }


def _season_odds_kept(season: Season, version: str) -> dict[str, Any]:
    """Sample a season's odds for ``version`` and keep them (not a pending table's view)."""
    result = with_table(season, lambda: season_odds(season))
    if not result.get("pending"):
        timeout = settings.STANDINGS_CACHE_SECONDS
        cache.set_many(
            {
                _season_odds_key(season.pk, version): result,
                f"season:odds-latest:{season.pk}": result,
            },
            timeout=timeout,
        )
    return result


def season_odds_build(*, season_id: int) -> bool:
    """Sample and keep a season's odds for what it is now (the background's job); return
    whether they were sampled. While its pair table is being built, or when its cards are
    refused, the page is told so (and asks again at its next look)."""
    season = Season.objects.select_related("league").filter(pk=season_id).first()
    if season is None or season.kind == Season.Kind.TOURNAMENT:
        return False
    version = season_odds_version(season)
    if cache.get(_season_odds_key(season_id, version)) is not None:
        return False
    waiting = f"season:odds-waiting:{season_id}"
    try:
        result = _season_odds_kept(season, version)
    except OddsUnavailable as exc:
        cache.set(waiting, {"refused": str(exc)}, timeout=SEASON_ODDS_ASKED_SECONDS)
        return False
    if result.get("pending"):
        cache.set(waiting, result, timeout=SEASON_ODDS_ASKED_SECONDS)
        cache.delete(f"season-odds-asked:{season_id}:{version}")  # asked again at its next look
        return False
    cache.delete(waiting)
    return True


def _tables_ensured(
    season: Season, ids: list[int], left: Sequence[tuple[int, int, bool]]
) -> dict[bool, PairTable]:
    """Return the pair tables of a season's games ``left`` (home, away, neutral), by court,
    each holding them (:meth:`PairTable.ensure`: :class:`OddsPending` when it does not)."""
    cards = entries_for(ids)
    tables = {
        neutral: PairTable(
            cards, rules=season.rules, neutral=neutral, strategy=season_policy(season)
        )
        for neutral in {g[2] for g in left}
    }
    for neutral, table in tables.items():
        table.ensure([(h, a) for h, a, nt in left if nt == neutral])
    return tables


def season_table_ready(season: Season) -> dict[str, Any]:
    """Return ``{}`` when a VABG season's pair table holds every game left, as
    :func:`season_odds` needs it; raise :class:`OddsPending` as it would when it does not
    (the check a page makes before it sends the sampling to the background)."""
    ids = list(SeasonTeam.objects.filter(season=season).values_list("team_id", flat=True))
    left = list(
        Game.objects.filter(season=season)
        .exclude(status=Game.Status.FINAL)
        .values_list("home_id", "away_id", "neutral")
    )
    _tables_ensured(season, ids, left)
    return {}


def season_odds(
    season: Season, *, seasons: int = 10_000, seed: int | None = None
) -> dict[str, Any]:
    """Return each team's chances of finishing first and at each place of its conference.

    The games left are sampled from the exact pair table (each game's P(home wins) for its
    court), ``seasons`` times, seeded (the season's own seed unless one is given), in
    NumPy, each sampled season ordered as the standings order theirs
    (:mod:`league.season_sampling`); with no game left, the final table.
    """
    if other_odds.handles(season.game):  # six dice, grid court: league/other_odds.py
        return other_odds.season_odds(season, seasons=seasons, seed=seed)
    started = time.perf_counter()
    entries = list(SeasonTeam.objects.filter(season=season).select_related("team"))
    ids = [e.team_id for e in entries]
    index = {t: i for i, t in enumerate(ids)}
    n = len(ids)
    games = list(
        Game.objects.filter(season=season).values_list(
            "home_id",
            "away_id",
            "neutral",
            "status",
            "conference_game",
            "result__home_score",
            "result__away_score",
        )
    )
    played = [
        season_sampling.Played(index[home], index[away], hs > as_, conf)
        for home, away, _, status, conf, hs, as_ in games
        if status == Game.Status.FINAL
    ]
    left = [
        (home, away, neutral, conf)
        for home, away, neutral, status, conf, _, _ in games
        if status != Game.Status.FINAL
    ]
    tables = _tables_ensured(season, ids, [(h, a, nt) for h, a, nt, _ in left])
    sampling = time.perf_counter()
    groups = season_sampling.groups_of([e.conference for e in entries])
    sampled = season_sampling.sample_places(
        n,
        groups,
        played,
        [
            season_sampling.Left(index[h], index[a], tables[nt].p(h, a), conf)
            for h, a, nt, conf in left
        ],
        seasons=seasons,
        rng=np.random.default_rng(season.seed if seed is None else seed),
        final=None if left else standings_order(season.pk, index),
    )
    elapsed = time.perf_counter() - sampling
    rows = season_sampling.place_rows(
        [(e.team_id, str(e.team), e.conference) for e in entries], groups, played, sampled
    )
    return {
        "season_id": season.pk,
        "seasons": seasons,
        "seed": season.seed if seed is None else seed,
        "games_left": len(left),
        "coach_policy": season_policy(season),
        "note": _policy_note(season),
        "tiebreak": season_sampling.TIEBREAK,
        "teams": rows,
        "seconds": time.perf_counter() - started,
        "seasons_per_second": seasons / elapsed if elapsed > 0 else None,
    }
