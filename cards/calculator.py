"""Turn a player's season line and his team's context into a VABG card (``vabg-team/1``).

Pure functions over frozen dataclasses: no Django, no files, no randomness. The
formulas, their constants and where each comes from are written down in
``docs/cards.md``; the section numbers in the comments (``cards.md §n``) point there.

>>> ctx = TeamContext(school="Example", season=2010)
>>> line = SeasonLine(name="A. Guard", slot=1, role="starter", ppg=12.0, fg_pct=0.45, ft_pct=0.8)
>>> card_for(line, ctx).card["free_throw_top"]
16
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from simulator.vabg.rules import (
    DUNK_ADJUST_MAX,
    DUNK_ADJUST_MIN,
    DUNK_TOP_MAX,
    DUNK_TOP_MIN,
    ball_claims,
    dunk_row,
    effective_dunk_top,
)

TEAM_FORMAT = "vabg-team/1"
THREE_POINT_SEASON = 1987
"""The first season (1986-87) played everywhere with a 3-point line (cards.md §5)."""
D20_KEYS = ("3PM", "2PM", "FOUL", "3PX", "2PX")
SLOTS = (1, 2, 3, 4, 5)
MAX_ROSTER = 10
"""A team file holds 5 to 10 players (interchange.md)."""
CARD_RANGE_FIELDS = (
    "extra_ball", "can_play", "steal_top", "block_top", "foul_from", "turnover_top", "d20",
    "free_throw_top", "off_reb", "def_reb",
)  # fmt: skip
"""The values a card is made of; a card whose every one is printed is ``published``."""

# -- constants (each with its source in cards.md) ------------------------------------------
GAME_POSSESSIONS = 66
"""Possessions a side in a whole game: the 22 before the 20-20 start plus the 44 played (§2)."""
PLAYED_POSSESSIONS = 44
OPENING_POSSESSIONS = GAME_POSSESSIONS - PLAYED_POSSESSIONS
"""The 22 possessions the 20-20 start stands for, shared by the whole roster (§3)."""
STARTER_MPG = 40 * 48 / GAME_POSSESSIONS
"""An average starter plays 48 of 66 possessions (the rulebook): 29.1 minutes (§8)."""
RESERVE_MPG = 40 * 18 / GAME_POSSESSIONS
"""An average reserve plays 18 of 66 possessions (the rulebook): 10.9 minutes (§8)."""
STARTER_BASIC_STAMINA = 37
RESERVE_BASIC_STAMINA = 7
"""The rulebook's "can play" for teams without minutes: starters 37 of 44, reserves 7 (§7)."""
EXTRA_BALL_TOUCHES = (0.29, 0.45)
"""Touches a possession on the floor for one and for two extra ball numbers (§3): fitted to
the rulebook's cards (Robinson 0.280 and Lamb 0.267 print none, Davis 0.299 and eight more
starters up to Leonard 0.419 print one)."""
K_STEAL = 330.0
"""Steal numbers beyond the first per steal per defended possession, fitted to the
rulebook's six printed steal ranges (§4.1)."""
K_BLOCK = 150.0
"""Block numbers beyond the first per block per defended possession, fitted to the
rulebook's 21-31 (Davis), 21-26 (Thomas) and 21-21 (Lamb) (§4.2)."""
K_FOUL = 36.0
"""Foul numbers per personal foul per defended possession: a fifth of 36 x 5 (§4.3)."""
K_TURNOVER = 60.0
TURNOVER_FLOOR = 0.02
"""Turnover numbers = 50 x (turnovers a trip he ends - 0.08), fitted to Davis 2012's 41-40
(0.086) and the rulebook's usual 41-43 for the median player (0.139) (§4.4)."""
K_OFF_REB = 58.0
OFF_REB_FLOOR = 0.012
"""Offensive rebound range = 58 x (offensive rebound rate - 0.012), fitted to the six
printed offensive ranges: 1-0 (Gay), 1-1 (Tapley), four bigs at 1-6 (§6)."""
K_DEF_REB = 21.0
DEF_REB_BASE = 0.3
"""Defensive rebound range = 21 x defensive rebound rate + 0.3, fitted to the six printed
defensive ranges, 1-2 to 1-7 (§6)."""
MAX_REBOUND_RANGE = 10
"""The author's highest rebound range: Wilt Chamberlain's 1-10 (§6)."""
FT_TRIP = 0.5
"""Free throws per trip that ends in a fouled d20 result: two shots (§5)."""
PRE_1987_THREE_SHARE = 0.2
"""Before the 3-point line, one made shot in five is a 3 (the author, §5.2)."""
PRE_1987_THREE_PCT_FACTOR = 0.75
"""An estimated pre-1987 3 goes in at three quarters of the player's own FG% (our choice, §5.2)."""
FIELD_MEAN_POINTS = 67.0
"""Points a game an average great team scores and allows against the field (§10)."""
ENGINE_TRIP = (0.17, 1.05)
"""Points a trip in the engine = 0.17 + 1.05 x :func:`points_per_trip`; measured (§10.3)."""
POINTS_PER_DUNK_NUMBER = PLAYED_POSSESSIONS / 36
"""Points a game one number of the opponent's top X moves near X = 50: 44/36 (§10.4)."""
MEAN_DUNK_ADJUST = -5
"""Where the adjustments are centred; it cancels in play (D + A), so it is cosmetic (§10.4)."""
FIELD_STEAL_NUMBERS = 5.9
FIELD_BLOCK_NUMBERS = 2.9
"""A field defender's steal and block numbers on their rows (11-16, 21-26: a range beyond
counts there only on a halved d8 of 6-8 and on 31/32), assumed by the points a trip is
worth (§10): the mean of the 465 starters build_field writes (measured)."""
ROW = 6
"""The numbers of an 11-66 row: 11-16, 21-26, 41-46."""
PUTBACK_SHARE = 0.25
"""Share of missed d20 shots the offense gets back: half the trips use the chart, ~half (§10)."""


# -- era baselines (cards.md §1.3) ---------------------------------------------------------
# Approximate Division I averages by season. The 2-point FG% follows the author's
# published figures ("1940s under 30%, 1950s under 40%, 1960s about 45%, 1970s under 50%,
# since the 1980s about 50%"); the rest are rounded public NCAA averages (our choice).
_ERA_YEARS = (1945, 1955, 1965, 1975, 1985, 1995, 2005, 2015, 2025)
_ERA_TABLE: dict[str, tuple[float, ...]] = {
    "fg2": (0.29, 0.38, 0.45, 0.48, 0.50, 0.48, 0.49, 0.49, 0.51),
    "ft": (0.60, 0.67, 0.69, 0.68, 0.69, 0.68, 0.69, 0.69, 0.71),
    "pace": (68.0, 80.0, 80.0, 76.0, 68.0, 70.0, 67.0, 66.0, 68.0),
    "ftr": (0.38, 0.45, 0.40, 0.38, 0.36, 0.37, 0.36, 0.37, 0.34),
    "ppg": (48.0, 72.0, 78.0, 78.0, 70.0, 74.0, 70.0, 69.0, 72.0),
    "three_share": (0.0, 0.0, 0.0, 0.0, 0.0, 0.30, 0.33, 0.36, 0.40),
    "fg3": (0.34, 0.34, 0.34, 0.34, 0.34, 0.35, 0.35, 0.345, 0.34),
}


@dataclass(frozen=True, slots=True)
class Era:
    """Hold the league averages a season's cards are measured against."""

    season: int
    fg2: float
    ft: float
    pace: float
    ftr: float
    ppg: float
    three_share: float
    fg3: float

    @property
    def three_point_line(self) -> bool:
        """Tell whether the season was played with a 3-point line everywhere."""
        return self.season >= THREE_POINT_SEASON

    @property
    def fg(self) -> float:
        """Return the overall field-goal percentage (2s and 3s)."""
        if not self.three_point_line:
            return self.fg2
        return self.fg2 * (1 - self.three_share) + self.fg3 * self.three_share

    @property
    def misses_per_possession(self) -> float:
        """Return the reboundable misses per possession (about 0.85 shots a trip, §6)."""
        return 0.85 * (1 - self.fg) + 0.85 * 0.44 * self.ftr * (1 - self.ft) * 0.5


def era_for(season: int) -> Era:
    """Return the era baselines for a season, interpolated between anchor years.

    >>> round(era_for(1960).fg2, 3), era_for(1986).three_share, round(era_for(1991).three_share, 2)
    (0.415, 0.0, 0.23)
    """
    values: dict[str, float] = {}
    for key, row in _ERA_TABLE.items():
        values[key] = _interpolate(season, _ERA_YEARS, row)
    if season < THREE_POINT_SEASON:
        values["three_share"] = 0.0
    elif season < 1995:
        # the line arrived in 1986-87: about 16% of shots, rising to 30% by 1995
        values["three_share"] = 0.16 + (0.30 - 0.16) * (season - THREE_POINT_SEASON) / 8
    return Era(season=season, **values)


def _interpolate(x: float, xs: Sequence[float], ys: Sequence[float]) -> float:
    if x <= xs[0]:
        return ys[0]
    for x0, y0, x1, y1 in zip(xs, ys, xs[1:], ys[1:], strict=False):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return ys[-1]


# -- fill-ins by slot (cards.md §8) --------------------------------------------------------
_FG_BY_SLOT = {1: -0.03, 2: -0.02, 3: 0.0, 4: 0.03, 5: 0.05}
_FT_BY_SLOT = {1: 0.05, 2: 0.05, 3: 0.02, 4: -0.03, 5: -0.07}
_FTR_BY_SLOT = {1: 0.8, 2: 0.8, 3: 1.0, 4: 1.15, 5: 1.3}
_THREE_BY_SLOT = {1: 1.35, 2: 1.45, 3: 1.1, 4: 0.55, 5: 0.15}
_FG3_BY_SLOT = {1: 0.01, 2: 0.02, 3: 0.0, 4: -0.02, 5: -0.05}
# Steals, blocks, fouls, turnovers and assists per 40 minutes: the means of the 145
# starters the calculator slots from the 29 teams of alltime96_player_seasons.csv with five
# full lines (cards.md §8, measured).
_STL40_BY_SLOT = {1: 1.6, 2: 1.6, 3: 1.4, 4: 1.3, 5: 1.1}
_BLK40_BY_SLOT = {1: 0.2, 2: 0.3, 3: 0.65, 4: 1.5, 5: 2.0}
_PF40_BY_SLOT = {1: 2.5, 2: 2.5, 3: 3.0, 4: 3.8, 5: 3.9}
_TOV40_BY_SLOT = {1: 2.3, 2: 2.4, 3: 2.3, 4: 2.3, 5: 2.2}
_AST40_BY_SLOT = {1: 4.9, 2: 4.1, 3: 2.6, 4: 1.9, 5: 1.6}
_FILL_PACE = 66.5
"""The era pace (possessions per 40) of the 2007-2021 seasons those were measured on: a
filled-in count a game is scaled by the team's pace over it, so that the fill-in keeps its
rate a possession in a faster or slower era (cards.md §8)."""
_REB40_BY_SLOT = {1: 4.5, 2: 5.0, 3: 6.5, 4: 8.5, 5: 10.0}
_OREB_SHARE_BY_SLOT = {1: 0.2, 2: 0.22, 3: 0.27, 4: 0.32, 5: 0.35}
_PTS40_STARTER_BY_SLOT = {1: 15.0, 2: 17.0, 3: 16.0, 4: 16.0, 5: 16.0}
_POSITIONS_BY_SLOT = {1: (1,), 2: (2,), 3: (3,), 4: (4,), 5: (5,)}
_MODERN_MISSES = era_for(2010).misses_per_possession


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """Hold one player's season: identity, role and every per-game statistic found.

    Statistics are per game (``ppg``, ``fga``, ``tov``...), percentages are fractions
    (0.455). ``fta_rate`` (FTA/FGA) and ``three_rate`` (3PA/FGA) stand in for ``fta`` and
    ``fg3a`` when only season totals without games are known. ``None`` means not found;
    the calculator then fills the value in and marks the card ``estimated``. ``printed``
    holds card values the author published; they are kept exactly (field name -> value,
    ``d20.FOUL`` for a printed fouled range alone).
    """

    name: str
    slot: int | None = None
    role: str | None = None
    pos: str | None = None
    height: str | None = None
    g: float | None = None
    mpg: float | None = None
    ppg: float | None = None
    rpg: float | None = None
    orpg: float | None = None
    drpg: float | None = None
    spg: float | None = None
    bpg: float | None = None
    tov: float | None = None
    pf: float | None = None
    apg: float | None = None
    """Assists a game: with offensive rebounds, how often he handles the ball (§3)."""
    fg_pct: float | None = None
    fg3_pct: float | None = None
    ft_pct: float | None = None
    fga: float | None = None
    fg3a: float | None = None
    fta: float | None = None
    fta_rate: float | None = None
    three_rate: float | None = None
    positions: tuple[int, ...] | None = None
    ppg_estimate: float | None = None
    """Points a game filled in from the team's scoring when ``ppg`` is not known (§8)."""
    printed: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Keys copied into the card as they are (``class``, ``sources``...)."""


@dataclass(frozen=True, slots=True)
class TeamContext:
    """Hold what the cards of one team are measured against.

    ``pace`` is possessions per 40 minutes; ``rating`` the team's net points a game
    against the field of great teams (0 = an average great team); ``predicted_pts`` and
    ``predicted_allowed`` the author's published score of the team's first game, when known;
    ``target_pts`` and ``target_allowed`` the points a game against the field its dunk range
    aims at (build_field sets them from the pair model, cards.calibration.PairModel).
    """

    school: str
    season: int
    conference: str | None = None
    pace: float | None = None
    rating: float | None = None
    team_ppg: float | None = None
    predicted_pts: float | None = None
    predicted_allowed: float | None = None
    target_pts: float | None = None
    target_allowed: float | None = None

    @property
    def era(self) -> Era:
        """Return the season's era baselines."""
        return era_for(self.season)

    @property
    def possessions(self) -> float:
        """Return possessions per 40 minutes (given, or the era's)."""
        return self.pace if self.pace else self.era.pace

    @property
    def net(self) -> float:
        """Return the team's net points against the field: published scores, else ``rating``."""
        if self.predicted_pts is not None and self.predicted_allowed is not None:
            return self.predicted_pts - self.predicted_allowed
        return self.rating or 0.0


class Shooting(NamedTuple):
    """A card's shooting, as :func:`d20_column` splits it (cards.md §5)."""

    fg: float
    ftr: float
    share3: float
    p3: float
    pre_1987: bool


@dataclass(frozen=True, slots=True)
class CardResult:
    """Hold one calculated card, the inputs that had to be filled in, and its source."""

    card: dict[str, Any]
    filled: tuple[str, ...]
    source: str
    usage: float
    """Touches a possession on the floor: a lone card's extra ball numbers come from it (§3)."""
    shots: float = 0.0
    """Trips he ends (FGA + 0.44 FTA + TOV) a possession on the floor, or without his own
    shots his points a game over :data:`POINTS_PER_TRIP_USED`: his share of his lineup's,
    which deals a team's extra ball numbers (§3, :func:`ball_numbers`)."""
    shooting: Shooting | None = None
    """What his d20 column was split from (:func:`d20_column`)."""
    points: float = 0.0
    """His points a game, given or filled in (§8)."""
    free: tuple[str, ...] = ()
    """What of his shooting was filled in (``"fg"``, ``"ftr"``) while his shots were
    solved from his points a game: his d20 then moves those to follow his share of his
    team's points (§5.4, :func:`shape_shooting`)."""


# -- the card ------------------------------------------------------------------------------


def card_for(
    line: SeasonLine,
    ctx: TeamContext,
    *,
    slot: int | None = None,
    role: str | None = None,
    minutes_known: bool | None = None,
) -> CardResult:
    """Calculate one player's card from his season line and his team's context.

    ``slot`` and ``role`` override the line's; ``minutes_known`` says whether the team's
    stamina comes from minutes (default: whether this line has ``mpg``).
    """
    slot = slot or line.slot or 3
    if slot not in SLOTS:
        raise ValueError(f"{line.name}: slot must be 1-5, got {slot!r}")
    role = role or line.role or "starter"
    if role not in ("starter", "reserve"):
        raise ValueError(f"{line.name}: role must be starter or reserve, got {role!r}")
    starter = role == "starter"
    era = ctx.era
    filled: list[str] = []

    def pick(name: str, value: float | None, fallback: float) -> float:
        if value is None:
            filled.append(name)
            return fallback
        return value

    if minutes_known is None:
        minutes_known = line.mpg is not None
    mpg = max(pick("mpg", line.mpg, STARTER_MPG if starter else RESERVE_MPG), 1.0)
    on_floor = ctx.possessions * mpg / 40  # cards.md §2

    # Shooting (cards.md §5 and §8): FG%, FT%, free-throw rate, 3-point share and FG%.
    quality = 0.002 * ctx.net + (0.01 if starter else -0.02)
    fg = _clamp(pick("fg_pct", line.fg_pct, era.fg + _FG_BY_SLOT[slot] + quality), 0.15, 0.85)
    ft = _clamp(pick("ft_pct", line.ft_pct, era.ft + _FT_BY_SLOT[slot]), 0.0, 1.0)
    fga: float | None = line.fga or None
    # A count a game without shots a game is solved for below (fta_n, fg3a_n); else a rate.
    fta_n = line.fta if line.fta is not None and fga is None else None
    fg3a_n = line.fg3a if line.fg3a is not None and fga is None else None
    ftr = share3 = p3 = 0.0
    if fga is not None and line.fta is not None:
        ftr = line.fta / fga
    elif fta_n is None:
        ftr = pick("fta", line.fta_rate, era.ftr * _FTR_BY_SLOT[slot])
    if not era.three_point_line:
        fg3a_n = None  # the author's one make in five stands in for 3s (§5.2)
    elif fga is not None and line.fg3a is not None:
        share3 = line.fg3a / fga
    elif fg3a_n is None:
        fill3 = era.three_share * _THREE_BY_SLOT[slot]
        if line.fg3_pct is not None:
            # cards.md §8: a player who made few of his 3s took few of them
            fill3 *= _clamp(line.fg3_pct / era.fg3, 0.0, 1.25) ** 2
        share3 = pick("fg3a", line.three_rate, fill3)
    share3 = _clamp(share3, 0.0, 1.0)
    if share3 > 0 or fg3a_n:
        p3 = _clamp(pick("fg3_pct", line.fg3_pct, era.fg3 + _FG3_BY_SLOT[slot]), 0.0, 1.0)

    # Shots a game: given, or solved from points a game (cards.md §3):
    # ppg = FGA (2 FG% + 3PA/FGA 3P% + FTA/FGA FT%), with counts a game taken as counts.
    free = (
        tuple(
            name
            for name, known in (
                ("fg", line.fg_pct),
                ("ftr", line.fta if line.fta is not None else line.fta_rate),
            )
            if known is None
        )
        if line.fga is None
        else ()
    )
    ppg = line.ppg
    if fga is None:
        if ppg is None:
            filled.append("ppg")
            ppg = line.ppg_estimate
        if ppg is None:
            scale = era.ppg / 70.0
            ppg = _PTS40_STARTER_BY_SLOT[slot] * scale * mpg / 40 * (1 if starter else 0.75)
        counted = (fg3a_n or 0.0) * p3 + (fta_n or 0.0) * ft
        per_shot = 2 * fg + (share3 * p3 if fg3a_n is None else 0.0)
        per_shot += ftr * ft if fta_n is None else 0.0
        fga = max((ppg - counted) / per_shot, fg3a_n or 0.0, 1e-6)
        if fg3a_n is not None:
            share3 = _clamp(fg3a_n / fga, 0.0, 1.0)
        if fta_n is not None:
            ftr = fta_n / fga
    ftr = _clamp(ftr, 0.0, 3.0)
    fta = ftr * fga
    per_game = mpg / 40 * ctx.possessions / _FILL_PACE  # a per-40 fill-in a game (§8)
    tov = pick("tov", line.tov, _TOV40_BY_SLOT[slot] * per_game)
    used = fga + 0.44 * fta + tov

    card: dict[str, Any] = {
        "name": line.name,
        "slot": slot,
        "role": role,
        "positions": list(line.positions or _positions(line.pos, slot)),
        "extra_ball": 0,  # from his touches, once his offensive rebounds are known (§3)
        "can_play": can_play(line.mpg, starter=starter, minutes_known=minutes_known),
    }
    if line.height:
        card["height"] = line.height
    if line.ppg is not None:
        card["ppg"] = round(line.ppg, 1)

    # The 11-66 ranges (cards.md §4): rates per possession on the floor.
    spg = pick("spg", line.spg, _STL40_BY_SLOT[slot] * per_game)
    bpg = pick("bpg", line.bpg, _BLK40_BY_SLOT[slot] * per_game)
    pf = pick("pf", line.pf, _PF40_BY_SLOT[slot] * per_game)
    # every defender steals and blocks on at least 11 and 21 (the rulebook; Lamb's 21-21)
    card["steal_top"] = 11 + _bounded(K_STEAL * spg / on_floor, 0, 19)
    card["block_top"] = 21 + _bounded(K_BLOCK * bpg / on_floor, 0, 19)
    card["foul_from"] = 37 - _bounded(K_FOUL * pf / on_floor, 0, 4)
    card["turnover_top"] = 40 + _bounded(K_TURNOVER * (tov / used - TURNOVER_FLOOR), 0, 6)
    shooting = Shooting(fg, ftr, share3, p3, not era.three_point_line)
    card["d20"] = d20_column(**shooting._asdict())
    card["free_throw_top"] = _bounded(20 * ft, 0, 20)  # the author: FT% on a d20 (§5.3)

    # Rebounds (cards.md §6): offensive and defensive rebound rates on the floor.
    rpg = line.rpg
    if line.orpg is not None and line.drpg is not None:
        orpg, drpg = line.orpg, line.drpg
    else:
        if rpg is None:
            filled.append("rpg")
            scale = era.misses_per_possession / _MODERN_MISSES
            rpg = _REB40_BY_SLOT[slot] * scale * mpg / 40
        if line.orpg is not None:
            orpg = line.orpg
        else:
            filled.append("orpg")
            orpg = rpg * _OREB_SHARE_BY_SLOT[slot]
        drpg = line.drpg if line.drpg is not None else max(rpg - orpg, 0.0)
    available = on_floor * era.misses_per_possession
    card["off_reb"] = _bounded(K_OFF_REB * (orpg / available - OFF_REB_FLOOR), 0, MAX_REBOUND_RANGE)
    card["def_reb"] = _bounded(K_DEF_REB * drpg / available + DEF_REB_BASE, 0, MAX_REBOUND_RANGE)

    # Ball numbers (cards.md §3): his touches, the trips he ends plus the passes that make
    # a basket and the offensive rebounds he takes, a possession on the floor.
    apg = pick("apg", line.apg, _AST40_BY_SLOT[slot] * per_game)
    usage = (used + apg + orpg) / on_floor
    card["extra_ball"] = extra_ball(usage)

    printed = _apply_printed(card, line.printed)
    if printed:
        card["printed"] = printed
    for key, value in line.extra.items():
        card.setdefault(key, value)
    filled_names = tuple(sorted(set(filled)))
    # cards.md §11: published only when every value is printed; estimated when any input
    # had to be filled in; calculated when every range comes from his own statistics.
    if {k.split(".")[0] for k in printed} >= set(CARD_RANGE_FIELDS):
        source = "published"
    elif filled_names:
        source = "estimated"
    else:
        source = "calculated"
    card["card_source"] = source
    if filled_names:
        card["filled"] = list(filled_names)
    points = ppg if ppg is not None else fga * (2 * fg + share3 * p3 + ftr * ft)
    return CardResult(
        card=card,
        filled=filled_names,
        source=source,
        usage=usage,
        shots=(used if line.fga is not None else points / POINTS_PER_TRIP_USED) / on_floor,
        shooting=shooting,
        points=points,
        free=() if "d20" in printed else free,
    )


def d20_column(
    *, fg: float, ftr: float, share3: float, p3: float, pre_1987: bool, fouled: int | None = None
) -> dict[str, str | None]:
    """Split the d20 into 3 made, 2 made, fouled, 3 missed and 2 missed (cards.md §5).

    The fouled slice is the share of his scoring chances that end in two free throws,
    (FTA/2) / (FGA + FTA/2); the other faces reproduce his FG%. 3s made and missed take
    their share of the faces from his 3-point attempts and 3P%. Before 1987 one make in
    five is a 3, and those 3s go in at three quarters of his FG%.

    >>> d20_column(fg=0.5, ftr=0.4, share3=0.0, p3=0.0, pre_1987=False)
    {'3PM': None, '2PM': '1-9', 'FOUL': '10-12', '3PX': None, '2PX': '13-20'}
    >>> d20_column(fg=0.8, ftr=0.5, share3=0.0, p3=0.0, pre_1987=False)  # Cacok 2017
    {'3PM': None, '2PM': '1-13', 'FOUL': '14-17', '3PX': None, '2PX': '18-20'}
    """
    if fouled is None:
        trips = FT_TRIP * ftr
        fouled = _bounded(20 * trips / (1 + trips), 0, 19)
    shots = 20 - fouled
    made = _bounded(shots * fg, 0, shots)
    missed = shots - made
    if pre_1987:
        # the author: "one of their five shots made being behind the line"
        made3 = _bounded(made * PRE_1987_THREE_SHARE, 0, made)
        attempts3 = PRE_1987_THREE_SHARE / PRE_1987_THREE_PCT_FACTOR
        miss3 = _bounded(shots * attempts3 * (1 - PRE_1987_THREE_PCT_FACTOR * fg), 0, missed)
    else:
        made3 = _bounded(shots * share3 * p3, 0, made)
        miss3 = _bounded(shots * share3 * (1 - p3), 0, missed)
    return _d20_from_counts((made3, made - made3, fouled, miss3, missed - miss3))


def _d20_from_counts(counts: Sequence[int]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    start = 1
    for key, n in zip(D20_KEYS, counts, strict=True):
        if n <= 0:
            out[key] = None
            continue
        end = start + n - 1
        out[key] = str(start) if n == 1 else f"{start}-{end}"
        start = end + 1
    return out


def d20_counts(d20: Mapping[str, str | None]) -> tuple[int, ...]:
    """Return how many faces each d20 outcome has, in ``3PM 2PM FOUL 3PX 2PX`` order.

    >>> d20_counts({"3PM": None, "2PM": "1-9", "FOUL": "10-14", "3PX": None, "2PX": "15-20"})
    (0, 9, 5, 0, 6)
    """
    out = []
    for key in D20_KEYS:
        text = d20.get(key)
        if not text:
            out.append(0)
            continue
        lo, _, hi = text.partition("-")
        out.append(int(hi or lo) - int(lo) + 1)
    return tuple(out)


def _apply_printed(card: dict[str, Any], printed: Mapping[str, Any]) -> list[str]:
    """Overwrite calculated values with published ones; return what was kept (§11)."""
    kept: list[str] = []
    for key, value in printed.items():
        if key.startswith("d20."):
            outcome = key.split(".", 1)[1]
            card["d20"] = _d20_with_range(card["d20"], outcome, str(value))
        elif key == "d20":
            card["d20"] = dict(value)
        else:
            card[key] = value
        kept.append(key)
    return kept


def _d20_with_range(
    d20: Mapping[str, str | None], outcome: str, text: str
) -> dict[str, str | None]:
    """Move the d20 split so that ``outcome`` has exactly the printed range ``a-b``.

    Only the fouled range can be printed alone (the rulebook's "Davis 10 to 14"): the
    makes keep their 3/2 split and fill 1..a-1, the misses fill b+1..20.
    """
    if outcome != "FOUL":
        raise ValueError(f"only a printed FOUL range can be placed alone, got d20.{outcome}")
    lo_text, _, hi_text = text.partition("-")
    lo, hi = int(lo_text), int(hi_text or lo_text)
    m3, m2, _f, x3, x2 = d20_counts(d20)
    made, missed = lo - 1, 20 - hi
    made3 = round(made * m3 / (m3 + m2)) if m3 + m2 else 0
    miss3 = round(missed * x3 / (x3 + x2)) if x3 + x2 else 0
    return _d20_from_counts((made3, made - made3, hi - lo + 1, miss3, missed - miss3))


def extra_ball(usage: float) -> int:
    """Return the extra ball numbers (6, 7, 8) for his touches a possession on the floor (§3).

    >>> [extra_ball(u) for u in (0.28, 0.30, 0.46)]
    [0, 1, 2]
    """
    first, second = EXTRA_BALL_TOUCHES
    return 2 if usage >= second else 1 if usage >= first else 0


POINTS_PER_TRIP_USED = 1.0
"""Points a trip a player ends scores (our choice; Division I teams score about 1.0-1.05 a
possession): a player known by his points a game alone ends that many trips over this."""
EXTRA_NUMBERS = 3
"""The d8's 6, 7 and 8: the extra ball numbers a lineup shares (vabg-rulings.md §4)."""
MAX_EXTRAS = 2
"""The most extra numbers one card holds (interchange: ``extra_ball`` 0-2)."""


def deal_extras(shares: Sequence[float], fixed: Sequence[int | None]) -> list[int]:
    """Deal a lineup's three extra ball numbers by its players' shares of its shots (§3).

    Each slot has its own number (1-5) and the lineup's 6, 7 and 8 go one at a time to the
    player furthest below his share of the d8, ``share - (1 + extras) / 8``, at most two
    each; ``fixed`` holds the counts already set (printed, or another lineup's), which
    are kept and use up numbers first. The largest shares win ties, then the lower slot.

    >>> deal_extras([0.45, 0.15, 0.15, 0.15, 0.10], [None] * 5)
    [2, 1, 0, 0, 0]
    >>> deal_extras([0.25, 0.25, 0.2, 0.2, 0.1], [1, None, None, None, None])
    [1, 1, 1, 0, 0]
    """
    extras = [f or 0 for f in fixed]
    for _ in range(EXTRA_NUMBERS - sum(extras)):
        free = [i for i, f in enumerate(fixed) if f is None and extras[i] < MAX_EXTRAS]
        if not free:
            break
        best = max(free, key=lambda i: (shares[i] - (1 + extras[i]) / 8, shares[i], -i))
        extras[best] += 1
    return extras


def ball_numbers(results: Sequence[CardResult]) -> list[int]:
    """Return each card's extra ball numbers, dealt by the team's lineups (§3).

    ``results`` are a team's cards, the five starters first (slots 1-5), then the reserves
    in playing order. The starting five shares the d8's 6, 7 and 8 by its players' shares
    of its shots (:func:`deal_extras`); the bench lineup (each slot's first reserve, the
    starter where a slot has none) deals what the starters in it leave; a later reserve of
    a slot deals as if he were its first. So every lineup that plays claims its three
    numbers, and a star's extras are not taken by the teammates listed above him.
    A printed ``extra_ball`` is kept.
    """
    printed = [
        r.card["extra_ball"] if "extra_ball" in r.card.get("printed", ()) else None for r in results
    ]
    extras = deal_extras(_shares(results, range(5)), printed[:5]) + [0] * (len(results) - 5)
    bench = list(range(5))
    for i in range(5, len(results)):
        slot = results[i].card["slot"]
        if bench[slot - 1] < 5:
            bench[slot - 1] = i
    fixed = [extras[j] if j < 5 else printed[j] for j in bench]
    for j, count in zip(bench, deal_extras(_shares(results, bench), fixed), strict=True):
        extras[j] = count
    for i in range(5, len(results)):
        if i in bench:
            continue
        lineup = list(bench)
        lineup[results[i].card["slot"] - 1] = i
        fixed = [printed[i] if j == i else extras[j] for j in lineup]
        extras[i] = deal_extras(_shares(results, lineup), fixed)[lineup.index(i)]
    return extras


SHAPED_FG = (0.25, 0.70)
"""The FG% a d20 shaped by points a game stays within (our choice, §5.4)."""
SHAPE_FG_MOVE = 0.15
"""The most a shaped d20 moves the filled-in FG%, up or down (our choice, §5.4): the ball
numbers carry a scorer's share, his shooting only tops it up."""
SHAPED_FTR = (5, 25)
"""A shaped d20's free-throw rate, in tenths of the filled-in one (our choice, §5.4)."""


def shape_shooting(results: Sequence[CardResult], ctx: TeamContext) -> None:
    """Reshape the d20 of starters known by points a game to their share of them (§5.4).

    A starter whose shots are not known had his free-throw rate, and often his FG%, filled
    in from his era and slot, so a team's scorers all shoot alike and a 40-point scorer
    scores like his teammates. His share of the team's points is known: his points a game
    (given, else filled in, §8) over the team's. A game gives each player his opening
    points and then what he scores on the trips his ball numbers give him, so he needs, of
    the starters' points in play, ``share x points - opening`` (the points the team scores
    by its predictions or rating, §10.1) over the possessions he plays; every carrier
    scores alike on the team's dunk numbers and stops, so the rest of his trips carry the
    difference. Among
    such starters each d20 is set to the trip value (:func:`_trip_value`) that gives his
    share with his ball numbers, the group's points a trip kept as they were, by moving
    only what was filled in: his free-throw rate (0.5-2.5 times the fill-in) and his FG%
    (at most 0.15 from it, within 25-70%), the smallest move that comes closest.
    Shooting the sources give is never moved.
    """
    starters = list(results[:5])
    free = [i for i, r in enumerate(starters) if r.free and r.shooting is not None]
    if len(free) < 2:
        return
    team_ppg = ctx.team_ppg or ctx.era.ppg + 8 + 0.5 * ctx.net
    # the team as its season and predictions say, not as build_field's aim moves it: the
    # targets move only the dunk numbers (§10.1)
    own = replace(ctx, target_pts=None, target_allowed=None)
    game = _target_points(own)[0]
    short = max(10 - len(results), 0)
    top = sorted(range(5), key=lambda i: (-starters[i].points, i))[:short]
    weights = _slot_weights([r.card for r in results])
    wanted: dict[int, float] = {}
    for i in free:
        opening = 4.0 if i in top or len(results) == 5 else 2.0
        share = next(w for c, w in weights[starters[i].card["slot"]] if c is starters[i].card)
        played = max(share * PLAYED_POSSESSIONS, 1.0)
        inplay = max(starters[i].points / team_ppg * game - opening, 0.5)
        wanted[i] = inplay / played
    faces = {i: 1 + starters[i].card["extra_ball"] for i in free}
    value = {i: _trip_value(starters[i].card) for i in free}
    pool = sum(faces[i] * value[i] for i in free)
    dunk_top, _adjust = team_dunk([r.card for r in results], own)
    dunks, stops, _s, _t = dunk_outcomes(dunk_top + MEAN_DUNK_ADJUST)
    dunk, read = dunks / 36, 1 - (dunks + stops) / 36
    scale = (pool * read + 2 * dunk * sum(faces.values())) / sum(wanted[i] for i in free)
    for i in free:
        target = (wanted[i] * scale / faces[i] - 2 * dunk) / read
        starters[i].card["d20"] = _shaped_d20(starters[i], target)


def _shaped_d20(result: CardResult, target: float) -> dict[str, str | None]:
    """Return the d20 nearest ``target`` a trip, moving only what was filled in (§5.4).

    Free-throw rates in tenths of the fill-in, FG% in steps of 0.01; the points a trip rise
    with the FG%, so each rate's best FG% is found by bisection.
    """
    shooting = result.shooting
    assert shooting is not None
    fgs = [shooting.fg]
    if "fg" in result.free:
        low = max(SHAPED_FG[0], shooting.fg - SHAPE_FG_MOVE)
        high = min(SHAPED_FG[1], shooting.fg + SHAPE_FG_MOVE)
        fgs = [
            x / 100 for x in range(math.ceil(low * 100 - 1e-9), math.floor(high * 100 + 1e-9) + 1)
        ]
        fgs = fgs or [shooting.fg]
    rates = [1.0]
    if "ftr" in result.free:
        rates = [x / 10 for x in range(SHAPED_FTR[0], SHAPED_FTR[1] + 1)]
    card = dict(result.card)

    def shaped(fg: float, rate: float) -> tuple[float, dict[str, str | None]]:
        d20 = d20_column(**shooting._replace(fg=fg, ftr=shooting.ftr * rate)._asdict())
        card["d20"] = d20
        return _trip_value(card), d20

    best: tuple[float, float, dict[str, str | None]] | None = None
    for rate in rates:
        lo, hi = 0, len(fgs) - 1
        while lo < hi:  # the first FG% whose trip reaches the target
            mid = (lo + hi) // 2
            if shaped(fgs[mid], rate)[0] < target:
                lo = mid + 1
            else:
                hi = mid
        for k in {max(lo - 1, 0), lo}:
            value, d20 = shaped(fgs[k], rate)
            miss = round(abs(value - target), 3)
            move = abs(fgs[k] - shooting.fg) / SHAPE_FG_MOVE + abs(math.log(rate)) / math.log(2.5)
            if best is None or (miss, move) < best[:2]:
                best = (miss, move, d20)
    assert best is not None
    return best[2]


def _shares(results: Sequence[CardResult], lineup: Iterable[int]) -> list[float]:
    """Return each player's share of the lineup's 44 trips in play (§3).

    A game is 66 possessions; the 20-20 start stands for the first 22, in which every
    player of the roster used an equal part (his 2 opening points of 20). So of his share
    of a game's trips, ``share x 66 - 22 x 2 / 20`` are left for the 44 in play.
    """
    shots = [results[j].shots for j in lineup]
    total = sum(shots) or 1.0
    opening = OPENING_POSSESSIONS / max(len(results), 1)
    left = [max(x / total * GAME_POSSESSIONS - opening, 0.0) for x in shots]
    return [x / (sum(left) or 1.0) for x in left]


def can_play(mpg: float | None, *, starter: bool, minutes_known: bool) -> int:
    """Return the "can play N of 44" stamina: his share of a 66-possession game, less 11 (§7).

    The rulebook: an average starter plays 48 of 66 possessions and so has 37 of the
    last 44 left; teams without minutes use 37 for starters and 7 for reserves.

    >>> can_play(40 * 48 / 66, starter=True, minutes_known=True)
    37
    """
    if not minutes_known or mpg is None:
        return STARTER_BASIC_STAMINA if starter else RESERVE_BASIC_STAMINA
    return _bounded(GAME_POSSESSIONS * mpg / 40 - 11, 0, GAME_POSSESSIONS)


def _positions(pos: str | None, slot: int) -> tuple[int, ...]:
    """Return suggested positions from a listed position (``G``, ``F/C``...) and his slot."""
    if not pos:
        return _POSITIONS_BY_SLOT[slot]
    text = pos.upper().replace("-", "/")
    found: list[int] = []
    for part in text.split("/"):
        options = {
            "PG": (1,), "SG": (2,), "G": (1, 2), "SF": (3,), "GF": (2, 3), "F": (3, 4),
            "PF": (4,), "FC": (4, 5), "C": (5,), "WING": (2, 3),
        }.get(part.strip(), ())  # fmt: skip
        found.extend(options)
    out = [slot] + [p for p in found if p != slot]
    # a card lists at most two positions; the slot he plays always comes first
    return tuple(dict.fromkeys(out))[:2]


def _bounded(x: float, lo: int, hi: int) -> int:
    """Round half up and clamp to ``lo..hi`` (never banker's rounding: monotone in ``x``).

    The tiny nudge makes 0.575 x 20 (11.4999...) round to 12 as it does on paper.
    """
    return max(lo, min(hi, math.floor(x + 0.5 + 1e-9)))


def _clamp(x: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, x))


# -- the team ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamResult:
    """Hold a calculated team file, one :class:`CardResult` per player and who was left out."""

    team: dict[str, Any]
    cards: tuple[CardResult, ...]
    left_out: tuple[str, ...] = ()


def team_file(
    lines: Iterable[SeasonLine],
    ctx: TeamContext,
    *,
    dunk_top: int | None = None,
    dunk_adjust: int | None = None,
    extra: Mapping[str, Any] | None = None,
) -> TeamResult:
    """Calculate a team's ``vabg-team/1`` file from its players' season lines.

    Slots and roles missing from the lines are assigned (:func:`assign_slots`); a roster
    longer than ten keeps the five starters and the five reserves who play most
    (cards.md §9); points a game missing from a line are filled from the team's scoring;
    the dunk range and adjustment come from :func:`team_dunk` unless given.
    """
    lines = list(lines)
    if len(lines) < 5:
        raise ValueError(
            f"{ctx.school} {ctx.season}: a team needs at least 5 players, got {len(lines)}"
        )
    seen: set[str] = set()
    for ln in lines:
        if ln.name in seen:
            raise ValueError(f"{ctx.school} {ctx.season}: the name {ln.name!r} is used twice")
        seen.add(ln.name)
    lines = assign_slots(lines)
    starters, reserves = lines[:5], lines[5:]
    ranked = sorted(reserves, key=lambda ln: (-(ln.mpg or 0.0), -(ln.ppg or 0.0)))
    kept = {ln.name for ln in ranked[: MAX_ROSTER - 5]}
    left_out = tuple(ln.name for ln in ranked[MAX_ROSTER - 5 :])
    lines = starters + [ln for ln in reserves if ln.name in kept]
    lines = _fill_points(lines, ctx)
    minutes_known = all(ln.mpg is not None for ln in lines if ln.role == "starter")
    results = [card_for(ln, ctx, minutes_known=minutes_known) for ln in lines]
    for result, extras in zip(results, ball_numbers(results), strict=True):
        result.card["extra_ball"] = extras
    shape_shooting(results, ctx)
    cards = [r.card for r in results]
    _point_guard_first(cards)
    if dunk_top is None or dunk_adjust is None:
        d, a = team_dunk(cards, ctx)
        dunk_top = d if dunk_top is None else dunk_top
        dunk_adjust = a if dunk_adjust is None else dunk_adjust
    sources = {r.source for r in results}
    team_source = (
        "published" if sources == {"published"} else "estimated" if "estimated" in sources
        else "calculated"
    )  # fmt: skip
    team: dict[str, Any] = {"format": TEAM_FORMAT, "school": ctx.school, "season": ctx.season}
    if ctx.conference:
        team["conference"] = ctx.conference
    team.update(dunk_top=dunk_top, dunk_adjust=dunk_adjust, card_source=team_source)
    team["players"] = cards
    for key, value in (extra or {}).items():
        team.setdefault(key, value)
    return TeamResult(team=team, cards=tuple(results), left_out=left_out)


_POS_RANK = {
    "PG": 1.0, "G": 1.5, "SG": 2.0, "G/F": 2.5, "GF": 2.5, "SF": 3.0, "F": 3.5, "F/G": 2.5,
    "PF": 4.0, "F/C": 4.5, "FC": 4.5, "C/F": 4.7, "C": 5.0,
}  # fmt: skip


def height_inches(height: str | None) -> int | None:
    """Return a height such as ``"6-11"`` or ``6'11`` in inches, or ``None``.

    >>> height_inches("6-11"), height_inches("7'1"), height_inches("tall")
    (83, 85, None)
    """
    if not height:
        return None
    text = height.replace("'", "-").replace('"', "").replace("\u2013", "-").strip()
    feet, _, inches = text.partition("-")
    try:
        return int(feet) * 12 + int(inches or 0)
    except ValueError:
        return None


def _size_score(line: SeasonLine) -> float:
    """Place a player on the 1 (point guard) to 5 (center) scale (cards.md §9).

    From his listed position and his height; with neither, from his rebounds per 40
    minutes against the slots' typical ones; with nothing, 3.
    """
    scores = []
    if line.pos and line.pos.upper() in _POS_RANK:
        scores.append(_POS_RANK[line.pos.upper()])
    inches = height_inches(line.height)
    if inches is not None:
        scores.append(_clamp(1 + (inches - 73) / 3.0, 1.0, 5.0))
    if not scores and line.rpg is not None:
        minutes = line.mpg or (STARTER_MPG if line.role == "starter" else RESERVE_MPG)
        reb40 = line.rpg * 40 / max(minutes, 1.0)
        scores.append(_interpolate(reb40, list(_REB40_BY_SLOT.values()), list(SLOTS)))
    return sum(scores) / len(scores) if scores else 3.0


def assign_slots(lines: Sequence[SeasonLine]) -> list[SeasonLine]:
    """Give every line a slot (1-5) and a role, keeping the ones the sources give (§9).

    Starters without a slot fill the free slots from smallest to biggest (position, then
    height); a team with fewer than five starters named starts its top scorers. A reserve
    plays behind the starter closest to him in size. Starters come first, then reserves
    by slot, most minutes (else points) first.
    """
    lines = list(lines)
    starters = [ln for ln in lines if ln.role == "starter"]
    if len(starters) < 5:
        for wanted in (None, "reserve"):
            pool = sorted(
                (ln for ln in lines if ln.role == wanted), key=lambda ln: -(ln.ppg or 0.0)
            )
            starters += pool[: 5 - len(starters)]
    if len(starters) > 5:
        starters = sorted(starters, key=lambda ln: -(ln.mpg or ln.ppg or 0.0))[:5]
    used: set[int] = set()
    placed: list[SeasonLine] = []
    pending: list[SeasonLine] = []
    for ln in starters:
        if ln.slot in SLOTS and ln.slot not in used:
            used.add(ln.slot)
            placed.append(replace(ln, role="starter"))
        else:
            pending.append(ln)
    pending.sort(key=lambda ln: (_size_score(ln), height_inches(ln.height) or 0))
    free = [s for s in SLOTS if s not in used]
    placed += [replace(ln, slot=s, role="starter") for ln, s in zip(pending, free, strict=False)]
    placed.sort(key=lambda ln: ln.slot or 0)
    names = {ln.name for ln in placed}
    sizes = {ln.slot: _size_score(ln) for ln in placed}
    reserves: list[SeasonLine] = []
    for ln in lines:
        if ln.name in names:
            continue
        slot = ln.slot
        if slot not in SLOTS:
            me = _size_score(ln)
            slot = min(SLOTS, key=lambda s: (abs(sizes.get(s, float(s)) - me), s))
        reserves.append(replace(ln, slot=slot, role="reserve"))
    reserves.sort(key=lambda ln: (ln.slot or 0, -(ln.mpg or 0.0), -(ln.ppg or 0.0)))
    return placed + reserves


def _fill_points(lines: Sequence[SeasonLine], ctx: TeamContext) -> list[SeasonLine]:
    """Share the team's unexplained points among lines without points a game (cards.md §8).

    The team's scoring is ``team_ppg``, else the era's plus 8 (great teams outscore the
    average team) plus half its rating. Lines without points share what the known lines
    leave, a starter weighted 3 to a reserve's 1, each kept between a small floor and 16.
    """
    team_ppg = ctx.team_ppg or ctx.era.ppg + 8 + 0.5 * ctx.net
    known = sum(ln.ppg or 0.0 for ln in lines)
    missing = {ln.name for ln in lines if ln.ppg is None and ln.fga is None}
    if not missing:
        return list(lines)
    weights = {ln.name: 3.0 if ln.role == "starter" else 1.0 for ln in lines if ln.name in missing}
    left = max(team_ppg - known, 0.0)
    total = sum(weights.values())
    out = []
    for ln in lines:
        if ln.name in weights:
            floor = ctx.era.ppg * (0.08 if ln.role == "starter" else 0.03)
            fill = _clamp(left * weights[ln.name] / total, floor, 16.0)
            ln = replace(ln, ppg_estimate=round(fill, 1))
        out.append(ln)
    return out


def _point_guard_first(cards: list[dict[str, Any]]) -> None:
    """Make sure the slot-1 starter can run the point (positions hold 0 or 1, §9)."""
    for card in cards:
        if card["slot"] == 1 and card["role"] == "starter" and not {0, 1} & set(card["positions"]):
            card["positions"] = [1, *card["positions"]][:2]


# -- the team's dunk range (cards.md §10) ----------------------------------------------------


def shot_value(card: Mapping[str, Any]) -> float:
    """Return the points one read of a card's d20 is worth, a putback included (§10).

    >>> round(shot_value({"d20": {"3PM": None, "2PM": "1-10", "FOUL": None, "3PX": None,
    ...     "2PX": "11-20"}, "free_throw_top": 14}), 3)
    1.125
    """
    m3, m2, f, x3, x2 = d20_counts(card["d20"])
    ft = int(card["free_throw_top"]) / 20
    once = (3 * m3 + 2 * m2 + 2 * ft * f) / 20
    return once * (1 + PUTBACK_SHARE * (x3 + x2) / 20)


def _trip_value(card: Mapping[str, Any]) -> float:
    """Return the points a trip to this card is worth before any dunk range (§10)."""
    m3, m2, _f, x3, x2 = d20_counts(card["d20"])
    ft = int(card["free_throw_top"]) / 20
    read = shot_value(card)
    stop = (FIELD_STEAL_NUMBERS + FIELD_BLOCK_NUMBERS + int(card["turnover_top"]) - 40) / 36
    foul = (37 - int(card["foul_from"])) / 36  # a field defender fouls about as often as he does
    and_one = read + ft * (m3 + m2 + 3 * x3 + 2 * x2) / 20
    return (1 - stop - foul) * read + foul * and_one


def _slot_weights(cards: Sequence[Mapping[str, Any]]) -> dict[int, list[tuple[Any, float]]]:
    """Return, per slot, each card with the share of the 44 trips he plays (rulings §12)."""
    out: dict[int, list[tuple[Any, float]]] = {}
    for slot in SLOTS:
        starter = next(c for c in cards if c["slot"] == slot and c["role"] == "starter")
        left = PLAYED_POSSESSIONS - min(int(starter["can_play"]), PLAYED_POSSESSIONS)
        parts = []
        for c in cards:
            if c["slot"] == slot and c["role"] == "reserve" and left > 0:
                n = min(int(c["can_play"]), left)
                parts.append((c, n / PLAYED_POSSESSIONS))
                left -= n
        parts.append((starter, 1 - sum(w for _c, w in parts)))
        out[slot] = parts
    return out


class TripPoints(NamedTuple):
    """What a trip and a d20 read are worth for a team, before its dunk range (§10)."""

    trip: float
    read: float


def points_per_trip(cards: Sequence[Mapping[str, Any]]) -> TripPoints:
    """Return what a trip and a d20 read are worth for a team, before its dunk range (§10).

    Each slot gets the ball on its 1/8 of the d8 plus the extra numbers its starter
    claims top down (numbers nobody claims are rolled again); within a slot the cards
    count by the trips they play. Defenders are assumed to be the field's average.
    """
    starters = sorted((c for c in cards if c["role"] == "starter"), key=lambda c: c["slot"])
    claims = ball_claims([int(c["extra_ball"]) for c in starters])
    shares = {
        c["slot"]: (1 + sum(1 for who in claims.values() if who == i)) / 8
        for i, c in enumerate(starters)
    }
    total = sum(shares.values())
    trip = read = 0.0
    for slot, parts in _slot_weights(cards).items():
        share = shares[slot] / total
        for card, weight in parts:
            trip += share * weight * _trip_value(card)
            read += share * weight * shot_value(card)
    return TripPoints(trip, read)


class DunkCounts(NamedTuple):
    """What an effective dunk top X does (§3): how many 51-66 rolls dunk and stop, and the
    changes to the opponents' steal and the offense's own turnover ranges, in numbers."""

    dunks: int
    stops: int
    steals: int
    turnovers: int


def dunk_outcomes(top: int) -> DunkCounts:
    """Return what an effective top X does: dunks, stops, opponent steals and own turnovers.

    Counts from the dunk table of vabg-rulings.md §3 (:func:`simulator.vabg.rules.dunk_row`,
    X clamped to 34..66). Steal and turnover changes are in numbers (negative = fewer).

    >>> [tuple(dunk_outcomes(x)) for x in (66, 58, 55, 50)]
    [(12, 0, -2, -2), (6, 0, -1, -1), (5, 0, 0, 0), (0, 0, 0, 0)]
    >>> [tuple(dunk_outcomes(x)) for x in (47, 41, 36)]
    [(0, 3, 0, 0), (0, 6, 2, 1), (0, 10, 2, 2)]
    """
    row = dunk_row(top)  # the engine's own table, so cards and play agree
    return DunkCounts(len(row.dunks), len(row.stops), row.steals, row.turnovers)


def dunk_value(top: int, read: float) -> float:
    """Return the points a trip an effective top X adds, for a d20 read worth ``read`` (§10.2).

    A dunk number turns a read into 2 points, a stop number into none; one steal or
    turnover number fewer turns a lost trip into a read.
    """
    dunks, stops, steals, turnovers = dunk_outcomes(top)
    return (dunks * (2 - read) - stops * read - (steals + turnovers) * read) / 36


def dunk_top_for(gain: float, read: float) -> int:
    """Return the effective top X (34-66) whose :func:`dunk_value` is nearest ``gain``.

    >>> dunk_top_for(0.0, 1.2), dunk_top_for(5 * 0.8 / 36, 1.2), dunk_top_for(-1.0, 1.2)
    (50, 55, 34)
    """
    tops = range(DUNK_TOP_MIN, DUNK_TOP_MAX + 1)
    return min(tops, key=lambda x: (abs(dunk_value(x, read) - gain), abs(x - 50)))


def defensive_points_saved(cards: Sequence[Mapping[str, Any]]) -> float:
    """Return the points a game a team's steal and block ranges save against the field (§10)."""
    field_trip = (FIELD_MEAN_POINTS - 20) / PLAYED_POSSESSIONS
    saved = 0.0
    for parts in _slot_weights(cards).values():
        for card, weight in parts:
            extra = (min(card["steal_top"] - 10, ROW) - FIELD_STEAL_NUMBERS) + (
                min(card["block_top"] - 20, ROW) - FIELD_BLOCK_NUMBERS
            )
            saved += weight * extra / 5 / 36 * field_trip * PLAYED_POSSESSIONS
    return saved


def _target_points(ctx: TeamContext) -> tuple[float, float]:
    """Return the points the team aims to score and allow a game (§10.1)."""
    net = ctx.net
    pts = next(
        x for x in (ctx.target_pts, ctx.predicted_pts, FIELD_MEAN_POINTS + net / 2) if x is not None
    )
    allowed = next(
        x
        for x in (ctx.target_allowed, ctx.predicted_allowed, FIELD_MEAN_POINTS - net / 2)
        if x is not None
    )
    return pts, allowed


class TeamDunk(NamedTuple):
    """A team file's dunk top and dunk adjustment (cards.md §10)."""

    top: int
    adjust: int


def team_dunk(cards: Sequence[Mapping[str, Any]], ctx: TeamContext) -> TeamDunk:
    """Return the team's dunk top and adjustment (cards.md §10).

    The dunk range levels the eras: it supplies whatever the cards' own points a trip
    fall short of the team's target (``target_pts`` when given, else its predicted points,
    else the field average plus half its rating). The adjustment moves the opponent's top
    by one number for every :data:`POINTS_PER_DUNK_NUMBER` the team's defence is better
    than the field's, less what its steal and block ranges already save.
    """
    pts, allowed = _target_points(ctx)
    target = (pts - 20) / PLAYED_POSSESSIONS  # the game starts 20-20, 44 trips remain
    trip, read = (ENGINE_TRIP[0] + ENGINE_TRIP[1] * v for v in points_per_trip(cards))
    # against the field's average adjustment, the top X the team needs (§10.2)
    dunk_top = dunk_top_for(target - trip, read) - MEAN_DUNK_ADJUST
    better = (FIELD_MEAN_POINTS - allowed) - defensive_points_saved(cards)
    adjust = MEAN_DUNK_ADJUST - _bounded(better / POINTS_PER_DUNK_NUMBER, -99, 99)
    return TeamDunk(
        effective_dunk_top(dunk_top, 0), max(DUNK_ADJUST_MIN, min(DUNK_ADJUST_MAX, adjust))
    )


# -- season lines from CSV rows (cards.md §12) -----------------------------------------------


class StatsFileError(ValueError):
    """Raise when a statistics file is refused; ``problems`` names each row and column."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True, slots=True)
class CalculatedTeams:
    """Hold the team files calculated from a statistics file and what was skipped."""

    teams: tuple[TeamResult, ...]
    warnings: tuple[str, ...]


PER_GAME_COLUMNS = ("mpg", "ppg", "rpg", "orpg", "drpg", "apg", "spg", "bpg", "tov", "pf")
PCT_COLUMNS = ("fg_pct", "fg3_pct", "ft_pct")
TOTAL_COLUMNS = (("fgm", "fga"), ("fg3m", "fg3a"), ("ftm", "fta"))
TEAM_COLUMNS = (
    "conference", "pace", "rating", "team_ppg", "predicted_pts", "predicted_allowed",
    "target_pts", "target_allowed",
)  # fmt: skip
_ALIASES = {"season": ("season", "year"), "player": ("player", "name")}


def teams_from_rows(
    rows: Iterable[Mapping[str, str | None]],
    *,
    team_rows: Iterable[Mapping[str, str | None]] = (),
    source: str = "STATS.csv",
    teams_source: str = "TEAMS.csv",
) -> CalculatedTeams:
    """Calculate a team file for each school and season of a statistics file's rows.

    ``rows`` are the data rows of the file as :class:`csv.DictReader` gives them (the
    header is row 1, so the first data row is row 2); ``team_rows`` optionally add each
    team's context. Every problem of both files is collected before anything is
    calculated; any problem raises :class:`StatsFileError` listing them all.
    """
    problems: list[str] = []
    contexts = _team_contexts(team_rows, teams_source, problems)
    players: dict[tuple[str, int], list[tuple[int, SeasonLine]]] = {}
    team_values: dict[tuple[str, int], dict[str, tuple[int, object]]] = {}
    for number, row in enumerate(rows, start=2):
        where = f"{source} row {number}"
        if number == 2:
            _require_columns(row, source, problems)
            if problems:
                break
        key = _team_key(row, where, problems)
        line = _season_line(row, where, problems)
        if key is None or line is None:
            continue
        previous = players.setdefault(key, [])
        for other_number, other in previous:
            if other.name == line.name:
                problems.append(
                    f"{where}, column player: {line.name!r} is already on {key[0]} {key[1]} "
                    f"(row {other_number})"
                )
        previous.append((number, line))
        seen = team_values.setdefault(key, {})
        for column in TEAM_COLUMNS:
            value = _team_value(row, column, where, problems)
            if value is None:
                continue
            if column in seen and seen[column][1] != value:
                first, was = seen[column]
                problems.append(
                    f"{where}, column {column}: {value!r} differs from {was!r} given for "
                    f"{key[0]} {key[1]} in row {first}"
                )
            seen.setdefault(column, (number, value))
    if not players and not problems:
        problems.append(f"{source}: no rows of players")
    if problems:
        raise StatsFileError(problems)
    results: list[TeamResult] = []
    warnings: list[str] = []
    for (school, season), numbered in players.items():
        given = {c: v for c, (_n, v) in team_values.get((school, season), {}).items()}
        base = contexts.get((school, season), TeamContext(school=school, season=season))
        ctx = replace(base, **given)  # type: ignore[arg-type]  # columns parsed per field
        lines = [line for _n, line in numbered]
        if len(lines) < 5:
            warnings.append(
                f"{school} {season}: skipped, a team needs at least 5 players and "
                f"{source} has {len(lines)}"
            )
            continue
        result = team_file(
            lines, ctx, extra={"notes": f"Calculated from {source} (docs/cards.md)."}
        )
        if result.left_out:
            result.team["notes"] += " Left out (a team file holds 10): " + ", ".join(
                result.left_out
            )
            warnings.append(
                f"{school} {season}: {len(lines)} players, kept 10, left out "
                + ", ".join(result.left_out)
            )
        results.append(result)
    return CalculatedTeams(teams=tuple(results), warnings=tuple(warnings))


def _column(row: Mapping[str, str | None], name: str) -> tuple[str, str]:
    """Return the column actually used for ``name`` (an alias if need be) and its text."""
    for alias in _ALIASES.get(name, (name,)):
        if alias in row:
            return alias, (row.get(alias) or "").strip()
    return name, ""


def _require_columns(row: Mapping[str, str | None], source: str, problems: list[str]) -> None:
    for name in ("school", "season", "player"):
        if not any(alias in row for alias in _ALIASES.get(name, (name,))):
            also = _ALIASES.get(name, (name,))[1:]
            alias = f" (or {also[0]})" if also else ""
            problems.append(f"{source} row 1: there is no column {name}{alias}")


def _number(
    row: Mapping[str, str | None], name: str, where: str, problems: list[str]
) -> float | None:
    """Return a column as a number (``None`` when empty); a trailing ``?`` is allowed."""
    column, text = _column(row, name)
    text = text.removesuffix("?").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        problems.append(f"{where}, column {column}: {text!r} is not a number")
        return None
    if value < 0 and name not in ("rating",):
        problems.append(f"{where}, column {column}: {text!r} must not be negative")
        return None
    return value


def _team_key(
    row: Mapping[str, str | None], where: str, problems: list[str]
) -> tuple[str, int] | None:
    _c, school = _column(row, "school")
    if not school:
        problems.append(f"{where}, column school: the school is empty")
    season_column, text = _column(row, "season")
    before = len(problems)
    season = _number(row, "season", where, problems)
    if season is None and len(problems) == before:
        # empty, or only "?": a team's season is required
        what = f"{text!r} is not a year" if text else "the season is empty"
        problems.append(f"{where}, column {season_column}: {what}")
    elif season is not None and (season != int(season) or not 1800 <= season <= 2200):
        problems.append(f"{where}, column {season_column}: {text!r} is not a year 1800-2200")
        season = None
    if not school or season is None:
        return None
    return school, int(season)


def _team_value(
    row: Mapping[str, str | None], column: str, where: str, problems: list[str]
) -> object:
    if column == "conference":
        return _column(row, column)[1] or None
    value = _number(row, column, where, problems)
    if column == "pace" and value is not None and not 30 <= value <= 120:
        problems.append(f"{where}, column pace: {value:g} is not 30-120 possessions per 40 minutes")
        return None
    return value


def _team_contexts(
    rows: Iterable[Mapping[str, str | None]], source: str, problems: list[str]
) -> dict[tuple[str, int], TeamContext]:
    out: dict[tuple[str, int], TeamContext] = {}
    for number, row in enumerate(rows, start=2):
        where = f"{source} row {number}"
        if number == 2:
            for name in ("school", "season"):
                if not any(alias in row for alias in _ALIASES.get(name, (name,))):
                    problems.append(f"{source} row 1: there is no column {name}")
        key = _team_key(row, where, problems)
        values = {c: _team_value(row, c, where, problems) for c in TEAM_COLUMNS}
        if key is None:
            continue
        if key in out:
            problems.append(f"{where}: {key[0]} {key[1]} is already in {source}")
            continue
        given = {c: v for c, v in values.items() if v is not None}
        # Each column was parsed to its field's type by _team_value; mypy sees one union.
        out[key] = TeamContext(school=key[0], season=key[1], **given)  # type: ignore[arg-type]
    return out


def _season_line(
    row: Mapping[str, str | None], where: str, problems: list[str]
) -> SeasonLine | None:
    """Read one player's row: per-game columns as they are, totals divided by games."""
    before = len(problems)
    player_column, name = _column(row, "player")
    if not name:
        problems.append(f"{where}, column {player_column}: the player's name is empty")
    values: dict[str, Any] = {}
    for column in (*PER_GAME_COLUMNS, "g"):
        values[column] = _number(row, column, where, problems)
    if values["g"] is not None and values["g"] <= 0:
        problems.append(f"{where}, column g: games must be more than 0")
        values["g"] = None
    if values["mpg"] is not None and values["mpg"] > 50:
        problems.append(f"{where}, column mpg: {values['mpg']:g} is more than a game's minutes")
    for column in PCT_COLUMNS:
        value = _number(row, column, where, problems)
        if value is not None and value > 1:
            value /= 100  # a percentage such as 45.5
        if value is not None and value > 1:
            problems.append(
                f"{where}, column {column}: {_column(row, column)[1]!r} is above 100%; "
                "write a fraction (0.455) or a percentage (45.5)"
            )
            value = None
        values[column] = value
    games = values.pop("g")
    totals = {c: _number(row, c, where, problems) for pair in TOTAL_COLUMNS for c in pair}
    for (made, tried), pct in zip(TOTAL_COLUMNS, PCT_COLUMNS, strict=True):
        m, a = totals[made], totals[tried]
        if m is not None and a is not None and m > a:
            problems.append(f"{where}, column {made}: {m:g} made is more than {a:g} attempted")
        elif values[pct] is None and m is not None and a:
            values[pct] = m / a
    fga, fg3a, fta = totals["fga"], totals["fg3a"], totals["fta"]
    if games:
        values.update(
            fga=None if fga is None else fga / games,
            fg3a=None if fg3a is None else fg3a / games,
            fta=None if fta is None else fta / games,
        )
    elif fga:
        values.update(
            fta_rate=None if fta is None else fta / fga,
            three_rate=None if fg3a is None else fg3a / fga,
        )
    role = _column(row, "role")[1].lower() or None
    if role not in (None, "starter", "reserve"):
        problems.append(f"{where}, column role: {role!r} is not starter, reserve or empty")
    slot_text = _column(row, "slot")[1]
    slot = _number(row, "slot", where, problems)
    if slot is not None and slot not in SLOTS:
        problems.append(f"{where}, column slot: {slot_text!r} is not a slot 1-5")
    if len(problems) > before:
        return None
    extra = {
        key: _column(row, column)[1]
        for key, column in (("class", "class"), ("source", "source_url"), ("notes", "notes"))
        if _column(row, column)[1]
    }
    return SeasonLine(
        name=name,
        slot=None if slot is None else int(slot),
        role=role,
        pos=_column(row, "pos")[1] or None,
        height=_column(row, "height")[1] or None,
        g=games,
        extra=extra,
        **values,
    )
