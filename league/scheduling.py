"""Build round-robin season schedules: pure functions, no Django, no global random.

Conference play uses the circle (Berger) method. One team stays fixed while the others
rotate, so every round pairs each team once. With an odd count a phantom team takes the
fixed place and whoever meets it has the bye, so the bye rotates through the field.
Venues follow Berger's alternation: in a single round robin every team's home and away
counts differ by at most one (by none for an odd count), and each team has the fewest
possible runs of two home or two away games. A double round robin repeats the rounds
with the venues swapped, so each pair meets once at each home.

A conference of one team cannot play a round robin. :func:`conference_groups` puts such a
team with the independents (the group ``"Independent"``, which teams of that conference
join too), as a real season schedules a school without a conference; a team still alone
there plays in the smallest conference instead.

Cross-conference games come first, as in a college season. Each team plays exactly
``cross_conference_games`` of them, never the same opponent twice. Its opponents are
spread over the other conferences as evenly as the field allows. Their venues are then
chosen so each team's season home and away counts stay as level as possible.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

Pairing = tuple[int, int]
"""One game as ``(home_id, away_id)``."""

DAYS_BETWEEN_MAX = 365
"""The most days between two rounds: a season's dates stay within the calendar."""
INDEPENDENTS = "Independent"
"""The group of the teams alone in their conference (and of the field's own independents)."""

_SEARCH_ATTEMPTS = 60
_SEARCH_STEPS = 20_000


class ScheduleError(ValueError):
    """Raise for a schedule request that cannot be met; the message names the bad value."""


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    """One game of a generated schedule.

    ``round`` counts from 1 and no team appears twice in a round. ``conference`` is the
    conference's name for a conference game and ``None`` for a cross-conference game.
    On a neutral court ``home_id`` is only the team listed first.
    """

    round: int
    game_date: date
    home_id: int
    away_id: int
    neutral: bool
    conference: str | None

    @property
    def is_conference_game(self) -> bool:
        """Return whether both teams play in the conference named on the game."""
        return self.conference is not None


def round_robin_rounds(team_ids: Sequence[int], *, double: bool = False) -> list[list[Pairing]]:
    """Return the rounds of a round robin as lists of ``(home_id, away_id)`` pairs.

    The order of ``team_ids`` fixes who meets whom when; shuffle it first for variety.

    >>> round_robin_rounds([1, 2, 3, 4])
    [[(4, 1), (2, 3)], [(2, 4), (3, 1)], [(4, 3), (1, 2)]]
    """
    teams = _checked_teams(team_ids, what="a round robin")
    # A phantom team makes the count even; its opponent in a round has the bye.
    slots: list[int | None] = [*teams, None] if len(teams) % 2 else list(teams)
    n = len(slots)
    rotating = n - 1
    fixed = slots[-1]
    rounds: list[list[Pairing]] = []
    for r in range(rotating):
        pairs: list[tuple[int | None, int | None]] = []
        first = slots[r]
        pairs.append((fixed, first) if r % 2 == 0 else (first, fixed))
        for k in range(1, n // 2):
            a, b = slots[(r + k) % rotating], slots[(r - k) % rotating]
            pairs.append((a, b) if k % 2 else (b, a))
        rounds.append([(h, a) for h, a in pairs if h is not None and a is not None])
    if double:
        rounds += [[(a, h) for h, a in games] for games in rounds]
    return rounds


def conference_groups(conference_of: Mapping[int, str]) -> dict[int, str]:
    """Return the group each team plays its round robin in: its conference, or the independents.

    A team alone in its conference plays with the independents (:data:`INDEPENDENTS`,
    with the teams whose conference is that already). When that leaves one team alone
    there, it plays in the smallest other conference (the first by name among equals).
    Teams keep their own conference otherwise; with one team in all it is left alone.

    >>> conference_groups({1: "SEC", 2: "SEC", 3: "Horizon", 4: "Ivy"})
    {1: 'SEC', 2: 'SEC', 3: 'Independent', 4: 'Independent'}
    >>> conference_groups({1: "SEC", 2: "SEC", 3: "Horizon"})
    {1: 'SEC', 2: 'SEC', 3: 'SEC'}
    """
    sizes = Counter(conference_of.values())
    group = {
        team: INDEPENDENTS if sizes[name] == 1 else name for team, name in conference_of.items()
    }
    alone = [team for team, name in group.items() if name == INDEPENDENTS]
    others = Counter(name for name in group.values() if name != INDEPENDENTS)
    if len(alone) == 1 and others:
        smallest = min(others, key=lambda name: (others[name], name))
        group[alone[0]] = smallest
    return group


def cross_conference_rounds(
    conferences: Mapping[str, Sequence[int]],
    *,
    games_per_team: int,
    home_bias: Mapping[int, int] | None = None,
    rng: random.Random | None = None,
) -> list[list[Pairing]]:
    """Return rounds in which every team plays ``games_per_team`` teams of other conferences.

    No pair meets twice and no team plays twice in a round. Each pairing prefers the
    needier partner, then a conference the team has faced less often; an even spread of
    opponents over the other conferences is likely, not guaranteed. With an
    odd number of teams some teams rest in each round, so there may be more rounds than
    games per team. Each team's home and away counts in these games differ by at most
    one; where they must differ, the odd game goes against the team's ``home_bias`` (its
    home-minus-away count in its other games) when the pairings allow. Raise
    :class:`ScheduleError` when the request cannot be met.
    """
    conference_of = _checked_conferences(conferences)
    if games_per_team < 0:
        raise ScheduleError(f"cross_conference_games must be 0 or more, got {games_per_team}")
    if games_per_team == 0:
        return []
    total = len(conference_of)
    largest_name, largest = max(
        ((name, len(ids)) for name, ids in conferences.items()), key=lambda item: item[1]
    )
    if largest == total and largest_name == INDEPENDENTS:
        raise ScheduleError(
            f"every team plays with the independents ({INDEPENDENTS!r}: a team alone in its "
            "conference joins them), so there is no other conference to play "
            f"{games_per_team} cross-conference games against: ask for none, or put two "
            "teams or more in a conference"
        )
    if largest == total:
        raise ScheduleError(
            f"every team is in conference {largest_name!r}, so there is no other conference "
            f"to play {games_per_team} cross-conference games against: ask for none, or give "
            "the teams conferences"
        )
    if games_per_team > total - largest:
        raise ScheduleError(
            f"{games_per_team} cross-conference games a team is more than the "
            f"{total - largest} teams outside conference {largest_name!r}"
        )
    if largest > total - largest:
        raise ScheduleError(
            f"conference {largest_name!r} has {largest} of the {total} teams; cross-conference "
            "games need every conference to have at most half of the teams"
        )
    if total * games_per_team % 2:
        raise ScheduleError(
            f"{total} teams cannot each play an odd number ({games_per_team}) of "
            "cross-conference games: one team would be left without an opponent"
        )
    crowded = _crowded_conferences(conferences, games_per_team)
    if crowded is not None:
        raise ScheduleError(
            f"cross_conference_games={games_per_team} cannot be met: conferences "
            f"{', '.join(repr(name) for name in crowded)} would need more games against "
            "the other teams than those teams have left"
        )
    rng = rng if rng is not None else random.Random(0)
    for _ in range(_SEARCH_ATTEMPTS):
        rounds = _try_cross_rounds(conference_of, games_per_team, rng)
        if rounds is not None:
            return _orient(rounds, home_bias or {})
    raise ScheduleError(
        f"could not pair {games_per_team} cross-conference games per team for conferences "
        f"of sizes {sorted(len(ids) for ids in conferences.values())}"
    )


def build_schedule(
    *,
    conferences: Mapping[str, Sequence[int]],
    start_date: date,
    days_between_rounds: int = 1,
    double_round_robin: bool = False,
    cross_conference_games: int = 0,
    neutral: bool = False,
    cross_conference_neutral: bool = False,
    rng: random.Random | None = None,
) -> list[ScheduledGame]:
    """Return a season: cross-conference rounds first, then a round robin in each conference.

    Conference round ``r`` of every conference is played on the same day; a smaller
    conference finishes early. Round ``n`` is dated ``start_date`` plus
    ``(n - 1) * days_between_rounds`` days. With ``rng`` each conference's order is
    shuffled first; without it the order given decides the pairings. The result is
    sorted by round, then by the order of conferences.
    """
    _checked_conferences(conferences)
    _checked_days(days_between_rounds)
    orders = {name: list(ids) for name, ids in conferences.items()}
    if rng is not None:
        for ids in orders.values():
            rng.shuffle(ids)
    conference_rounds = {
        name: round_robin_rounds(ids, double=double_round_robin) for name, ids in orders.items()
    }
    home_bias: Counter[int] = Counter()
    for rounds in conference_rounds.values():
        for pairs in rounds:
            for home, away in pairs:
                home_bias[home] += 1
                home_bias[away] -= 1
    cross = cross_conference_rounds(
        orders, games_per_team=cross_conference_games, home_bias=home_bias, rng=rng
    )

    longest = max(len(rounds) for rounds in conference_rounds.values())
    _checked_last_date(start_date, len(cross) + longest, days_between_rounds)

    def dated(number: int) -> date:
        return start_date + timedelta(days=(number - 1) * days_between_rounds)

    games: list[ScheduledGame] = []
    for number, pairs in enumerate(cross, start=1):
        for home, away in pairs:
            games.append(
                ScheduledGame(number, dated(number), home, away, cross_conference_neutral, None)
            )
    for index in range(longest):
        number = len(cross) + index + 1
        for name, rounds in conference_rounds.items():
            if index < len(rounds):
                games.extend(
                    ScheduledGame(number, dated(number), home, away, neutral, name)
                    for home, away in rounds[index]
                )
    return games


def build_round_robin_schedule(
    team_ids: Sequence[int],
    *,
    start_date: date,
    days_between_rounds: int = 1,
    double_round_robin: bool = False,
    neutral: bool = False,
    conference: str | None = None,
) -> list[ScheduledGame]:
    """Return a dated round robin of one group, each game tagged with ``conference``."""
    _checked_days(days_between_rounds)
    rounds = round_robin_rounds(team_ids, double=double_round_robin)
    _checked_last_date(start_date, len(rounds), days_between_rounds)
    return [
        ScheduledGame(
            number,
            start_date + timedelta(days=(number - 1) * days_between_rounds),
            home,
            away,
            neutral,
            conference,
        )
        for number, pairs in enumerate(rounds, start=1)
        for home, away in pairs
    ]


def _checked_days(days_between_rounds: int) -> None:
    if not 1 <= days_between_rounds <= DAYS_BETWEEN_MAX:
        raise ScheduleError(
            f"days_between_rounds must be 1 to {DAYS_BETWEEN_MAX}, got {days_between_rounds}"
        )


def _checked_last_date(start_date: date, rounds: int, days_between_rounds: int) -> None:
    """Refuse a schedule whose last round would fall after the calendar's last day."""
    days = (rounds - 1) * days_between_rounds
    if (date.max - start_date).days < days:
        raise ScheduleError(
            f"the last of the {rounds} rounds would fall {days:,} days after start_date "
            f"{start_date.isoformat()}, past {date.max.isoformat()}: start earlier or play "
            "the rounds closer together"
        )


def _checked_teams(team_ids: Sequence[int], *, what: str) -> list[int]:
    teams = list(team_ids)
    if len(teams) < 2:
        raise ScheduleError(f"{what} needs at least 2 teams, got {len(teams)}")
    duplicates = sorted(t for t, n in Counter(teams).items() if n > 1)
    if duplicates:
        raise ScheduleError(f"team ids must be unique; repeated: {duplicates}")
    return teams


def _checked_conferences(conferences: Mapping[str, Sequence[int]]) -> dict[int, str]:
    if not conferences:
        raise ScheduleError("at least one conference is needed, got none")
    conference_of: dict[int, str] = {}
    for name, ids in conferences.items():
        for team in _checked_teams(ids, what=f"conference {name!r}"):
            if team in conference_of:
                raise ScheduleError(
                    f"team id {team} is in both conference {conference_of[team]!r} "
                    f"and conference {name!r}"
                )
            conference_of[team] = name
    return conference_of


def _crowded_conferences(
    conferences: Mapping[str, Sequence[int]], games_per_team: int
) -> list[str] | None:
    """Return a group of conferences whose teams cannot all get their games, or None.

    The teams of a group ``A`` owe ``|A| * g`` game slots. Games inside the group (between
    its different conferences) fill at most two slots per cross pair; every other game
    needs a team outside, which has at most ``g`` slots and meets each team once. This
    counting bound is necessary, not sufficient, so the search can still fail. With many
    conferences only the groups of the largest ones are tried.
    """
    sizes = sorted(((len(ids), name) for name, ids in conferences.items()), reverse=True)
    total = sum(size for size, _ in sizes)
    if len(sizes) <= 12:
        groups = [
            [sizes[i] for i in range(len(sizes)) if mask >> i & 1]
            for mask in range(1, 1 << len(sizes))
        ]
    else:
        groups = [sizes[:end] for end in range(1, len(sizes) + 1)]
    for group in groups:
        inside = sum(size for size, _ in group)
        outside = total - inside
        inside_slots = inside * inside - sum(size * size for size, _ in group)
        if inside * games_per_team > inside_slots + min(outside * games_per_team, inside * outside):
            return sorted(name for _, name in group)
    return None


def _try_cross_rounds(
    conference_of: Mapping[int, str], games_per_team: int, rng: random.Random
) -> list[list[Pairing]] | None:
    """Pair rounds greedily by need; return None when this attempt paints itself in."""
    teams = list(conference_of)
    rng.shuffle(teams)
    tiebreak = {team: i for i, team in enumerate(teams)}
    need = dict.fromkeys(teams, games_per_team)
    met: set[frozenset[int]] = set()
    faced: dict[int, Counter[str]] = {team: Counter() for team in teams}

    def allowed(a: int, b: int) -> bool:
        return conference_of[a] != conference_of[b] and frozenset((a, b)) not in met

    def match(free: list[int], idle_budget: int, steps: list[int]) -> list[Pairing] | None:
        steps[0] += 1
        if not free:
            return []
        if steps[0] > _SEARCH_STEPS:
            return None
        options = {t: [u for u in free if u != t and allowed(t, u)] for t in free}
        # The most constrained team first keeps the backtracking short.
        team = min(free, key=lambda t: (len(options[t]), -need[t], tiebreak[t]))
        # Needy partners first; then the conference this team has faced least.
        partners = sorted(
            options[team], key=lambda u: (-need[u], faced[team][conference_of[u]], tiebreak[u])
        )
        for partner in partners:
            rest = match([t for t in free if t not in (team, partner)], idle_budget, steps)
            if rest is not None:
                return [(team, partner), *rest]
        if idle_budget > 0:
            return match([t for t in free if t != team], idle_budget - 1, steps)
        return None

    rounds: list[list[Pairing]] = []
    while any(need.values()):
        active = [t for t in teams if need[t]]
        steps = [0]
        pairs: list[Pairing] | None = None
        # Leave as few teams idle as the pairings allow (one at least when the count is odd).
        for idle_budget in range(len(active) % 2, len(active), 2):
            pairs = match(active, idle_budget, steps)
            if pairs or steps[0] > _SEARCH_STEPS:
                break
        if not pairs:
            return None
        for a, b in pairs:
            met.add(frozenset((a, b)))
            need[a] -= 1
            need[b] -= 1
            faced[a][conference_of[b]] += 1
            faced[b][conference_of[a]] += 1
        rounds.append(pairs)
    return rounds


def _orient(rounds: list[list[Pairing]], home_bias: Mapping[int, int]) -> list[list[Pairing]]:
    """Choose venues so each team's surplus of home games within ``rounds`` is -1, 0 or 1.

    A surplus only ever moves by reversing a path of games (a hosts b, b hosts c, ...),
    which changes the surplus of the two ends alone. The first pass levels every team to
    within one game. The second turns each odd game against the team's ``home_bias`` (its
    home-minus-away count elsewhere), so its season evens out where the pairings allow.
    """
    games = [[home, away] for pairs in rounds for home, away in pairs]
    by_team: dict[int, list[int]] = {}
    for index, game in enumerate(games):
        for team in game:
            by_team.setdefault(team, []).append(index)
    surplus: Counter[int] = Counter()
    for game in games:
        if _lean(game[1], surplus, home_bias) < _lean(game[0], surplus, home_bias):
            game.reverse()
        surplus[game[0]] += 1
        surplus[game[1]] -= 1

    def shift(start: int, *, outward: bool, accept: Callable[[int], bool]) -> None:
        """Reverse the shortest path from ``start`` to an accepted team, if there is one."""
        came_by: dict[int, int] = {}
        queue = deque([start])
        while queue:
            team = queue.popleft()
            if team != start and accept(team):
                end = team
                while team != start:
                    game = games[came_by[team]]
                    team = game[0] if game[1] == team else game[1]
                    game.reverse()
                surplus[start] += -2 if outward else 2
                surplus[end] += 2 if outward else -2
                return
            for index in by_team[team]:
                home, away = games[index]
                if outward:
                    step = away if home == team else None
                else:
                    step = home if away == team else None
                if step is not None and step != start and step not in came_by:
                    came_by[step] = index
                    queue.append(step)

    # Pass 1 always succeeds: a team two homes up reaches, along the games it hosts, a
    # team that is an away game down (the reachable set's surpluses sum to at most 0).
    for team in by_team:
        while surplus[team] >= 2:
            shift(team, outward=True, accept=lambda t: surplus[t] <= -1)
        while surplus[team] <= -2:
            shift(team, outward=False, accept=lambda t: surplus[t] >= 1)

    def wanted(team: int) -> int | None:
        bias = home_bias.get(team, 0)
        return None if bias == 0 else (-1 if bias > 0 else 1)

    for team in by_team:
        want = wanted(team)
        if want is None or surplus[team] in (0, want):
            continue
        if surplus[team] > want:
            shift(team, outward=True, accept=lambda t: surplus[t] == -1 and wanted(t) != -1)
        else:
            shift(team, outward=False, accept=lambda t: surplus[t] == 1 and wanted(t) != 1)

    oriented: list[list[Pairing]] = []
    position = 0
    for pairs in rounds:
        oriented.append([(home, away) for home, away in games[position : position + len(pairs)]])
        position += len(pairs)
    return oriented


def _lean(team: int, surplus: Mapping[int, int], home_bias: Mapping[int, int]) -> int:
    return home_bias.get(team, 0) + surplus.get(team, 0)
