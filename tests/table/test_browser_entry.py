"""The sheet's prompt and its entry box in a real browser, at a phone's width (390 px).

Found in a user trial of table mode: the prompt named its die twice ("d8d8: Kentucky 2012
ball", "d20d20: d20 for Doron Lamb"), by eye and to a screen reader; and a bad die inside
a multi-die entry ("2 7" where the d6 ones is 1-6, "2 6 6 25") went to the server, was
refused with a 400 and left an error in the console. Each die the page can know is now
checked in the page, as the first one was: refused in place, no request, no console error.
"""

from __future__ import annotations

import re

import pytest

from simulator.vabg.sheet import replay
from table.models import TableGame
from tests.table.dice import rolled_game
from tests.table.test_browser import AWAY, HOME, need, sign_in_and_start, wait_for
from tests.table.test_browser_boards import severe_console, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A die named twice in a row: "d8d8", "d8 d8:", "d20: d20 for".
TWICE = re.compile(r"(d\d+)(?!\d)[\s:]*\1(?!\d)")

# What a screen reader reads of the prompt: its text, less what is aria-hidden (a
# visually hidden text is read).
SPOKEN = """
function read(node) {
  if (node.nodeType === 3) { return node.textContent; }
  if (node.nodeType !== 1 || node.hidden || node.getAttribute("aria-hidden") === "true") { return ""; }
  return Array.prototype.map.call(node.childNodes, read).join("");
}
return read(document.getElementById("need")).replace(/\\s+/g, " ").trim();
"""

# Every request the page makes, counted (the page posts each entry with fetch).
COUNT_FETCHES = (
    "window.fetches = 0; var real = window.fetch;"
    "window.fetch = function () { window.fetches += 1; return real.apply(window, arguments); };"
)


def phone(driver) -> None:  # type: ignore[no-untyped-def]
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True},
    )


def prompt(driver) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """Return the prompt as seen (the badge, then the words) and as a screen reader reads it."""
    from selenium.webdriver.common.by import By

    seen = " ".join(
        driver.find_element(By.ID, part).text.strip() for part in ("need-die", "need-why")
    )
    return seen, str(driver.execute_script(SPOKEN))


def refused_in_place(driver, typed: str, bad: str, message: str) -> None:  # type: ignore[no-untyped-def]
    """Type ``typed`` and check it refused by the page: ``bad`` marked and selected, the
    alert reading the dice then ``message``, no request sent, nothing in the console."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    entry = driver.find_element(By.ID, "entry")
    entry.clear()
    before = driver.execute_script("return window.fetches")
    entry.send_keys(typed, Keys.ENTER)
    assert driver.find_element(By.CSS_SELECTOR, "#entry-error .tok.bad").text == bad
    alert = driver.find_element(By.ID, "entry-error").get_attribute("textContent")
    assert alert == f"{typed}: {message}", alert
    assert driver.execute_script("return window.fetches") == before, "the entry was sent"
    assert severe_console(driver) == []
    assert entry.get_attribute("value") == typed
    assert (
        driver.execute_script(
            "var e = document.getElementById('entry');"
            "return e.value.substring(e.selectionStart, e.selectionEnd)"
        )
        == bad
    )


def test_each_vabg_prompt_names_its_die_once_by_eye_and_to_a_screen_reader(
    browser,
    live_server,
    player,
    teams,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    phone(browser)
    _played, written = rolled_game(HOME, AWAY, 31)
    steps = [r.step for p in replay(HOME, AWAY, written.values).plays() for r in p.rolls]
    sign_in_and_start(browser, live_server, player, teams)
    seen, spoken = prompt(browser)
    assert seen.startswith("d8 Kansas 2008 ball, possession 44:"), seen
    # The words name the d8 (what it is for), so the badge is not read.
    assert spoken == (
        "Kansas 2008 ball, possession 44: d8 (who gets the ball: 1 Sherron Collins, 2 Jeremy "
        "Case, 3 Rodrick Stewart, 4 Sasha Kaun, 5 Cole Aldrich, 6/7/8 nobody (shot clock)), "
        "then d6 tens, d6 ones, d20"
    )
    # One prompt of each kind the game asks (its first), the dice before it typed in.
    firsts = {}
    for i, step in enumerate(steps):
        firsts.setdefault(step, i)
    assert {"d8", "d6 tens", "d6 ones", "d20", "rebound d20", "rebound d6", "free throw 1"} <= set(
        firsts
    )
    entry = browser.find_element(By.ID, "entry")
    done = 0
    for step, at in sorted(firsts.items(), key=lambda kv: kv[1]):
        if at > done:
            entry.send_keys(" ".join(map(str, written.values[done:at])), Keys.ENTER)
            done = at
            wait_for(browser, done)
        die, shown = need(browser)
        assert shown == step
        seen, spoken = prompt(browser)
        assert not TWICE.search(seen), f"{step}: {seen}"
        assert not TWICE.search(spoken), f"{step}: {spoken}"
        assert re.search(die + r"(?!\d)", spoken), f"{step}: {spoken}"  # named, once in a row
        if step == "d20":  # "d20 for Cole Aldrich: ...": the badge is the sentence's first word
            assert seen.startswith("d20 for ") and spoken.startswith("d20 for "), seen
            assert spoken.count("d20") == 1, spoken
        if step == "d6 tens":
            assert spoken == "11-66 roll: d6 tens (then the d6 ones, then the d20)", spoken


def test_grid_court_prompt_reads_its_die_then_its_words_and_a_bad_second_die_is_refused_in_place(
    browser,
    live_server,
    player,
    teams,
) -> None:
    from selenium.webdriver.common.by import By

    phone(browser)
    start(browser, live_server, player, teams, "gridcourt", hands="none")
    browser.execute_script(COUNT_FETCHES)
    seen, spoken = prompt(browser)
    assert seen.startswith("d6 1/2 Kansas 2008: offensive roll: "), seen
    assert spoken.startswith("d6 1/2: Kansas 2008: offensive roll: "), spoken
    assert not TWICE.search(seen) and not TWICE.search(spoken)
    # The roll is two d6: its second die is known to the page too.
    refused_in_place(
        browser, "2 7", "7", "7 is not a face of a d6: Kansas 2008's offensive roll is 1-6."
    )
    assert TableGame.objects.get().dice == []
    browser.find_element(By.ID, "entry").clear()


def test_six_dice_prompt_reads_its_die_then_its_words(
    browser,
    live_server,
    player,
    teams,
) -> None:
    phone(browser)
    start(browser, live_server, player, teams, "sixdice")
    browser.execute_script(COUNT_FETCHES)
    seen, spoken = prompt(browser)
    assert seen.startswith("d6 1/6 Kansas 2008: jump ball: 6 dice;"), seen
    assert spoken.startswith("d6 1/6: Kansas 2008: jump ball: 6 dice;"), spoken
    refused_in_place(
        browser,
        "1 2 7 4",
        "7",
        "7 is not a face of a d6: Kansas 2008's jump ball is 1-6.",
    )


def test_a_bad_die_inside_a_vabg_entry_is_refused_in_place_without_a_request(
    browser,
    live_server,
    player,
    teams,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    phone(browser)
    sign_in_and_start(browser, live_server, player, teams)
    browser.execute_script(COUNT_FETCHES)
    entry = browser.find_element(By.ID, "entry")
    # A trip is four dice, d8, d6 tens, d6 ones, d20: each is checked in the page.
    refused_in_place(browser, "2 6 6 25", "25", "25 is not a face of a d20: the d20 is 1-20.")
    refused_in_place(browser, "2 7", "7", "7 is not a face of a d6: the d6 tens is 1-6.")
    refused_in_place(
        browser, "2 34", "34",
        "34 is not a face of a d6: the d6 tens is 1-6. The 11-66 is two dice: type 3 4.",
    )  # fmt: skip
    entry.clear()
    entry.send_keys("5", Keys.ENTER)
    wait_for(browser, 1)
    assert need(browser) == ("d6", "d6 tens")
    refused_in_place(browser, "2 7", "7", "7 is not a face of a d6: the d6 ones is 1-6.")
    # Past the trip the page does not know the die; no die has a 0.
    refused_in_place(browser, "3 4 1 0", "0", "0 is not a face of any die: dice count from 1.")
    # An empty Enter after a refusal sends nothing and takes the refusal away (left beside
    # an empty box it read as the empty entry's).
    entry.clear()
    entry.send_keys(Keys.ENTER)
    assert browser.find_element(By.ID, "entry-error").get_attribute("textContent") == ""
    assert TableGame.objects.get().dice == [5]
    assert browser.execute_script("return window.fetches") == 1

    # A die the page cannot know (the next trip's d8 after a made 3) is still the server's
    # to judge: refused in place all the same, the dice back in the box, the 9 selected.
    entry.clear()
    entry.send_keys("3 4 1 9", Keys.ENTER)
    alert = browser.find_element(By.ID, "entry-error")
    WebDriverWait(browser, 10).until(lambda d: "not a face" in alert.text)
    wait_for(browser, 1)
    assert browser.find_element(By.CSS_SELECTOR, "#entry-error .tok.bad").text == "9"
    assert alert.get_attribute("textContent") == "3 4 1 9: 9 is not a face of a d8: the d8 is 1-8."
    assert entry.get_attribute("value") == "3 4 1 9"
    severe_console(browser)  # Chromium logs the refused request (400): drained here
    assert TableGame.objects.get().dice == [5]
    entry.clear()
    entry.send_keys("3 4 1 2", Keys.ENTER)
    wait_for(browser, 5)
    assert TableGame.objects.get().dice == [5, 3, 4, 1, 2]
    assert severe_console(browser) == []


def test_six_dice_are_typed_as_the_dice_look_and_a_vabg_trip_with_a_phones_keypad(
    browser,
    live_server,
    player,
    teams,
) -> None:
    # A table-top player's review: the jump ball's dice typed as the faces showed them
    # ("B B B P S F") were refused ("B is not a die: ... e.g. 5 3 4 17", a VABG trip); a
    # phone's numeric keypad has no space, so a whole roll could not be typed at all.
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    phone(browser)
    table = start(browser, live_server, player, teams, "sixdice", hands="none")
    browser.execute_script(COUNT_FETCHES)
    entry = browser.find_element(By.ID, "entry")
    assert entry.get_attribute("inputmode") == "decimal"  # digits and a "."
    entry.send_keys("B B B P S F", Keys.ENTER)
    wait_for(browser, 6)
    entry.send_keys("bbppsf", Keys.ENTER)  # one roll, one run, any case
    wait_for(browser, 12)
    table.refresh_from_db()
    assert table.dice == [1, 1, 1, 4, 5, 6, 1, 1, 4, 4, 5, 6]
    refused_in_place(
        browser,
        "1 2 X",
        "X",
        "X is not a die: type the numbers rolled or the faces (B/P/S/F), e.g. 1 1 4 5 2 6 "
        "or BBPSBF.",
    )
    # a dash separates dice (5-3), but before a number it is a minus sign: -3 was read as 3
    refused_in_place(browser, "1 -3", "-3", "-3 is not a die: no die shows a negative number.")
    entry.clear()
    entry.send_keys("1.1.2.2.4.5", Keys.ENTER)  # the decimal keypad's separator
    wait_for(browser, 18)
    table.refresh_from_db()
    assert table.dice[12:] == [1, 1, 2, 2, 4, 5]
    assert severe_console(browser) == []
