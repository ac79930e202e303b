"""The play-by-play in plain words and the game story, from the engine's events alone."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

from simulator import SeededDice
from simulator.dice import ScriptedDice
from simulator.recording import RecordingDice
from simulator.results import GameResult
from simulator.vabg import ADVANCED, GameRules, play_game, read_team_file
from simulator.vabg.dicelog import DiceLogMismatch, game_dice
from simulator.vabg.events import (
    Block,
    Enter,
    Foul,
    FreeThrow,
    Opening,
    PeriodEnd,
    Shot,
    Steal,
    Tipoff,
    Trip,
    Turnover,
)
from simulator.vabg.render import describe, render_play_by_play
from simulator.vabg.sheet import replay
from simulator.vabg.words import (
    Die,
    Facts,
    Line,
    Star,
    _span,
    decisive_run,
    headline,
    is_upset,
    lead_changes,
    plain_lines,
    runs,
    short_names,
    story,
)
from tests.simulator.vabg.teams import rulebook_file_team

TEAMS = Path(__file__).resolve().parents[3] / "fixtures" / "teams"
LABELS = {"home": "Kentucky 2012", "away": "Kansas 2008"}


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    # the rulebook's own game: its printed dunk ranges, so dunks come up
    home = rulebook_file_team("kentucky-2012")
    away = rulebook_file_team("kansas-2008")
    return play_game(home, away, SeededDice(7), rules=ADVANCED)


def test_the_running_score_ends_at_the_final_and_every_point_is_on_a_line(game) -> None:
    lines = plain_lines(game.events, LABELS)
    assert (lines[-1].home, lines[-1].away) == (game.home.score, game.away.score)
    for side, box in (("home", game.home), ("away", game.away)):
        opening = sum(e.pts for e in game.events if isinstance(e, Opening) and e.team == side)
        scored = sum(x.points for x in lines if x.side == side)
        assert opening + scored == box.score
    # the score never goes down and moves only on scoring plays
    for before, after in pairwise(lines):
        assert after.home + after.away - before.home - before.away == after.points


def test_made_shots_read_as_words_with_the_shooters_surname(game) -> None:
    lines = plain_lines(game.events, LABELS)
    shots = [e for e in game.events if isinstance(e, Shot) and e.made]
    scoring = [x for x in lines if x.points and "free throw" not in x.text]
    assert len(scoring) == len(shots)
    for shot, line in zip(shots, scoring, strict=True):
        assert line.text.startswith(shot.player.split()[-1])
        assert "d8" not in line.text and "11-66" not in line.text
    # every made dunk is over the carrier's defender: the opponent in his slot at that moment
    floor: dict[str, dict[int, str]] = {"home": {}, "away": {}}
    names = short_names(game.events)
    dunks = [x for x in lines if " dunks" in x.text]
    assert dunks
    expected = []
    for e in game.events:
        if isinstance(e, Enter):
            floor[e.team][e.slot] = e.player
        elif isinstance(e, Shot) and e.made and e.how == "dunk":
            slot = next(k for k, v in floor[e.team].items() if v == e.player)
            other = "away" if e.team == "home" else "home"
            expected.append(f"{names[e.player]} dunks over {names[floor[other][slot]]}")
    assert [x.text for x in dunks] == expected


def test_the_dice_of_every_trip_stay_beside_the_play(game) -> None:
    lines = plain_lines(game.events, LABELS)
    dice = " ; ".join(x.dice for x in lines)
    for trip in (e for e in game.events if isinstance(e, Trip)):
        assert describe(trip, LABELS) in dice


def stream(*events):  # type: ignore[no-untyped-def]
    tip = Tipoff("Kentucky", 2012, "Kansas", 2008, False)
    openings = (
        Opening("home", "Anthony Davis", 20, 0, 0, 0, 0),
        Opening("away", "Darrell Arthur", 20, 0, 0, 0, 0),
    )
    return [tip, *openings, *events]


def test_a_dunk_is_over_the_defender_in_the_carriers_slot_as_the_lineups_stand() -> None:
    lines = plain_lines(
        stream(
            Enter(0, 44, "home", 4, "Anthony Davis"),
            Enter(0, 44, "away", 4, "Darrell Arthur"),
            Enter(0, 44, "away", 5, "Sasha Kaun"),
            Shot(0, 44, "home", "Anthony Davis", 2, True, "dunk"),
            Enter(0, 30, "away", 4, "Darnell Jackson"),
            Shot(0, 30, "home", "Anthony Davis", 2, True, "dunk"),
            Shot(0, 29, "home", "Anthony Davis", 2, False, "dunk"),
            Shot(0, 28, "away", "Sasha Kaun", 2, True, "dunk"),  # no one known in home's 5
        ),
        LABELS,
    )
    shots = [x.text for x in lines if x.kind != "sub"]
    assert shots == [
        "Davis dunks over Arthur",
        "Davis dunks over Jackson",  # Arthur went out: his slot's new man
        "Davis misses a dunk",
        "Kaun dunks",
    ]


def test_a_block_a_steal_and_free_throws_read_as_one_play_each() -> None:
    lines = plain_lines(
        stream(
            Trip(0, 44, "away", "Darrell Arthur", 5, 21, 3),
            Block(0, 44, "home", "Anthony Davis"),
            Shot(0, 44, "away", "Darrell Arthur", 2, False, "blocked"),
            Trip(0, 44, "home", "Anthony Davis", 5, 55, 3),
            Foul(0, 44, "away", "Darrell Arthur", "Anthony Davis", 2, "shooting"),
            FreeThrow(0, 44, "home", "Anthony Davis", True),
            FreeThrow(0, 44, "home", "Anthony Davis", False),
            Trip(0, 43, "away", "Darrell Arthur", 5, 41, 3),
            Steal(0, 43, "home", "Anthony Davis", True),
            Turnover(0, 43, "away", "Darrell Arthur", "steal"),
            Shot(0, 43, "home", "Anthony Davis", 2, True, "fast break"),
        ),
        LABELS,
    )
    texts = [x.text for x in lines]
    assert texts == [
        "Davis blocks Arthur's shot",
        "Arthur fouls Davis on the shot; Davis makes 1 of 2 free throws",
        "Davis steals the ball from Arthur, and they run",
        "Davis scores on the break after the steal",
    ]
    assert [x.score for x in lines] == ["20-20", "20-21", "20-21", "20-23"]
    assert lines[1].kind == "score" and lines[1].points == 1
    assert "d8 5 -> Darrell Arthur" in lines[0].dice


def test_lead_changes_ties_and_the_biggest_run() -> None:
    lines = plain_lines(
        stream(
            Shot(0, 44, "away", "Darrell Arthur", 2, True, "dunk"),  # 22-20 away
            Shot(0, 44, "home", "Anthony Davis", 2, True, "dunk"),  # 22-22 tied
            Shot(0, 43, "away", "Darrell Arthur", 3, True, "jumper"),  # 25-22 away
            Shot(0, 43, "home", "Anthony Davis", 3, True, "jumper"),  # 25-25 tied
            Shot(0, 42, "home", "Anthony Davis", 2, True, "putback"),  # 25-27 home: change
            Shot(0, 42, "home", "Anthony Davis", 2, True, "dunk"),  # 25-29
            Shot(0, 41, "home", "Anthony Davis", 3, True, "jumper"),  # 25-32
            Shot(0, 41, "away", "Darrell Arthur", 2, False, "jumper"),
            PeriodEnd(0, 32, 25),
        ),
        LABELS,
    )
    scoring = [x for x in lines if x.points]
    assert [x.tied for x in scoring] == [False, True, False, True, False, False, False]
    assert [x.lead_change for x in scoring] == [False, False, False, False, True, False, False]
    assert lead_changes(lines) == 1
    assert [(r.side, r.points) for r in runs(lines)] == [
        ("away", 2), ("home", 2), ("away", 3), ("home", 10)
    ]  # fmt: skip
    run = decisive_run(lines, "home")
    assert run is not None and run.before == (22, 25) and run.after == (32, 25)
    assert lines[-1].text == "End of regulation: Kansas 2008 25, Kentucky 2012 32"


def facts(**kw) -> Facts:  # type: ignore[no-untyped-def]
    base = dict(
        labels=LABELS,
        home=70,
        away=75,
        overtimes=0,
        stars=[
            Star("away", "Darrell Arthur", 24, 9, 10, 15),
            Star("away", "Mario Chalmers", 12, 2, 4, 9),
            Star("home", "Anthony Davis", 20, 14, 8, 12),
        ],
    )
    base.update(kw)
    return Facts(**base)  # type: ignore[arg-type]


def test_the_story_says_who_won_by_how_much_and_the_top_lines() -> None:
    text = " ".join(story(facts()))
    assert text.startswith("Kansas 2008 beat Kentucky 2012 75-70.")
    assert (
        "Darrell Arthur led Kansas 2008 with 24 points on 10-of-15 shooting and 9 rebounds." in text
    )
    assert "Anthony Davis had 20 points for Kentucky 2012." in text
    assert "upset" not in text and "overtime" not in text


def test_an_upset_by_seed_and_overtime_are_told_and_never_invented() -> None:
    upset = facts(seeds={"away": 12, "home": 5}, overtimes=2, round_name="Round 1")
    assert is_upset(upset)
    assert headline(upset) == (
        "No. 12 Kansas 2008 upset No. 5 Kentucky 2012 75-70 in 2 overtimes (Round 1)."
    )
    assert "The No. 12 seed knocked out the No. 5" in " ".join(story(upset))
    favourite = facts(seeds={"away": 1, "home": 16})
    assert not is_upset(favourite)
    assert "upset" not in " ".join(story(favourite))
    # neighbours are a coin flip, not an upset: No. 9 over No. 8, No. 17 over No. 16
    for seeds in ({"away": 9, "home": 8}, {"away": 17, "home": 16}):
        assert not is_upset(facts(seeds=seeds))
        assert headline(facts(seeds=seeds)).startswith(f"No. {seeds['away']} Kansas 2008 beat")
    assert is_upset(facts(seeds={"away": 10, "home": 8}))


def test_the_story_of_a_real_game_quotes_only_the_box_score(game) -> None:
    lines = plain_lines(game.events, LABELS)
    stars = [
        Star(side, p.name, p.pts, p.reb, p.fgm, p.fga)
        for side, box in (("home", game.home), ("away", game.away))
        for p in box.players
    ]
    told = story(Facts(LABELS, game.home.score, game.away.score, game.overtimes, stars, lines))
    winner = game.home if game.home.score > game.away.score else game.away
    top = max(winner.players, key=lambda p: (p.pts, p.reb, -len(p.name)))
    assert f"{top.name} led {winner.label} with {top.pts} points" in " ".join(told)
    run = decisive_run(lines, "home" if winner is game.home else "away")
    assert run is not None
    if run.points >= 6:
        assert f"{run.points}-0" in " ".join(told)


def test_players_entering_together_read_as_one_line(game) -> None:
    lines = plain_lines(game.events, LABELS)
    starters = {
        side: [e.player.split()[-1] for e in game.events[:40] if type(e).__name__ == "Enter"
               and e.team == side and e.number == 44 and e.period == 0]
        for side in ("home", "away")
    }  # fmt: skip
    assert lines[0].text == f"Kansas 2008 start: {', '.join(starters['away'])}"
    assert lines[1].text == f"Kentucky 2012 start: {', '.join(starters['home'])}"
    later = [x for x in lines[2:] if x.kind == "sub"]
    assert later and all(x.text.startswith("In for ") for x in later)


def test_a_player_goes_by_his_surname_unless_it_would_mislead() -> None:
    from simulator.vabg.words import short_names

    names = short_names(
        stream(
            Shot(0, 44, "home", "Gary Trent Jr.", 2, True, "dunk"),
            Shot(0, 44, "home", "Player 12", 2, True, "dunk"),
            Shot(0, 44, "away", "Marcus Davis", 2, True, "dunk"),
            Shot(0, 44, "away", "Auburn 1984 PG (to complete)", 2, True, "dunk"),
        )
    )
    assert names["Gary Trent Jr."] == "Trent Jr."
    assert names["Player 12"] == "Player 12"
    assert names["Anthony Davis"] == "Anthony Davis" and names["Marcus Davis"] == "Marcus Davis"
    assert names["Darrell Arthur"] == "Arthur"
    assert names["Auburn 1984 PG (to complete)"] == "Auburn 1984 PG (to complete)"


# -- every die of the game, on its play's line ("Show the dice") -----------------------------

RULEBOOK_HOME, RULEBOOK_AWAY = "kentucky-2012", "kansas-2008"


def _dice_of(seed: int, rules: GameRules = ADVANCED) -> tuple[GameResult, tuple[Die, ...]]:
    home, away = rulebook_file_team(RULEBOOK_HOME), rulebook_file_team(RULEBOOK_AWAY)
    played = play_game(home, away, SeededDice(seed), rules=rules)
    events = [e.to_json() for e in played.events]
    return played, game_dice(home, away, SeededDice(seed), rules=rules, events=events)


def test_recording_the_dice_changes_nothing_and_keeps_their_order() -> None:
    home, away = rulebook_file_team(RULEBOOK_HOME), rulebook_file_team(RULEBOOK_AWAY)
    recorder = RecordingDice(SeededDice(7))
    recorded = play_game(home, away, recorder, rules=ADVANCED)
    assert recorded.events == play_game(home, away, SeededDice(7), rules=ADVANCED).events
    assert recorded.dice == SeededDice(7).record()  # the stored record is still the seed
    # the same seed, die by die, in the order the game asked
    again = SeededDice(7)
    assert [d.value for d in recorder.draws] == [getattr(again, d.die)() for d in recorder.draws]


@pytest.mark.parametrize("seed", [7, 12])
def test_every_die_of_a_game_is_on_exactly_one_line_in_the_order_rolled(seed: int) -> None:
    played, dice = _dice_of(seed)
    recorder = RecordingDice(SeededDice(seed))
    play_game(rulebook_file_team(RULEBOOK_HOME), rulebook_file_team(RULEBOOK_AWAY), recorder)
    assert len(dice) == len(recorder.draws)
    assert [(d.die, d.value) for d in dice] == [(d.die, d.value) for d in recorder.draws]
    lines = plain_lines(played.events, LABELS, dice)
    assert [d for line in lines for d in line.rolls] == list(dice)
    # the words and the score are the same with the dice as without them
    bare = plain_lines(played.events, LABELS)
    assert [(x.text, x.score, x.dice) for x in bare] == [(x.text, x.score, x.dice) for x in lines]


def test_free_throws_rebounds_putbacks_and_fast_breaks_sit_on_their_own_plays() -> None:
    played, dice = _dice_of(7)
    lines = plain_lines(played.events, LABELS, dice)
    steps = {d.step for d in dice}
    assert {"free throw 1", "free throw 2", "rebound d20", "rebound d6", "putback d20"} <= steps
    assert "fast break d20" in steps
    for line in lines:
        kinds = [d.step for d in line.rolls]
        free_throws = [k for k in kinds if k.startswith("free throw")]
        if "free throw" in line.text:
            # "Jones fouls Jackson on the shot; Jackson makes 2 of 3 free throws": 3 d20s
            tried = int(line.text.rsplit(" of ", 1)[1].split()[0])
            assert len(free_throws) == tried, line
            assert free_throws == [f"free throw {n}" for n in range(1, tried + 1)]
        else:
            assert not free_throws, line
        rebound = [k for k in kinds if k.startswith("rebound")]
        assert rebound in ([], ["rebound d20", "rebound d6"]), line
        assert not rebound or line.kind == "rebound", line
        if "putback d20" in kinds:  # the putback's shot, or the foul on it
            assert any(w in line.text for w in ("put", "second-chance", "fouls", "block")), line
        if "fast break d20" in kinds:  # the bonus shot, or the foul on it
            assert "break" in line.text or "fouls" in line.text, line
        if "d8" in kinds:  # a trip's four dice, in the table's order
            at = kinds.index("d8")
            assert kinds[at : at + 4] == ["d8", "d6 tens", "d6 ones", "d20"]


def test_the_dice_are_labelled_as_the_table_labels_them() -> None:
    """A game typed at the table and stored as its dice file lists, play by play, the dice
    the table listed, with the table's own words for each."""
    home, away = rulebook_file_team(RULEBOOK_HOME), rulebook_file_team(RULEBOOK_AWAY)
    recorder = RecordingDice(SeededDice(31))
    play_game(home, away, recorder, rules=ADVANCED)
    position = replay(home, away, recorder.values, rules=ADVANCED)
    assert position.result is not None
    stored = ScriptedDice.from_json(position.dice_file())  # what GameResult.dice holds
    events = [e.to_json() for e in position.events]
    dice = game_dice(home, away, stored, rules=ADVANCED, events=events)
    assert [(d.step, d.value, d.die) for d in dice] == [
        (r.step, r.value, r.die) for r in position.rolls
    ]
    # each trip's dice are on the lines of that trip's plays
    lines = plain_lines(position.events, LABELS, dice)
    by_trip = [[r.value for r in play.rolls] for play in position.plays()]
    assert [d.value for line in lines for d in line.rolls] == [v for t in by_trip for v in t]


def test_dice_that_do_not_make_the_stored_game_are_refused() -> None:
    home, away = rulebook_file_team(RULEBOOK_HOME), rulebook_file_team(RULEBOOK_AWAY)
    other = [e.to_json() for e in play_game(home, away, SeededDice(8), rules=ADVANCED).events]
    with pytest.raises(DiceLogMismatch):
        game_dice(home, away, SeededDice(7), rules=ADVANCED, events=other)


@pytest.mark.parametrize("seed", [3, 11, 2024])
def test_the_command_line_play_by_play_gives_the_running_score_after_every_scoring_play(
    seed: int,
) -> None:
    """A trial read the command line's play-by-play with no score on any line but a period's
    last. Each scoring play now ends with it, visitors first; the last is the final score."""
    fixtures = Path(__file__).resolve().parents[3] / "fixtures" / "teams"
    home, away = (read_team_file(fixtures / f"{n}.json") for n in ("kentucky-2012", "kansas-2008"))
    result = play_game(home, away, SeededDice(seed))
    lines = render_play_by_play(result).splitlines()
    scores = [re.search(r"  \((\d+)-(\d+)\)$", line) for line in lines]
    scoring = [line for line, found in zip(lines, scores, strict=True) if found]
    assert scoring and all(" makes " in line for line in scoring)
    unscored = [
        ln for ln, found in zip(lines, scores, strict=True) if " makes " in ln and not found
    ]
    assert not unscored
    last = [found for found in scores if found][-1]
    assert (int(last.group(1)), int(last.group(2))) == (result.away.score, result.home.score)


def test_the_biggest_run_says_where_in_words_a_fan_reads() -> None:
    """A fan's review: "(Reg 30 to Reg 26)" is the score sheet's shorthand, not a sentence."""

    def at(period: int, number: int) -> Line:
        return Line(period, number, "home", "", 0, 0, 0, "score")

    assert _span(at(0, 30), at(0, 26)) == "possessions 30 to 26 of regulation"
    assert _span(at(1, 8), at(1, 5)) == "possessions 8 to 5 of overtime"
    assert _span(at(0, 2), at(1, 9)) == "regulation's possession 2 to overtime's 9"
    assert _span(at(2, 4), at(2, 1)) == "possessions 4 to 1 of overtime 2"


def test_a_one_and_one_foul_reads_as_one_free_throw_and_a_second_if_made() -> None:
    """The line read "(one-and-one, 2 FT)": a player copying it onto the paper sheet wrote
    two shots where the rules give one, and a second only if it is made."""
    from simulator.vabg.events import Foul
    from simulator.vabg.render import describe

    labels = {"home": "Kentucky 2012", "away": "Kansas 2008"}
    one_and_one = Foul(0, 32, "home", "Marquis Teague", "Russell Robinson", 2, "one-and-one")
    assert describe(one_and_one, labels) == (
        "Marquis Teague fouls Russell Robinson (one-and-one: a second FT if the first is made)"
    )
    shooting = one_and_one._replace(kind="shooting")
    assert describe(shooting, labels) == "Marquis Teague fouls Russell Robinson (shooting, 2 FT)"
