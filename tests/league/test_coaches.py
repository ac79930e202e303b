"""The exact coaches the league solves are stored for every process (``league.coaches``):
solving one was most of what a stored game cost, and each new worker, replay, chart and
research run solved again the pairs another had solved."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction

from league import coaches
from league.digests import document_unpacked
from league.models import SolvedCoach
from simulator import SeededDice
from simulator.vabg import preset, read_team_file
from simulator.vabg.coachodds import solve_coach
from simulator.vabg.engine import play_game

pytestmark = pytest.mark.django_db(transaction=True)

TEAMS = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
HOME = read_team_file(TEAMS / "kentucky-2012.json")
AWAY = read_team_file(TEAMS / "kansas-2008.json")
COACHED = preset("advanced", strategy=True)


@pytest.fixture(autouse=True)
def no_coach_kept() -> Any:
    coaches.clear(stored=True)
    yield
    coaches.clear(stored=True)


def unsolvable(monkeypatch: pytest.MonkeyPatch) -> None:
    def solved(*args: object, **kwargs: object) -> None:
        raise AssertionError("the coach was solved again")

    monkeypatch.setattr(coaches, "rules_coach", solved)


def test_a_stored_coach_reads_back_as_the_very_coach_solved() -> None:
    for neutral in (False, True):
        coach = solve_coach(HOME, AWAY, rules=COACHED, neutral=neutral)
        again = coaches.coach_from_doc(coaches.coach_doc(coach))
        assert again == coach and repr(again) == repr(coach)


def test_a_new_process_plays_a_pair_with_the_coach_another_stored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = coaches.coach_for(home=HOME, away=AWAY, rules=COACHED, neutral=False)
    assert SolvedCoach.objects.count() == 1
    coaches.clear()  # a new worker: nothing kept in memory
    unsolvable(monkeypatch)
    stored = coaches.coach_for(home=HOME, away=AWAY, rules=COACHED, neutral=False)
    assert stored == first
    game = play_game(HOME, AWAY, SeededDice(5), rules=COACHED, coach=stored)
    assert game == play_game(HOME, AWAY, SeededDice(5), rules=COACHED, coach=first)
    # The other court, another pair's order or another card is another coach: not read.
    with pytest.raises(AssertionError, match="solved again"):
        coaches.coach_for(home=HOME, away=AWAY, rules=COACHED, neutral=True)
    with pytest.raises(AssertionError, match="solved again"):
        coaches.coach_for(home=AWAY, away=HOME, rules=COACHED, neutral=False)


def test_a_coach_solved_in_a_transaction_that_rolls_back_is_not_stored() -> None:
    def game_that_fails() -> None:
        with transaction.atomic():
            coaches.coach_for(home=HOME, away=AWAY, rules=COACHED, neutral=True)
            assert not SolvedCoach.objects.exists()  # stored once the transaction commits
            raise RuntimeError("the game's transaction fails")

    with pytest.raises(RuntimeError):
        game_that_fails()
    assert not SolvedCoach.objects.exists()
    coaches.clear()
    with transaction.atomic():
        coaches.coach_for(home=HOME, away=AWAY, rules=COACHED, neutral=True)
    assert SolvedCoach.objects.count() == 1


def test_a_stored_coach_that_no_longer_reads_is_solved_again_and_replaced() -> None:
    coach = coaches.coach_for(home=HOME, away=AWAY, rules=COACHED, neutral=False)
    SolvedCoach.objects.update(doc=zlib.compress(b'{"version": 0}'))
    coaches.clear()
    assert coaches.coach_for(home=HOME, away=AWAY, rules=COACHED, neutral=False) == coach
    stored = SolvedCoach.objects.get().doc
    assert coaches.coach_from_doc(document_unpacked(stored)) == coach
    assert len(stored) < 1000  # compressed: the JSON is about 4 KB


def test_another_engine_is_another_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """A coach solved by one version of the simulator is never read by another."""
    key = coaches.coach_key(home=HOME, away=AWAY, rules=COACHED, neutral=False)
    monkeypatch.setattr(coaches, "_engine", lambda: "another source")
    assert coaches.coach_key(home=HOME, away=AWAY, rules=COACHED, neutral=False) != key
