"""Research runs: many games of chosen matchups, a season or a bracket, tallied, not stored.

A run is fixed when it is made (:class:`Plan`): the teams' cards as they stand then, the
rules, the games of one repetition (matchups, a season's schedule or a bracket), how many
repetitions and the first seed. Game ``k`` of the run (repetitions in order, each
repetition's games in order; a bracket's in the order it plays them) is played with seed
``game_seed(seed, k)`` (:func:`game_seed`: the run's seed and ``k`` mixed, so runs of
seeds 1, 2, 3 share no game), so any game of a run can be played again on its own and a run
gives the same figures whoever plays it, on any number of workers on any hosts.

Every game the league hosts can be researched: a VABG run plays the teams' cards with the
exact coach; a six dice or grid court run plays each team's coach styles (its team file) by
the season's rule options, and tallies the game's own box-score counts (``research_columns``).

The run is cut into chunks of whole repetitions; each chunk is played
(:func:`play_chunk`) into a :class:`Tally` of integer sums, and the chunks' tallies add up
to the run's (written out as means by ``league.research_outputs``). Pure: plans in,
tallies out; the league stores the chunks (``league.research_runs``) and the workers play
them (``tasks.research_chunk``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, NamedTuple, Protocol

from league import bracket as brackets
from league.coaches import coach_for
from simulator import SeededDice
from simulator.games import DEFAULT_GAME, find_game
from simulator.results import PlayerLine, TeamBox
from simulator.vabg import GameRules, TeamCard, play_game, team_from_json
from simulator.vabg.coaching import Coach
from simulator.vabg.engine import rules_coach

BOX = (
    "pts",
    "fgm",
    "fga",
    "tpm",
    "tpa",
    "ftm",
    "fta",
    "oreb",
    "dreb",
    "reb",
    "stl",
    "blk",
    "to",
    "pf",
)
"""VABG's box-score counts tallied for every team and player (a team's are its players' sums)."""
POINTS_KEYS = frozenset({"pts", "score"})
"""The columns another game's box score holds a team's points in: tallied from the score."""
GAMES_PER_CHUNK = 2000
"""About how many games one chunk plays (whole repetitions): a few seconds of a worker."""


SEEDING = 2
"""How a new run's games are seeded (:func:`game_seed`); :attr:`Plan.seeding`."""
_MASK64 = (1 << 64) - 1


def game_seed(seed: int, k: int) -> int:
    """Return the seed of game ``k`` (from 0) of a run seeded ``seed``: SplitMix64's
    finaliser of ``seed + (k + 1) * golden ratio``, in 63 bits (a seed the league stores).

    Runs seeded 1 and 2 play unrelated games: with ``seed + k`` they shared all but one,
    and a statistician's replicates seeded 1, 2, 3 were copies (a research reviewer).

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(2, 0)
    True
    >>> {game_seed(1, k) for k in range(1000)} & {game_seed(2, k) for k in range(1000)}
    set()
    >>> 0 <= game_seed(2**63 - 1, 10**9) < 2**63
    True
    """
    z = (seed + (k + 1) * 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) >> 1


class Kind(StrEnum):
    """What one repetition of a run plays."""

    MATCHUPS = "matchups"
    """Each chosen (home, away, court) once."""
    SEASON = "season"
    """A season's whole schedule: wins, and who finishes first."""
    BRACKET = "bracket"
    """A tournament's bracket from its first round to its champion."""


class PlanError(ValueError):
    """Raise for a run that cannot be made; the message names what is wrong."""


def research_columns(game: str) -> tuple[str, ...]:
    """Return the counts a run of ``game`` tallies for each team, points first: VABG's
    :data:`BOX`; another game's points (its score), then its box score's counts, its lines'
    totals (grid court's pieces) before the team's own figures, rates left out (a sum of
    grid court's points per possession means nothing: its points and possessions are
    tallied)."""
    if game == DEFAULT_GAME:
        return BOX
    engine = find_game(game)
    keys = dict.fromkeys(
        c.key
        for c in (*engine.columns, *engine.team_columns)
        if not c.rate and c.key not in POINTS_KEYS
    )
    return ("pts", *keys)


@dataclass(frozen=True)
class Plan:
    """Everything a run plays, fixed when it is made (JSON round trip: ``to_json``)."""

    kind: Kind
    teams: tuple[Any, ...]
    """Each team as it stood when the run was made: a VABG run's cards (:class:`TeamCard`),
    another game's team files (school, season and coach styles, as the league plays them)."""
    rules: Any
    """The game's rules (VABG: :class:`GameRules`)."""
    repetitions: int
    seed: int
    games: tuple[tuple[int, int, bool], ...] = ()
    """Matchups and seasons: (home, away, neutral) as indexes into ``teams``."""
    bracket: brackets.Bracket | None = None
    """Brackets: team ids in it are indexes into ``teams``."""
    neutral: bool = True
    """Brackets: neutral courts (else the better seed at home)."""
    team_ids: tuple[int, ...] = ()
    """The league's id of each team (for the outputs), in ``teams`` order."""
    conferences: tuple[str, ...] = ()
    """Seasons: the group each team plays in, in ``teams`` order ("" for a season with no
    conferences; empty: one group of every team). A team finishes first in its group as
    the season's standings rank it: by its conference games' win percentage in a named
    group, by all its games' in ""."""
    game: str = DEFAULT_GAME
    """The game played (``simulator.games``)."""
    seeding: int = SEEDING
    """How game ``k``'s seed comes from ``seed`` (:func:`game_seed`): 2, mixed; 1, ``seed +
    k``, as runs made before 2026-11-30 were played (their plans say no seeding)."""

    def game_seed(self, k: int) -> int:
        """Return the seed game ``k`` of the run (from 0) is played with."""
        return game_seed(self.seed, k) if self.seeding == SEEDING else self.seed + k

    def __post_init__(self) -> None:
        if self.repetitions < 1:
            raise PlanError(f"a run plays at least one repetition, not {self.repetitions}")
        if self.kind == Kind.BRACKET:
            if self.bracket is None:
                raise PlanError("a bracket run needs its bracket")
        elif not self.games:
            raise PlanError(f"a {self.kind} run needs at least one game")
        if len(self.teams) < 2:
            raise PlanError("a run needs at least two teams")
        if self.conferences and len(self.conferences) != len(self.teams):
            raise PlanError(
                f"{len(self.conferences)} conferences named for {len(self.teams)} teams"
            )

    @property
    def columns(self) -> tuple[str, ...]:
        """Return the counts tallied for each team (and VABG's players): ``research_columns``."""
        return research_columns(self.game)

    @property
    def line_columns(self) -> tuple[str, ...]:
        """Return the counts tallied for each line of a box score: VABG's players'
        (:data:`BOX`), grid court's pieces' (its line columns, "piece N" each); none for a
        game whose box score has no lines (six dice)."""
        if self.game == DEFAULT_GAME:
            return BOX
        return tuple(c.key for c in find_game(self.game).columns if not c.rate)

    def label(self, team: int) -> str:
        """Return how the outputs name team ``team``: "School Season"."""
        got = self.teams[team]
        if self.game == DEFAULT_GAME:
            return str(got.label)
        return f"{got['school']} {got['season']}"

    @property
    def games_per_repetition(self) -> int:
        """Return how many games one repetition plays."""
        if self.bracket is not None:
            return len(self.bracket.games)
        return len(self.games)

    @property
    def total_games(self) -> int:
        """Return how many games the whole run plays."""
        return self.repetitions * self.games_per_repetition

    def chunks(self, games_per_chunk: int = GAMES_PER_CHUNK) -> list[tuple[int, int]]:
        """Return the run's chunks as [first repetition, last + 1) ranges, in order."""
        per = max(1, games_per_chunk // self.games_per_repetition)
        return [(a, min(a + per, self.repetitions)) for a in range(0, self.repetitions, per)]

    def to_json(self) -> dict[str, Any]:
        """Return the plan as JSON (what a worker on any host reads back)."""
        vabg = self.game == DEFAULT_GAME
        return {
            "game": self.game,
            "kind": str(self.kind),
            "teams": [t.to_json() if vabg else dict(t) for t in self.teams],
            "team_ids": list(self.team_ids),
            "rules": self.rules.to_json(),
            "repetitions": self.repetitions,
            "seed": self.seed,
            "games": [list(g) for g in self.games],
            "bracket": None if self.bracket is None else brackets.bracket_to_json(self.bracket),
            "neutral": self.neutral,
            "conferences": list(self.conferences),
            "seeding": self.seeding,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Plan:
        """Read a plan written by :meth:`to_json`."""
        bracket = data.get("bracket")
        game = str(data.get("game", DEFAULT_GAME))  # a run made before other games had runs
        vabg = game == DEFAULT_GAME
        return cls(
            game=game,
            kind=Kind(data["kind"]),
            teams=tuple(team_from_json(t) if vabg else dict(t) for t in data["teams"]),
            team_ids=tuple(int(i) for i in data.get("team_ids", ())),
            rules=(GameRules.from_json if vabg else find_game(game).rules_from_json)(data["rules"]),
            repetitions=int(data["repetitions"]),
            seed=int(data["seed"]),
            games=tuple((int(h), int(a), bool(n)) for h, a, n in data.get("games", ())),
            bracket=None if bracket is None else brackets.bracket_from_json(bracket),
            neutral=bool(data.get("neutral", True)),
            conferences=tuple(str(c) for c in data.get("conferences", ())),
            seeding=int(data.get("seeding", 1)),  # a run made before seeds were mixed
        )


def _zeros() -> list[int]:
    return [0] * len(BOX)


@dataclass
class TeamSums:
    """One team's sums over the games it played (``box``: its players' totals, ``BOX`` order)."""

    games: int = 0
    wins: int = 0
    points_against: int = 0
    overtimes: int = 0
    box: list[int] = field(default_factory=_zeros)
    firsts: int = 0
    """Seasons: repetitions it finished first in its group (a tie counts for each):
    :attr:`Plan.conferences`."""
    reached: list[int] = field(default_factory=list)
    """Brackets: ``reached[r]``, repetitions it played a game of round ``r + 1``."""
    titles: int = 0


@dataclass
class PlayerSums:
    """One player's sums over the games he was on his team's sheet."""

    games: int = 0
    box: list[int] = field(default_factory=_zeros)


@dataclass
class PairSums:
    """One (home, away, court) pairing's sums; ``margins`` counts each home-minus-away margin."""

    games: int = 0
    home_wins: int = 0
    home_points: int = 0
    away_points: int = 0
    overtimes: int = 0
    margins: dict[int, int] = field(default_factory=dict)


@dataclass
class Tally:
    """A run's (or a chunk's) sums: add chunks with :meth:`add`; every figure is an integer."""

    games: int = 0
    teams: dict[int, TeamSums] = field(default_factory=dict)
    players: dict[tuple[int, str], PlayerSums] = field(default_factory=dict)
    pairs: dict[tuple[int, int, bool], PairSums] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        """Add another tally's sums to this one."""
        self.games += other.games
        for i, t in other.teams.items():
            mine = _team(self, i, len(t.box))
            mine.games += t.games
            mine.wins += t.wins
            mine.points_against += t.points_against
            mine.overtimes += t.overtimes
            mine.box = [a + b for a, b in zip(mine.box, t.box, strict=True)]
            mine.firsts += t.firsts
            mine.titles += t.titles
            if len(mine.reached) < len(t.reached):
                mine.reached += [0] * (len(t.reached) - len(mine.reached))
            for r, n in enumerate(t.reached):
                mine.reached[r] += n
        for key, p in other.players.items():
            mp = self.players.setdefault(key, PlayerSums(box=[0] * len(p.box)))
            mp.games += p.games
            mp.box = [a + b for a, b in zip(mp.box, p.box, strict=True)]
        for pair, q in other.pairs.items():
            mq = self.pairs.setdefault(pair, PairSums())
            mq.games += q.games
            mq.home_wins += q.home_wins
            mq.home_points += q.home_points
            mq.away_points += q.away_points
            mq.overtimes += q.overtimes
            for m, n in q.margins.items():
                mq.margins[m] = mq.margins.get(m, 0) + n

    def to_json(self) -> dict[str, Any]:
        """Return the tally as JSON (a chunk's row stores it)."""
        return {
            "games": self.games,
            "teams": {str(i): vars(t) for i, t in self.teams.items()},
            "players": [[i, name, p.games, p.box] for (i, name), p in self.players.items()],
            "pairs": [
                [h, a, n, q.games, q.home_wins, q.home_points, q.away_points, q.overtimes,
                 {str(m): c for m, c in q.margins.items()}]
                for (h, a, n), q in self.pairs.items()
            ],
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        """Read a tally written by :meth:`to_json`."""
        out = cls(games=int(data["games"]))
        out.teams = {int(i): TeamSums(**t) for i, t in data["teams"].items()}
        out.players = {
            (int(i), str(name)): PlayerSums(games=int(g), box=list(box))
            for i, name, g, box in data["players"]
        }
        for h, a, n, g, hw, hp, ap, ot, margins in data["pairs"]:
            out.pairs[int(h), int(a), bool(n)] = PairSums(
                games=g,
                home_wins=hw,
                home_points=hp,
                away_points=ap,
                overtimes=ot,
                margins={int(m): c for m, c in margins.items()},
            )
        return out


class CoachOf(Protocol):
    """Where a player gets a pair's coach (``league.coaches.coach_for``'s keywords)."""

    def __call__(
        self, *, home: TeamCard, away: TeamCard, rules: GameRules, neutral: bool
    ) -> Coach: ...


class RunPlayer:
    """Play a plan's games: each pair's exact coach kept for the run, from ``coach_of``:
    solved here (the default: nothing read or written, the pure path tests take), or on
    the workers the stored coaches (``league.coaches.coach_for``: solved and stored the
    first time any process meets the pair)."""

    def __init__(self, plan: Plan, coach_of: CoachOf = rules_coach) -> None:
        self.plan = plan
        self.coach_of = coach_of
        self.coaches: dict[tuple[int, int, bool], Coach] = {}
        self.width = len(plan.columns)
        self.engine = None if plan.game == DEFAULT_GAME else find_game(plan.game)
        """Another game's engine (None: VABG's cards, played by :meth:`play`)."""
        self.read = () if self.engine is None else tuple(map(self.engine.read_team, plan.teams))
        self._keys = plan.columns[1:]
        self._line_keys = plan.line_columns

    def play(self, home: int, away: int, neutral: bool, seed: int) -> tuple[TeamBox, TeamBox, int]:
        """Play one game; return both box scores and its overtimes."""
        key = (home, away, neutral)
        coach = self.coaches.get(key)
        h, a = self.plan.teams[home], self.plan.teams[away]
        if coach is None:
            coach = self.coach_of(home=h, away=a, rules=self.plan.rules, neutral=neutral)
            self.coaches[key] = coach
        played = play_game(
            h, a, SeededDice(seed), rules=self.plan.rules, neutral=neutral, coach=coach
        )
        return played.home, played.away, played.overtimes

    def play_other(self, home: int, away: int, neutral: bool, seed: int) -> tuple[Side, Side]:
        """Play one game of another game; return each team's score, counts (in
        :attr:`Plan.columns` order) and lines (in :attr:`Plan.line_columns` order)."""
        assert self.engine is not None, "VABG's games are played by play()"
        got = self.engine.play(
            self.read[home], self.read[away], SeededDice(seed), self.plan.rules, neutral=neutral
        )
        return self._side(got.home), self._side(got.away)

    def _side(self, side: Any) -> Side:
        """Return a side's points and box-score counts (its lines' totals, grid court's
        pieces', else the team's own figure, as a season's team stats read them) and its
        lines, each named as the game names it ("piece 1")."""
        engine = self.engine
        assert engine is not None
        doc = side.box.to_json() if side.box is not None else {}
        figures = engine.side_figures(doc)
        counts = [side.score, *(_count_of(figures.get(key)) for key in self._keys)]
        lines = []
        for line in doc.get(engine.lines_key) or () if self._line_keys else ():
            lines.append((f"{engine.name_key} {line.get(engine.name_key)}",
                          [_count_of(line.get(key)) for key in self._line_keys]))  # fmt: skip
        return Side(side.score, counts, lines)


def _count_of(value: object) -> int:
    """Return a stored count (0 for none: a rate or a figure the box did not give)."""
    return value if type(value) is int else 0


class Side(NamedTuple):
    """One team's game of another game, as a run tallies it."""

    score: int
    counts: list[int]
    lines: list[tuple[str, list[int]]]


_PLAYERS: dict[str, RunPlayer] = {}
"""Each process keeps the player (and the coaches it met) of the last run it played."""


def player_for(run: str, plan: Plan) -> RunPlayer:
    """Return this process's player of the run named ``run``, kept while its chunks come in,
    its coaches read from the stored ones (or solved and stored)."""
    got = _PLAYERS.get(run)
    if got is None:
        _PLAYERS.clear()
        got = _PLAYERS[run] = RunPlayer(plan, coach_of=coach_for)
    return got


def play_chunk(
    plan: Plan,
    first: int,
    stop: int,
    *,
    player: RunPlayer | None = None,
    after_each: Callable[[], object] | None = None,
) -> Tally:
    """Play repetitions ``first`` to ``stop - 1`` of ``plan`` and return their tally;
    ``after_each`` is called after each repetition (a worker renewing its hold)."""
    if not 0 <= first < stop <= plan.repetitions:
        raise PlanError(f"repetitions {first}-{stop - 1} are not in a run of {plan.repetitions}")
    player = player or RunPlayer(plan)
    tally = Tally()
    per = plan.games_per_repetition
    for rep in range(first, stop):
        base = rep * per
        if plan.bracket is not None:
            _bracket_once(plan, player, base, tally)
        else:
            winners = [
                _count(tally, player, home, away, neutral, plan.game_seed(base + k))
                for k, (home, away, neutral) in enumerate(plan.games)
            ]
            if plan.kind == Kind.SEASON:
                for i in season_firsts(plan, winners):
                    tally.teams[i].firsts += 1
        if after_each is not None:
            after_each()
    return tally


def season_firsts(plan: Plan, winners: Sequence[int]) -> list[int]:
    """Return the teams first in their group (ties: each) once ``plan.games`` were won by
    ``winners``: by win percentage, as the standings rank them (a named group's conference
    games, else all), never by a count of wins (groups and schedules differ in size)."""
    groups = plan.conferences or ("",) * len(plan.teams)
    record: dict[int, list[int]] = {}  # team: [wins, games] that rank it
    for (home, away, _), won in zip(plan.games, winners, strict=True):
        for team in (home, away):
            counted = record.setdefault(team, [0, 0])
            if groups[team] and groups[home] != groups[away]:
                continue  # a named group ranks its teams by their conference games
            counted[0] += won == team
            counted[1] += 1
    pct = {t: Fraction(w, g) if g else Fraction(0) for t, (w, g) in record.items()}
    best: dict[str, Fraction] = {}
    for team, p in pct.items():
        best[groups[team]] = max(best.get(groups[team], p), p)
    return [team for team, p in pct.items() if p == best[groups[team]]]


def _bracket_once(plan: Plan, player: RunPlayer, base: int, tally: Tally) -> None:
    """Play ``plan``'s bracket once, its games numbered in the run from ``base``."""
    bracket, neutral = plan.bracket, plan.neutral
    assert bracket is not None
    winners: dict[str, int] = {}
    k = 0
    while True:
        ready = brackets.next_games(bracket, winners)
        if not ready:
            break
        for g in ready:
            for team in (g.top_team_id, g.bottom_team_id):
                sums = _team(tally, team, player.width)
                if len(sums.reached) < bracket.rounds:
                    sums.reached += [0] * (bracket.rounds - len(sums.reached))
                sums.reached[g.round - 1] += 1
            winners[g.key] = _count(
                tally, player, g.top_team_id, g.bottom_team_id, neutral, plan.game_seed(base + k)
            )
            k += 1
    champion = brackets.champion(bracket, winners)
    if champion is not None:
        tally.teams[champion].titles += 1


def _team(tally: Tally, team: int, width: int) -> TeamSums:
    """Return ``team``'s sums in ``tally``, new ones (``width`` counts) the first time."""
    got = tally.teams.get(team)
    if got is None:
        got = tally.teams[team] = TeamSums(box=[0] * width)
    return got


def _count(tally: Tally, player: RunPlayer, home: int, away: int, neutral: bool, seed: int) -> int:
    """Play one game into ``tally``; return the winner's index."""
    if player.engine is not None:
        return _count_other(tally, player, home, away, neutral, seed)
    hbox, abox, overtimes = player.play(home, away, neutral, seed)
    tally.games += 1
    for me, box, other in ((home, hbox, abox), (away, abox, hbox)):
        sums = tally.teams.setdefault(me, TeamSums())
        sums.games += 1
        sums.wins += box.score > other.score
        sums.points_against += other.score
        sums.overtimes += overtimes > 0
        total = sums.box
        for line in box.players:
            p = tally.players.setdefault((me, line.name), PlayerSums())
            p.games += 1
            values = _line(line)
            pb = p.box
            for j, v in enumerate(values):
                pb[j] += v
                total[j] += v
    return _pair(tally, home, away, neutral, hbox.score, abox.score, overtimes)


def _count_other(
    tally: Tally, player: RunPlayer, home: int, away: int, neutral: bool, seed: int
) -> int:
    """Play one game of another game into ``tally``: its teams' counts and its lines'."""
    hside, aside = player.play_other(home, away, neutral, seed)
    tally.games += 1
    for me, side, other in ((home, hside, aside), (away, aside, hside)):
        sums = _team(tally, me, len(side.counts))
        sums.games += 1
        sums.wins += side.score > other.score
        sums.points_against += other.score
        total = sums.box
        for j, v in enumerate(side.counts):
            total[j] += v
        for name, values in side.lines:
            p = tally.players.setdefault((me, name), PlayerSums(box=[0] * len(values)))
            p.games += 1
            for j, v in enumerate(values):
                p.box[j] += v
    return _pair(tally, home, away, neutral, hside.score, aside.score, 0)


def _pair(
    tally: Tally, home: int, away: int, neutral: bool, hscore: int, ascore: int, overtimes: int
) -> int:
    """Count a game's score in its pairing's sums; return the winner's index."""
    pair = tally.pairs.setdefault((home, away, neutral), PairSums())
    pair.games += 1
    margin = hscore - ascore
    pair.home_wins += margin > 0
    pair.home_points += hscore
    pair.away_points += ascore
    pair.overtimes += overtimes > 0
    pair.margins[margin] = pair.margins.get(margin, 0) + 1
    return home if margin > 0 else away


def _line(line: PlayerLine) -> tuple[int, ...]:
    return (
        line.pts, line.fgm, line.fga, line.tpm, line.tpa, line.ftm, line.fta,
        line.oreb, line.dreb, line.reb, line.stl, line.blk, line.to, line.pf,
    )  # fmt: skip
