"""The entry page in Chromium at phone width, as a demanding fan's review of 2026-11-29
used it (keyboard and screen reader too)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from challenge import services
from challenge.models import Challenge, Entry
from league import tournaments
from tests.browsing import follow, tap
from tests.factories import fan, uncoached_cup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WINDOW = (375, 812)  # a phone


def signed_in(browser: Any, live_server: Any, username: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{live_server.url}/fans/signin/")
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys("fan-password-1")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "form.stack button[type=submit]"))


def slot(browser: Any, key: str, team: int) -> Any:
    """The button that picks ``team`` in the bracket game ``key``."""
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, f'li[data-key="{key}"] button[data-team="{team}"]')


def own_entry(browser: Any, live_server: Any, league: str, seed: int, username: str) -> Any:
    """An 8-team cup of ``league`` with one pool, ``username``'s entry in it and him signed
    in: return the entry and the cup's teams by seed."""
    cup = uncoached_cup(league=league, name=f"{league} cup", teams=8, seed=seed)
    pool = services.challenge_create(season=cup, name=f"{league} pool", round_points=[1, 2, 4])
    entry = services.entry_join(challenge=pool, user=fan(username))
    signed_in(browser, live_server, username)
    return entry, {s: t for t, s in tournaments.season_bracket(cup).seeds.items()}


def leave_no_draft(browser: Any) -> None:
    """Leave the page as if saved: no draft kept for the next test's entry of the same
    address, no question on leaving."""
    browser.execute_script(
        "window.addEventListener('beforeunload', e => e.stopImmediatePropagation(), true);"
        "window.localStorage.clear(); window.location = 'about:blank'"
    )


def test_a_pick_is_not_read_out_as_the_whole_bracket_and_a_cleared_pick_is_told(
    browser: Any, live_server: Any
) -> None:
    from selenium.webdriver.common.by import By

    entry, by_seed = own_entry(browser, live_server, "Review League", 29, "erin")
    browser.get(f"{live_server.url}{entry.get_absolute_url()}")

    tap(browser, slot(browser, "R1-1", by_seed[8]))
    # The bracket was a live region redrawn whole at each pick: a screen reader read out
    # every game of it after each click (the all-time 96: 95 games, 190 teams).
    live = browser.execute_script(
        "return [...document.querySelectorAll('[aria-live]')]"
        ".filter(n => n.querySelector('button')).map(n => n.id)"
    )
    assert live == []
    assert browser.find_element(By.ID, "cleared").text == ""
    tap(browser, slot(browser, "R2-1", by_seed[8]))
    tap(browser, slot(browser, "R3-1", by_seed[8]))
    # Changing the first pick clears the two it led to: far down a phone's page, out of
    # sight; the save bar (a live region) says so.
    tap(browser, slot(browser, "R1-1", by_seed[1]))
    cleared = browser.find_element(By.ID, "cleared")
    assert cleared.text == "Cleared 2 later picks it no longer fits"
    assert cleared.get_attribute("aria-live") == "polite"
    assert browser.find_element(By.ID, "picked-count").text == "1 of 7 picked"
    tap(browser, slot(browser, "R1-2", by_seed[4]))
    assert browser.find_element(By.ID, "cleared").text == ""
    leave_no_draft(browser)


def test_picks_not_saved_yet_outlive_a_tab_the_phone_dropped(
    browser: Any, live_server: Any
) -> None:
    from selenium.webdriver.common.by import By

    entry, by_seed = own_entry(browser, live_server, "Draft League", 30, "finn")
    url = f"{live_server.url}{entry.get_absolute_url()}"
    browser.get(url)

    def pressed() -> list[str]:
        return list(
            browser.execute_script(
                "return [...document.querySelectorAll('button[aria-pressed=\"true\"]')]"
                ".map(b => b.closest('li').dataset.key + '=' + b.dataset.team).sort()"
            )
        )

    tap(browser, slot(browser, "R1-1", by_seed[8]))
    tap(browser, slot(browser, "R2-1", by_seed[8]))
    browser.find_element(By.ID, "tiebreak").send_keys("141")
    # The tab dropped (a phone frees a tab left in the background) and opened again: the
    # picks made were gone, nothing saved.
    browser.execute_script(
        "window.addEventListener('beforeunload', e => e.stopImmediatePropagation(), true)"
    )
    browser.get(url)
    assert pressed() == sorted([f"R1-1={by_seed[8]}", f"R2-1={by_seed[8]}"])
    assert browser.find_element(By.ID, "tiebreak").get_attribute("value") == "141"
    assert browser.find_element(By.ID, "unsaved").is_displayed()
    assert browser.find_element(By.ID, "draft-note").is_displayed()
    assert Entry.objects.get(pk=entry.pk).picks == {}
    follow(browser, browser.find_element(By.ID, "save"))
    assert Entry.objects.get(pk=entry.pk).picks == {"R1-1": by_seed[8], "R2-1": by_seed[8]}
    assert not browser.find_element(By.ID, "unsaved").is_displayed()
    assert browser.execute_script("return Object.keys(window.localStorage)") == []

    # A draft older than the entry's latest save (another device saved since) is not laid
    # over it.
    tap(browser, slot(browser, "R1-2", by_seed[4]))
    services.entry_save(entry=entry, user=entry.user, picks={"R1-1": by_seed[1]})
    browser.execute_script(
        "window.addEventListener('beforeunload', e => e.stopImmediatePropagation(), true)"
    )
    browser.get(url)
    assert pressed() == [f"R1-1={by_seed[1]}"]
    assert not browser.find_element(By.ID, "unsaved").is_displayed()


def test_signing_out_forgets_the_drafts_of_picks_not_saved(browser: Any, live_server: Any) -> None:
    """A draft stayed in the browser after sign-out: on a shared computer the next person
    could read another fan's unsaved picks in its storage."""
    from selenium.webdriver.common.by import By

    entry, by_seed = own_entry(browser, live_server, "Shared League", 31, "gus")
    browser.get(f"{live_server.url}{entry.get_absolute_url()}")
    browser.execute_script("window.localStorage.setItem('table-note', 'kept')")
    tap(browser, slot(browser, "R1-1", by_seed[8]))
    drafts = "return Object.keys(window.localStorage).filter(k => k.startsWith('challenge-draft:'))"
    assert len(browser.execute_script(drafts)) == 1
    browser.execute_script(
        "window.addEventListener('beforeunload', e => e.stopImmediatePropagation(), true)"
    )
    follow(browser, browser.find_element(By.CSS_SELECTOR, "form[data-clears-drafts] button"))
    assert "Sign in" in browser.find_element(By.CSS_SELECTOR, ".fan").text
    assert browser.execute_script(drafts) == []
    # Only the challenge's drafts go: whatever else the site keeps in the browser stays.
    assert browser.execute_script("return window.localStorage.getItem('table-note')") == "kept"
    browser.execute_script("window.localStorage.clear()")


def test_a_lock_time_reads_in_the_fan_s_own_time_zone(browser: Any, live_server: Any) -> None:
    """The lock time read "2099-03-01 18:30 UTC": a fan in New York had to work out that
    he had until 1:30 in the afternoon."""

    from selenium.webdriver.common.by import By

    cup = uncoached_cup(league="Zone League", name="Zone Cup", teams=8, seed=32)
    pool = services.challenge_create(season=cup, name="Zone pool", round_points=[1, 2, 4])
    Challenge.objects.filter(pk=pool.pk).update(lock_at=datetime(2099, 3, 1, 18, 30, tzinfo=UTC))
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/New_York"})
    try:
        for url in (pool.get_absolute_url(), "/challenges/"):
            browser.get(f"{live_server.url}{url}")
            when = browser.find_element(By.CSS_SELECTOR, "time[data-local]")
            assert "1:30" in when.text and "18:30" not in when.text, (url, when.text)
            assert when.get_attribute("title") == "2099-03-01 18:30 UTC"
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
