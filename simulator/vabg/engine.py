"""Play one VABG game: pure Python, dice in through a dice source, events out.

Every rule cites vabg-rulings.md (``§n``). The engine reads no settings, clock,
file or database; :func:`play_game` is its one entry point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from simulator.dice import DiceSource
from simulator.results import LINE_FIELDS, GameResult, TeamBox, player_line
from simulator.vabg.cards import (
    FOULED,
    MADE2,
    MADE3,
    MISS2,
    MISS3,
    MISSED_CALL,
    InvalidCardError,
    PlayerCard,
    TeamCard,
)
from simulator.vabg.coaching import DEFAULT_POLICY as DEFAULT_POLICY  # re-exported
from simulator.vabg.coaching import NEVER, Coach, Step, in_spans
from simulator.vabg.coaching import CoachPolicy as CoachPolicy  # re-exported
from simulator.vabg.events import (
    AWAY,
    HOME,
    Block,
    Call,
    Enter,
    Event,
    Foul,
    FreeThrow,
    Opening,
    PeriodEnd,
    Rebound,
    Shot,
    Steal,
    Tipoff,
    Trip,
    TripKind,
    Turnover,
)
from simulator.vabg.rules import (
    ADVANCED,
    BEST_REBOUNDER,
    REBOUND_CHART,
    CoachKind,
    GameRules,
    ball_carriers,
    ball_claims,
    changed_range,
    chart_number,
    effective_dunk_top,
    fast_break,
    foul_reach,
    fouling_steal_31,
    fouling_stealer,
    free_throw_reach,
    free_throw_rebounder,
    halved_range,
    longest,
    may_call_foul_round,
    may_take_extra_possession,
    odd_number_rebounder,
    one_and_one,
    pre_1987_gains,
    steals_on,
    tired_range,
    turnover_reach,
    turns_over_on,
)
from simulator.vabg.tables import (
    FRESH_READS,
    ROLL_KINDS,
    STEAL_CHANGES,
    TIRED_READS,
    TRY_MISS,
    TURNOVER_CHANGES,
    RollKind,
    home_court,
    try3_table,
    twenty_shot,
)

REGULATION = 44
# Events are built with ``tuple.__new__`` rather than their NamedTuple constructors, a
# Python-level function each: a game builds a few hundred. Every field must be given.
_new = tuple.__new__
# The roll kinds and trip kinds as plain names, read on every trip (an enum's attribute
# costs a lookup each time).
_STEAL_TRY, _BLOCK_TRY, _FOUL_TRY, _TURNOVER_TRY, _DUNK_ROLL, _STOP_ROLL, _NOTHING = map(
    int, RollKind
)
_PLAIN, _REROLL, _EXTRA, _FOUL = TripKind.PLAIN, TripKind.REROLL, TripKind.EXTRA, TripKind.FOUL
# §8, §10: on an extra possession and a fouled trip the defense rebounds a miss at once.
_AT_ONCE = frozenset((_EXTRA, _FOUL))

# §7: the rebounding chart and the odd-number table, as rules.py writes them.
_CHART = REBOUND_CHART
_BEST = BEST_REBOUNDER  # "the best defensive rebounder" on 39, 29, 19, 9


_ODD_REBOUNDER = {n: odd_number_rebounder(n) for n in range(3, REGULATION + 1, 2)}


class RotationError(InvalidCardError):
    """Raise for a rotation plan that does not cover each slot's possessions exactly once."""


class EndlessGameError(InvalidCardError):
    """Raise when the cards cannot end a game (docs/engine.md, "Games that cannot end").

    The putback rule (§7) and overtime go on until something happens that such cards make
    impossible: a team that never makes a shot and always wins its own misses back, or
    two teams that can never score. No real card does this; the game is refused.
    """


# Far beyond any real game: with real cards a putback is won back about one time in five,
# so 200 in one trip has odds near 1e-140; an overtime ends tied about one time in ten,
# so 50 overtimes near 1e-50.
MAX_PUTBACKS = 200
MAX_OVERTIMES = 50


Plan = Mapping[int, Sequence[tuple[str, int, int]]]
"""Per slot (1-5), the stints ``(player name, first number, last number)``, e.g.
``{1: [("Bench Guard", 44, 38), ("Star Guard", 37, 1)], ...}``."""


# A player's ranges as he plays them, fresh (index 0) and tired (1), by his card's count,
# from the rules: read when he takes the floor and when he tires, not on every roll.
# A steal range's entry is indexed by the §3 change (-2..2): a negative one reads from
# the end of the tuple.
_STEAL_RANGES = [
    [tuple(tired_range(changed_range(c, d), t) for d in (0, 1, 2, -2, -1)) for c in range(21)]
    for t in (0, 1)
]
_BLOCK_RANGES = [[tired_range(c, t) for c in range(21)] for t in (0, 1)]
_FOUL_AT = [[foul_reach(c, t) for c in range(5)] for t in (0, 1)]
_FT_REACHES = [[free_throw_reach(top, t) for top in range(21)] for t in (0, 1)]


class Player:
    """One player's card read for play, plus what the game tracks about him.

    The exact odds read these, as the engine has read the card for the current lineup
    (``shot``, ``main``, ``twenty``) and as the game has left him (``tired``, ``reads``).
    """

    __slots__ = (
        "block",
        "block_range",
        "can_play",
        "card",
        "count",
        "def_reb",
        "dunk_adjust",
        "dunk_top",
        "extra_ball",
        "foul",
        "foul_at",
        "ft_reach",
        "ft_top",
        "line",
        "main",
        "main_court",
        "name",
        "off_reb",
        "reads",
        "shot",
        "steal",
        "steal_ranges",
        "table",
        "tired",
        "to",
        "try3",
        "twenty",
    )

    def __init__(self, card: PlayerCard, team: TeamCard, court: int) -> None:
        self.card = card
        self.name = card.name
        self.can_play = card.can_play
        self.extra_ball = card.extra_ball
        # Ranges as counts of numbers: steal 11..10+n, block 21..20+n, foul (37-n)..36,
        # turnover 41..40+n.
        self.steal = card.steal_top - 10
        self.block = card.block_top - 20
        self.foul = 37 - card.foul_from
        self.to = card.turnover_top - 40
        self.ft_top = card.free_throw_top
        self.off_reb = card.off_reb
        self.def_reb = card.def_reb
        # §12: a player-level override replaces the team's value.
        self.dunk_top = team.dunk_top if card.dunk_top is None else card.dunk_top
        self.dunk_adjust = team.dunk_adjust if card.dunk_adjust is None else card.dunk_adjust
        self.table = card.d20.codes
        self.count = 0
        self.tired = 0  # 1 once past "can play N": every roll one step against him (§2)
        self.reads = FRESH_READS  # the table index of each d20 shot read: tired, one higher
        # His ranges as he plays them, fresh (set again by tire()).
        self.steal_ranges = _STEAL_RANGES[0][self.steal]
        self.block_range = _BLOCK_RANGES[0][self.block]
        self.foul_at = _FOUL_AT[0][self.foul]
        self.ft_reach = _FT_REACHES[0][self.ft_top]
        # Set for the current lineup by Side.set_lineup:
        self.shot = self.table  # every d20 shot read (pre-1987 rule applied)
        self.main = self.table  # the main read after "nothing happens" (home court applied)
        self.main_court = home_court(self.table, court)  # the card's own, home court applied
        self.try3: tuple[int, ...] | None = None
        self.twenty = False
        # His box-score line, counted as the events are made (results.LINE_FIELDS order);
        # the 20-20 start's credits are set by _opening_credits.
        self.line = [0] * _COLUMNS

    def tire(self) -> None:
        """Play him tired from now on (§2): every roll one step against him."""
        self.tired, self.reads = 1, TIRED_READS
        self.steal_ranges = _STEAL_RANGES[1][self.steal]
        self.block_range = _BLOCK_RANGES[1][self.block]
        self.foul_at = _FOUL_AT[1][self.foul]
        self.ft_reach = _FT_REACHES[1][self.ft_top]


class Side:
    """One team in the game: roster, rotation, the five on the floor and the score."""

    __slots__ = (
        "carriers",
        "claims",
        "court",
        "key",
        "lineup",
        "pg_ok",
        "players",
        "pre1987",
        "reserves",
        "rotation",
        "score",
        "starters",
        "team",
        "team_to",
    )

    def __init__(self, key: str, team: TeamCard, court: int, pre1987: bool) -> None:
        self.key = key
        self.team = team
        self.court = court  # +1 home with home court, -1 visitor, 0 neutral or rule off
        self.pre1987 = pre1987
        self.players = [Player(card, team, court) for card in team.players]
        # One starter per slot and reserves in file order (the team's rules guarantee it).
        starters: list[Player] = []
        self.reserves: list[list[Player]] = [[], [], [], [], []]
        for p in self.players:
            if p.card.is_starter:
                starters.append(p)
            else:
                self.reserves[p.card.slot - 1].append(p)
        self.starters = sorted(starters, key=lambda p: p.card.slot)
        self.lineup: list[Player] = []
        self.rotation: list[list[Player]] = []
        self.claims: dict[int, int] = {}
        self.pg_ok = True
        self.carriers: tuple[int | None, ...] = ()  # by d8: who takes the ball (§4)
        self.score = 20
        self.team_to = 0  # turnovers credited to no player (shot-clock violations)

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise RotationError([f"{self.team.label} has no player named {name!r}"])

    def set_lineup(self, lineup: list[Player], rules: GameRules) -> None:
        """Put five players on the floor and read their cards for this lineup (§4, §9, §6)."""
        self.lineup = lineup
        # §4: extra ball numbers 6, 7, 8 handed out top to bottom by count of extras.
        claims = self.claims = ball_claims([p.extra_ball for p in lineup])
        twenty = rules.twenty_shot
        for i, p in enumerate(lineup):
            # §4/§12 "20 shot": eligible while his claims of 6-8 fall short of his extras.
            p.twenty = twenty and sum(1 for who in claims.values() if who == i) < p.extra_ball
        self.pg_ok = lineup[0].card.can_run_point
        self.carriers = ball_carriers(claims, self.pg_ok)
        if not self.pre1987:
            for p in lineup:
                p.shot = p.table
                p.main = p.main_court
                p.try3 = None
            return
        center = lineup[4]
        gains = pre_1987_gains(
            center_made3=center.table.count(MADE3),
            center_extras=center.extra_ball,
            claims=claims,
            point_guard=self.pg_ok,
            claimed_extra=rules.pre_1987_claimed_extra,
        )
        for i, p in enumerate(lineup):
            table = list(p.table)
            if i == 4:
                table = [MADE2 if c == MADE3 else MISS2 if c == MISS3 else c for c in table]
            for _ in range(gains[i]):
                # §12: a gain turns the lowest 2-made number into a 3-made number.
                if MADE2 in table[1:]:
                    table[table.index(MADE2, 1)] = MADE3
            p.shot = tuple(table)
            p.main = home_court(p.shot, self.court)
            p.try3 = None


# The box-score columns each player's ``line`` counts (results.LINE_FIELDS, in order): the
# engine counts them as it makes the events, and ``events.box_score`` rebuilding them from
# the events alone is the independent check (tests/simulator/vabg/test_properties.py).
_COLUMNS = len(LINE_FIELDS)
_PTS, _FGM, _FGA, _TPM, _TPA, _FTM, _FTA, _OREB, _DREB, _REB, _STL, _BLK, _TO, _PF, _POSS = (
    LINE_FIELDS.index(name)
    for name in ("pts", "fgm", "fga", "tpm", "tpa", "ftm", "fta", "oreb", "dreb", "reb",
                 "stl", "blk", "to", "pf", "poss")
)  # fmt: skip


def _shot(line: list[int], value: int, made: bool) -> None:
    """Count a field-goal try (value 2 or 3) in a box-score line."""
    line[_FGA] += 1
    if value == 3:
        line[_TPA] += 1
        if made:
            line[_FGM] += 1
            line[_TPM] += 1
            line[_PTS] += 3
    elif made:
        line[_FGM] += 1
        line[_PTS] += 2


def _rebound(line: list[int], offensive: bool) -> None:
    line[_REB] += 1
    line[_OREB if offensive else _DREB] += 1


def _credit_possessions(lineup: list[Player], numbers: int) -> None:
    """Credit each of the five on the floor ``numbers`` possession numbers played."""
    if numbers:
        for p in lineup:
            p.line[_POSS] += numbers


def _team_box(side: Side, periods: list[tuple[int, int]], index: int) -> TeamBox:
    """Return a side's box score from the lines counted during the game."""
    team = side.team
    before = 0
    points = []
    for end in periods:
        points.append(end[index] - before)
        before = end[index]
    return TeamBox(
        school=team.school,
        season=team.season,
        score=sum(p.line[_PTS] for p in side.players),
        players=tuple([player_line(p.name, p.line) for p in side.players]),
        team_turnovers=side.team_to,
        periods=tuple(points),
    )


def _basic_rotation(side: Side) -> list[list[Player]]:
    """§2 basic: the first listed reserve of a slot plays 44-38, the starter 37-1."""
    by_slot = []
    for slot, starter in enumerate(side.starters):
        reserves = side.reserves[slot]
        first = reserves[0] if reserves else starter
        by_slot.append([first] * 7 + [starter] * (REGULATION - 7))
    return _lineups(by_slot)


def _advanced_rotation(side: Side) -> list[list[Player]]:
    """§2/§12 advanced default plan: reserves fill 44 downward, the starter finishes."""
    by_slot: list[list[Player]] = []
    for slot, starter in enumerate(side.starters):
        gap = REGULATION - min(starter.can_play, REGULATION)
        order: list[Player] = []
        for reserve in side.reserves[slot]:
            order += [reserve] * min(reserve.can_play, gap - len(order))
        order += [starter] * (REGULATION - len(order))
        by_slot.append(order)
    return _lineups(by_slot)


def _lineups(by_slot: Sequence[Sequence[Player]]) -> list[list[Player]]:
    """Turn per-slot players (possession 44 first) into one lineup per number.

    One list object is reused while the five on the floor stay the same, so a new
    object means a substitution.
    """
    out: list[list[Player]] = []
    lineup: list[Player] = []
    before = None
    for five in zip(*by_slot, strict=True):
        if five != before:
            before, lineup = five, list(five)
        out.append(lineup)
    return out


def _planned_rotation(side: Side, plan: Plan) -> list[list[Player]]:
    """Turn a commissioner's plan into lineups; every slot must cover 44..1 exactly once."""
    problems: list[str] = []
    by_slot: list[list[Player | None]] = [[None] * REGULATION for _ in range(5)]
    for slot in range(1, 6):
        for name, first, last in plan.get(slot, ()):
            try:
                player = side.player(name)
            except RotationError as exc:
                problems.extend(exc.problems)
                continue
            if not REGULATION >= first >= last >= 1:
                problems.append(f"slot {slot}: {name} plays {first}-{last}, not within 44-1")
                continue
            for n in range(first, last - 1, -1):
                if by_slot[slot - 1][REGULATION - n] is not None:
                    problems.append(f"slot {slot}: possession {n} is planned twice")
                by_slot[slot - 1][REGULATION - n] = player
        missing = [REGULATION - i for i, p in enumerate(by_slot[slot - 1]) if p is None]
        if missing:
            problems.append(
                f"slot {slot}: possessions {', '.join(map(str, missing))} have nobody planned"
            )
    if problems:
        raise RotationError([f"{side.team.label} rotation: {p}" for p in problems])
    return _lineups(by_slot)  # type: ignore[arg-type]


def _count_stints(lineups: Sequence[list[Player]], tiring: dict[int, list[Player]]) -> None:
    """§2: add a period's possessions to each player's count, noting in ``tiring`` the
    index at which he goes past his "can play N" (from then on he is tired).

    A stint is a run of numbers with the same lineup object; a player listed m times in
    a lineup counts m per number.
    """
    start, length = 0, len(lineups)
    while start < length:
        lineup = lineups[start]
        end = start + 1
        while end < length and lineups[end] is lineup:
            end += 1
        for p in dict.fromkeys(lineup):
            times = lineup.count(p)
            before = p.count
            p.count = before + times * (end - start)
            if p.count > p.can_play:
                tiring.setdefault(start + max(0, (p.can_play - before) // times), []).append(p)
        start = end


class TripCallback(Protocol):
    """What :class:`GameState` calls for each trip in place of its own (``trip=``)."""

    def __call__(self, off: Side, de: Side, n: int, kind: TripKind = TripKind.PLAIN, /) -> None:
        """Play, or note, the trip ``off`` has at number ``n`` against ``de``."""
        ...


class GameState:
    """The state of one game being played.

    :func:`play_game` plays it; the exact odds walk its periods with a ``trip`` callback
    that records each trip in place of playing it (no dice are rolled), and a callback
    that only notes the trip plays it on with :meth:`play_trip`.
    """

    def __init__(
        self,
        home: TeamCard,
        away: TeamCard,
        dice: DiceSource,
        rules: GameRules,
        neutral: bool,
        plans: Mapping[str, Plan | None],
        coach: Coach,
        trip: TripCallback | None = None,
        fouling_trip: TripCallback | None = None,
    ) -> None:
        # Every trip the periods play goes through the trip callback where one is given
        # (:meth:`_trip`), every trip fouled on purpose (§10) through the fouling one.
        self.on_trip = trip
        self.on_fouling_trip = fouling_trip
        self.dice = dice
        self.d8, self.d6, self.d20 = dice.d8, dice.d6, dice.d20
        self.rules = rules
        self.strategy = rules.strategy
        # §3 steal/turnover changes by dunk top X (all zero when the rule is off).
        changes = rules.dunk_steal_turnover_changes
        self.steal_delta = STEAL_CHANGES if changes else dict.fromkeys(STEAL_CHANGES, 0)
        self.turnover_delta = TURNOVER_CHANGES if changes else dict.fromkeys(TURNOVER_CHANGES, 0)
        self.coach = coach
        self.calls = NEVER  # the coach's choices of the number being played
        self.step = Step.AWAY  # where in the number the possession being played is
        self.neutral = neutral
        court = 1 if rules.home_court and not neutral else 0
        old = rules.pre_1987_centers
        self.home = Side(HOME, home, court, old and home.season < 1987)
        self.away = Side(AWAY, away, -court, old and away.season < 1987)
        self.events: list[Event] = []
        self.emit = self.events.append
        self.period = 0
        self.period_ends: list[tuple[int, int]] = []  # (home, away) at each period's end
        self.extra_pending = False
        self.extra_taker = AWAY  # the team whose coach took the number's extra possessions
        for side in (self.home, self.away):
            plan = plans.get(side.key)
            if plan is not None:
                side.rotation = _planned_rotation(side, plan)
            elif rules.advanced_rotation:
                side.rotation = _advanced_rotation(side)
            else:
                side.rotation = _basic_rotation(side)

    # -- the game frame (§1) -------------------------------------------------------------

    def play(self) -> None:
        emit = self.emit
        emit(
            Tipoff(
                self.home.team.school,
                self.home.team.season,
                self.away.team.school,
                self.away.team.season,
                self.neutral,
            )
        )
        for side in (self.away, self.home):
            for e in _opening_credits(side):
                emit(e)
        away, home = self.away, self.home
        self.play_period(away.rotation, home.rotation)
        length = self.rules.overtime_possessions
        while home.score == away.score:
            if self.period >= MAX_OVERTIMES:
                raise EndlessGameError(
                    [
                        f"the game cannot end: still tied {home.score}-{away.score} after "
                        f"{MAX_OVERTIMES} overtimes ({home.team.label} and {away.team.label} "
                        "cannot score)"
                    ]
                )
            self.period += 1
            self.play_period([away.starters] * length, [home.starters] * length)

    def play_period(
        self, away_lineups: list[list[Player]], home_lineups: list[list[Player]]
    ) -> None:
        """Play one period; the lineups are given per possession number, first to last."""
        strategy = self.rules.strategy
        away, home = self.away, self.home
        trip: TripCallback = self.play_trip if self.on_trip is None else self.on_trip
        length = len(away_lineups)
        tiring: dict[int, list[Player]] = {}
        if self.rules.tired_players:
            _count_stints(away_lineups, tiring)
            _count_stints(home_lineups, tiring)
        # Possessions played (the box score's "poss"): each five is credited the numbers it
        # was on the floor for when it leaves it, or at the end of the period.
        away_since = home_since = 0
        for i in range(length):
            n = length - i
            lineup = away_lineups[i]
            if lineup is not away.lineup:
                _credit_possessions(away.lineup, i - away_since)
                away_since = i
                self._substitute(away, lineup, n)
            lineup = home_lineups[i]
            if lineup is not home.lineup:
                _credit_possessions(home.lineup, i - home_since)
                home_since = i
                self._substitute(home, lineup, n)
            if i in tiring:
                for p in tiring[i]:
                    p.tire()
            if strategy:
                self.calls = self.coach.calls(self.period, n)
                if may_call_foul_round(n):
                    # §10: 2a is played after 3 and 1a after 2, by the five who play 2 (or 1).
                    self._intentional_foul_round(n)
            self.extra_pending = False
            self.step = Step.AWAY
            trip(away, home, n)
            self.step = Step.HOME_OWED if self.extra_pending else Step.HOME
            trip(home, away, n)
            if self.extra_pending:
                # §8: both teams get one extra possession, right after this number.
                self.events.append(
                    _new(Call, (self.period, n, self.extra_taker, "extra possession"))
                )
                self.step = Step.AWAY_EXTRA
                trip(away, home, n, _EXTRA)
                self.step = Step.HOME_EXTRA
                trip(home, away, n, _EXTRA)
        _credit_possessions(away.lineup, length - away_since)
        _credit_possessions(home.lineup, length - home_since)
        self.period_ends.append((home.score, away.score))
        self.events.append(_new(PeriodEnd, (self.period, home.score, away.score)))

    def _substitute(self, side: Side, lineup: list[Player], n: int) -> None:
        old = side.lineup
        for slot in range(5):
            if not old or old[slot] is not lineup[slot]:
                self.events.append(
                    _new(Enter, (self.period, n, side.key, slot + 1, lineup[slot].name))
                )
        side.set_lineup(lineup, self.rules)

    # -- one trip down the floor (§4, §5, §6) ----------------------------------------------

    def _trip(self, off: Side, de: Side, n: int, kind: TripKind = _PLAIN) -> None:
        """Play one trip, or hand it to the trip callback where one was given."""
        if self.on_trip is None:
            self.play_trip(off, de, n, kind)
        else:
            self.on_trip(off, de, n, kind)

    def play_trip(self, off: Side, de: Side, n: int, kind: TripKind = _PLAIN) -> None:
        """Play one trip (§4, §5, §6), as the engine does (a ``trip`` callback that only notes
        it plays it on with this)."""
        # §11: every trip reads d8, d6 (tens), d6 (ones) and d20, in that order.
        d6 = self.d6
        d8 = self.d8()
        roll = 10 * d6() + d6()
        d20 = self.d20()
        emit = self.emit
        period = self.period
        halved = False
        if d8 >= 6:
            idx = off.carriers[d8]
            if idx is None:
                # §4/§12: the shot clock runs down; one fresh re-roll, 6-8 again = turnover.
                emit(_new(Trip, (period, n, off.key, None, d8, roll, d20, kind)))
                d8 = self.d8()
                roll = 10 * d6() + d6()
                d20 = self.d20()
                if d8 >= 6:
                    emit(_new(Trip, (period, n, off.key, None, d8, roll, d20, _REROLL)))
                    emit(_new(Turnover, (period, n, off.key, None, "shot clock")))
                    off.team_to += 1
                    return
                kind = _REROLL
                idx = d8 - 1
            else:
                halved = self.rules.halved_any_defender
        else:
            idx = d8 - 1
        carrier = off.lineup[idx]
        defender = de.lineup[idx]
        emit(_new(Trip, (period, n, off.key, carrier.name, d8, roll, d20, kind)))
        x = effective_dunk_top(carrier.dunk_top, defender.dunk_adjust)
        what = ROLL_KINDS[x][roll]
        if what == _NOTHING:
            pass  # no try and no dunk or stop: straight to the d20 read below
        elif what == _STEAL_TRY:
            stealer = self.find_stealer(de, idx, roll, self.steal_delta[x], halved)
            if stealer is not None:
                thief = de.lineup[stealer]
                fast = self.rules.fast_breaks and fast_break(stealer + 1, roll)
                emit(_new(Steal, (period, n, de.key, thief.name, fast)))
                thief.line[_STL] += 1
                emit(_new(Turnover, (period, n, off.key, carrier.name, "steal")))
                carrier.line[_TO] += 1
                if fast:
                    self._fast_break(de, off, n, stealer)
                return
        elif what == _BLOCK_TRY:
            blocker = self.find_blocker(de, idx, roll, halved)
            if blocker is not None:
                emit(_new(Block, (period, n, de.key, de.lineup[blocker].name)))
                de.lineup[blocker].line[_BLK] += 1
                emit(_new(Shot, (period, n, off.key, carrier.name, 2, False, "blocked")))
                _shot(carrier.line, 2, False)
                self._after_miss(off, de, n, idx, False, kind)
                return
        elif what == _FOUL_TRY:
            # §5: 33-36 in the defender's foul range (tired: one number longer).
            if roll >= defender.foul_at:
                self._fouled_shot(off, de, n, idx, d20, kind)
                return
        elif what == _TURNOVER_TRY:
            if roll - 40 <= turnover_reach(carrier.to, self.turnover_delta[x], carrier.tired):
                emit(_new(Turnover, (period, n, off.key, carrier.name, "turnover")))
                carrier.line[_TO] += 1
                return
        elif what == _DUNK_ROLL:
            code = carrier.shot[carrier.reads[d20]]
            if code == MADE3:
                emit(_new(Shot, (period, n, off.key, carrier.name, 3, True, "3 on a dunk roll")))
                _shot(carrier.line, 3, True)
                off.score += 3
            else:
                emit(_new(Shot, (period, n, off.key, carrier.name, 2, True, "dunk")))
                _shot(carrier.line, 2, True)
                off.score += 2
            return
        else:  # _STOP_ROLL
            # §3/§12: a stop is a miss with the slot defender's rebound, or a turnover on 6-8.
            if d8 <= 5:
                emit(_new(Shot, (period, n, off.key, carrier.name, 2, False, "stopped")))
                _shot(carrier.line, 2, False)
                emit(_new(Rebound, (period, n, de.key, defender.name, False)))
                _rebound(defender.line, False)
            else:
                emit(_new(Turnover, (period, n, off.key, carrier.name, "stopped")))
                carrier.line[_TO] += 1
            return
        # Nothing happened on the 11-66 roll: read the d20 (§6), home court included.
        table = carrier.main
        if self.strategy and kind != _EXTRA and self._trying_for_three(off, de):
            if carrier.try3 is None:
                carrier.try3 = try3_table(carrier.main)
            table = carrier.try3
        code = table[carrier.reads[d20]]
        if code == MADE3:
            emit(_new(Shot, (period, n, off.key, carrier.name, 3, True, "jumper")))
            _shot(carrier.line, 3, True)
            off.score += 3
        elif code == MADE2:
            emit(_new(Shot, (period, n, off.key, carrier.name, 2, True, "jumper")))
            _shot(carrier.line, 2, True)
            off.score += 2
        elif code == FOULED:
            emit(_new(Foul, (period, n, de.key, defender.name, carrier.name, 2, "shooting")))
            defender.line[_PF] += 1
            if self._free_throws(off, n, carrier, 2, False):
                self._after_miss(off, de, n, idx, True, kind)
        elif code == MISSED_CALL:
            emit(_new(Call, (period, n, de.key, "no call on the road")))
            emit(_new(Turnover, (period, n, off.key, carrier.name, "no call")))
            carrier.line[_TO] += 1
        elif twenty_shot(d20, code, carrier.twenty):
            emit(_new(Shot, (period, n, off.key, carrier.name, 2, True, "jumper (20 shot)")))
            _shot(carrier.line, 2, True)
            off.score += 2
        elif code == TRY_MISS:
            emit(_new(Shot, (period, n, off.key, carrier.name, 3, False, "jumper (try for 3)")))
            _shot(carrier.line, 3, False)
            emit(_new(Rebound, (period, n, de.key, defender.name, False)))
            _rebound(defender.line, False)
        else:
            value = 3 if code == MISS3 else 2
            emit(_new(Shot, (period, n, off.key, carrier.name, value, False, "jumper")))
            _shot(carrier.line, value, False)
            self._after_miss(off, de, n, idx, False, kind)

    def find_stealer(self, de: Side, idx: int, roll: int, delta: int, halved: bool) -> int | None:
        """Return the floor index of the defender who steals on 11-16 or 31, if any (§5, §12)."""
        lineup = de.lineup
        if not (halved or roll == 31):
            # The common case: the carrier's defender alone, at full range.
            p = lineup[idx]
            count = p.steal_ranges[delta]
            return idx if roll - 10 <= count else None
        order = [idx, *[i for i in range(5) if i != idx]]
        best, best_count = None, -1
        for i in order:
            p = lineup[i]
            count = p.steal_ranges[delta]
            if halved:
                count = halved_range(count)
            if roll == 31:
                if count > best_count:
                    best, best_count = i, count
            elif roll - 10 <= count:
                return i
        if roll == 31 and best_count >= 10:
            return best
        return None

    def find_blocker(self, de: Side, idx: int, roll: int, halved: bool) -> int | None:
        """Return the floor index of the defender who blocks on 21-26 or 32, if any."""
        lineup = de.lineup
        if not (halved or roll == 32):
            # The common case: the carrier's defender alone, at full range.
            p = lineup[idx]
            count = p.block_range
            return idx if roll - 20 <= count else None
        order = [idx, *[i for i in range(5) if i != idx]]
        best, best_count = None, -1
        for i in order:
            p = lineup[i]
            count = p.block_range
            if halved:
                count = halved_range(count)
            if roll == 32:
                if count > best_count:
                    best, best_count = i, count
            elif roll - 20 <= count:
                return i
        if roll == 32 and best_count >= 10:
            return best
        return None

    def _trying_for_three(self, off: Side, de: Side) -> bool:
        """§10: only a trailing team tries for 3, where its coach calls for it."""
        if off.score >= de.score:
            return False
        return self.calls.tries_for_3(self.step, self.home.score - self.away.score)

    # -- shots, fouls and free throws (§5, §6) -----------------------------------------------

    def _fouled_shot(self, off: Side, de: Side, n: int, idx: int, d20: int, kind: str) -> None:
        """Play a 33-36 foul: the d20 decides and-one, one-and-one or shots (§5)."""
        shooter = off.lineup[idx]
        fouler = de.lineup[idx]
        code = shooter.shot[shooter.reads[d20]]
        period = self.period
        emit = self.emit
        if twenty_shot(d20, code, shooter.twenty):
            code = MADE2
        if code in (MADE3, MADE2):
            value = 3 if code == MADE3 else 2
            emit(_new(Shot, (period, n, off.key, shooter.name, value, True, "jumper")))
            _shot(shooter.line, value, True)
            off.score += value
            emit(_new(Foul, (period, n, de.key, fouler.name, shooter.name, 1, "and-one")))
            fouler.line[_PF] += 1
            shots, bonus = 1, False
        elif code == FOULED:
            bonus = one_and_one(period, n)
            shots = 1 if bonus else 2
            kind_text = "one-and-one" if bonus else "shooting"
            emit(_new(Foul, (period, n, de.key, fouler.name, shooter.name, 2, kind_text)))
            fouler.line[_PF] += 1
        else:
            shots, bonus = (3 if code == MISS3 else 2), False
            emit(_new(Foul, (period, n, de.key, fouler.name, shooter.name, shots, "shooting")))
            fouler.line[_PF] += 1
        if self._free_throws(off, n, shooter, shots, bonus):
            self._after_miss(off, de, n, idx, True, kind)

    def _free_throws(self, off: Side, n: int, shooter: Player, shots: int, bonus: bool) -> bool:
        """Shoot free throws; return True when the last one is missed (a rebound follows)."""
        period = self.period
        emit = self.emit
        d20 = self.dice.d20
        line = shooter.line
        made = False
        shot = 0
        while shot < shots:
            made = d20() <= shooter.ft_reach
            emit(_new(FreeThrow, (period, n, off.key, shooter.name, made)))
            line[_FTA] += 1
            shot += 1
            if made:
                line[_FTM] += 1
                line[_PTS] += 1
                off.score += 1
                if bonus and shot == 1:
                    shots = 2  # the one-and-one's bonus shot
        return not made

    # -- rebounds, putbacks and fast breaks (§7, §8) ---------------------------------------------

    def _after_miss(
        self, off: Side, de: Side, n: int, idx: int, free_throw: bool, kind: str
    ) -> None:
        """Rebound a miss by the player at ``idx``; putbacks go on until the trip ends."""
        emit = self.emit
        period = self.period
        dice = self.dice
        if kind in _AT_ONCE or not self.rules.rebound_chart:
            # Basic: the shooter's defender gets every miss; on 2a/1a the defense does.
            emit(_new(Rebound, (period, n, de.key, de.lineup[idx].name, False)))
            _rebound(de.lineup[idx].line, False)
            return
        if not chart_number(n):
            who = _ODD_REBOUNDER[n]
            if who == _BEST:
                who = longest([p.def_reb for p in de.lineup])
            emit(_new(Rebound, (period, n, de.key, de.lineup[who].name, False)))
            _rebound(de.lineup[who].line, False)
            return
        putbacks = 0
        while True:
            d20 = dice.d20()
            d6 = dice.d6()
            offense: bool
            if d20 == 10 or d20 == 20:
                # Highest range on the floor; ties to the offense, then the higher slot.
                o_best = longest([p.off_reb for p in off.lineup])
                d_best = longest([p.def_reb for p in de.lineup])
                offense = off.lineup[o_best].off_reb >= de.lineup[d_best].def_reb
                spot = o_best if offense else d_best
            elif free_throw and (given := free_throw_rebounder(d20)) is not None:
                offense, spot = False, given  # §6: a missed free throw: defensive PF or C
            elif d20 < 10:
                spot = _CHART[d20]
                offense = d6 <= off.lineup[spot].off_reb
            else:
                spot = _CHART[d20 - 10]
                offense = d6 > de.lineup[spot].def_reb
            if not offense:
                emit(_new(Rebound, (period, n, de.key, de.lineup[spot].name, False)))
                _rebound(de.lineup[spot].line, False)
                return
            rebounder = off.lineup[spot]
            putbacks += 1
            if putbacks > MAX_PUTBACKS:
                raise EndlessGameError(
                    [
                        f"the game cannot end: {off.team.label} missed {MAX_PUTBACKS} putbacks "
                        f"in one trip (possession {n}) and won every rebound back"
                    ]
                )
            emit(_new(Rebound, (period, n, off.key, rebounder.name, True)))
            _rebound(rebounder.line, True)
            # Putback: the rebounder rolls only the d20 (no turnover possible).
            roll = dice.d20()
            code = rebounder.shot[rebounder.reads[roll]]
            if twenty_shot(roll, code, rebounder.twenty):
                code = MADE2
            if code in (MADE3, MADE2):
                value = 3 if code == MADE3 else 2
                emit(_new(Shot, (period, n, off.key, rebounder.name, value, True, "putback")))
                _shot(rebounder.line, value, True)
                off.score += value
                return
            if code == FOULED:
                fouler = de.lineup[spot]
                emit(_new(Foul, (period, n, de.key, fouler.name, rebounder.name, 2, "shooting")))
                fouler.line[_PF] += 1
                if not self._free_throws(off, n, rebounder, 2, False):
                    return
                free_throw = True
            else:
                value = 3 if code == MISS3 else 2
                emit(_new(Shot, (period, n, off.key, rebounder.name, value, False, "putback")))
                _shot(rebounder.line, value, False)
                free_throw = False

    def _fast_break(self, team: Side, opp: Side, n: int, idx: int) -> None:
        """§8: the stealer shoots a bonus d20 at once; a miss is rebounded by number n's rules."""
        stealer = team.lineup[idx]
        roll = self.dice.d20()
        code = stealer.shot[stealer.reads[roll]]
        period = self.period
        emit = self.emit
        if twenty_shot(roll, code, stealer.twenty):
            code = MADE2
        if code in (MADE3, MADE2):
            value = 3 if code == MADE3 else 2
            emit(_new(Shot, (period, n, team.key, stealer.name, value, True, "fast break")))
            _shot(stealer.line, value, True)
            team.score += value
        elif code == FOULED:
            fouler = opp.lineup[idx]
            emit(_new(Foul, (period, n, opp.key, fouler.name, stealer.name, 2, "shooting")))
            fouler.line[_PF] += 1
            if self._free_throws(team, n, stealer, 2, False):
                self._after_miss(team, opp, n, idx, True, _PLAIN)
        else:
            value = 3 if code == MISS3 else 2
            emit(_new(Shot, (period, n, team.key, stealer.name, value, False, "fast break")))
            _shot(stealer.line, value, False)
            self._after_miss(team, opp, n, idx, False, _PLAIN)
        if (
            self.strategy
            and not self.extra_pending
            and (self.step == Step.AWAY or self.step == Step.HOME)
            and may_take_extra_possession(n)
            and team.score < opp.score
            and self.calls.takes_extra(self.step, self.home.score - self.away.score)
        ):
            # §8: still trailing after its fast break, the team may take the extra trips
            # (those of a number's own trips: an extra possession earns none).
            self.extra_pending = True
            self.extra_taker = team.key

    # -- intentional fouls (§10) ----------------------------------------------------------------

    def _intentional_foul_round(self, n: int) -> None:
        """Before 2 and 1, a trailing team may foul: both teams play 2a (or 1a) first."""
        gap = self.home.score - self.away.score
        # §10: only the trailing team calls, where its coach calls for it.
        if gap == 0 or not in_spans(self.calls.foul, gap):
            return
        trailing = self.away if gap > 0 else self.home
        self.events.append(_new(Call, (self.period, n, trailing.key, "intentional foul")))
        for off, de in ((self.away, self.home), (self.home, self.away)):
            if de is trailing:
                self._fouling_trip(off, de, n)
            else:
                self.step = Step.AWAY_FOUL_ROUND if off is self.away else Step.HOME_FOUL_ROUND
                self._trip(off, de, n, _EXTRA)

    def _fouling_trip(self, off: Side, de: Side, n: int, kind: TripKind = _FOUL) -> None:
        """Play a trip fouled on purpose, or hand it to the fouling callback where one was given."""
        if self.on_fouling_trip is None:
            self.play_fouling_trip(off, de, n, kind)
        else:
            self.on_fouling_trip(off, de, n, kind)

    def play_fouling_trip(self, off: Side, de: Side, n: int, kind: TripKind = _FOUL) -> None:
        """Play a possession on which the defense fouls on purpose (seed, "Go for Steal"), as
        the engine does (a ``fouling_trip`` callback that only notes it plays it on with this).

        d8 1-5: only the carrier's defender may steal (on 31, the longest range if it
        reaches 11-20). d8 6-8: the defender with the longest steal range tries, his
        range 4 longer when it passes 11-16. Then the carrier's turnover range; anything
        else is a two-shot foul. The d20 is not read.
        """
        dice = self.dice
        d8 = dice.d8()
        roll = 10 * dice.d6() + dice.d6()
        d20 = dice.d20()
        period = self.period
        emit = self.emit
        counts = [tired_range(p.steal, p.tired) for p in de.lineup]
        if d8 >= 6:
            # §4/§12: on the shot-clock re-roll any 6-8 turns over, claimed or not.
            rerolled = kind != _FOUL and self.rules.fouled_reroll_turnover
            idx = None if rerolled else off.carriers[d8]
            if idx is None:
                # §4: nobody to take the ball; one re-roll, then a shot-clock turnover.
                emit(_new(Trip, (period, n, off.key, None, d8, roll, d20, kind)))
                if kind == _FOUL:
                    self._fouling_trip(off, de, n, _REROLL)
                else:
                    emit(_new(Turnover, (period, n, off.key, None, "shot clock")))
                    off.team_to += 1
                return
            thief, count = fouling_stealer(counts, idx, True)
        else:
            idx = d8 - 1
            thief, count = fouling_stealer(counts, idx, False)
        carrier = off.lineup[idx]
        emit(_new(Trip, (period, n, off.key, carrier.name, d8, roll, d20, kind)))
        if roll == 31 and (past := fouling_steal_31(counts, idx, count)) is not None:
            thief, count = past
        if steals_on(roll, count):
            emit(_new(Steal, (period, n, de.key, de.lineup[thief].name, False)))
            de.lineup[thief].line[_STL] += 1
            emit(_new(Turnover, (period, n, off.key, carrier.name, "steal")))
            carrier.line[_TO] += 1
            return
        if turns_over_on(roll, turnover_reach(carrier.to, 0, carrier.tired)):
            emit(_new(Turnover, (period, n, off.key, carrier.name, "turnover")))
            carrier.line[_TO] += 1
            return
        fouler = de.lineup[thief]
        emit(_new(Foul, (period, n, de.key, fouler.name, carrier.name, 2, "intentional")))
        fouler.line[_PF] += 1
        if self._free_throws(off, n, carrier, 2, False):
            self._after_miss(off, de, n, idx, True, _FOUL)


def _opening_credits(side: Side) -> list[Opening]:
    """§1/§13: the 20-20 start, credited to every player on the roster (his box-score line
    starts from it)."""
    team = side.team
    starters = [p.card for p in side.starters]
    missing = 10 - len(team.players)
    four: set[str] = set()
    if missing:
        # Short roster: starters by PPG, highest first, ties to the lower slot, get 4 points.
        by_ppg = sorted(starters, key=lambda p: (-(p.ppg or 0.0), p.slot))
        four = {p.name for p in by_ppg[:missing]}
    out = []
    for player in side.players:
        p = player.card
        starter = p.is_starter
        pts = 4 if p.name in four else 2
        reb = 2 if starter and p.slot >= 3 else 1
        stl = 1 if starter and p.slot <= 2 else 0
        blk = 1 if starter and p.slot == 5 else 0
        out.append(_new(Opening, (side.key, p.name, pts, reb, stl, blk, 1)))
        line = player.line
        line[_PTS], line[_REB], line[_STL], line[_BLK], line[_PF] = pts, reb, stl, blk, 1
    return out


def rules_coach(
    home: TeamCard,
    away: TeamCard,
    *,
    rules: GameRules,
    neutral: bool,
    plans: Mapping[str, Plan | None] | None = None,
) -> Coach:
    """Return the coach the rules name for this game: the exact coach, solved for the two
    cards (rules version 3 on), or the fixed thresholds of older games; with the strategy
    choices off, a coach that is never asked."""
    if not rules.strategy or rules.coach == CoachKind.THRESHOLDS:
        return DEFAULT_POLICY
    # The solver reads the exact odds (NumPy): loaded only when a coach is solved. (The
    # exact odds themselves never play a game: they do not read the solver through here.)
    from simulator.vabg import coachodds

    plans = plans or {}
    return coachodds.solve_coach(
        home,
        away,
        rules=rules,
        neutral=neutral,
        home_plan=plans.get(HOME),
        away_plan=plans.get(AWAY),
    )


def play_game(
    home: TeamCard,
    away: TeamCard,
    dice: DiceSource,
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = False,
    home_plan: Plan | None = None,
    away_plan: Plan | None = None,
    coach: Coach | None = None,
) -> GameResult:
    """Play one game and return its box scores, events and the dice that made it.

    ``home`` plays at home unless ``neutral``; ``away`` always has the first
    possession of each number. ``home_plan`` / ``away_plan`` give a rotation
    (see :data:`Plan`); without one, the rules' rotation decides. With
    ``rules.strategy`` on, ``coach`` makes the strategy choices; without one, the
    rules' coach is used (:func:`rules_coach`: for the exact coach it is solved here,
    so a caller playing one pair many times passes it solved once).
    """
    plans = {HOME: home_plan, AWAY: away_plan}
    if coach is None:
        coach = rules_coach(home, away, rules=rules, neutral=neutral, plans=plans)
    game = GameState(home, away, dice, rules, neutral, plans, coach)
    game.play()
    return GameResult(
        game="vabg",
        home=_team_box(game.home, game.period_ends, 0),
        away=_team_box(game.away, game.period_ends, 1),
        overtimes=len(game.period_ends) - 1,
        events=tuple(game.events),
        dice=dice.record(),
        rules=rules,
        neutral=neutral,
    )
