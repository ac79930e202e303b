"""Pins: every number range of vabg-rulings.md, played by the engine, against the text.

Each test writes its expectation from the rulings' own words (a literal list of numbers, a
sentence turned into a comparison) and never calls the engine's or ``rules.py``'s helpers
for it. It sweeps the whole range and the numbers on either side, so moving any bound by
one (33-11 to 34-11, the chart to 3, the halving to round down, 31's reach to 11-21, ...)
fails it. Each pin was checked by moving the engine's bound and watching it fail.

Teams are plain (``twin``: average cards, dunk ranges 51-56, no §3 changes; extra ball
numbers on the PG, SF and PF). The visitor has the ball first; trips not under test are
turnovers (d8 1, 41).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from simulator.vabg import ADVANCED, BASIC, GameRules, TeamCard, team_from_json
from simulator.vabg.coaching import CoachPolicy
from simulator.vabg.events import Call, Enter, Foul, Rebound, Shot, Steal, Trip
from tests.simulator.vabg.scripting import play, trip_story, trips
from tests.simulator.vabg.teams import player, team_json, twin_team_json

TURNOVER = (1, 41, 1)
STRATEGY = replace(ADVANCED, strategy=True)
REGULATION = range(44, 0, -1)
OVERTIME = range(10, 0, -1)


def twin(name: str, season: int = 2010, **slots: dict) -> TeamCard:
    """Return a plain team; ``slot3={...}`` overrides the starter of slot 3."""
    doc = twin_team_json(name, season)
    for p in doc["players"]:
        if p["role"] == "starter":
            p.update(slots.get(f"slot{p['slot']}", {}))
    return team_from_json(doc)


def lone(name: str, dunk_top: int = 56, **fields: object) -> TeamCard:
    """Return five plain starters with ``fields`` on every card and no reserves."""
    cards = [player(f"{name}{s}", s, **fields) for s in range(1, 6)]  # type: ignore[arg-type]
    return team_from_json(team_json(name, 2000, cards, dunk_top=dunk_top))


HOME, AWAY = twin("Home"), twin("Away")


def second_line(home: TeamCard, away: TeamCard, *rolls, **kwargs) -> str:
    """Return what happens right after the visitor's first trip starts."""
    return trip_story(play(home, away, trips(*rolls), **kwargs))[1]


# §5 the one-and-one: numbers 33 through 11 of regulation ------------------------------------


def rulings_one_and_one(period: int, number: int) -> bool:
    """§5: 'a one-and-one on possessions 33 through 11, two shots otherwise' (overtime:
    docs/engine.md, 'Readings beyond the rulings')."""
    return period == 0 and number in range(11, 34)


def test_the_one_and_one_is_played_on_33_through_11_and_on_no_other_number():
    # Every trip of both teams: a 33-36 foul whose d20 (10) reads "fouled", both free
    # throws made. Tied after regulation, then the visitor alone scores in overtime.
    fouled = (1, 36, 10, [3, 3], [])
    script = [fouled] * (2 * 44) + [fouled, TURNOVER] * 10
    result = play(HOME, AWAY, trips(*script))
    fouls = [e for e in result.events if isinstance(e, Foul)]
    assert {(e.period, e.number) for e in fouls} == {
        *((0, n) for n in REGULATION),
        *((1, n) for n in OVERTIME),
    }
    for e in fouls:
        expected = "one-and-one" if rulings_one_and_one(e.period, e.number) else "shooting"
        assert e.kind == expected, (e.period, e.number, e.kind)
    assert sum(e.kind == "one-and-one" for e in fouls) == 2 * 23


def test_an_overtime_as_long_as_regulation_still_has_no_one_and_one():
    # overtime_possessions is a rule option (1-44): numbers 33-11 of an overtime are
    # still overtime, where a d20 "fouled" gives two shots.
    long_overtime = replace(ADVANCED, overtime_possessions=34)
    fouled = (1, 36, 10, [3, 3], [])
    script = [TURNOVER] * (2 * 44) + [fouled, TURNOVER] * 34
    result = play(HOME, AWAY, trips(*script), rules=long_overtime)
    fouls = [(e.number, e.kind) for e in result.events if isinstance(e, Foul)]
    assert fouls == [(n, "shooting") for n in range(34, 0, -1)]


# §7 rebounds: the chart on even numbers and 1, the table by number on the others ----------


ODD_TABLE = {  # §7, as printed: who rebounds for the defense on each odd number but 1
    "C": (43, 33, 23, 13, 3),
    "PF": (41, 31, 21, 11),
    "best": (39, 29, 19, 9),
    "SF": (37, 27, 17, 7),
    "SG": (35, 15),
    "PG": (25, 5),
}
SLOT = {"PG": 1, "SG": 2, "SF": 3, "PF": 4, "C": 5}


def rulings_chart(number: int) -> bool:
    """§7: 'Even possession numbers, and possession 1' use the chart."""
    return number % 2 == 0 or number == 1


@pytest.mark.parametrize("best", [2, 4])
def test_misses_are_rebounded_by_the_chart_or_by_the_numbers_defender_as_printed(best):
    # The visitor misses a 2 on every trip (d20 16). On a chart number the chart's d20 18
    # (defensive SG) and a d6 of 1 inside his range give the SG the ball; on any other
    # number the printed table decides with no dice. Overtime reads the table by number.
    home = twin("Home", **{f"slot{best}": {"def_reb": 6}})
    numbers = [(0, n) for n in REGULATION] + [(1, n) for n in OVERTIME]
    script = []
    for period, n in numbers:
        script.append((1, 62, 16, [18], [1]) if rulings_chart(n) else (1, 62, 16))
        script.append((1, 62, 1) if (period, n) == (1, 1) else TURNOVER)
    result = play(home, AWAY, trips(*script))
    rebounds = [e for e in result.events if isinstance(e, Rebound)]
    assert [(e.period, e.number) for e in rebounds] == numbers
    by_number = {n: role for role, ns in ODD_TABLE.items() for n in ns}
    assert sorted(by_number) == [n for n in range(3, 44, 2)]  # every odd number but 1
    for e in rebounds:
        if rulings_chart(e.number):
            expected = 2
        else:
            role = by_number[e.number]
            expected = best if role == "best" else SLOT[role]
        assert (e.player, e.offensive) == (f"Home Starter {expected}", False), e


# The chart's d20 (§7): 1-3 C, 4-5 PF, 6-7 SF, 8 SG, 9 PG for the offense, 11-19 the same
# for the defense; 10 and 20 the highest range on the floor. After a missed free throw,
# 6-9 the defensive PF and 16-19 the defensive C (§6).
CHART = {1: "C", 2: "C", 3: "C", 4: "PF", 5: "PF", 6: "SF", 7: "SF", 8: "SG", 9: "PG"}


@pytest.mark.parametrize("free_throw", [False, True])
@pytest.mark.parametrize("d20", range(1, 21))
def test_each_face_of_the_rebound_chart_goes_to_the_printed_player(d20, free_throw):
    # The visitor's center has the highest offensive range on the floor (6). The d6 is a 1:
    # inside every range, so the player the chart names takes the ball.
    away = twin("Away", slot5={"off_reb": 6})
    if free_throw:  # d20 10 is "fouled": two free throws, both missed (d20 20)
        line = trip_story(play(HOME, away, trips((1, 62, 10, [20, 20, d20], [1]))))[4]
    else:
        line = trip_story(play(HOME, away, trips((1, 62, 16, [d20], [1]))))[2]
    if free_throw and d20 in range(6, 10):
        expected = "dreb Home Starter 4"
    elif free_throw and d20 in range(16, 20):
        expected = "dreb Home Starter 5"
    elif d20 in (10, 20):
        expected = "oreb Away Starter 5"
    elif d20 < 10:
        expected = f"oreb Away Starter {SLOT[CHART[d20]]}"
    else:
        expected = f"dreb Home Starter {SLOT[CHART[d20 - 10]]}"
    assert line == expected


# §2 rotation: basic 44-38 for the reserve, 37-1 for the starter ------------------------------


def test_the_basic_rotation_plays_each_reserve_44_to_38_and_each_starter_37_to_1():
    result = play(HOME, AWAY, trips(), rules=BASIC, plans=False)
    for s in range(1, 6):
        enters = [
            (e.number, e.player)
            for e in result.events
            if isinstance(e, Enter) and e.team == "home" and e.slot == s and e.period == 0
        ]
        assert enters == [(44, f"Home Reserve {s}"), (37, f"Home Starter {s}")]
        assert result.home.line(f"Home Reserve {s}").poss == len(range(44, 37, -1)) == 7


# §1 overtime: 10 possessions a team -----------------------------------------------------------


def test_an_overtime_is_10_possessions_a_team_and_stored_rules_default_to_it():
    script = [TURNOVER] * (2 * 44) + [TURNOVER] * (2 * 10 - 1) + [(1, 62, 1)]
    result = play(HOME, AWAY, trips(*script))
    overtime = [e.number for e in result.events if isinstance(e, Trip) and e.period == 1]
    assert overtime == [n for n in range(10, 0, -1) for _ in ("away", "home")]
    assert GameRules().overtime_possessions == 10


# §3 the dunk table and its steal and turnover changes, played --------------------------------


def rulings_dunk_outcome(x: int, roll: int) -> str:
    """§3's sentences for an effective top X (34..66) and a roll of 51-66."""
    if x >= 61 and (roll <= 56 or roll <= x):
        return "dunk"
    if 57 <= x <= 60 and roll <= 56:
        return "dunk"
    if 51 <= x <= 56 and roll <= x:
        return "dunk"
    if 44 <= x <= 49 and roll in (51, 52, 53, 54, 55, 56)[: 50 - x]:
        return "stop"
    if x <= 43 and (roll <= 56 or (x <= 39 and roll <= 61 + 39 - x)):
        return "stop"
    return "none"


RULINGS_CHANGES = {  # §3: X -> (opponent steal ranges, own turnover ranges), in numbers
    **{x: (-2, -2) for x in range(60, 67)},
    59: (-2, -1),
    58: (-1, -1),
    57: (-1, 0),
    43: (1, 0),
    42: (1, 1),
    41: (2, 1),
    **{x: (2, 2) for x in range(34, 41)},
}


@pytest.mark.parametrize("x", range(30, 71))
def test_every_dunk_roll_dunks_stops_or_reads_the_d20_as_section_3_says(x):
    # X = the offense's dunk top + the defense's adjust, clamped to 34..66 (§3).
    top, adjust = (x, 0) if 34 <= x <= 66 else (50, x - 50)
    clamped = min(66, max(34, x))
    offense = lone("O", dunk_top=top)
    defense = team_from_json(
        team_json("D", 2000, [player(f"D{s}", s) for s in range(1, 6)], dunk_adjust=adjust)
    )
    for roll in (*range(51, 57), *range(61, 67)):
        line = second_line(defense, offense, (2, roll, 5))  # d20 5: a made 2 on the card
        expected = {
            "dunk": "make 2 O2 (dunk)",
            "stop": "miss 2 O2 (stopped)",
            "none": "make 2 O2 (jumper)",
        }[rulings_dunk_outcome(clamped, roll)]
        assert line == expected, (x, roll)


@pytest.mark.parametrize("x", range(34, 67))
def test_the_dunk_top_changes_steal_and_turnover_ranges_as_section_3_says(x):
    steal_change, turnover_change = RULINGS_CHANGES.get(x, (0, 0))
    for steal_top, turnover_top in ((14, 43), (11, 41), (10, 40)):
        offense = lone("O", dunk_top=x, turnover_top=turnover_top)
        defense = lone("D", steal_top=steal_top)
        # "A range that had at least one number keeps at least one; an empty range stays empty."
        steals = steal_top - 10
        steals = 0 if not steals else max(1, steals + steal_change)
        turnovers = turnover_top - 40
        turnovers = 0 if not turnovers else max(1, turnovers + turnover_change)
        for roll in range(11, 17):  # the center carries: his defender never fast-breaks
            stolen = second_line(defense, offense, (5, roll, 5)) == "steal D5"
            assert stolen is (roll - 10 <= steals), (x, steal_top, roll)
        for roll in range(41, 47):
            lost = second_line(defense, offense, (5, roll, 5)) == "turnover O5 (turnover)"
            assert lost is (roll - 40 <= turnovers), (x, turnover_top, roll)


# §4/§5 ranges: steals 11-16, blocks 21-26, fouls 33-36, turnovers 41-46 ---------------------


@pytest.mark.parametrize(
    ("field", "first", "done"),
    [("steal_top", 11, "steal D5"), ("block_top", 21, "block D5")],
    ids=["steals-11-16", "blocks-21-26"],
)
def test_a_steal_or_block_range_to_top_takes_exactly_those_rolls(field, first, done):
    for top in range(first - 1, first + 7):
        defense = lone("D", **{field: top})
        for roll in range(first, first + 6):
            taken = second_line(defense, lone("O"), (5, roll, 5)) == done
            assert taken is (first <= roll <= top), (top, roll)


@pytest.mark.parametrize("start", range(33, 38))
def test_a_foul_range_from_start_to_36_fouls_on_exactly_those_rolls(start):
    defense = lone("D", foul_from=start)
    for roll in range(33, 37):
        story = trip_story(play(defense, lone("O"), trips((5, roll, 5, [3], []))))
        fouled = any(line.startswith("foul D5") for line in story)
        assert fouled is (start <= roll <= 36), (start, roll)


@pytest.mark.parametrize("top", range(40, 47))
def test_a_turnover_range_41_to_top_loses_the_ball_on_exactly_those_rolls(top):
    offense = lone("O", turnover_top=top)
    for roll in range(41, 47):
        lost = second_line(lone("D"), offense, (5, roll, 5)) == "turnover O5 (turnover)"
        assert lost is (41 <= roll <= top), (top, roll)


# §4 halving on 6-8, and the reach 31 and 32 need ---------------------------------------------


def halved(count: int) -> int:
    """§4: 'halved, rounding the count of numbers up' (11-15 -> 11-13, 11-20 -> 11-15)."""
    return count - count // 2


def center_only(field: str, top: int) -> TeamCard:
    """Return five plain starters, only the center with a steal (or block) range: to ``top``."""
    empty = {"steal_top": 10, "block_top": 20}[field]
    cards = [player(f"D{s}", s, **{field: top if s == 5 else empty}) for s in range(1, 6)]
    return team_from_json(team_json("D", 2000, cards))


@pytest.mark.parametrize("count", range(0, 15))
def test_on_a_6_8_any_defender_steals_and_blocks_with_his_range_halved_rounding_up(count):
    # The visitor's PG takes the 6; his own defender has no range, the home center does.
    steal, block = center_only("steal_top", 10 + count), center_only("block_top", 20 + count)
    for roll in range(11, 17):
        stolen = second_line(steal, AWAY, (6, roll, 5)) == "steal D5"
        assert stolen is (roll - 10 <= halved(count)), (count, roll)
    for roll in range(21, 27):
        blocked = second_line(block, AWAY, (6, roll, 5)) == "block D5"
        assert blocked is (roll - 20 <= halved(count)), (count, roll)
    # Basic: no halving, only the carrier's own defender.
    assert second_line(steal, AWAY, (6, 11, 5), rules=BASIC) == "make 2 Away Starter 1 (jumper)"


@pytest.mark.parametrize(
    ("field", "roll", "empty", "reach", "tops"),
    [("steal_top", 31, 10, 20, range(15, 31)), ("block_top", 32, 20, 30, range(25, 41))],
    ids=["31-needs-11-20", "32-needs-21-30"],
)
def test_31_and_32_need_a_range_that_reaches_11_20_or_21_30_halved_on_6_8(
    field, roll, empty, reach, tops
):
    # §5: "31: steal by the defender with the longest steal range if any defender on the
    # floor reaches 11-20 or beyond"; 32 likewise for blocks and 21-30; §12: on a 6-8 the
    # halved range must still reach it.
    done = {"steal_top": "steal D5", "block_top": "block D5"}[field]
    for top in tops:
        defense = center_only(field, top)
        whole = second_line(defense, AWAY, (1, roll, 5)) == done
        assert whole is (top >= reach), top
        half = second_line(defense, AWAY, (6, roll, 5)) == done
        assert half is (empty + halved(top - empty) >= reach), top


# §8 fast breaks: guards always, forwards on 11, 13, 15 and 31, a center never ---------------


@pytest.mark.parametrize("slot", range(1, 6))
def test_who_fast_breaks_after_a_steal_by_slot_and_roll(slot):
    doc = team_json("D", 2000, [player(f"D{s}", s, steal_top=10) for s in range(1, 6)])
    doc["players"][slot - 1]["steal_top"] = 20  # 11-20: steals on 11-16 and on 31
    defense = team_from_json(doc)
    for roll in (11, 12, 13, 14, 15, 16, 31):
        line = trip_story(play(defense, AWAY, trips((slot, roll, 5, [5], []))))[1]
        fast = slot in (1, 2) or (slot in (3, 4) and roll in (11, 13, 15, 31))
        assert line == f"steal D{slot}" + (" fast break" if fast else ""), (slot, roll)


def fast_break_at(number: int, bonus: tuple[int, ...] = (10, 3, 3)):
    """Play a game the visitor leads 3-0 from 44 on; at ``number`` the home PG steals
    (12) and fast-breaks: by default he is fouled (d20 10) and makes both, still a point
    behind."""
    before = [(1, 62, 1), *[TURNOVER] * (2 * (44 - number) - 1)]
    steal = [(1, 12, 5, list(bonus), [])]
    home = twin("Home", slot1={"steal_top": 13})
    # A coach that would take the extra possessions at any number: the window is the rule's.
    eager = CoachPolicy(extra_possession_within=44)
    return play(home, AWAY, trips(*before, *steal), rules=STRATEGY, coach=eager)


@pytest.mark.parametrize("number", range(9, 2, -1))
def test_a_trailing_team_may_take_the_extra_possessions_only_in_the_last_5(number):
    # §8: "in the last 5 possessions" a trailing team that fast-breaks may give both
    # teams an extra possession (a coach that always wants it takes it); never before.
    events = fast_break_at(number).events
    steal = next(e for e in events if isinstance(e, Steal) and e.number == number)
    assert (steal.team, steal.fast_break) == ("home", True)
    extra = [e for e in events if isinstance(e, Call) and e.number == number and e.period == 0]
    assert [e.call for e in extra] == (["extra possession"] if number <= 5 else [])


def test_a_fast_break_that_ties_the_game_gives_no_extra_possessions():
    # "the team who stole the ball and attempted the fast break is trailing": a 3 (d20 1)
    # ties it, so nobody may call for the extra possessions.
    events = fast_break_at(4, bonus=(1,)).events
    assert next(e.how for e in events if isinstance(e, Shot) and e.number == 4) == "fast break"
    assert not [e for e in events if isinstance(e, Call) and e.number == 4 and e.period == 0]


# §10 intentional fouls only before 2 and 1, by a trailing team -------------------------------


def test_intentional_fouls_are_called_only_for_2a_and_1a():
    # The visitor leads 3-0 from 44 on, every other trip a turnover; 2a and 1a: the home
    # team fouls (d8 1, 62: no steal or turnover), both free throws made; its own extra
    # trips are turnovers.
    fouled = (1, 62, 9, [3, 3], [])
    script = [(1, 62, 1), *[TURNOVER] * (2 * 42 - 1)]
    script += [fouled, TURNOVER, TURNOVER, TURNOVER, fouled, TURNOVER, TURNOVER, TURNOVER]
    result = play(HOME, AWAY, trips(*script), rules=STRATEGY)
    calls = [(e.number, e.team, e.call) for e in result.events if isinstance(e, Call)]
    assert calls == [(2, "home", "intentional foul"), (1, "home", "intentional foul")]
    fouling = [(e.number, e.team) for e in result.events if isinstance(e, Trip) and e.kind]
    assert fouling == [(2, "away"), (2, "home"), (1, "away"), (1, "home")]


# §9 the pre-1987 center's 3-made count: n=1, n=2, n>=3 ----------------------------------------


@pytest.mark.parametrize("made3", range(0, 5))
def test_a_pre_1987_centers_3_made_count_moves_to_the_guards_as_printed(made3):
    # §9: "n=1: the SG gains one; n=2: the PG and the SG one each; n>=3: the SG two and
    # the PG one." Nobody claims a 6-8 that is the center's, so the 6 gains nothing.
    gains = {0: (0, 0), 1: (0, 1), 2: (1, 1)}.get(made3, (1, 2))
    center = {"3PM": f"1-{made3}" if made3 else None, "2PM": f"{made3 + 1}-9"}
    center |= {"FOUL": "10-11", "3PX": "12-15", "2PX": "16-20"}
    old = twin("Old", 1975, slot5={"d20": center})
    for slot, gained in zip((1, 2), gains, strict=True):
        # The card: 3-made 1-2, 2-made 3-8; each gain turns the lowest 2-made into a 3.
        for d20 in range(1, 9):
            line = second_line(HOME, old, (slot, 62, d20))
            points = 3 if d20 <= 2 + gained else 2
            assert line == f"make {points} Old Starter {slot} (jumper)", (made3, slot, d20)
