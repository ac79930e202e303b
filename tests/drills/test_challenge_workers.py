"""Drill: a bracket challenge scored by real Celery workers while they play the tournament.

Each game a worker stores rescores the pool in the worker's own storing transaction
(``challenge.receivers``), and the win chances follow in that worker after the commit; the
test process only starts the run and reads the database.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from challenge import services
from challenge.models import Challenge, Entry
from league import services as league_services
from league import tournaments
from tests.browsing import follow
from tests.drills.harness import Workers, wait_for
from tests.factories import fan, uncoached_cup

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def test_workers_score_every_entry_as_they_store_each_game(workers: Workers) -> None:
    cup = uncoached_cup(league="Workers", name="Challenge cup", teams=8, seed=28)
    pool = services.challenge_create(season=cup, name="Drill pool", round_points=[1, 2, 4])
    bracket = tournaments.season_bracket(cup)
    by_seed = {s: t for t, s in bracket.seeds.items()}
    picks = []
    for name, how in (("ann", "favourite"), ("ben", "odds")):
        user = fan(name)
        entry = services.entry_join(challenge=pool, user=user)
        services.entry_save(entry=entry, user=user, picks={"R1-1": by_seed[8]}, fill=how)
        picks.append(entry.pk)
    workers.start("w1")
    workers.start("w2")
    league_services.simulation_start(season=cup, scope="all")
    wait_for(lambda: tournaments.champion(cup) is not None, what="the champion", pool=workers)
    wait_for(
        lambda: Challenge.objects.get(pk=pool.pk).scored_games == 7,
        what="the pool scored after the last game",
        pool=workers,
    )
    winners = tournaments.winners_of(cup)
    rounds = {g.key: g.round for g in bracket.games}
    for entry in Entry.objects.filter(pk__in=picks):
        right = [k for k, t in entry.picks.items() if winners[k] == t]
        assert entry.points == sum({1: 1, 2: 2, 3: 4}[rounds[k]] for k in right)
        assert entry.max_points == entry.points and entry.alive == 0
        assert entry.expected == pytest.approx(entry.points)  # every game decided
    wait_for(
        lambda: (
            all(e.win_probability is not None for e in Entry.objects.filter(challenge=pool))
            and sum(e.win_probability for e in Entry.objects.filter(challenge=pool))
            == pytest.approx(1.0)
        ),
        what="the win chances after the final",
        pool=workers,
    )


@pytest.mark.browser
def test_a_fan_watches_the_workers_score_his_bracket_in_the_browser(
    workers: Workers,
    browser: Any,
    live_server: Any,
) -> None:
    """The issue's whole journey on real workers: a fan signs up in Chromium, joins a pool,
    fills his bracket and saves it; two Celery workers play the tournament; the fan reloads
    the standings until they show his final score."""
    from selenium.webdriver.common.by import By

    cache.clear()  # the sign-up counts of earlier tests, per address
    cup = uncoached_cup(league="Workers", name="Watched cup", teams=8, seed=82)
    pool = services.challenge_create(season=cup, name="Watched pool", round_points=[1, 2, 4])
    browser.get(f"{live_server.url}/fans/signup/?next={pool.get_absolute_url()}")
    browser.find_element(By.NAME, "username").send_keys("watcher")
    browser.find_element(By.NAME, "password1").send_keys("a-long-pass-28")
    browser.find_element(By.NAME, "password2").send_keys("a-long-pass-28")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "form.stack button[type=submit]"))
    follow(browser, browser.find_element(By.XPATH, "//button[text()='Join this pool']"))
    follow(browser, browser.find_element(By.XPATH, "//button[text()='Fill the rest by odds']"))
    assert "Your bracket is saved" in browser.find_element(By.CLASS_NAME, "messages").text
    entry = Entry.objects.get(user__username="watcher")
    assert len(entry.picks) == 7

    workers.start("w1")
    workers.start("w2")
    league_services.simulation_start(season=cup, scope="all")

    def final_score_shown() -> bool:
        browser.get(f"{live_server.url}{pool.get_absolute_url()}")
        row = browser.find_element(By.CSS_SELECTOR, "#standings tbody tr")
        if tournaments.champion(cup) is None:
            return False
        entry.refresh_from_db()
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        return Challenge.objects.get(pk=pool.pk).scored_games == 7 and cells[3] == str(
            int(entry.points)
        )

    wait_for(final_score_shown, what="the final score on the standings page", pool=workers)
    winners = tournaments.winners_of(cup)
    rounds = {g.key: g.round for g in tournaments.season_bracket(cup).games}
    assert entry.points == sum(
        {1: 1, 2: 2, 3: 4}[rounds[k]] for k, t in entry.picks.items() if winners[k] == t
    )
    assert "Picks are locked" in browser.find_element(By.TAG_NAME, "main").text
