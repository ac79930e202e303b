"""A fan in a real browser (headless Chromium, phone-sized): signs up, joins a pool, picks
a few games by clicking, fills the rest by seed, saves; the tournament is then
simulated round by round (in this process, eagerly: the Celery workers' version of the
same store runs the same receiver) and the fan watches the pool's standings score it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from cards.models import Team
from challenge import services
from challenge.models import Challenge, Entry
from league import services as league_services
from league import tournaments
from tests.browsing import axe_in_every_page, follow, tap
from tests.factories import full_team, uncoached_cup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WINDOW = (390, 844)  # a phone


def test_a_fan_signs_up_picks_a_bracket_joins_a_pool_and_watches_it_scored(
    browser: Any, live_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    cup = uncoached_cup(league="Browser League", name="Fans Cup", teams=8, seed=28)
    pool = services.challenge_create(season=cup, name="Browser pool", round_points=[1, 2, 4])
    bracket = tournaments.season_bracket(cup)
    by_seed = {s: t for t, s in bracket.seeds.items()}

    browser.get(f"{live_server.url}/challenges/")
    browser.find_element(By.LINK_TEXT, "Sign up").click()
    browser.find_element(By.NAME, "username").send_keys("casey")
    browser.find_element(By.NAME, "password1").send_keys("a-long-pass-28")
    browser.find_element(By.NAME, "password2").send_keys("a-long-pass-28")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "form.stack button[type=submit]"))
    assert "Signed in as casey" in browser.find_element(By.CLASS_NAME, "fan").text

    follow(browser, browser.find_element(By.LINK_TEXT, "Browser pool"))
    browser.find_element(By.ID, "entry-name").send_keys("Casey's chalk")
    follow(browser, browser.find_element(By.XPATH, "//button[text()='Join this pool']"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Casey's chalk"

    # Click seed 8 through its first game, then change that pick: the later pick it fed
    # is cleared.
    def slot(key: str, team: int) -> Any:
        return browser.find_element(
            By.CSS_SELECTOR, f'li[data-key="{key}"] button[data-team="{team}"]'
        )

    tap(browser, slot("R1-1", by_seed[8]))
    tap(browser, slot("R2-1", by_seed[8]))
    assert slot("R2-1", by_seed[8]).get_attribute("aria-pressed") == "true"
    tap(browser, slot("R1-1", by_seed[1]))
    # Counted in the page: find_elements would wait out the implicit wait for none.
    assert (
        browser.execute_script(
            "return document.querySelectorAll(arguments[0]).length",
            f'li[data-key="R2-1"] button[data-team="{by_seed[8]}"]',
        )
        == 0
    )
    assert browser.find_element(By.ID, "picked-count").text == "1 of 7 picked"
    # Above the bracket, a jump to each round with its picks made so far.
    jump = browser.execute_script(
        "return [...document.querySelectorAll('#round-jump a')]"
        ".map(a => [a.getAttribute('href'), a.textContent.split(' ').pop()])"
    )
    assert jump == [["#round-1", "1/4"], ["#round-2", "0/2"], ["#round-3", "0/1"]]
    # The name and the tie-breaker above the bracket (below the save bar a trial missed
    # them), and Enter in them saves: the form's first button is "Save my bracket".
    assert browser.execute_script(
        "const top = id => document.getElementById(id).getBoundingClientRect().top;"
        "return top('tiebreak') < top('bracket') && top('entry-name') < top('bracket')"
        " && document.querySelector('#picks-form button[type=submit]').id === 'save'"
    )
    browser.find_element(By.ID, "tiebreak").send_keys("142")
    follow(browser, browser.find_element(By.XPATH, "//button[text()='Fill the rest by seed']"))
    WebDriverWait(browser, 10).until(
        ec.text_to_be_present_in_element((By.CLASS_NAME, "messages"), "Your bracket is saved")
    )
    entry = Entry.objects.get(user__username="casey")
    assert len(entry.picks) == 7 and entry.picks["R3-1"] == by_seed[1]
    assert entry.tiebreak == 142
    assert entry.expected is not None
    assert browser.find_element(By.ID, "picked-count").text == "7 of 7 picked"

    # The tournament is simulated round by round; the standings follow each stored game.
    for number in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            league_services.simulation_start(season=cup, scope="round", round=number)
        browser.get(f"{live_server.url}{pool.get_absolute_url()}")
        winners = tournaments.winners_of(cup)
        points = sum(
            {1: 1, 2: 2, 3: 4}[int(k[1])] for k, t in entry.picks.items() if winners.get(k) == t
        )
        row = browser.find_element(By.CSS_SELECTOR, "#standings tbody tr")
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        assert cells[1].startswith("Casey's chalk (yours)")
        assert cells[3] == str(points), (number, cells)
        assert "Picks are locked" in browser.find_element(By.TAG_NAME, "main").text
    assert tournaments.champion(cup) is not None
    entry.refresh_from_db()
    assert entry.alive == 0 and entry.max_points == entry.points
    # His bracket, every game played: each pick says in words how it went (the colours
    # and the line through a name are not read by a screen reader).
    browser.get(f"{live_server.url}{entry.get_absolute_url()}")
    browser.find_element(By.CSS_SELECTOR, "#bracket .pick")
    shown = browser.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#bracket li.game')].map("
        "li => [li.dataset.key, (li.querySelector('button[aria-pressed=true]') || {}).innerText"
        " || li.querySelector('.pick-out').innerText]))"
    )
    winners = tournaments.winners_of(cup)
    for key, team in entry.picks.items():
        words = " ".join(shown[key].split()).lower()
        name = str(Team.objects.get(pk=team)).lower()
        if winners[key] == team:
            assert words.endswith(f"{name} won"), (key, words)
        elif any(
            entry.picks.get(k) == team and winners[k] != team
            for k in winners
            if int(k[1]) < int(key[1])
        ):
            assert words == f"your pick: {name}, out", (key, words)
        else:
            assert words.endswith(f"{name} missed"), (key, words)
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    )


def test_the_challenge_pages_read_well_on_a_desktop_and_a_phone(
    browser: Any, live_server: Any
) -> None:
    """Each page of the challenge, signed in and not, at 1280 and 390 px: it answers, is no
    wider than the screen, logs no console error and axe-core finds nothing serious."""
    from selenium.webdriver.common.by import By

    from tests.pages.test_fan_journey import Visit, problems_of

    cup = tournaments.tournament_create(
        league=league_services.league_get_or_create(name="Audit League"),
        name="Audit Cup",
        teams=[full_team() for _ in range(8)],
        strategy=False,
        seed=3,
    )
    pool = services.challenge_create(season=cup, name="Audit pool", public=False)
    anonymous = [Visit("challenges", "/challenges/"), Visit("sign up", "/fans/signup/"),
                 Visit("sign in", "/fans/signin/"),
                 Visit("private pool's gate", pool.get_absolute_url(), status=403),
                 Visit("pool", f"{pool.get_absolute_url()}?code={pool.invite_code}")]  # fmt: skip
    found: list[str] = []
    with axe_in_every_page(browser):
        for width in (1280, 390):
            browser.set_window_size(width, 900)
            browser.delete_all_cookies()  # the code the last round's visit kept: gone
            for visit in anonymous:
                found += problems_of(browser, live_server.url, visit, width)
    browser.get(f"{live_server.url}/fans/signup/")
    browser.find_element(By.NAME, "username").send_keys("audrey")
    browser.find_element(By.NAME, "password1").send_keys("a-long-pass-28")
    browser.find_element(By.NAME, "password2").send_keys("a-long-pass-28")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "form.stack button[type=submit]"))
    audrey = get_user_model().objects.get(username="audrey")
    entry = services.entry_join(challenge=pool, user=audrey, invite_code=pool.invite_code)
    signed_in = [Visit("entry", entry.get_absolute_url(), ready="#bracket .pick"),
                 Visit("my entries", "/fans/entries/"), Visit("pool", pool.get_absolute_url())]  # fmt: skip
    with axe_in_every_page(browser):
        for width in (1280, 390):
            browser.set_window_size(width, 900)
            for visit in signed_in:
                found += problems_of(browser, live_server.url, visit, width)
    # On the phone the bracket runs screens long: "Save my bracket" is on the screen all
    # the way down it (from where its first game reaches the screen's top), not only at
    # its foot.
    browser.get(live_server.url + entry.get_absolute_url())
    browser.find_element(By.CSS_SELECTOR, "#bracket .pick")
    for scrolled in (
        "document.getElementById('bracket').getBoundingClientRect().top + window.scrollY",
        "document.body.scrollHeight / 2",
    ):
        on_screen = browser.execute_script(
            f"window.scrollTo(0, {scrolled});"
            "const r = document.getElementById('save').getBoundingClientRect();"
            "return r.top >= 0 && r.bottom <= window.innerHeight"
        )
        assert on_screen, f"Save is off the 390 px screen at scroll {scrolled}"
    # Locked: the standings with the champion picks, and who picked whom.
    services.entry_save(entry=entry, user=audrey, fill="favourite")
    Challenge.objects.filter(pk=pool.pk).update(lock_at=timezone.now() - timedelta(seconds=1))
    locked = [Visit("locked pool", pool.get_absolute_url()),
              Visit("who picked whom", f"/challenges/{pool.pk}/picks/")]  # fmt: skip
    with axe_in_every_page(browser):
        for width in (1280, 390):
            browser.set_window_size(width, 900)
            for visit in locked:
                found += problems_of(browser, live_server.url, visit, width)
    assert not found, "\n".join(found)
    # The standings at a phone's width leave out the Fan column: each entry names its fan
    # under its own name instead, and the fan's own entry says it is his.
    browser.set_window_size(390, 900)
    browser.get(live_server.url + pool.get_absolute_url())
    cell = browser.find_element(By.CSS_SELECTOR, "#standings tbody td.text")
    assert " ".join(cell.text.split()) == f"{entry.name} (yours) by audrey"
    assert not browser.find_element(By.CSS_SELECTOR, "#standings th.fan-name").is_displayed()
    browser.set_window_size(1280, 900)
    assert " ".join(cell.text.split()) == f"{entry.name} (yours)"
    assert browser.find_element(By.CSS_SELECTOR, "#standings tbody td.fan-name").text == "audrey"
    # A name of 60 letters and no space (a reviewer's) wraps: every score stays on a phone.
    Entry.objects.filter(pk=entry.pk).update(name="W" * 60)  # locked: as it was named before
    browser.set_window_size(390, 900)
    for page in (pool.get_absolute_url(), "/fans/entries/"):
        browser.get(live_server.url + page)
        right = browser.execute_script(
            "return Math.max(...[...document.querySelectorAll('table.data tbody tr:first-child td')]"
            ".map(td => td.getBoundingClientRect().right))"
        )
        assert right <= 390, f"{page}: the row's last cell ends at x={right} on a 390 px screen"
