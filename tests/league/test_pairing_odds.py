"""Six dice's and grid court's odds of a pairing of styles are stored for every process
(``PairingOdds``): kept in the cache alone, they were worked out again (grid court: 10 s to
a minute a pairing) after every restart of the cache, the pages saying "being worked out"."""

from __future__ import annotations

import json
import zlib
from typing import Any

import pytest
from django.core.cache import cache

from league import other_odds
from league.digests import document_unpacked
from league.models import PairingOdds
from simulator.games import MatchOdds, find_game

pytestmark = pytest.mark.django_db

OPTIONS = {"chip_reroll": True}


@pytest.fixture(autouse=True)
def nothing_kept() -> Any:
    cache.clear()
    yield
    cache.clear()


def never_worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    def odds(*args: object) -> MatchOdds:
        raise AssertionError("the pairing's odds were worked out again")

    monkeypatch.setattr(find_game("sixdice"), "odds", odds)


def test_stored_odds_read_back_as_the_very_odds_worked_out() -> None:
    _, odds = other_odds.match_odds("sixdice", OPTIONS)
    again = other_odds.odds_from_doc(json.loads(json.dumps(other_odds.odds_doc(odds))))
    assert again == odds
    simulated = MatchOdds(p_home_win=0.4, final={(30, 28): 0.4, (27, 31): 0.6},
                          method="simulated", standard_error=0.015, games=1000, seed=7)  # fmt: skip
    assert other_odds.odds_from_doc(other_odds.odds_doc(simulated)) == simulated


def test_a_cache_emptied_by_a_restart_is_refilled_from_the_stored_odds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, odds = other_odds.match_odds("sixdice", OPTIONS)
    assert PairingOdds.objects.filter(game="sixdice").count() == 1
    cache.clear()  # the cache's Redis (or the embedded default's process) restarted
    never_worked_out(monkeypatch)
    kind = find_game("sixdice")
    rules = kind.make_rules(**OPTIONS)
    key = other_odds._odds_key(kind, rules, None, None)
    assert other_odds.pairing_if_kept("sixdice", OPTIONS, None, None) == odds  # type: ignore[arg-type]
    assert cache.get(key) == odds  # put back into the cache
    assert other_odds.match_odds("sixdice", OPTIONS)[1] == odds
    # Other rule options are another pairing: not read.
    with pytest.raises(AssertionError, match="worked out again"):
        other_odds.match_odds("sixdice", {"chip_reroll": False})


def test_stored_odds_that_no_longer_read_are_worked_out_again_and_replaced() -> None:
    _, odds = other_odds.match_odds("sixdice", OPTIONS)
    PairingOdds.objects.update(odds=zlib.compress(b'{"version": 0}'))
    cache.clear()
    assert other_odds.match_odds("sixdice", OPTIONS)[1] == odds
    stored: Any = PairingOdds.objects.get().odds
    assert other_odds.odds_from_doc(document_unpacked(stored)) == odds
