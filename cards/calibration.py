"""Calibrate the field pair by pair: the author's first-game predictions, played exactly.

The author published, for 22 teams of the 96-team field, his predicted score of the team's
first game of the tournament, against the opponent the bracket gives it (``predicted_pts``,
``predicted_allowed``; ../shared/data/README.md). This module finds those games
(:func:`first_games`), models his predictions from the two teams' real seasons
(:class:`PairModel`: his margins are about 0.64 x the SRS difference), aims every other team
at the model's points for and against the field and fits the predicted games to his scores
(:func:`aim`, :func:`fit_games`), and measures the games in and out of sample
(:func:`measure_games`, :func:`game_errors`; the hold-out rebuilds the field,
:func:`cards.field.field_holdout`). Every game is played
with the exact odds of the game tournaments play (simulator/vabg/coachodds.py: advanced rules,
the coach policy on, neutral court): no sampling, no seed.
``manage.py build_field`` and ``manage.py calibrate`` use it; docs/calibration.md
explains it.

Pure: no Django, files or clock.

>>> round(author_win_probability(5.5), 3)
0.667
>>> PairModel(compression=0.64).predict(Season(2000, rating=10, pts=80, opp=60),
...                                     Season(2000, rating=0, pts=70, opp=70))
(73.2, 66.8)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist

import numpy as np

from cards.calculator import FIELD_MEAN_POINTS, era_for
from simulator.vabg import GameRules, TeamCard, preset
from simulator.vabg.coachodds import exact_odds

PLAYED_RULES = preset("advanced", strategy=True)
"""The game the field is calibrated on: what its tournaments play (issue 23.6)."""
SRS_OFFSET = 21.0
"""The average great team is 21 points better than an average Division I team (the author,
card_method_notes.md §7): a real season's SRS less 21 is its rating against the field."""
AUTHOR_COMPRESSION = 0.63
"""The author's predicted margins are about 0.63 x the real-SRS difference (issue 11); the
model's default before it is fitted."""
POINTS_PER_NUMBER = 1.2
"""About how many points one number of X = dunk top + adjustment moves a team's score (the
exact odds: 0.9-1.7 a number, docs/calibration.md); :func:`aim` steps by it."""
UNDERDOG_GUIDE = (5.5, 1 / 3)
"""The author's win-probability guide: "a 5-6 point underdog wins about 1 in 3"
(../shared/data/rules_notes.md)."""
MARGIN_SIGMA = UNDERDOG_GUIDE[0] / NormalDist().inv_cdf(1 - UNDERDOG_GUIDE[1])
"""The spread of a game's margin the guide implies (about 12.8 points): the author's win
probability of a predicted margin m is Phi(m / MARGIN_SIGMA)."""
DUNK_TOP_BOUNDS = (34, 66)
DUNK_ADJUST_BOUNDS = (-32, 32)


def author_win_probability(margin: float) -> float:
    """Return the author's chance that a team predicted to win by ``margin`` wins.

    >>> round(author_win_probability(-5.5), 3), author_win_probability(0.0)
    (0.333, 0.5)
    """
    return NormalDist().cdf(margin / MARGIN_SIGMA)


@dataclass(frozen=True, slots=True)
class Seeded:
    """A team of the field file: where the bracket puts it and its published prediction."""

    label: str
    season: int
    region: str
    seed: int
    predicted_pts: float | None = None
    predicted_allowed: float | None = None
    inferred: bool = False


@dataclass(frozen=True, slots=True)
class FirstGame:
    """One game the author predicted: ``first`` scores ``first_pts``, ``second`` ``second_pts``.

    ``published`` names the team(s) whose row prints the prediction (two when the rows
    mirror each other, Auburn 2019 65-59 and George Mason 2006 59-65); ``how`` says how the
    opponent was found.
    """

    first: str
    second: str
    first_pts: float
    second_pts: float
    published: tuple[str, ...]
    how: str
    inferred: bool = False

    @property
    def margin(self) -> float:
        """Return the predicted margin, ``first`` minus ``second``."""
        return self.first_pts - self.second_pts


def first_games(field: Sequence[Seeded]) -> tuple[list[FirstGame], list[str]]:
    """Return the games the author predicted, each once, and the predictions left unplaced.

    The 96 field's bracket (../shared/data/README.md): seed s > 8 meets seed 33 - s of its
    region in round 1; seed s <= 8 meets the winner of (17 - s) v (16 + s), taken as the team
    the author's own prediction of that game makes the winner (a feeder with no published
    prediction leaves the game unplaced). Two rows that mirror each other are one game.

    >>> teams = [Seeded("A", 1, "W", 9, 70, 60), Seeded("B", 1, "W", 24, 60, 70),
    ...          Seeded("C", 1, "W", 1, 80, 70), Seeded("D", 1, "W", 16),
    ...          Seeded("E", 1, "W", 17, 65, 61)]
    >>> games, unplaced = first_games(teams)
    >>> [(g.first, g.second, g.first_pts, g.second_pts, g.published) for g in games]
    [('A', 'B', 70, 60, ('A', 'B')), ('C', 'E', 80, 70, ('C',)), ('E', 'D', 65, 61, ('E',))]
    >>> unplaced
    []
    """
    at = {(t.region, t.seed): t for t in field}
    games: dict[frozenset[str], FirstGame] = {}
    unplaced: list[str] = []
    for team in field:
        if team.predicted_pts is None or team.predicted_allowed is None:
            continue
        if team.seed > 8:
            other = at.get((team.region, 33 - team.seed))
            how = f"round 1: {team.region} #{team.seed} v #{33 - team.seed}"
        else:
            other = None
            feeders = [at.get((team.region, 17 - team.seed)), at.get((team.region, 16 + team.seed))]
            for one, two in (feeders, feeders[::-1]):
                if one is not None and two is not None and one.predicted_pts is not None:
                    assert one.predicted_allowed is not None
                    other = one if one.predicted_pts > one.predicted_allowed else two
                    break
            how = (
                f"round 2: {team.region} #{team.seed} v the predicted winner of "
                f"#{17 - team.seed} v #{16 + team.seed}"
            )
        if other is None:
            unplaced.append(f"{team.label}: its first opponent is not known ({how})")
            continue
        key = frozenset((team.label, other.label))
        if key in games:
            was = games[key]
            mirrored = (was.first_pts, was.second_pts) == (
                team.predicted_allowed,
                team.predicted_pts,
            )
            if not mirrored:
                unplaced.append(
                    f"{team.label}: its {team.predicted_pts:g}-{team.predicted_allowed:g} "
                    f"against {other.label} differs from {was.first}'s "
                    f"{was.first_pts:g}-{was.second_pts:g}; the first is used"
                )
            games[key] = replace(was, published=(*was.published, team.label))
            continue
        games[key] = FirstGame(
            first=team.label,
            second=other.label,
            first_pts=team.predicted_pts,
            second_pts=team.predicted_allowed,
            published=(team.label,),
            how=how,
            inferred=team.inferred,
        )
    return list(games.values()), unplaced


@dataclass(frozen=True, slots=True)
class Season:
    """A team's real season: its rating (SRS - 21) and points scored and allowed a game."""

    season: int
    rating: float | None = None
    pts: float | None = None
    opp: float | None = None

    @property
    def tempo(self) -> float | None:
        """Return the points both teams scored a game (``pts + opp``), when known."""
        return None if self.pts is None or self.opp is None else self.pts + self.opp


@dataclass(frozen=True, slots=True)
class PairModel:
    """The author's first-game predictions as a function of the two teams' real seasons.

    ``pts_A = scale x (T_A + T_B) / 4 + compression / 2 x (rating_A - rating_B)``, ``T``
    being the real season's points scored plus allowed a game and the rating its SRS - 21.
    So a predicted margin is ``compression`` x the SRS difference, and the game's total is
    ``scale`` x the mean of the two teams' real totals. ``rating_mean`` and ``tempo_mean``
    are the field's averages: a team without a rating counts as average, a team without its
    points as its era's average (``tempo_per_era`` x twice the era's points a game,
    cards.calculator.era_for).
    """

    compression: float = AUTHOR_COMPRESSION
    scale: float = 1.0
    rating_mean: float = 0.0
    tempo_mean: float = 2 * FIELD_MEAN_POINTS
    tempo_per_era: float = 1.0
    games: int = 0
    """Games the constants were fitted on (0: the defaults, aiming the field at 67)."""

    def rating_of(self, season: Season) -> float:
        """Return the team's rating, the field's average when it has none."""
        return self.rating_mean if season.rating is None else season.rating

    def tempo_of(self, season: Season) -> float:
        """Return the team's real points a game both ways, its era's when not known."""
        if season.tempo is not None:
            return season.tempo
        return self.tempo_per_era * 2 * era_for(season.season).ppg

    def predict(self, first: Season, second: Season) -> tuple[float, float]:
        """Return the points the author would predict each team to score in their game.

        >>> PairModel(compression=0.6, scale=0.9).predict(
        ...     Season(2000, rating=5, pts=80, opp=60), Season(2000, rating=-5, pts=70, opp=70)
        ... )
        (66.0, 60.0)
        """
        half = self.compression / 2 * (self.rating_of(first) - self.rating_of(second))
        common = self.scale / 4 * (self.tempo_of(first) + self.tempo_of(second))
        return common + half, common - half

    def targets(self, season: Season) -> tuple[float, float]:
        """Return a team's points for and against a game against the field's average team."""
        half = self.compression / 2 * (self.rating_of(season) - self.rating_mean)
        common = self.scale / 4 * (self.tempo_of(season) + self.tempo_mean)
        return common + half, common - half


def fit_model(
    games: Sequence[FirstGame], seasons: Mapping[str, Season], field: Iterable[str]
) -> PairModel:
    """Fit :class:`PairModel` to the games both of whose teams have a rating and points.

    Least squares over the games' team scores (two a game) of ``compression`` and ``scale``
    (no constant: a game's points are in proportion to the two teams' real points); with
    fewer than four such games the compression stays 0.63 and the scale puts the field's
    average at 67. ``field`` names the teams the averages run over.
    """
    labels = [x for x in field if x in seasons]
    rated = [seasons[x].rating for x in labels if seasons[x].rating is not None]
    known = [seasons[x] for x in labels if seasons[x].tempo is not None]
    ratio = (
        sum((s.tempo or 0.0) / (2 * era_for(s.season).ppg) for s in known) / len(known)
        if known
        else 1.0
    )
    model = PairModel(
        rating_mean=sum(x for x in rated if x is not None) / len(rated) if rated else 0.0,
        tempo_per_era=ratio,
    )
    if labels:
        tempos = [model.tempo_of(seasons[x]) for x in labels]
        model = replace(model, tempo_mean=sum(tempos) / len(tempos))
    model = replace(model, scale=4 * FIELD_MEAN_POINTS / (2 * model.tempo_mean))
    usable = [
        g for g in games if _complete(seasons.get(g.first)) and _complete(seasons.get(g.second))
    ]
    if len(usable) < 4:
        return model
    rows, values = [], []
    for g in usable:
        a, b = seasons[g.first], seasons[g.second]
        both = ((a.tempo or 0.0) + (b.tempo or 0.0)) / 4
        diff = ((a.rating or 0.0) - (b.rating or 0.0)) / 2
        rows += [[diff, both], [-diff, both]]
        values += [g.first_pts, g.second_pts]
    (compression, scale), *_ = np.linalg.lstsq(np.array(rows), np.array(values), rcond=None)
    return replace(model, compression=float(compression), scale=float(scale), games=len(usable))


def field_targets(
    model: PairModel, seasons: Mapping[str, Season], teams: Iterable[str], reference: Iterable[str]
) -> dict[str, tuple[float, float]]:
    """Return each team's points for and against a game, on average over ``reference``.

    The mean of :meth:`PairModel.predict` against every team of the reference field (itself
    left out): what :func:`aim` plays each team to, over the same opponents.
    """
    reference = sorted(reference)
    out = {}
    for label in teams:
        own = seasons.get(label, Season(season=0))
        others = [x for x in reference if x != label]
        if not others:
            out[label] = model.targets(own)
            continue
        games = [model.predict(own, seasons.get(x, Season(season=0))) for x in others]
        out[label] = (
            sum(g[0] for g in games) / len(games),
            sum(g[1] for g in games) / len(games),
        )
    return out


def _complete(season: Season | None) -> bool:
    return season is not None and season.rating is not None and season.tempo is not None


# -- exact odds ------------------------------------------------------------------------------

Dunks = dict[str, tuple[int, int]]
"""Each team's dunk top and adjustment, by label."""


Odds = tuple[float, float, float]
"""A game's expected points of the first and second team and the first team's chance to win."""


def game_key(home: TeamCard, away: TeamCard, rules: GameRules) -> str:
    """Return a key of everything ``exact_odds`` of a neutral game reads: both cards, rules.

    The cards as whole ``vabg-team/1`` documents (dunk numbers included), so a game whose
    teams differ in anything gets its own key.
    """
    return keyed(card_text(home), card_text(away), rules_text(rules))


def card_text(card: TeamCard) -> str:
    """Return a card's document as :func:`game_key` writes it (keys sorted)."""
    return json.dumps(card.to_json(), sort_keys=True)


def rules_text(rules: GameRules) -> str:
    """Return the rules as :func:`game_key` writes them."""
    return json.dumps(repr(rules))


def keyed(home: str, away: str, rules: str) -> str:
    """Return :func:`game_key` from the texts of its parts: ``json.dumps`` of the list
    ``[repr(rules), home, away]`` is its items' texts joined by ", " in brackets, so a card
    written once serves every game it plays (the key is the same, byte for byte)."""
    return hashlib.sha256(f"[{rules}, {home}, {away}]".encode()).hexdigest()


class ExactOdds:
    """Expected points and win chances of neutral-court games, from the exact odds, cached.

    ``simulator.vabg.coachodds.exact_odds`` with the rules tournaments play (advanced, the
    coach policy on: :data:`PLAYED_RULES`) on a neutral court, each
    game keyed by the two teams and their dunk numbers, so aiming a team plays only the games
    its new numbers change. ``evaluated`` counts the different games asked for.

    ``store`` (optional) holds games computed before, by :func:`game_key`: a game found
    there is not computed again (``stored`` counts them), and every game computed is added.
    The caller keeps it only for the same engine (build_field's ``--odds-cache``): the exact
    odds are a pure function of the two cards and the rules, so a stored game is the number
    ``exact_odds`` would give.
    """

    def __init__(
        self,
        teams: Iterable[TeamCard],
        *,
        rules: GameRules | None = None,
        store: MutableMapping[str, Odds] | None = None,
    ) -> None:
        self.teams = {t.label: t for t in teams}
        self.rules = rules or PLAYED_RULES
        self.store = store
        self.evaluated = 0
        self.stored = 0
        self._cache: dict[tuple[object, ...], Odds] = {}
        self._cards: dict[tuple[str, int, int], TeamCard] = {}
        self._texts: dict[tuple[str, int, int], str] = {}
        self._rules_text = rules_text(self.rules)

    def dunks(self) -> Dunks:
        """Return the teams' dunk numbers as their cards give them."""
        return {x: (t.dunk_top, t.dunk_adjust) for x, t in self.teams.items()}

    def card(self, label: str, numbers: tuple[int, int]) -> TeamCard:
        """Return a team's card with the given dunk top and adjustment (made once each)."""
        key = (label, *numbers)
        card = self._cards.get(key)
        if card is None:
            card = replace(self.teams[label], dunk_top=numbers[0], dunk_adjust=numbers[1])
            self._cards[key] = card
        return card

    def _key(self, a: str, a_dunks: tuple[int, int], b: str, b_dunks: tuple[int, int]) -> str:
        """Return :func:`game_key` of the two teams' cards with these dunk numbers, each
        card's text written once (a build asks for some 14,000 games of a few hundred)."""
        texts = []
        for label, numbers in ((a, a_dunks), (b, b_dunks)):
            key = (label, *numbers)
            text = self._texts.get(key)
            if text is None:
                text = self._texts[key] = card_text(self.card(label, numbers))
            texts.append(text)
        return keyed(texts[0], texts[1], self._rules_text)

    def game(self, first: str, second: str, dunks: Mapping[str, tuple[int, int]]) -> Odds:
        """Return ``first``'s and ``second``'s expected points and ``first``'s chance to win."""
        a, b = sorted((first, second))
        key = (a, *dunks[a], b, *dunks[b])
        got = self._cache.get(key)
        if got is None:
            home, away = self.card(a, dunks[a]), self.card(b, dunks[b])
            content = None if self.store is None else self._key(a, dunks[a], b, dunks[b])
            known = None if self.store is None or content is None else self.store.get(content)
            if known is not None:
                got = (float(known[0]), float(known[1]), float(known[2]))
                self.stored += 1
            else:
                odds = exact_odds(home, away, rules=self.rules, neutral=True, scores=False)
                got = (odds.expected_home_pts, odds.expected_away_pts, odds.p_home_win)
                if self.store is not None and content is not None:
                    self.store[content] = got
            self._cache[key] = got
            self.evaluated += 1
        if a == first:
            return got
        return got[1], got[0], 1.0 - got[2]

    def means(
        self,
        label: str,
        dunks: Mapping[str, tuple[int, int]],
        reference: Iterable[str] | None = None,
    ) -> tuple[float, float]:
        """Return a team's mean points for and against over the reference teams (all others)."""
        pool = self.teams if reference is None else reference
        others = [x for x in sorted(pool) if x != label]
        pf = pa = 0.0
        for other in others:
            own, their, _p = self.game(label, other, dunks)
            pf += own
            pa += their
        return pf / len(others), pa / len(others)


def _clamp(x: int, bounds: tuple[int, int]) -> int:
    return max(bounds[0], min(bounds[1], x))


def aim(
    odds: ExactOdds,
    dunks: Mapping[str, tuple[int, int]],
    targets: Mapping[str, tuple[float, float]],
    free: Mapping[str, tuple[bool, bool]],
    reference: Iterable[str],
    *,
    rounds: int = 5,
    max_step: int = 8,
) -> Dunks:
    """Move the target teams' dunk numbers until each plays to its targets over ``reference``.

    Each round plays every target team against every reference team (exactly, cached), then
    moves all of them at once: the dunk top by the whole numbers nearest (target points -
    mean points) / :data:`POINTS_PER_NUMBER`, the adjustment by (target allowed - mean
    allowed) / the same, less the mean move of the reference teams' tops it will face (so a
    field that moves together does not overshoot); at most ``max_step`` a round. ``free``
    says which of the two numbers may move (printed ones stay). Rounds stop when nothing
    moves, when the numbers come back to where they were two rounds before, or after
    ``rounds``.

    A number moves a team's points by 0.9-1.7, not always 1.2, so a team whose error lies
    between two whole numbers can step over its target and back for ever (+0.7 points at
    one number, -1.0 at the next). So each team ends on the top, and the adjustment, whose
    measured error was the smallest of all it was played at: the whole number nearest its
    target, not whichever one the last round left it on.
    """
    dunks = dict(dunks)
    reference = sorted(reference)
    movers = sorted(x for x in targets if any(free.get(x, (False, False))))
    seen_top: dict[str, dict[int, float]] = {x: {} for x in movers}
    seen_adjust: dict[str, dict[int, float]] = {x: {} for x in movers}
    before: Dunks | None = None
    for _round in range(rounds + 1):
        means = {x: odds.means(x, dunks, reference) for x in movers}
        errors = {x: (targets[x][0] - means[x][0], targets[x][1] - means[x][1]) for x in movers}
        for x in movers:
            seen_top[x].setdefault(dunks[x][0], abs(errors[x][0]))
            seen_adjust[x].setdefault(dunks[x][1], abs(errors[x][1]))
        if _round == rounds:
            break
        tops = [errors[x][0] / POINTS_PER_NUMBER for x in movers if x in reference and free[x][0]]
        shift = sum(tops) / len(reference) if reference else 0.0
        moved_to: Dunks = {}
        for label in movers:
            can_top, can_adjust = free[label]
            top, adjust = dunks[label]
            if can_top:
                step = round(errors[label][0] / POINTS_PER_NUMBER)
                top = _clamp(top + max(-max_step, min(max_step, step)), DUNK_TOP_BOUNDS)
            if can_adjust:
                step = round(errors[label][1] / POINTS_PER_NUMBER - shift)
                adjust = _clamp(adjust + max(-max_step, min(max_step, step)), DUNK_ADJUST_BOUNDS)
            moved_to[label] = (top, adjust)
        if all(moved_to[x] == dunks[x] for x in movers) or moved_to == before:
            break
        before = {x: dunks[x] for x in movers}
        dunks.update(moved_to)
    for x in movers:
        dunks[x] = (
            min(seen_top[x], key=lambda n: (seen_top[x][n], n)),
            min(seen_adjust[x], key=lambda n: (seen_adjust[x][n], n)),
        )
    return dunks


def fit_games(
    odds: ExactOdds,
    games: Sequence[FirstGame],
    dunks: Mapping[str, tuple[int, int]],
    free: Mapping[str, tuple[bool, bool]],
    *,
    anchor_published: float = 0.01,
    anchor_other: float = 1.0,
    rounds: int = 40,
) -> Dunks:
    """Fit the dunk numbers of the games' teams so the games play as the author predicted.

    A game is a pair: the first team's points read its dunk top and the second's adjustment,
    the second's points the reverse. Minimised: the squared errors of every game's two
    expected scores, plus, for each team, ``anchor`` x the squared numbers it moved from
    ``dunks`` (where :func:`aim` put it): a team that published the prediction moves almost
    freely (0.01), its opponent, aimed by its real season, only when the published team
    cannot close the gap (1: a number must gain about a point). Coordinate descent by one
    number at a time, each team as far as it improves before the next, the publishing teams
    first (in name order), then their opponents, until nothing improves.
    """
    start = dict(dunks)
    dunks = dict(dunks)
    published = {x for g in games for x in g.published}
    involved = sorted({x for g in games for x in (g.first, g.second)})
    by_team = {x: [g for g in games if x in (g.first, g.second)] for x in involved}

    def cost(label: str, numbers: Dunks) -> float:
        total = 0.0
        for g in by_team[label]:
            one, two, _p = odds.game(g.first, g.second, numbers)
            total += (one - g.first_pts) ** 2 + (two - g.second_pts) ** 2
        anchor = anchor_published if label in published else anchor_other
        (top, adjust), (top0, adjust0) = numbers[label], start[label]
        return total + anchor * ((top - top0) ** 2 + (adjust - adjust0) ** 2)

    order = sorted(involved, key=lambda x: (x not in published, x))
    for _round in range(rounds):
        improved = False
        for label in order:
            can = free.get(label, (False, False))
            while True:
                best = cost(label, dunks)
                choice = None
                for which in (0, 1):
                    if not can[which]:
                        continue
                    for step in (1, -1):
                        numbers = list(dunks[label])
                        numbers[which] += step
                        bounds = DUNK_TOP_BOUNDS if which == 0 else DUNK_ADJUST_BOUNDS
                        if numbers[which] != _clamp(numbers[which], bounds):
                            continue
                        trial = dict(dunks)
                        trial[label] = (numbers[0], numbers[1])
                        value = cost(label, trial)
                        if value < best - 1e-9:
                            best, choice = value, trial[label]
                if choice is None:
                    break
                dunks[label] = choice
                improved = True
        if not improved:
            break
    return dunks


# -- what the page reports ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameResult:
    """One predicted game played exactly: expected points beside the author's."""

    game: FirstGame
    first_pts: float
    second_pts: float
    p_first: float

    @property
    def errors(self) -> tuple[float, float]:
        """Return expected minus predicted points, first team then second."""
        return self.first_pts - self.game.first_pts, self.second_pts - self.game.second_pts

    @property
    def margin(self) -> float:
        """Return the expected margin, first minus second."""
        return self.first_pts - self.second_pts

    @property
    def author_p_first(self) -> float:
        """Return the author's chance that ``first`` wins, from his margin and guide."""
        return author_win_probability(self.game.margin)


@dataclass(frozen=True, slots=True)
class GameErrors:
    """The errors over a set of games: score MAE and bias, margin slope, win chance error."""

    games: int
    mae: float | None
    bias: float | None
    slope: float | None
    """Least squares through 0 of the played margin on the predicted margin (1 = his)."""
    win_error: float | None
    """Mean |played P(win) - the author's P(win)|, as a fraction."""


def measure_games(
    odds: ExactOdds, games: Iterable[FirstGame], dunks: Mapping[str, tuple[int, int]]
) -> list[GameResult]:
    """Play each game exactly with the given dunk numbers."""
    return [GameResult(g, *odds.game(g.first, g.second, dunks)) for g in games]


def game_errors(results: Sequence[GameResult]) -> GameErrors:
    """Return the errors over ``results`` (``None`` where there is no game)."""
    if not results:
        return GameErrors(0, None, None, None, None)
    errs = [e for r in results for e in r.errors]
    predicted = [r.game.margin for r in results]
    played = [r.margin for r in results]
    squares = sum(m * m for m in predicted)
    return GameErrors(
        games=len(results),
        mae=sum(abs(e) for e in errs) / len(errs),
        bias=sum(errs) / len(errs),
        slope=sum(p * m for p, m in zip(predicted, played, strict=True)) / squares
        if squares
        else None,
        win_error=sum(abs(r.p_first - r.author_p_first) for r in results) / len(results),
    )


def folds(
    games: Sequence[FirstGame], order: Sequence[str]
) -> tuple[list[FirstGame], list[FirstGame]]:
    """Split the games in two halves that share no team.

    Games that share a team (Auburn 2019 plays George Mason and Arkansas) are one group;
    groups are ordered by the first of their teams in ``order`` (the field file's rows) and
    dealt alternately to the two halves, so the split is fixed before anything is measured.
    """
    groups: list[list[FirstGame]] = []
    for game in games:
        joined = [
            grp
            for grp in groups
            if any({game.first, game.second} & {g.first, g.second} for g in grp)
        ]
        merged = [game] + [g for grp in joined for g in grp]
        groups = [grp for grp in groups if grp not in joined] + [merged]
    rank = {label: i for i, label in enumerate(order)}

    def first_row(group: list[FirstGame]) -> int:
        return min(rank.get(x, len(rank)) for g in group for x in (g.first, g.second))

    halves: tuple[list[FirstGame], list[FirstGame]] = ([], [])
    for i, group in enumerate(sorted(groups, key=first_row)):
        halves[i % 2].extend(sorted(group, key=lambda g: (rank.get(g.first, 0), g.first)))
    return halves


@dataclass(frozen=True, slots=True)
class Fold:
    """One half of the games measured with the model fitted on the other half."""

    model: PairModel
    fitted_on: tuple[FirstGame, ...]
    results: tuple[GameResult, ...]
    left_out: tuple[FirstGame, ...]
    """Games of this half not measured: a team without a rating cannot be aimed by one."""
