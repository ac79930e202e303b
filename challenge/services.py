"""The challenge's writes and the reads that need its rules: pools, entries, picks, lock,
privacy, live scoring and the exact chances.

Live scoring (:func:`challenge_rescore`) runs in the transaction that stores a tournament's
games (``league.signals.tournament_games_stored``, see ``challenge.receivers``): the pool's
entries are read once, scored as one matrix (``challenge.scoring``) and written back in
one statement. The chances of winning a pool are simulated right after that transaction
commits (:func:`challenge_win_odds`).
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Count, F, Max, Q
from django.db.models.functions import Abs
from django.utils import timezone

from cards.models import Team
from challenge import scoring
from challenge.models import Challenge, Entry
from core.errors import Refused, sentence
from core.roles import is_commissioner
from core.text import wait_words
from league import bracket as brackets
from league import odds as league_odds
from league.errors import retry_after
from league.models import Game, Season
from league.tournaments import season_bracket, winners_of

WIN_SAMPLES = 2000
"""Simulated tournaments behind each entry's chance to win its pool (standard error at
most 0.5 / sqrt(2000) = 1.1 percentage points)."""


BEFORE_LOCK = (
    "the win chances are worked out once the pool locks: before, a fan's own chance would "
    "tell him the other entries' hidden picks"
)


class ChallengeRefused(Refused):
    """A request the challenge's rules refuse; the message says why, for the fan to read.

    ``status`` is the HTTP status pages and the API answer with; ``retry_after`` when to
    ask again (a 503 while the odds are computed).
    """

    def __init__(
        self,
        message: str,
        *,
        status: int = 400,
        retry_after: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.field = field
        """The API field the refusal is about: the answer is keyed by it, as a refused
        field of a serializer is (``{"round_points": ["..."]}``), so a form shows it there."""

    def answer(self) -> dict[str, Any]:
        if self.field is None:
            return super().answer()
        return {self.field: [sentence(str(self))]}


LOCKED_MESSAGE = (
    "Picks are locked: the tournament's first game has been played or the pool's lock "
    "time has passed, so no entry can be changed any more."
)


STANDINGS_ORDER = ("-points", "-max_points", F("win_probability").desc(nulls_last=True), "id")
HIDDEN_UNTIL_LOCK = (
    "tiebreak", "points", "max_points", "alive", "correct", "expected", "win_probability",
    "win_error", "updated_at",
)  # fmt: skip
"""An entry's figures that tell its picks (the exact expected score of one pick is the
chance of the team picked; picks alive and the most reachable count them), and when it was
last saved (a rival reading it learns when its fan last picked): nobody but its fan reads
them before the pool locks, as its picks."""


def standings_order(challenge: Challenge, total: int | None = None) -> tuple[Any, ...]:
    """Return the order a pool's standings list its entries in: best first once it is
    locked; before, in the order they joined (a ranking would tell the hidden figures).
    ``total``, the final's points once it is played: entries level on points are then
    ordered by their tie-breaker, nearest first, one without last (as the pool's win is
    decided, and every place below it too: a reviewer's second places stayed level)."""
    if not is_locked(challenge):
        return ("id",)
    if total is None:
        return STANDINGS_ORDER
    return ("-points", "-max_points", Abs(F("tiebreak") - total).asc(nulls_last=True), "id")


"""A pool's standings: points, then the most still reachable, then the chance to win (once
the tournament is over, the winner on the tie-breaker is first among those level)."""


# -- the bracket as the challenge reads it ----------------------------------------------------


@dataclass(frozen=True)
class Field:
    """A tournament's bracket, its teams in index order and its stored results."""

    bracket: brackets.Bracket
    teams: list[int]
    index: dict[int, int]
    keys: list[str]
    winners: dict[str, int]

    @classmethod
    def of(cls, season: Season) -> Field:
        bracket = season_bracket(season)
        teams = sorted(bracket.seeds, key=lambda t: (bracket.seeds[t], t))
        return cls(
            bracket,
            teams,
            {t: i for i, t in enumerate(teams)},
            scoring.game_keys(bracket),
            winners_of(season),
        )

    def winner_vector(self) -> scoring.IntArray:
        return np.array([self.index.get(self.winners.get(k, -1), -1) for k in self.keys])

    def eliminated(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        out = np.zeros(len(self.teams), dtype=bool)
        entrants = brackets.entrants(self.bracket, self.winners)
        for key, winner in self.winners.items():
            top, bottom = entrants[key]
            loser = bottom if winner == top else top
            if loser in self.index:
                out[self.index[loser]] = True
        return out


def is_reseeded(bracket: brackets.Bracket) -> bool:
    return any(isinstance(s, brackets.Reseeded) for g in bracket.games for s in (g.top, g.bottom))


def tournament_started(season: Season) -> bool:
    """Tell whether any game of the tournament is being played or has been."""
    return season.games.exclude(status=Game.Status.SCHEDULED).exists()


def is_locked(challenge: Challenge, *, now: datetime | None = None) -> bool:
    """Tell whether the pool's picks are locked: its lock time has passed or the
    tournament's first game is being played or stored."""
    now = now or timezone.now()
    if challenge.lock_at is not None and challenge.lock_at <= now:
        return True
    return tournament_started(challenge.season)


JOIN_LOCKED_MESSAGE = (
    "Picks are locked, so this pool takes no new entries: the tournament's first game has "
    "been played or the pool's lock time has passed. Its standings are open to everyone."
)


def lock_check(challenge: Challenge, *, message: str = LOCKED_MESSAGE) -> None:
    """Refuse a change once the pool is locked, holding the tournament's unplayed games'
    rows until the caller's transaction ends: a worker's claim of the first game (a
    conditional UPDATE of its row) waits for a save in flight, and a save after the claim
    sees it. Call inside the transaction that writes the entry."""
    list(
        Game.objects.select_for_update()
        .filter(season_id=challenge.season_id, status=Game.Status.SCHEDULED)
        .values_list("pk", flat=True)
    )
    if is_locked(challenge):
        raise ChallengeRefused(message, status=409)


# -- pools ------------------------------------------------------------------------------------


def points_clean(round_points: object, rounds: int) -> list[int]:
    if not isinstance(round_points, list) or len(round_points) != rounds:
        raise ChallengeRefused(
            f"give the points of each of the bracket's {rounds} rounds, first round first "
            f"(e.g. {[2**r for r in range(rounds)]})",
            field="round_points",
        )
    if not all(
        isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 1000 for p in round_points
    ):
        raise ChallengeRefused(
            "each round's points must be a whole number from 0 to 1,000", field="round_points"
        )
    if not any(round_points):
        raise ChallengeRefused(
            "at least one round must be worth a point: with none, every entry would score 0 "
            "and the tie-breaker alone would decide the pool",
            field="round_points",
        )
    return list(round_points)


def challenge_check(challenge: Challenge) -> None:
    """Refuse a pool that cannot be run: not a tournament, started, reseeded, bad points,
    a lock time in the past. Fills the points when none are given (each round twice the
    last) and a private pool's invitation code when it has none."""
    season = challenge.season
    if season.kind != Season.Kind.TOURNAMENT or not season.bracket:
        raise ChallengeRefused(f"{season} is not a tournament: a challenge needs a bracket")
    bracket = season_bracket(season)
    if is_reseeded(bracket):
        raise ChallengeRefused(
            f"{season} re-pairs its teams after each round, so its games cannot be picked "
            "in advance"
        )
    same_name = Challenge.objects.filter(season=season, name__iexact=challenge.name.strip())
    if challenge.name.strip() and same_name.exclude(pk=challenge.pk).exists():
        raise ChallengeRefused(
            f"{season} already has a pool named {challenge.name.strip()!r}: give this one "
            "another name, so fans can tell them apart"
        )
    if challenge.round_points is None:  # by default each round is worth twice the last
        challenge.round_points = [2**r for r in range(bracket.rounds)]
    challenge.round_points = points_clean(challenge.round_points, bracket.rounds)
    code = challenge.invite_code.strip()
    if code and (len(code) < CODE_MIN or any(ch.isspace() for ch in code)):
        raise ChallengeRefused(
            f"the invitation code {code!r} is too easy to guess or to mistype: give one of "
            f"{CODE_MIN} characters or more, without spaces (fans type it from a message "
            "and open it from a link), or leave it empty for one made up"
        )
    challenge.invite_code = code
    if not challenge.public and not challenge.invite_code:
        challenge.invite_code = invite_code_new()


@transaction.atomic
def challenge_create(
    *,
    season: Season,
    name: str,
    round_points: Sequence[int] | None = None,
    lock_at: datetime | None = None,
    public: bool = True,
    invite_code: str = "",
    created_by: Any = None,
) -> Challenge:
    """Open a pool on a tournament that has not started."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if tournament_started(season):
        raise ChallengeRefused(
            f"{season} has started: a challenge opens only before the first game", status=409
        )
    if lock_at is not None and lock_at <= timezone.now():
        raise ChallengeRefused("the lock time must be in the future")
    if not name.strip():
        raise ChallengeRefused("give the pool a name")
    challenge = Challenge(
        season=season,
        name=name.strip(),
        round_points=list(round_points) if round_points is not None else None,
        lock_at=lock_at,
        public=public,
        invite_code=invite_code,
        created_by=created_by,
    )
    challenge_check(challenge)
    challenge.save()
    return challenge


# -- entries and picks ------------------------------------------------------------------------


def pick_entrants(
    bracket: brackets.Bracket, picks: Mapping[str, int]
) -> dict[str, tuple[int | None, int | None]]:
    """Return every game's ``(top, bottom)`` teams given the picks before it, ``None`` where
    the game feeding that side is not picked. Unlike the stored results, a pick needs only
    its own team to be there: a fan may send a team on before picking its next opponent
    (the page lets him). Refused naming the first pick that does not fit."""
    by_key = {game.key: game for game in bracket.games}
    unknown = sorted(set(picks) - set(by_key))
    if unknown:
        raise ChallengeRefused(
            f"there is no game {unknown[0]!r} in this bracket{brackets.keys_like(bracket)}"
        )
    teams: dict[str, tuple[int | None, int | None]] = {}

    def side(source: object) -> int | None:
        if isinstance(source, brackets.Seeded):
            return source.team_id
        if isinstance(source, brackets.WinnerOf):
            return picks.get(source.game_key)
        return None  # re-paired after each round: refused when the pool is opened

    for game in sorted(bracket.games, key=lambda g: g.round):
        top, bottom = side(game.top), side(game.bottom)
        teams[game.key] = (top, bottom)
        team = picks.get(game.key)
        if team is not None and team not in (top, bottom):
            raise ChallengeRefused(
                f"{_team_name(team)} cannot be picked to win game {game.key}: given the "
                f"picks before it, that game is {_game_words(top, bottom)}"
            )
    return teams


def _team_name(team: int) -> str:
    found = Team.objects.filter(pk=team).first()
    return str(found) if found is not None else f"team {team}"


def _game_words(top: int | None, bottom: int | None) -> str:
    known = [_team_name(t) for t in (top, bottom) if t is not None]
    if not known:
        return "not set yet (pick the games before it first)"
    if len(known) == 1:
        return f"{known[0]} against a team not picked yet"
    return f"{known[0]} against {known[1]}"


def picks_clean(bracket: brackets.Bracket, picks: object) -> dict[str, int]:
    """Return the picks checked against the bracket: every key a game, every team one that
    can be in that game given the picks before it. Refused naming the first bad pick."""
    if not isinstance(picks, dict):
        raise ChallengeRefused('picks must be an object {"game key": team id}')
    out: dict[str, int] = {}
    for key, team in picks.items():
        if not isinstance(team, int) or isinstance(team, bool):
            raise ChallengeRefused(f"the pick of game {key!r} must be a team id, got {team!r}")
        out[str(key)] = team
    pick_entrants(bracket, out)
    return out


def picks_merged(saved: Mapping[str, int], sent: object) -> object:
    """Return the saved picks with the picks sent laid over them (a JSON merge patch: a
    game sent null loses its pick), for :func:`picks_clean` to check whole; anything but an
    object is returned as sent, for it to refuse."""
    if not isinstance(sent, dict):
        return sent
    merged: dict[str, object] = {**saved, **{str(key): team for key, team in sent.items()}}
    return {key: team for key, team in merged.items() if team is not None}


def picks_prune(bracket: brackets.Bracket, picks: Mapping[str, int]) -> dict[str, int]:
    """Return the picks with every pick that no longer fits dropped (a later round whose
    team lost an earlier pick): what the page does when an earlier pick changes."""
    kept: dict[str, int] = {}
    for game in sorted(bracket.games, key=lambda g: g.round):
        if game.key not in picks:
            continue
        trial = {**kept, game.key: picks[game.key]}
        try:
            pick_entrants(bracket, trial)
        except ChallengeRefused:
            continue
        kept = trial
    return kept


def _ensure_pair(season: Season, table: league_odds.PairTable, top: int, bottom: int) -> None:
    """Make sure the table holds the game of ``top`` against ``bottom`` (with no background
    it is solved here); with a background every missing row of the tournament is sent
    there at once (a fill reads the bracket's games one after the other: asking for one
    pair at a time would keep the fan waiting a build per game) and
    :class:`~league.odds.OddsPending` raised."""
    try:
        table.ensure([(top, bottom)])
    except league_odds.OddsPending as pending:
        wanted = league_odds.season_pairs(season, table)
        missing = table.missing(wanted)
        homes = sorted({home for home, _ in missing} | set(pending.home_ids))
        league_odds.pair_table_request(season_id=season.pk, home_ids=homes)
        # The whole table's progress, as its pages tell it: the one pair asked for waits
        # behind the rest of the field ("1 of 1 pairs", a second's wait, read as nearly done).
        needed = max(len(set(wanted)), len(missing), 1)
        raise league_odds.OddsPending(
            ready=needed - max(len(missing), 1), needed=needed, home_ids=homes
        ) from pending


def picks_fill(season: Season, picks: Mapping[str, int], *, how: str) -> dict[str, int]:
    """Return the picks with every unpicked game filled: ``how="favourite"`` picks the
    better seed (the exact odds' favourite between equal seeds), ``how="odds"`` the team
    the exact pair odds favour. While the tournament's odds are being built a fill by odds
    is refused; a fill by seed fills every game it can and leaves the games between equal
    seeds whose odds are not ready (and the games they lead to) unpicked
    (:func:`picks_unfilled` names them)."""
    if how not in ("favourite", "odds"):
        raise ChallengeRefused('fill "favourite" or "odds"')
    bracket = season_bracket(season)
    out = picks_prune(bracket, picks)
    table = league_odds.season_table(season)
    for game in sorted(bracket.games, key=lambda g: g.round):
        if game.key in out:
            continue
        top, bottom = pick_entrants(bracket, out)[game.key]
        if top is None or bottom is None:  # after a game a fill by seed left open
            continue
        seeds = bracket.seeds
        if how == "favourite" and seeds[top] != seeds[bottom]:
            out[game.key] = top if seeds[top] < seeds[bottom] else bottom
            continue
        try:
            _ensure_pair(season, table, top, bottom)
        except league_odds.OddsPending as exc:
            if how == "favourite":
                continue  # equal seeds: the fan picks it, or fills again once odds are in
            pace = league_odds.build_pace(season.pk, exc.ready, exc.needed).rstrip(".")
            said = f" ({pace[0].lower()}{pace[1:]})" if pace else ""
            wait = retry_after(exc.needed - exc.ready, league_odds.ON_DEMAND_COACHED_PAIRS)
            again = (
                "fill by odds again once they are, or fill by seed now"
                if pace
                else f"try again in {wait_words(wait)}"
            )
            raise ChallengeRefused(
                f"the tournament's exact odds are still being computed: {exc.ready:,} of "
                f"{exc.needed:,} pairs are ready{said}; {again}",
                status=503,
                retry_after=wait,
            ) from exc
        out[game.key] = top if table.p(top, bottom) >= 0.5 else bottom
    return out


def picks_unfilled(season: Season, picks: Mapping[str, int]) -> int:
    """Return how many of a bracket's games ``picks`` leaves unpicked."""
    return sum(1 for game in season_bracket(season).games if game.key not in picks)


CODE_MIN = 6
"""The fewest characters of a commissioner's own invitation code."""

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""A made-up code's characters: no 0/O, 1/I/L to mistake for each other when a code is
read out or copied by hand."""


def invite_code_new() -> str:
    """Return a new invitation code: 10 of ``CODE_LETTERS`` (31^10, about 8 x 10^14 codes)."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(10))


def code_matches(challenge: Challenge, code: str) -> bool:
    """Tell whether ``code`` is the pool's invitation code, in any case (a code typed from
    a message: "abcd" opens a pool whose code is "ABCD"), compared in constant time as
    UTF-8 bytes (a commissioner's own code may hold any character)."""
    given = code.strip().casefold().encode()
    kept = challenge.invite_code.strip().casefold().encode()
    return bool(given) and secrets.compare_digest(given, kept)


def can_view_pool(challenge: Challenge, user: Any, code: str = "") -> bool:
    """Tell whether ``user`` may read a pool: a public one, anyone; a private one, its fans
    (those with an entry), whoever opened it, commissioners, and anyone bringing its
    invitation ``code`` (the link its commissioner shares: ``/challenges/ID/?code=...``)."""
    if challenge.public:
        return True
    if code and code_matches(challenge, code):
        return True
    if not user.is_authenticated:
        return False
    if challenge.created_by_id == user.pk or is_commissioner(user):
        return True
    return Entry.objects.filter(challenge=challenge, user=user).exists()


def can_see_picks(entry: Entry, user: Any) -> bool:
    """A fan sees his own picks always and anyone's once the pool is locked."""
    return bool(user.is_authenticated and entry.user_id == user.pk) or is_locked(entry.challenge)


def entry_name(name: str) -> str:
    """Return an entry's name as it is kept: its runs of spaces one space (two spaces read as
    one on a page), at most 60 characters."""
    return " ".join(name.split())[:60]


def _name_check(challenge: Challenge, name: str, *, entry: Entry | None = None) -> None:
    """Refuse an entry's name another entry of the pool has (in any case, accents too: SQLite
    compares only ASCII letters without case, and a reviewer's "Équipe Été" and "équipe
    été" were both taken there): the standings name the entries alone, so two "My bracket"
    rows could not be told apart, by their fans either."""
    mine = entry_name(name).casefold()
    others = Entry.objects.filter(challenge=challenge)
    if entry is not None:
        others = others.exclude(pk=entry.pk)
    if any(entry_name(n).casefold() == mine for n in others.values_list("name", flat=True)):
        raise ChallengeRefused(
            f"another entry in this pool is called “{name}”: give yours another name",
            status=409,
            field="name",
        )


@transaction.atomic
def entry_join(*, challenge: Challenge, user: Any, name: str = "", invite_code: str = "") -> Entry:
    """Make a fan's entry in a pool (one a fan), before the lock; a private pool wants its code."""
    if not user.is_authenticated:
        raise ChallengeRefused("sign in to join a pool", status=403)
    challenge = Challenge.objects.select_for_update().get(pk=challenge.pk)
    lock_check(challenge, message=JOIN_LOCKED_MESSAGE)
    if not challenge.public and not code_matches(challenge, invite_code):
        said = "the code is not right" if invite_code.strip() else "give its invitation code"
        raise ChallengeRefused(f"this pool is joined by invitation: {said}", status=403)
    if Entry.objects.filter(challenge=challenge, user=user).exists():
        raise ChallengeRefused("you already have an entry in this pool", status=409)
    name = entry_name(name or f"{user.get_username()}'s bracket")
    _name_check(challenge, name)
    entry = Entry.objects.create(challenge=challenge, user=user, name=name)
    Challenge.objects.filter(pk=challenge.pk).update(entry_count=F("entry_count") + 1)
    # Scored at once (an empty bracket expects 0), so its page's "-" means the odds are
    # still being built, not that nothing was worked out.
    challenge_rescore(challenge_ids=[challenge.pk], entry_ids=[entry.pk])
    entry.refresh_from_db()
    return entry


@transaction.atomic
def entry_save(
    *,
    entry: Entry,
    user: Any,
    picks: object = None,
    tiebreak: object = None,
    name: str | None = None,
    fill: str | None = None,
    version: str | None = None,
    merge: bool = False,
) -> Entry:
    """Save a fan's picks (all of them, or with ``merge`` those sent over the saved ones:
    :func:`picks_merged`), tie-breaker and name; refused after the lock and for anyone but
    the entry's fan, and with a pick that does not fit, nothing saved (the picks are
    checked whole before any is). ``fill`` fills the unpicked games (:func:`picks_fill`).
    ``version`` is the :func:`entry_version` the fan's page was made from: a save from a
    page older than the entry (another tab or device saved since) is refused, so it never
    silently undoes the other save. An empty ``tiebreak`` ("") clears it; None keeps it."""
    entry = Entry.objects.select_for_update().select_related("challenge__season").get(pk=entry.pk)
    if not (user.is_authenticated and entry.user_id == user.pk):
        raise ChallengeRefused("only the fan who made this entry can change it", status=403)
    lock_check(entry.challenge)
    if version is not None and version != entry_version(entry):
        raise ChallengeRefused(
            "this bracket was saved from another tab or device after this page was opened; "
            "below are the picks you sent (the saved ones are on a fresh copy of the page): "
            "save again to keep these",
            status=409,
        )
    season = entry.challenge.season
    bracket = season_bracket(season)
    if picks is not None:
        entry.picks = picks_clean(bracket, picks_merged(entry.picks, picks) if merge else picks)
    if fill:
        entry.picks = picks_fill(season, entry.picks, how=fill)
    entry.pick_row = scoring.pick_row(entry.picks, scoring.game_keys(bracket))
    if tiebreak == "":
        entry.tiebreak = None
    elif tiebreak is not None:
        try:
            value = int(tiebreak)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            raise ChallengeRefused(
                "the tie-breaker is the final's total points: a whole number"
            ) from None
        if not 0 <= value <= 500:
            raise ChallengeRefused("the tie-breaker must be from 0 to 500 points")
        entry.tiebreak = value
    if name is not None:
        if not name.strip():
            raise ChallengeRefused("give the entry a name")
        if entry_name(name) != entry.name:
            # the pool's row held, as a join holds it: two renames to one name wait in turn
            Challenge.objects.select_for_update().filter(pk=entry.challenge_id).first()
            _name_check(entry.challenge, entry_name(name), entry=entry)
        entry.name = entry_name(name)
    entry.save()
    challenge_rescore(challenge_ids=[entry.challenge_id], entry_ids=[entry.pk])
    entry.refresh_from_db()
    return entry


def entry_version(entry: Entry) -> str:
    """The version of an entry's picks a page was made from: the time of its latest save
    (the scoring writes its columns without touching it)."""
    return entry.updated_at.isoformat()


# -- live scoring -----------------------------------------------------------------------------


def _pair_matrix(season: Season, field: Field) -> scoring.FloatArray | None:
    """The exact pair odds of the bracket's possible pairs, or None while they are not all
    stored (nothing is solved here: this runs in the game-storing transaction)."""
    table = league_odds.season_table(season)
    pairs = brackets.possible_pairs(field.bracket, field.winners) or set()
    if table.missing(pairs):
        return None
    out: scoring.FloatArray = table.matrix(field.teams)
    return out


def _write(rows: list[tuple[Any, ...]]) -> None:
    """Write (id, points, max, alive, correct, expected) of many entries in one statement."""
    if not rows:
        return
    table = Entry._meta.db_table
    if connection.vendor == "postgresql":
        ids, pts, mx, alive, correct, expected = (list(c) for c in zip(*rows, strict=True))
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} AS e SET points = v.points, max_points = v.max_points, "
                "alive = v.alive, correct = v.correct, expected = v.expected "
                "FROM unnest(%s::bigint[], %s::float8[], %s::float8[], %s::int[], %s::int[], "
                "%s::float8[]) AS v(id, points, max_points, alive, correct, expected) "
                "WHERE e.id = v.id",
                [ids, pts, mx, alive, correct, expected],
            )
        return
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET points = %s, max_points = %s, alive = %s, correct = %s, "
            "expected = %s WHERE id = %s",
            [(*row[1:], row[0]) for row in rows],
        )


def challenge_rescore(
    *,
    challenge_ids: Sequence[int] | None = None,
    season_id: int | None = None,
    entry_ids: Sequence[int] | None = None,
) -> dict[str, float]:
    """Score the entries of pools (given, or every pool of a tournament) against the stored
    games: points, the most still reachable, picks alive and right, and the exact expected
    final score (left as it was while the pair odds are not all stored). Return counts and
    seconds. Call inside the transaction that stored the games."""
    started = time.perf_counter()
    pools = Challenge.objects.select_related("season")
    if challenge_ids is not None:
        pools = pools.filter(pk__in=challenge_ids)
    if season_id is not None:
        pools = pools.filter(season_id=season_id)
    counted = 0
    fields: dict[int, tuple[Field, scoring.FloatArray | None]] = {}
    for pool in pools:
        if pool.season_id not in fields:
            field = Field.of(pool.season)
            fields[pool.season_id] = (field, _pair_matrix(pool.season, field))
        field, p = fields[pool.season_id]
        entries = Entry.objects.filter(challenge=pool)
        if entry_ids is not None:
            entries = entries.filter(pk__in=entry_ids)
        ids, rows = [], []
        for pk, row in entries.values_list("pk", "pick_row"):
            ids.append(pk)
            rows.append(row)
        if not ids:
            if entry_ids is None:  # an empty pool still counts the games played
                Challenge.objects.filter(pk=pool.pk).update(
                    scored_games=len(field.winners), entry_count=0
                )
            continue
        matrix = scoring.rows_matrix(rows, len(field.keys), field.index)
        points = scoring.game_points(field.bracket, pool.round_points)
        scores = scoring.live_scores(matrix, field.winner_vector(), field.eliminated(), points)
        if p is not None:
            laws = scoring.game_law_matrix(field.bracket, field.winners, field.index, p)
            expected: list[float | None] = scoring.expected_scores(matrix, laws, points).tolist()
        else:
            expected = [None] * len(ids)
        _write(
            list(
                zip(
                    ids,
                    scores.points.tolist(),
                    scores.max_points.tolist(),
                    scores.alive.tolist(),
                    scores.correct.tolist(),
                    expected,
                    strict=True,
                )
            )
        )
        known = [e for e in expected if e is not None]
        if entry_ids is None:
            Challenge.objects.filter(pk=pool.pk).update(
                scored_games=len(field.winners),
                entry_count=len(ids),
                best_expected=max(known) if known else None,
            )
        else:  # one entry saved: the best of the pool may have moved either way
            Challenge.objects.filter(pk=pool.pk).update(best_expected=_best_expected(pool.pk))
        counted += len(ids)
    return {"entries": counted, "seconds": time.perf_counter() - started}


def challenge_win_odds(
    *, challenge_id: int, samples: int = WIN_SAMPLES, seed: int | None = None
) -> dict[str, Any]:
    """Simulate the rest of the tournament ``samples`` times from the exact pair odds and
    store each entry's chance of winning the pool, with its standard error. Returns
    ``{"entries", "samples", "seconds"}``, or ``{"pending": ...}`` while the odds are built."""
    started = time.perf_counter()
    pool = Challenge.objects.select_related("season").get(pk=challenge_id)
    if not is_locked(pool):
        # A fan saving one pick at a time could read the others' brackets off his own
        # chance (a review did: two identical brackets tie every draw, 50% exactly).
        Entry.objects.filter(challenge=pool).update(win_probability=None, win_error=None)
        return {"pending": BEFORE_LOCK}
    field = Field.of(pool.season)
    if len(field.winners) == len(field.keys):  # the tournament is over: nothing to draw
        return _pool_decided(pool)
    p = _pair_matrix(pool.season, field)
    if p is None:
        return {"pending": "the tournament's exact pair odds are still being computed"}
    rows = list(Entry.objects.filter(challenge=pool).values_list("pk", "pick_row"))
    if not rows:
        return {"entries": 0, "samples": samples, "seconds": 0.0}
    matrix = scoring.rows_matrix([r[1] for r in rows], len(field.keys), field.index)
    points = scoring.game_points(field.bracket, pool.round_points)
    outcomes = scoring.simulate_winners(
        field.bracket,
        field.winners,
        field.index,
        p,
        samples=samples,
        seed=pool.season.seed + len(field.winners) if seed is None else seed,
    )
    prob, error = scoring.win_probabilities(matrix, outcomes, points)
    with transaction.atomic():
        table = Entry._meta.db_table
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {table} SET win_probability = %s, win_error = %s WHERE id = %s",
                [(float(a), float(b), r[0]) for a, b, r in zip(prob, error, rows, strict=True)],
            )
        Challenge.objects.filter(pk=pool.pk).update(
            odds_updated_at=timezone.now(), win_samples=samples
        )
    return {"entries": len(rows), "samples": samples, "seconds": time.perf_counter() - started}


@dataclass(frozen=True)
class PoolResult:
    """A finished pool: the final's total points and the entries that won it (more than one
    when points and tie-breaker leave them level: they share the win)."""

    final_total: int
    winners: list[Entry]


def final_total(season: Season) -> int | None:
    """Return the points both teams scored in the tournament's final, once it is stored."""
    bracket = season_bracket(season)
    (final,) = (g for g in bracket.games if g.round == bracket.rounds)
    row = (
        Game.objects.filter(season=season, bracket_key=final.key, status=Game.Status.FINAL)
        .values_list("result__home_score", "result__away_score")
        .first()
    )
    return None if row is None else int(row[0]) + int(row[1])


def pool_result(challenge: Challenge) -> PoolResult | None:
    """Return who won the pool once its tournament is over, else None: the most points; a
    tie goes to the tie-breaker nearest the final's total points (an entry without one
    loses it to any with one), and entries still level share the win."""
    total = final_total(challenge.season)
    if total is None:
        return None
    top = Entry.objects.filter(challenge=challenge).select_related("user").order_by("-points")
    first = top.first()
    if first is None:
        return PoolResult(total, [])
    level = list(top.filter(points=first.points).order_by("id"))

    def miss(e: Entry) -> float:
        return abs(e.tiebreak - total) if e.tiebreak is not None else float("inf")

    best = min(miss(e) for e in level)
    return PoolResult(total, [e for e in level if miss(e) == best])


def _pool_decided(pool: Challenge) -> dict[str, Any]:
    """Store the win of a finished pool: 1 shared among its winners, 0 for the rest, with
    no error (nothing is left to draw)."""
    result = pool_result(pool)
    winners = {e.pk for e in result.winners} if result is not None else set()
    with transaction.atomic():
        Entry.objects.filter(challenge=pool).update(win_probability=0.0, win_error=0.0)
        if winners:
            Entry.objects.filter(pk__in=winners).update(win_probability=1 / len(winners))
        Challenge.objects.filter(pk=pool.pk).update(odds_updated_at=timezone.now(), win_samples=0)
    names = [f"{e.name} ({e.user.get_username()})" for e in result.winners] if result else []
    return {"entries": pool.entry_count, "samples": 0, "seconds": 0.0, "winners": names}


def _best_expected(challenge_id: int) -> float | None:
    """The best expected score in the pool, read on the write path (an index scan) and kept
    on the pool as ``best_expected``: "your bracket's expected score against the field's
    best"."""
    best = Entry.objects.filter(challenge_id=challenge_id, expected__isnull=False).order_by(
        "-expected"
    )
    value = best.values_list("expected", flat=True).first()
    return None if value is None else float(value)


def entry_needs(entry: Entry) -> list[dict[str, Any]]:
    """What the pool needs, for one entry: the undecided games whose picked team is still
    alive, each with the team it needs, its round, the opponent when both teams are known
    (``against_id``, else None) and the points at stake, in the bracket's game order."""
    season = entry.challenge.season
    field = Field.of(season)
    eliminated = field.eliminated()
    rounds = {g.key: g.round for g in field.bracket.games}
    teams = brackets.entrants(field.bracket, field.winners)
    out = []
    for key in field.keys:
        team = entry.picks.get(key)
        if key in field.winners or team not in field.index or eliminated[field.index[team]]:
            continue
        top, bottom = teams[key]
        against = bottom if team == top else top if team == bottom else None
        out.append(
            {"key": key, "team_id": team, "points": entry.challenge.round_points[rounds[key] - 1],
             "round": rounds[key], "against_id": against}
        )  # fmt: skip
    return out


# -- leaving a pool, and who picked whom --------------------------------------------------------

LEAVE_LOCKED_MESSAGE = (
    "Picks are locked, so every entry stays in its pool to the end: the tournament's first "
    "game has been played or the pool's lock time has passed."
)


@transaction.atomic
def entry_leave(*, entry: Entry, user: Any) -> None:
    """Take a fan's entry out of its pool, picks and all: his own, before the lock (after
    it, the standings and every rival's figures count it)."""
    entry = Entry.objects.select_for_update().select_related("challenge").get(pk=entry.pk)
    if not (user.is_authenticated and entry.user_id == user.pk):
        raise ChallengeRefused("only the fan who made this entry can take it out", status=403)
    lock_check(entry.challenge, message=LEAVE_LOCKED_MESSAGE)
    pool_id = entry.challenge_id
    entry.delete()  # the pool's count follows (challenge.receivers.entry_deleted)
    Challenge.objects.filter(pk=pool_id).update(best_expected=_best_expected(pool_id))


PICKS_HIDDEN = (
    "who picked whom is shown once the pool locks: before, it would tell the entries' hidden picks"
)


@dataclass(frozen=True)
class GamePicks:
    """How a locked pool's entries picked one game of the bracket."""

    key: str
    round: int
    region: str | None
    """None between regions, as the bracket says (``brackets.BracketGame.region``)."""
    position: int
    """Its place down the bracket within its round and region, from 1."""
    teams: tuple[int | None, int | None]
    """The game's two teams as far as the games played tell them (None: not known yet)."""
    picks: tuple[tuple[int, int], ...]
    """(team id, entries that picked it to win this game), most picked first; a team the
    games played have put in this game is there even when nobody picked it (0)."""
    unpicked: int
    """Entries that left this game unpicked."""
    replaced: int
    """Entries whose pick for this game names a team no longer in the bracket (replaced
    after the lock: a dead pick, docs/challenge.md)."""
    winner: int | None
    out: frozenset[int]
    """The teams of ``picks`` beaten in a game played of this game's round or an earlier one
    (this game's loser, or a team that lost before reaching it), never a team that won it
    and lost later."""


def pick_counts(challenge: Challenge) -> tuple[int, dict[str, list[tuple[int, int]]]]:
    """Return the pool's entries and ``{game key: [(team id, entries picking it), ...]}``,
    most picked first, a team no longer in the bracket counted under team id 0; kept in
    the cache until an entry changes (by their count and latest save: after the lock only
    the admin changes entries) or the bracket does (by its teams)."""
    stamp = Entry.objects.filter(challenge=challenge).aggregate(
        n=Count("id"), latest=Max("updated_at")
    )
    latest = stamp["latest"].isoformat() if stamp["latest"] else "-"
    bracket = season_bracket(challenge.season)
    teams = sorted(bracket.seeds)
    field = hashlib.blake2b(repr(teams).encode(), digest_size=8).hexdigest()
    key = f"challenge-picks:{challenge.pk}:{stamp['n']}:{latest}:{field}"
    kept = cache.get(key)
    if kept is not None:
        return int(kept[0]), dict(kept[1])
    keys = scoring.game_keys(bracket)
    rows = list(Entry.objects.filter(challenge=challenge).values_list("pick_row", flat=True))
    index = {t: i for i, t in enumerate(teams)}
    matrix = scoring.rows_matrix(rows, len(keys), index, unpicked=-2)
    counted: dict[str, list[tuple[int, int]]] = {}
    for column, game_key in enumerate(keys):
        picked = matrix[:, column]
        tally = np.bincount(picked[picked >= 0], minlength=len(teams))
        order = sorted((-int(n), i) for i, n in enumerate(tally) if n)
        counted[game_key] = [(teams[i], -n) for n, i in order]
        gone = int(np.count_nonzero(picked == -1))
        if gone:
            counted[game_key].append((0, gone))
    cache.set(key, (len(rows), counted), timeout=24 * 3600)
    return len(rows), counted


def beaten_teams(bracket: brackets.Bracket, winners: Mapping[str, int]) -> set[int]:
    """Return the teams beaten in a game played (out of the tournament)."""
    return set(beaten_in_round(bracket, winners))


def beaten_in_round(bracket: brackets.Bracket, winners: Mapping[str, int]) -> dict[int, int]:
    """Return ``{team: the round of the game it lost}`` for the games played."""
    known = brackets.entrants(bracket, winners)
    rounds = {game.key: game.round for game in bracket.games}
    return {
        team: rounds[key]
        for key, won in winners.items()
        for team in known.get(key, (None, None))
        if team is not None and team != won
    }


def give_places(
    challenge: Challenge, rows: list[Entry], start: int, total: int | None = None
) -> None:
    """Give each row of a standings page, the pool page's or the API's (its first the
    ``start``-th of the pool, from 0, in :func:`standings_order`), its place: entries level
    on points and on the most still reachable share it ("1, 1, 3"); once the final is played
    (``total``, its points) the tie-breaker parts them, nearest first and one without last,
    at every place (the winners alone at 1). The first row's is counted in one query, as a
    tie may begin on the page before."""
    if not rows:
        return

    def miss(e: Entry) -> float:
        assert total is not None
        return abs(e.tiebreak - total) if e.tiebreak is not None else math.inf

    def key(e: Entry) -> tuple[float, ...]:
        return (e.points, e.max_points, *((miss(e),) if total is not None else ()))

    first = rows[0]
    level = Q(points=first.points, max_points=first.max_points)
    ahead = Q(points__gt=first.points) | Q(points=first.points, max_points__gt=first.max_points)
    entries = Entry.objects.filter(challenge=challenge)
    if total is not None:
        entries = entries.annotate(miss=Abs(F("tiebreak") - total))
        nearer = Q(tiebreak__isnull=False)
        if first.tiebreak is not None:
            nearer &= Q(miss__lt=miss(first))
        ahead |= level & nearer
    place = entries.filter(ahead).count() + 1
    for i, e in enumerate(rows):
        if i and key(e) != key(rows[i - 1]):
            place = start + i + 1
        e.place = place  # type: ignore[attr-defined]


def who_picked_whom(challenge: Challenge) -> list[GamePicks]:
    """Return how the pool's entries picked every game, in the bracket's order; refused
    before the lock (:data:`PICKS_HIDDEN`)."""
    if not is_locked(challenge):
        raise ChallengeRefused(PICKS_HIDDEN, status=403)
    season = challenge.season
    bracket = season_bracket(season)
    winners = winners_of(season)
    known = brackets.entrants(bracket, winners)
    total, counted = pick_counts(challenge)
    beaten = beaten_in_round(bracket, winners)
    out = []
    for game in sorted(bracket.games, key=lambda g: (g.round, g.region or "", g.position)):
        counts = dict(counted.get(game.key, ()))
        replaced = counts.pop(0, 0)
        teams = known.get(game.key, (None, None))
        both = [t for t in teams if t is not None]
        if len(both) == 2:  # the two teams known: each listed, picked by nobody or not
            counts = {t: counts.get(t, 0) for t in both} | counts
        picks = tuple(sorted(counts.items(), key=lambda tn: -tn[1]))  # stable: known first
        out.append(
            GamePicks(
                key=game.key,
                round=game.round,
                region=game.region,
                position=game.position,
                teams=teams,
                picks=picks,
                unpicked=max(total - sum(n for _, n in picks) - replaced, 0),
                replaced=replaced,
                winner=winners.get(game.key),
                # beaten in this game or an earlier one: a winner that lost later is not
                out=frozenset(t for t, _ in picks if beaten.get(t, game.round + 1) <= game.round),
            )
        )
    return out
