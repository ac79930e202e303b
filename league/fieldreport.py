"""How the all-time 96 field plays as tournaments play it (docs/field.md, "How the field plays").

Every figure is of the game the product's tournaments play: advanced rules, the coach policy
on, neutral courts, the team the bracket lists first as the home side. Exact where the
exact odds reach (title and Final Four odds, margins and overtimes of the pairings); by
seeded simulation where they do not (a player's points, turnovers, steals and blocks),
with the number of games and the standard error said beside each figure. Pure: team cards
and the field's rows in, figures out; ``manage.py field_report`` writes them.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from league import bracket as brackets
from simulator import SeededDice
from simulator.results import GameResult
from simulator.vabg import GameRules, TeamCard, play_game, preset
from simulator.vabg.coaching import Coach
from simulator.vabg.coachodds import exact_odds
from simulator.vabg.engine import rules_coach
from simulator.vabg.odds import GameOdds

TOURNAMENT_RULES = preset("advanced", strategy=True)
"""What the field's tournaments play (``create_tournament``: advanced, coach on)."""
AUTHOR = {"median margin": 7.0, "within 3": 0.32, "overtime": 5 / 56}
"""The author's 56 published tournament games of the 96 field as issue 23 counts them:
median winning margin 7, 32% decided by 3 points or fewer, overtime in 5. The games behind
them are not all on record here: :func:`author_record` recounts those that are."""
STAR_PPG = 25.0
"""The scorers the usage table follows: 25 points a game or more in their real season."""

Progress = Callable[[int, int], None]


class _Coaches:
    """Each pair's exact coach, solved once (about 20 ms) for the many games it plays."""

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self._solved: dict[tuple[str, str], Coach] = {}

    def play(self, home: TeamCard, away: TeamCard, seed: int) -> GameResult:
        key = (home.label, away.label)
        coach = self._solved.get(key)
        if coach is None:
            coach = rules_coach(home, away, rules=self.rules, neutral=True)
            self._solved[key] = coach
        return play_game(home, away, SeededDice(seed), rules=self.rules, neutral=True, coach=coach)


@dataclass(frozen=True)
class FieldTeam:
    """A team of the field file: its card and where the bracket puts it."""

    card: TeamCard
    region: str
    seed: int


@dataclass(frozen=True)
class TitleOdds:
    """A team's exact chances to reach each round and to win the title."""

    label: str
    region: str
    seed: int
    reach: tuple[float, ...]
    """P(plays in round r), r = 1..7 (a seed with a bye plays from round 2)."""
    title: float

    @property
    def final_four(self) -> float:
        """Return P(reaches the Final Four), round 6."""
        return self.reach[5]


@dataclass(frozen=True)
class Margins:
    """The law of the winning margin over a set of games, each weighted."""

    median: float
    within_three: float
    overtime: float
    games: float
    within_nine: float
    """The share decided by 9 points or fewer (a median of at most 9 needs half)."""


@dataclass(frozen=True)
class AuthorRecord:
    """The author's games of the field on record (fixtures/field/author_games.csv), counted
    as the exact figures are: each figure over the games that give what it reads."""

    games: int
    measured: int
    """Games whose winning margin is on record."""
    median: float
    within_three: float
    timed: int
    """Games of which it is on record whether they went to overtime."""
    overtime: float
    scored: int
    """Games with both scores on record."""
    points: float
    """Points a team a game over the scored games, overtimes included."""
    within_nine: float


def author_record(rows: Sequence[Mapping[str, str]]) -> AuthorRecord:
    """Recount the author's games on record: the median winning margin as the exact one is
    read (the least margin that half the games reach), the share within 3 points, the share
    that went to overtime, and the points a team scored."""
    margins = sorted(int(r["margin"]) for r in rows if r["margin"].strip())
    timed = [r["overtime"] for r in rows if r["overtime"].strip()]
    scored = [r for r in rows if r["winner_pts"].strip() and r["loser_pts"].strip()]
    points = sum(int(r["winner_pts"]) + int(r["loser_pts"]) for r in scored)
    return AuthorRecord(
        games=len(rows),
        measured=len(margins),
        median=float(margins[(len(margins) - 1) // 2]) if margins else math.nan,
        within_three=sum(m <= 3 for m in margins) / len(margins) if margins else math.nan,
        within_nine=sum(m <= 9 for m in margins) / len(margins) if margins else math.nan,
        timed=len(timed),
        overtime=timed.count("yes") / len(timed) if timed else math.nan,
        scored=len(scored),
        points=points / (2 * len(scored)) if scored else math.nan,
    )


@dataclass(frozen=True)
class AuthorCheck:
    """The author's games on record against the exact odds of the very same pairings:
    each count beside what the odds expect of it and the chance of as many or more."""

    games: int
    favourite_won: int
    """Games won by the team the exact odds favour."""
    favourite_expected: float
    favourite_error: float
    """The standard deviation of that count under the odds."""
    favourite_tail: float
    log_loss: float
    """The mean of -ln P(the winner wins) over the games (a coin flip gives ln 2)."""
    measured: int
    close: int
    """Games on record won by 3 points or fewer (of ``measured``)."""
    close_expected: float
    close_tail: float
    timed: int
    overtimes: int
    overtime_expected: float
    overtime_tail: float
    margins: Margins
    """The exact law of the winning margin over the pairings, one game each."""


def chance_at_least(chances: Sequence[float], k: int) -> float:
    """Return the chance that at least ``k`` of independent events of ``chances`` happen."""
    law = np.zeros(len(chances) + 1)
    law[0] = 1.0
    for p in chances:
        law[1:] = law[1:] * (1 - p) + law[:-1] * p
        law[0] *= 1 - p
    return float(law[k:].sum())


def author_check(
    rows: Sequence[Mapping[str, str]],
    teams: Sequence[FieldTeam],
    odds: Mapping[tuple[int, int], GameOdds],
) -> AuthorCheck:
    """Set the author's games on record (fixtures/field/author_games.csv) against the exact
    odds of their pairings as the bracket lists them (``odds``: by (home, away) index). Nothing
    of the field is fitted on these results."""
    index = {t.card.label: i for i, t in enumerate(teams)}
    won, favoured, laws, close, timed = [], [], [], [], []
    for row in rows:
        w, loser = index[row["winner"]], index[row["loser"]]
        # the pairing as the bracket lists it: the winner at home or away
        home_won = (w, loser) in odds
        law = odds[w, loser] if home_won else odds[loser, w]
        p = law.p_home_win if home_won else law.p_away_win
        won.append(p)
        favoured.append(max(p, 1 - p))
        laws.append((law, 1.0))
        if row["margin"].strip():
            near = sum(q for m, q in law.margin.items() if abs(m) <= 3)
            close.append((int(row["margin"]) <= 3, near))
        if row["overtime"].strip():
            timed.append((row["overtime"] == "yes", law.p_overtime))
    favourite_won = sum(p > 0.5 for p in won)
    close_count = sum(hit for hit, _ in close)
    overtimes = sum(hit for hit, _ in timed)
    return AuthorCheck(
        games=len(rows),
        favourite_won=favourite_won,
        favourite_expected=sum(favoured),
        favourite_error=math.sqrt(sum(q * (1 - q) for q in favoured)),
        favourite_tail=chance_at_least(favoured, favourite_won),
        log_loss=-statistics.fmean(math.log(p) for p in won),
        measured=len(close),
        close=close_count,
        close_expected=sum(q for _, q in close),
        close_tail=chance_at_least([q for _, q in close], close_count),
        timed=len(timed),
        overtimes=overtimes,
        overtime_expected=sum(q for _, q in timed),
        overtime_tail=chance_at_least([q for _, q in timed], overtimes),
        margins=margins(laws),
    )


def field_bracket(teams: Sequence[FieldTeam]) -> brackets.Bracket:
    """Return the 96 field's bracket (``league.bracket.alltime_96``), teams by index."""
    regions: dict[str, list[int]] = {}
    for i, t in sorted(enumerate(teams), key=lambda it: it[1].seed):
        regions.setdefault(t.region, []).append(i)
    order = [name for pair in brackets.DEFAULT_FINAL_FOUR for name in pair]
    return brackets.alltime_96({name: regions[name] for name in order})


def pair_odds(
    teams: Sequence[FieldTeam],
    pairs: set[tuple[int, int]],
    *,
    rules: GameRules = TOURNAMENT_RULES,
    progress: Progress | None = None,
) -> dict[tuple[int, int], GameOdds]:
    """Return the exact law of each (home, away) pair on a neutral court, no score laws."""
    out = {}
    for done, (i, j) in enumerate(sorted(pairs), start=1):
        out[i, j] = exact_odds(
            teams[i].card, teams[j].card, rules=rules, neutral=True, scores=False
        )
        if progress is not None:
            progress(done, len(pairs))
    return out


def title_odds(
    teams: Sequence[FieldTeam], odds: Mapping[tuple[int, int], GameOdds]
) -> list[TitleOdds]:
    """Return every team's exact round-by-round and title odds, most likely champion first."""
    bracket = field_bracket(teams)
    n = len(teams)
    p = np.full((n, n), np.nan)
    for (i, j), o in odds.items():
        p[i, j] = o.p_home_win
    reach, champion = brackets.bracket_law(bracket, {}, {i: i for i in range(n)}, p)
    rows = [
        TitleOdds(
            label=t.card.label,
            region=t.region,
            seed=t.seed,
            reach=tuple(float(x) for x in reach[i]),
            title=float(champion[i]),
        )
        for i, t in enumerate(teams)
    ]
    return sorted(rows, key=lambda r: (-r.title, r.label))


def round_pairings(
    teams: Sequence[FieldTeam], titles: Sequence[TitleOdds]
) -> list[tuple[int, int, float]]:
    """Return the field's round-1 and round-2 games as (home, away, weight).

    Round 1 is certain; a round-2 game of seed s (1-8) is against each team of its
    round-1 game, weighted by that team's chance to win it.
    """
    bracket = field_bracket(teams)
    index = {t.card.label: i for i, t in enumerate(teams)}
    reach2 = {index[r.label]: r.reach[1] for r in titles}
    out: list[tuple[int, int, float]] = []
    games = {g.key: g for g in bracket.games}
    for g in bracket.games:
        if g.round == 1:
            assert isinstance(g.top, brackets.Seeded) and isinstance(g.bottom, brackets.Seeded)
            out.append((g.top.team_id, g.bottom.team_id, 1.0))
        elif g.round == 2:
            assert isinstance(g.top, brackets.Seeded)
            source = g.bottom
            assert isinstance(source, brackets.WinnerOf)
            first = games[source.game_key]
            for side in (first.top, first.bottom):
                assert isinstance(side, brackets.Seeded)
                out.append((g.top.team_id, side.team_id, reach2[side.team_id]))
    return out


def margins(laws: Sequence[tuple[GameOdds, float]]) -> Margins:
    """Return the exact median winning margin, share within 3 and overtime share of a
    mixture of games (each game's margin law, weighted)."""
    law: dict[int, float] = {}
    overtime = total = 0.0
    for odds, weight in laws:
        total += weight
        overtime += weight * odds.p_overtime
        for m, q in odds.margin.items():
            law[abs(m)] = law.get(abs(m), 0.0) + weight * q
    cumulative = 0.0
    median = 0.0
    for m in sorted(law):
        cumulative += law[m] / total
        if cumulative >= 0.5:
            median = float(m)
            break
    within = sum(q for m, q in law.items() if m <= 3) / total
    nine = sum(q for m, q in law.items() if m <= 9) / total
    return Margins(
        median=median,
        within_three=within,
        overtime=overtime / total,
        games=total,
        within_nine=nine,
    )


@dataclass(frozen=True)
class Star:
    """A 25+ ppg scorer: his real share of his team's points and the game's."""

    label: str
    name: str
    ppg: float
    team_ppg: float
    points: float
    team_points: float
    games: int
    error: float
    """The standard error of ``ratio`` (delta method over the simulated games)."""

    @property
    def real_share(self) -> float:
        """Return his share of his team's points in the real season."""
        return self.ppg / self.team_ppg

    @property
    def share(self) -> float:
        """Return his share of his team's points in the simulated games."""
        return self.points / self.team_points

    @property
    def ratio(self) -> float:
        """Return the share he keeps: simulated over real."""
        return self.share / self.real_share


def star_shares(
    teams: Sequence[FieldTeam],
    stars: Sequence[tuple[str, str, float, float]],
    *,
    games: int,
    seed: int = 1,
    rules: GameRules = TOURNAMENT_RULES,
) -> list[Star]:
    """Play each star's team against random field opponents; return his share of its points.

    ``stars`` are (team label, player, his ppg, his team's real ppg). Each game is seeded
    (``seed``, the star, the game), the star's team home in half of them, courts neutral.
    """
    by_label = {t.card.label: t.card for t in teams}
    coaches = _Coaches(rules)
    out = []
    for number, (label, name, ppg, team_ppg) in enumerate(stars):
        me = by_label[label]
        others = [t.card for t in teams if t.card.label != label]
        rng = random.Random(f"{seed}-{number}")
        mine: list[float] = []
        team: list[float] = []
        for g in range(games):
            opp = rng.choice(others)
            home = g % 2 == 0
            result = coaches.play(me if home else opp, opp if home else me, rng.getrandbits(63))
            box = result.home if home else result.away
            team.append(float(box.score))
            mine.append(float(sum(line.pts for line in box.players if line.name == name)))
        mean_p, mean_t = statistics.fmean(mine), statistics.fmean(team)
        ratio = mean_p / mean_t
        # delta method: var(P/T) ~ var(P - ratio T) / (n mean_T^2)
        resid = [p - ratio * t for p, t in zip(mine, team, strict=True)]
        error = math.sqrt(statistics.pvariance(resid) / games) / mean_t / (ppg / team_ppg)
        out.append(Star(label, name, ppg, team_ppg, mean_p, mean_t, games, error))
    return out


@dataclass(frozen=True)
class BoxRates:
    """Per team a game: points, turnovers (team ones included), steals, blocks."""

    games: int
    points: float
    turnovers: float
    steals: float
    blocks: float
    errors: tuple[float, float, float, float]


def box_rates(
    teams: Sequence[FieldTeam],
    pairings: Sequence[tuple[int, int, float]],
    *,
    games: int,
    seed: int = 2,
    rules: GameRules = TOURNAMENT_RULES,
) -> BoxRates:
    """Play ``games`` games drawn from the weighted pairings; return per team-game means."""
    rng = random.Random(seed)
    weights = [w for _, _, w in pairings]
    drawn = rng.choices(pairings, weights=weights, k=games)
    coaches = _Coaches(rules)
    samples: list[tuple[float, float, float, float]] = []
    for i, j, _w in drawn:
        result = coaches.play(teams[i].card, teams[j].card, rng.getrandbits(63))
        for box in (result.home, result.away):
            samples.append(
                (
                    float(box.score),
                    float(sum(x.to for x in box.players) + box.team_turnovers),
                    float(sum(x.stl for x in box.players)),
                    float(sum(x.blk for x in box.players)),
                )
            )
    columns = list(zip(*samples, strict=True))
    means = [statistics.fmean(c) for c in columns]
    errors = tuple(statistics.pstdev(c) / math.sqrt(len(c)) for c in columns)
    return BoxRates(
        games, means[0], means[1], means[2], means[3], (errors[0], errors[1], errors[2], errors[3])
    )


def identical_teams(
    teams: Sequence[FieldTeam], labels: Sequence[str], *, rules: GameRules = TOURNAMENT_RULES
) -> Margins:
    """Return the margins of each named team against itself (exact), pooled equally."""
    by_label = {t.card.label: t.card for t in teams}
    laws = []
    for label in labels:
        card = by_label[label]
        twin = replace(card, school=card.school + " (twin)")
        laws.append((exact_odds(card, twin, rules=rules, neutral=True, scores=False), 1.0))
    return margins(laws)


def stars_of(
    rosters: Sequence[Mapping[str, str]], team_ppg: Mapping[str, float], labels: set[str]
) -> list[tuple[str, str, float, float]]:
    """Return the field's 25+ ppg scorers as (team label, player, ppg, team's real ppg)."""
    out = []
    for row in rosters:
        try:
            ppg = float(row.get("ppg") or "")
        except ValueError:
            continue
        label = f"{row['school']} {row['season']}"
        if ppg >= STAR_PPG and label in labels and label in team_ppg:
            out.append((label, row["player"], ppg, team_ppg[label]))
    return out


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def report_markdown(
    teams: Sequence[FieldTeam],
    rosters: Sequence[Mapping[str, str]],
    team_ppg: Mapping[str, float],
    *,
    games: int,
    author_games: Sequence[Mapping[str, str]] = (),
    progress: Progress | None = None,
) -> str:
    """Compute every figure of the report and return it as the Markdown of docs/field.md
    (``author_games``: the rows of fixtures/field/author_games.csv)."""
    bracket = field_bracket(teams)
    pairs = brackets.possible_pairs(bracket, {})
    assert pairs is not None  # the 96 field's bracket has no reseeded round
    odds = pair_odds(teams, pairs, progress=progress)
    titles = title_odds(teams, odds)
    pairings = round_pairings(teams, titles)
    played = margins([(odds[i, j], w) for i, j, w in pairings])
    # The same games with no strategy choices at all: what playing to win does to them.
    plain = pair_odds(teams, {(i, j) for i, j, _ in pairings}, rules=preset("advanced"))
    played_off = margins([(plain[i, j], w) for i, j, w in pairings])
    seeds = [r for r in titles if r.seed <= 4]
    twins = identical_teams(teams, [r.label for r in seeds])
    twins_off = identical_teams(teams, [r.label for r in seeds], rules=preset("advanced"))
    stars = star_shares(
        teams, stars_of(rosters, team_ppg, {t.card.label for t in teams}), games=games
    )
    rates = box_rates(teams, pairings, games=games)
    lines = [
        "## How the field plays (`manage.py field_report`)",
        "",
        "The game the product's tournaments play: advanced rules, the coach policy on, neutral "
        "courts, the bracket's first-listed team as home. Title, Final Four and margin figures "
        f"are exact (`simulator/vabg/coachodds.py`, {len(pairs):,} pairs that can meet); "
        "player points, turnovers, steals and blocks are seeded simulations, their standard "
        "errors given.",
        "",
        "### Title odds, the top 10",
        "",
        "| team | region | seed | Final Four | final | title |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    lines += [
        f"| {r.label} | {r.region} | {r.seed} | {_pct(r.final_four)} | {_pct(r.reach[6])} "
        f"| **{_pct(r.title)}** |"
        for r in titles[:10]
    ]
    lines += [
        "",
        f"The favourite wins {_pct(titles[0].title)} of brackets, the top two together "
        f"{_pct(titles[0].title + titles[1].title)} (goals: at most 25% and 40%).",
        "",
        "### Final Four odds of the top-4 seeds",
        "",
        "| region | seed 1 | seed 2 | seed 3 | seed 4 |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name in [n for pair in brackets.DEFAULT_FINAL_FOUR for n in pair]:
        row = sorted((r for r in seeds if r.region == name), key=lambda r: r.seed)
        lines.append(
            f"| {name} | " + " | ".join(f"{r.label} {_pct(r.final_four)}" for r in row) + " |"
        )
    lines += [
        "",
        "### Margins: the round-1 and round-2 games",
        "",
        "Round-1 games as drawn, round-2 games weighted by each opponent's chance to get there "
        f"({played.games:.0f} games' worth); the identical-teams rows pool each top-4 seed "
        "against itself.",
        "",
        "| | median winning margin | within 9 points | within 3 points | overtime |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| the field, coach on (what tournaments play) | {played.median:.0f} "
        f"| {_pct(played.within_nine)} | {_pct(played.within_three)} "
        f"| {_pct(played.overtime)} |",
        f"| the same games, coach off (no strategy choices) | {played_off.median:.0f} "
        f"| {_pct(played_off.within_nine)} | {_pct(played_off.within_three)} "
        f"| {_pct(played_off.overtime)} |",
        f"| identical teams, coach on | {twins.median:.0f} | {_pct(twins.within_nine)} "
        f"| {_pct(twins.within_three)} | {_pct(twins.overtime)} |",
        f"| identical teams, coach off | {twins_off.median:.0f} "
        f"| {_pct(twins_off.within_nine)} | {_pct(twins_off.within_three)} "
        f"| {_pct(twins_off.overtime)} |",
        f"| the author's 56 published games, as issue 23 counts them | "
        f"{AUTHOR['median margin']:.0f} | - | {_pct(AUTHOR['within 3'])} "
        f"| {_pct(AUTHOR['overtime'])} |",
    ]
    if author_games:
        record = author_record(author_games)
        by_round = {
            rnd: author_record([r for r in author_games if r["round"] == rnd])
            for rnd in sorted({r["round"] for r in author_games})
        }
        lines += [
            f"| the author's {record.games} games on record "
            "(`fixtures/field/author_games.csv`) "
            f"| {record.median:.0f} ({record.measured} games) "
            f"| {_pct(record.within_nine)} ({record.measured}) "
            f"| {_pct(record.within_three)} ({record.measured}) "
            f"| {_pct(record.overtime)} ({record.timed}) |",
            "",
            "His games on record score "
            + "; ".join(
                f"{r.points:.1f} points a team in round {rnd}'s {r.scored} with both scores"
                for rnd, r in by_round.items()
                if r.scored
            )
            + " (overtimes included; the field's own scoring is under \"Turnovers, steals and "
            'blocks" below).',
        ]
        check = author_check(author_games, teams, odds)
        lines += [
            "",
            f"His {check.games} games on record against the exact odds of the very same "
            "pairings (each as the bracket lists it; nothing of the field is fitted on these "
            "results):",
            "",
            "| | his games | the exact odds expect | as many or more under the odds |",
            "| --- | ---: | ---: | ---: |",
            f"| won by the team the odds favour | {check.favourite_won} of {check.games} "
            f"| {check.favourite_expected:.1f} ± {check.favourite_error:.1f} "
            f"| {_pct(check.favourite_tail)} |",
            f"| within 3 points | {check.close} of {check.measured} "
            f"| {check.close_expected:.1f} | {_pct(check.close_tail, 2)} |",
            f"| overtime | {check.overtimes} of {check.timed} "
            f"| {check.overtime_expected:.1f} | {_pct(check.overtime_tail, 2)} |",
            "",
            f"The winners' mean log loss is {check.log_loss:.3f} (a coin flip's "
            f"{math.log(2):.3f}); the exact median winning margin of these pairings is "
            f"{check.margins.median:.0f}, {_pct(check.margins.within_three)} within 3 points, "
            f"{_pct(check.margins.overtime)} overtimes.",
        ]
    lines += [
        "",
        "### Stars: the 25+ ppg scorers' share of their team's points",
        "",
        f"Each star's team against random field opponents, {games:,} games, home in half; "
        "share = his points over his team's (opening points included), kept = simulated "
        "share over real (goals: at least 0.9 on average, none below 0.7).",
        "",
        "| team | player | real ppg | real share | points | share | kept |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines += [
        f"| {s.label} | {s.name} | {s.ppg:.1f} | {_pct(s.real_share)} | {s.points:.1f} "
        f"| {_pct(s.share)} | {s.ratio:.2f} ± {s.error:.2f} |"
        for s in sorted(stars, key=lambda s: -s.real_share)
    ]
    if stars:
        mean = statistics.fmean(s.ratio for s in stars)
        low = min(stars, key=lambda s: s.ratio)
        lines += [
            "",
            f"On average they keep {mean:.2f} of their real share; the lowest, {low.name}, "
            f"{low.ratio:.2f}.",
        ]
    e = rates.errors
    lines += [
        "",
        "### Turnovers, steals and blocks",
        "",
        f"Per team a game, {rates.games:,} games drawn from the round-1 and round-2 games "
        "(opening credits included; goals 13-19 turnovers, 8-14 steals, 4-6 blocks, scoring "
        "68-75):",
        "",
        "| points | turnovers | steals | blocks |",
        "| ---: | ---: | ---: | ---: |",
        f"| {rates.points:.1f} ± {e[0]:.1f} | {rates.turnovers:.1f} ± {e[1]:.1f} "
        f"| {rates.steals:.1f} ± {e[2]:.1f} | {rates.blocks:.1f} ± {e[3]:.1f} |",
        "",
    ]
    return "\n".join(lines)
