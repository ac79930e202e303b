"""Build single-elimination brackets and advance them: pure functions, no Django.

A bracket is a fixed list of games. Each game names where its two entrants come from:
a seeded team, the winner of an earlier game, or (in a reseeded round) the team ranked
``k``-th by seed among those still alive. A caller stores the winners it knows as
``{game_key: team_id}`` and asks :func:`next_games` which games can be played now and
:func:`champion` who won.

Generic fields of any size N >= 2 use the standard seeding of a bracket of size S, the
next power of two: seed ``s`` is paired with ``S + 1 - s`` and the lines are ordered so
that seeds 1 and 2 can meet only in the final, 1 to 4 only in the semifinals, and so on.
A "pair" whose partner seed is above N is a bye: the top ``S - N`` seeds start in round 2,
round 1 has ``N - S/2`` games and the bracket ``N - 1`` in all.

Keys are short strings (``"R2-3"``, ``"East-R1-5"``), unique in a bracket and meant to be
stored beside each game (at most 40 characters).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

MAX_KEY_LENGTH = 40

DEFAULT_FINAL_FOUR = (("West", "East"), ("Midwest", "South"))
"""The 1st all-time tournament's semifinals: the West champion met the East champion."""


class BracketError(ValueError):
    """Raise for a bracket that cannot be built or a winner that cannot be; name the value."""


@dataclass(frozen=True, slots=True)
class Seeded:
    """An entrant placed in the bracket by seed."""

    team_id: int
    seed: int


@dataclass(frozen=True, slots=True)
class WinnerOf:
    """An entrant who is the winner of an earlier game."""

    game_key: str


@dataclass(frozen=True, slots=True)
class Reseeded:
    """The team ranked ``rank``-th (1 = best seed) of those alive after round ``after_round``."""

    after_round: int
    rank: int


Source = Seeded | WinnerOf | Reseeded


@dataclass(frozen=True, slots=True)
class BracketGame:
    """One game of a bracket; ``top`` is the better seed line (the home side, if any).

    ``position`` counts from 1 down the bracket within its round and region. ``region``
    is ``None`` for games between regions and for brackets without regions.
    """

    key: str
    round: int
    region: str | None
    position: int
    top: Source
    bottom: Source


@dataclass(frozen=True, slots=True)
class ReadyGame:
    """A bracket game whose two teams are known and whose winner is not yet."""

    key: str
    round: int
    region: str | None
    position: int
    top_team_id: int
    bottom_team_id: int
    top_seed: int
    bottom_seed: int


@dataclass(frozen=True)
class Bracket:
    """A whole bracket: its games in round order and every team's seed (in its region)."""

    games: tuple[BracketGame, ...]
    seeds: Mapping[int, int]

    @property
    def rounds(self) -> int:
        """Return the number of rounds; the last one is the final."""
        return max(game.round for game in self.games)

    def game(self, key: str) -> BracketGame:
        """Return the game with ``key``; raise :class:`BracketError` for an unknown key."""
        for game in self.games:
            if game.key == key:
                return game
        raise BracketError(f"no game with key {key!r} in this bracket")


def standard_order(size: int) -> list[int]:
    """Return the seeds of a bracket of ``size`` lines from top to bottom.

    Neighbouring lines play each other; seed ``s`` faces ``size + 1 - s`` first.

    >>> standard_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 1 or size & (size - 1):
        raise BracketError(f"a bracket size must be a power of two, got {size}")
    order = [1]
    while len(order) < size:
        lines = 2 * len(order)
        order = [line for seed in order for line in (seed, lines + 1 - seed)]
    return order


def bracket_for_field(
    team_ids: Sequence[int], *, reseed: bool | Collection[int] = False
) -> Bracket:
    """Return a single-elimination bracket of ``team_ids`` given in seed order (1 first).

    With ``reseed=True`` the teams still alive are re-paired best seed against worst after
    every round; with a collection of round numbers, only after those rounds. A reseeded
    round keeps the standard line order, so later fixed rounds still keep 1 and 2 apart.

    >>> b = bracket_for_field([11, 22, 33])
    >>> [(g.key, g.top, g.bottom) for g in b.games]  # doctest: +NORMALIZE_WHITESPACE
    [('R1-1', Seeded(team_id=22, seed=2), Seeded(team_id=33, seed=3)),
     ('R2-1', Seeded(team_id=11, seed=1), WinnerOf(game_key='R1-1'))]
    """
    teams = _checked_teams(team_ids)
    games = _single_region(teams, region=None)
    rounds = max(game.round for game in games)
    after = set(range(1, rounds)) if reseed is True else set(reseed or ())
    bad = sorted(r for r in after if not 1 <= r < rounds)
    if bad:
        raise BracketError(
            f"a bracket of {len(teams)} teams can be reseeded only after rounds "
            f"{list(range(1, rounds))}, got {bad}"
        )
    for r in sorted(after):
        count = sum(1 for game in games if game.round == r + 1)
        order = standard_order(2 * count)
        games = [
            BracketGame(
                game.key,
                game.round,
                None,
                game.position,
                Reseeded(r, order[2 * game.position - 2]),
                Reseeded(r, order[2 * game.position - 1]),
            )
            if game.round == r + 1
            else game
            for game in games
        ]
    return Bracket(tuple(games), {team: seed for seed, team in enumerate(teams, start=1)})


def alltime_96(
    regions: Mapping[str, Sequence[int]],
    *,
    final_four: tuple[tuple[str, str], tuple[str, str]] = DEFAULT_FINAL_FOUR,
) -> Bracket:
    """Return the 96-team bracket of the 1st all-time tournament (Nov 2019 - Mar 2020).

    ``regions`` maps each of the four region names to its 24 team ids by seed (1 first).
    ``final_four`` pairs the region champions in the semifinals; the default is the
    tournament's own, where the West champion met the East champion.

    The format, from the shared research notes (``data/rules_notes.md`` §D2 and
    ``data/README.md``, derived from the published pairings at
    http://www.pudnersports.com/2019/12/blog-post.html and
    http://www.pudnersports.com/2020/01/scroll-down-for-accounts-of-32.html):

    - four regions of 24 seeds; seeds 1-8 of each region have a first-round bye;
    - round 1: seed ``s`` plays ``33 - s`` (9 v 24, 10 v 23, ..., 16 v 17);
    - round 2: seed ``s`` (1-8) plays the winner of ``(17 - s) v (16 + s)``
      (1 <- 16/17, 2 <- 15/18, ..., 8 <- 9/24);
    - round 3: 1 v the 8 side, 2 v the 7 side, 3 v the 6 side, 4 v the 5 side; then the
      regional semifinals (Elite 8 decided) and finals (rounds 4 and 5);
    - round 6: the Final Four, round 7: the championship. 95 games in all.

    A region is exactly the standard bracket of 24 (size 32, eight byes), so its games
    are keyed ``"<region>-R<round>-<position>"``; the semifinals are ``"R6-1"`` and
    ``"R6-2"`` (in the order of ``final_four``) and the final ``"R7-1"``.
    """
    names = list(regions)
    if len(names) != 4:
        raise BracketError(f"the 96-team field needs 4 regions, got {len(names)}: {names}")
    paired = [name for pair in final_four for name in pair]
    if len(final_four) != 2 or sorted(paired) != sorted(names):
        raise BracketError(
            f"final_four must pair the regions {sorted(names)} two by two, got {final_four!r}"
        )
    for name, ids in regions.items():
        if len(ids) != 24:
            raise BracketError(f"region {name!r} needs 24 teams by seed, got {len(ids)}")
    _checked_teams([team for ids in regions.values() for team in ids])
    games: list[BracketGame] = []
    seeds: dict[int, int] = {}
    for name in paired:
        games += _single_region(list(regions[name]), region=name)
        seeds.update({team: seed for seed, team in enumerate(regions[name], start=1)})
    region_final = {name: f"{name}-R5-1" for name in names}
    for position, (a, b) in enumerate(final_four, start=1):
        games.append(
            BracketGame(
                f"R6-{position}",
                6,
                None,
                position,
                WinnerOf(region_final[a]),
                WinnerOf(region_final[b]),
            )
        )
    games.append(BracketGame("R7-1", 7, None, 1, WinnerOf("R6-1"), WinnerOf("R6-2")))
    games.sort(key=lambda game: game.round)  # stable: regions keep the final_four order
    return Bracket(tuple(games), seeds)


def next_games(bracket: Bracket, winners: Mapping[str, int]) -> list[ReadyGame]:
    """Return the games whose teams are known and whose winner is not, in bracket order.

    ``winners`` maps game keys to the winning team id. Games already handed out and not
    yet decided are returned again, so a caller creates only the keys it does not have.
    Raise :class:`BracketError` for an unknown key, a game decided before its teams were
    known, or a winner who did not play in the game.

    >>> b = bracket_for_field([11, 22, 33])
    >>> [(g.key, g.top_team_id, g.bottom_team_id) for g in next_games(b, {})]
    [('R1-1', 22, 33)]
    >>> [(g.key, g.top_team_id, g.bottom_team_id) for g in next_games(b, {"R1-1": 33})]
    [('R2-1', 11, 33)]
    """
    teams = _entrants(bracket, winners)
    ready = []
    for game in bracket.games:
        top, bottom = teams[game.key]
        if top is not None and bottom is not None and game.key not in winners:
            ready.append(
                ReadyGame(
                    game.key,
                    game.round,
                    game.region,
                    game.position,
                    top,
                    bottom,
                    bracket.seeds[top],
                    bracket.seeds[bottom],
                )
            )
    return ready


def entrants(
    bracket: Bracket, winners: Mapping[str, int]
) -> dict[str, tuple[int | None, int | None]]:
    """Return every game's ``(top, bottom)`` team ids so far; ``None`` where not yet known."""
    return _entrants(bracket, winners)


def regions_meeting(bracket: Bracket, key: str) -> tuple[str, str] | None:
    """Return the two regions a game between regions brings together (a Final Four game:
    the winners of those regions' games), or None (a region's own game, the final).

    >>> regions = {r: list(range(i * 24 + 1, i * 24 + 25)) for i, r in
    ...            enumerate(("East", "West", "South", "Midwest"))}
    >>> b = alltime_96(regions)
    >>> [regions_meeting(b, g.key) for g in b.games if g.round == 6]
    [('West', 'East'), ('Midwest', 'South')]
    >>> regions_meeting(b, next(g.key for g in b.games if g.round == 7)) is None
    True
    """
    game = bracket.game(key)
    if game.region is not None:
        return None
    regions = [
        bracket.game(source.game_key).region
        for source in (game.top, game.bottom)
        if isinstance(source, WinnerOf)
    ]
    if len(regions) != 2 or regions[0] is None or regions[1] is None:
        return None
    return regions[0], regions[1]


def champion(bracket: Bracket, winners: Mapping[str, int]) -> int | None:
    """Return the winner of the final, or ``None`` while it is unplayed.

    >>> b = bracket_for_field([11, 22])
    >>> champion(b, {}), champion(b, {"R1-1": 22})
    (None, 22)
    """
    _entrants(bracket, winners)  # validates the winners
    (final,) = (game for game in bracket.games if game.round == bracket.rounds)
    return winners.get(final.key)


def group_stage_seeds(
    groups: Mapping[str, Sequence[int]],
    *,
    advance: int,
    rank_key: Mapping[int, Any] | None = None,
) -> list[int]:
    """Return the bracket seed order of the top ``advance`` teams of each group.

    ``groups`` maps each group to its teams in finishing order (the standings' order).
    Every group winner is seeded above every runner-up, and so on down the places. Within
    a place, teams are ordered by ``rank_key[team]`` (smaller first, e.g. ``(-win_pct,
    -point_difference)``), else in the order the groups are given. Then, where two teams of
    the same group would meet in the first round of :func:`bracket_for_field`, the lower
    of them swaps with the nearest team of the same place that removes the clash, if any.

    >>> group_stage_seeds({"A": [1, 2, 3], "B": [4, 5, 6], "C": [7, 8, 9]}, advance=2)
    [1, 4, 7, 2, 8, 5]
    """
    if advance < 1:
        raise BracketError(f"advance must be at least 1, got {advance}")
    if not groups:
        raise BracketError("at least one group is needed, got none")
    short = {name: len(ids) for name, ids in groups.items() if len(ids) < advance}
    if short:
        listed = ", ".join(f"{name} has {n}" for name, n in short.items())
        raise BracketError(
            f"{advance} teams of each group cannot go through: {listed} "
            f"team{'' if len(short) == 1 and next(iter(short.values())) == 1 else 's'}"
        )
    group_of: dict[int, str] = {}
    for name, ids in groups.items():
        for team in ids:
            if team in group_of:
                raise BracketError(
                    f"team id {team} is in both group {group_of[team]!r} and group {name!r}"
                )
            group_of[team] = name
    places: list[list[int]] = []
    for place in range(advance):
        tier = [ids[place] for ids in groups.values()]
        if rank_key is not None:
            tier.sort(key=lambda team: rank_key[team])
        places.append(tier)
    seeds = [team for tier in places for team in tier]
    if len(seeds) < 2:
        raise BracketError(f"a bracket needs at least 2 teams, got {len(seeds)}")
    first_round = _first_round_pairs(len(seeds))
    place_of = {team: p for p, tier in enumerate(places) for team in tier}

    def clashes(order: list[int]) -> int:
        return sum(group_of[order[a]] == group_of[order[b]] for a, b in first_round)

    for a, b in first_round:
        if group_of[seeds[a]] != group_of[seeds[b]]:
            continue
        before = clashes(seeds)
        same_place = [
            i for i in range(len(seeds)) if i != b and place_of[seeds[i]] == place_of[seeds[b]]
        ]
        for other in sorted(same_place, key=lambda i: (abs(i - b), i)):
            trial = seeds.copy()
            trial[b], trial[other] = trial[other], trial[b]
            if clashes(trial) < before:
                seeds = trial
                break
    return seeds


def bracket_relabelled(bracket: Bracket, ids: Mapping[int, int]) -> Bracket:
    """Return the same bracket with each team id ``t`` replaced by ``ids[t]``.

    >>> b = bracket_relabelled(bracket_for_field([11, 22]), {11: 0, 22: 1})
    >>> b.seeds, b.games[0].top
    ({0: 1, 1: 2}, Seeded(team_id=0, seed=1))
    """

    def source(s: Source) -> Source:
        return Seeded(ids[s.team_id], s.seed) if isinstance(s, Seeded) else s

    games = tuple(replace(g, top=source(g.top), bottom=source(g.bottom)) for g in bracket.games)
    return Bracket(games, {ids[t]: seed for t, seed in bracket.seeds.items()})


def bracket_to_json(bracket: Bracket) -> dict[str, Any]:
    """Return a JSON-ready dict of ``bracket`` that :func:`bracket_from_json` reads back."""
    return {
        "format": "vabg-bracket/1",
        "seeds": [[team, seed] for team, seed in bracket.seeds.items()],
        "games": [
            {
                "key": game.key,
                "round": game.round,
                "region": game.region,
                "position": game.position,
                "top": _source_to_json(game.top),
                "bottom": _source_to_json(game.bottom),
            }
            for game in bracket.games
        ],
    }


def bracket_from_json(data: Mapping[str, Any]) -> Bracket:
    """Return the bracket that :func:`bracket_to_json` wrote."""
    if data.get("format") != "vabg-bracket/1":
        raise BracketError(f"format must be 'vabg-bracket/1', got {data.get('format')!r}")
    return Bracket(
        tuple(
            BracketGame(
                game["key"],
                game["round"],
                game["region"],
                game["position"],
                _source_from_json(game["top"]),
                _source_from_json(game["bottom"]),
            )
            for game in data["games"]
        ),
        {team: seed for team, seed in data["seeds"]},
    )


# -- helpers ---------------------------------------------------------------------------------


def _checked_teams(team_ids: Sequence[int]) -> list[int]:
    teams = list(team_ids)
    if len(teams) < 2:
        raise BracketError(f"a bracket needs at least 2 teams, got {len(teams)}")
    duplicates = sorted(t for t, n in Counter(teams).items() if n > 1)
    if duplicates:
        raise BracketError(f"team ids must be unique; repeated: {duplicates}")
    return teams


def _first_round_pairs(count: int) -> list[tuple[int, int]]:
    """Return the first-round games of ``count`` teams as pairs of 0-based seed indexes."""
    size = 1 << (count - 1).bit_length()
    order = standard_order(size)
    pairs = []
    for line in range(0, size, 2):
        a, b = sorted(order[line : line + 2])
        if b <= count:
            pairs.append((a - 1, b - 1))
    return pairs


def _single_region(teams: list[int], *, region: str | None) -> list[BracketGame]:
    """Return the games of one standard bracket, byes for the top seeds, in round order."""
    count = len(teams)
    size = 1 << (count - 1).bit_length()
    prefix = f"{region}-" if region is not None else ""
    if region is not None and (not region or len(f"{prefix}R9-99") > MAX_KEY_LENGTH):
        raise BracketError(f"a region name must have 1 to 33 characters, got {region!r}")
    # Each line holds what reaches that point of the bracket: a seed or a game's winner.
    lines: list[Source | None] = [
        Seeded(teams[seed - 1], seed) if seed <= count else None for seed in standard_order(size)
    ]
    games: list[BracketGame] = []
    round_number = 0
    while len(lines) > 1:
        round_number += 1
        position = 0
        reached: list[Source | None] = []
        for top, bottom in zip(lines[::2], lines[1::2], strict=True):
            if top is None or bottom is None:
                reached.append(top if bottom is None else bottom)  # a bye
                continue
            position += 1
            # The standard order already puts the better seed (or side) on the top line.
            key = f"{prefix}R{round_number}-{position}"
            games.append(BracketGame(key, round_number, region, position, top, bottom))
            reached.append(WinnerOf(key))
        lines = reached
    return games


def keys_like(bracket: Bracket) -> str:
    """Return what a refused game key is told: how this bracket's keys look (a regional
    bracket's are ``West-R1-1``, not the ``R1-1`` of one without regions) and where every
    game's key is listed."""
    first, last = bracket.games[0].key, bracket.games[-1].key
    return (
        f": its games are keyed {first!r} to {last!r} (each game's bracket_key in "
        "/api/games/?season=ID)"
    )


def _entrants(
    bracket: Bracket, winners: Mapping[str, int]
) -> dict[str, tuple[int | None, int | None]]:
    by_key = {game.key: game for game in bracket.games}
    unknown = sorted(set(winners) - set(by_key))
    if unknown:
        raise BracketError(f"no game with key {unknown[0]!r} in this bracket{keys_like(bracket)}")
    teams: dict[str, tuple[int | None, int | None]] = {}
    eliminated: set[int] = set()
    alive_after: dict[int, list[int]] = {}  # by seed, once every game of the round is decided

    def resolve(source: Source) -> int | None:
        if isinstance(source, Seeded):
            return source.team_id
        if isinstance(source, WinnerOf):
            return winners.get(source.game_key)
        alive = alive_after.get(source.after_round)
        return None if alive is None else alive[source.rank - 1]

    for number in range(1, bracket.rounds + 1):
        in_round = [game for game in bracket.games if game.round == number]
        for game in in_round:
            top, bottom = resolve(game.top), resolve(game.bottom)
            teams[game.key] = (top, bottom)
            if game.key not in winners:
                continue
            winner = winners[game.key]
            if top is None or bottom is None:
                raise BracketError(
                    f"game {game.key!r} has a winner ({winner}) before both its teams are known"
                )
            if winner not in (top, bottom):
                raise BracketError(
                    f"team {winner} did not play in game {game.key!r} ({top} v {bottom})"
                )
            eliminated.add(bottom if winner == top else top)
        if len(alive_after) == number - 1 and all(game.key in winners for game in in_round):
            alive_after[number] = sorted(
                (team for team in bracket.seeds if team not in eliminated),
                key=lambda team: bracket.seeds[team],
            )
    return teams


def _source_to_json(source: Source) -> dict[str, Any]:
    if isinstance(source, Seeded):
        return {"team": source.team_id, "seed": source.seed}
    if isinstance(source, WinnerOf):
        return {"winner_of": source.game_key}
    return {"reseed_after": source.after_round, "rank": source.rank}


def _source_from_json(data: Mapping[str, Any]) -> Source:
    if "team" in data:
        return Seeded(data["team"], data["seed"])
    if "winner_of" in data:
        return WinnerOf(data["winner_of"])
    if "reseed_after" in data:
        return Reseeded(data["reseed_after"], data["rank"])
    raise BracketError(f"an entrant must name a team, a game or a reseeded rank, got {data!r}")


def possible_pairs(bracket: Bracket, winners: Mapping[str, int]) -> set[tuple[int, int]] | None:
    """Return the (top, bottom) pairs that can still meet in an undecided game, or None
    when a reseeded round makes any two survivors possible."""
    can: dict[str, set[int]] = {}
    pairs: set[tuple[int, int]] = set()

    def support(source: Source) -> set[int] | None:
        if isinstance(source, Seeded):
            return {source.team_id}
        if isinstance(source, WinnerOf):
            return can[source.game_key]
        return None

    for game in sorted(bracket.games, key=lambda g: g.round):
        top, bottom = support(game.top), support(game.bottom)
        if top is None or bottom is None:
            return None
        if game.key in winners:
            can[game.key] = {winners[game.key]}
            continue
        pairs.update(itertools.product(top, bottom))
        can[game.key] = top | bottom
    return pairs


def meeting_pairs(bracket: Bracket) -> list[tuple[int, int]]:
    """Return the (top, bottom) pairs a bracket lets meet, whatever is stored (a what-if may
    undo a result), the top team at home; any two of its teams, either way round, when a
    round is reseeded. Sorted."""
    can_meet = possible_pairs(bracket, {})
    if can_meet is None:
        return list(itertools.permutations(sorted(bracket.seeds), 2))
    return sorted(can_meet)


def bracket_game_laws(
    bracket: Bracket,
    winners: Mapping[str, int],
    index: Mapping[int, int],
    p: npt.NDArray[np.float64],
) -> dict[str, npt.NDArray[np.float64]]:
    """Exact odds of a bracket without reseeding, game by game: ``{key: law}``, where
    ``law[index[t]]`` is the chance that team ``t`` wins that game (1 or 0 for a game
    in ``winners``). ``p[i, j]`` is P(team i, on the top line, beats team j).

    The two entrants of a game come from disjoint parts of the bracket, so they are
    independent: P(top t wins) = P(t is top) * sum_u P(u is bottom) P(t beats u).
    """
    n = len(index)
    won: dict[str, npt.NDArray[np.float64]] = {}

    def law(source: Source) -> npt.NDArray[np.float64]:
        if isinstance(source, Seeded):
            v = np.zeros(n)
            v[index[source.team_id]] = 1.0
            return v
        if not isinstance(source, WinnerOf):
            raise BracketError("a reseeded bracket has no game-by-game law of this kind")
        return won[source.game_key]

    # Pairs not in the table (NaN) are pairs that cannot meet: they count for nothing.
    beats = np.nan_to_num(p)
    beaten = np.nan_to_num(1.0 - p)
    for game in sorted(bracket.games, key=lambda g: g.round):
        a, b = law(game.top), law(game.bottom)
        if game.key in winners:
            w = np.zeros(n)
            w[index[winners[game.key]]] = 1.0
        else:
            top_p = (beats * b[None, :]).sum(axis=1)  # vs the bottom's law
            bottom_p = (beaten * a[:, None]).sum(axis=0)
            w = a * top_p + b * bottom_p
        won[game.key] = w
    return won


def bracket_law(
    bracket: Bracket,
    winners: Mapping[str, int],
    index: Mapping[int, int],
    p: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Exact odds of a bracket without reseeding: each team's chance to play in each round
    (``reach[i, round - 1]``) and to win the final, from :func:`bracket_game_laws`."""
    n = len(index)
    won = bracket_game_laws(bracket, winners, index, p)
    reach = np.zeros((n, bracket.rounds))
    champion = np.zeros(n)
    for game in bracket.games:
        for source in (game.top, game.bottom):
            if isinstance(source, Seeded):
                reach[index[source.team_id], game.round - 1] += 1.0
            else:
                assert isinstance(source, WinnerOf)
                reach[:, game.round - 1] += won[source.game_key]
        if game.round == bracket.rounds:
            champion = won[game.key]
    return reach, champion
