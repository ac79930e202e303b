"""The table at a phone's width (375x812): leftovers of the table-top player's review.

Found: on a new game's first screen the dice-file line above the entry panel pushed Undo
below the screen's foot; a chip reroll's last-play box showed the rerolled dice alone, not
the hand they change; a note of an entry typed ahead was cleared by the answer of the
entry after it, before it was ever seen; grid court's roll prompt ran to five lines and
its court key broke a team's name from its swatch.
"""

from __future__ import annotations

import pytest

from simulator.sixdice.rules import CHIP_REROLL
from tests.simulator.sixdice.hands import recorded
from tests.table.test_browser import sign_in_and_start, wait_for
from tests.table.test_browser_boards import (
    AWAY,
    HOME,
    IN_VIEW,
    entries,
    severe_console,
    shortest_game,
    start,
    type_in,
)
from tests.table.test_browser_phone_review import JUMP, phone, typed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("game", ["vabg", "sixdice"])
def test_a_new_games_first_screen_shows_the_pad_and_undo_and_still_takes_a_dice_file(
    browser, live_server, player, teams, game
) -> None:
    from selenium.webdriver.common.by import By

    phone(browser)
    if game == "vabg":
        sign_in_and_start(browser, live_server, player, teams)
    else:
        start(browser, live_server, player, teams, game, hands="none")
    assert browser.execute_script("return window.scrollY") == 0  # nothing scrolled for it
    assert (
        browser.execute_script(IN_VIEW, ["#need", "#entry", "#pad", "#undo-die", "#undo-trip"])
        == []
    )
    # The dice file is still offered on the first screen's page, after the panel.
    offer = browser.find_element(By.ID, "dice-file-entry")
    assert "Rolled the game already" in offer.text
    assert browser.execute_script(
        "return !!(document.getElementById('entry-panel').compareDocumentPosition("
        "document.getElementById('dice-file-entry')) & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    assert severe_console(browser) == []


def test_a_note_of_an_entry_typed_ahead_stays_until_an_entry_is_made_with_it_on_screen(
    browser, live_server, player, teams
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    phone(browser)
    start(browser, live_server, player, teams, "sixdice", hands="none")
    typed(browser, JUMP, 12)
    entry, note = browser.find_element(By.ID, "entry"), browser.find_element(By.ID, "entry-note")
    browser.execute_cdp_cmd("Network.enable", {})
    slow = {"offline": False, "latency": 600, "downloadThroughput": -1, "uploadThroughput": -1}
    try:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
        # Seven dice for Kansas 2008's six (the seventh begins Kentucky 2012's roll), then,
        # typed while they are being saved, two of Kentucky's: an entry that says nothing.
        entry.send_keys("1 1 2 2 4 5 3", Keys.ENTER)
        entry.send_keys("4 4", Keys.ENTER)
        assert "1 more waiting" in browser.find_element(By.ID, "save-status").text
        wait_for(browser, 21)
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {**slow, "latency": 0})
        browser.execute_cdp_cmd("Network.disable", {})
    # The first entry's note outlived the answer to the second, which the player typed
    # before the note could be read.
    assert note.is_displayed() and note.text.startswith(
        "7 dice to 2 rolls: Kansas 2008's main roll: 1 1 2 2 4 5; Kentucky 2012's main roll: 3."
    ), note.text
    # An entry made with the note on the screen: the note has been read, it goes.
    typed(browser, "5 5 6", 24)
    assert not note.is_displayed()
    # Typed ahead again, then the entry undone: a note goes with its entry.
    typed(browser, "1 1 1 1 1 1 1", 31)
    assert note.is_displayed()
    browser.find_element(By.ID, "undo-die").click()
    wait_for(browser, 30)
    assert not note.is_displayed()
    assert severe_console(browser) == []


# Each key item of the court (a team's swatch and its words): the lines it is drawn on.
KEY_LINES = """
const key = document.getElementById("court-key");
return [...key.querySelectorAll("svg")].map(sw => {
  const range = document.createRange();
  range.setStartBefore(sw);
  range.setEndAfter(sw.nextSibling);
  // a line begins where a box starts below the boxes before it (the swatch sits lower)
  let lines = 0, bottom = -Infinity;
  [...range.getClientRects()].filter(r => r.width > 0).sort((a, b) => a.top - b.top)
    .forEach(r => { if (r.top >= bottom - 1) { lines += 1; } bottom = Math.max(bottom, r.bottom); });
  return [range.toString().trim(), lines];
});
"""


def test_grid_courts_key_keeps_each_team_on_one_line_at_a_phones_width(
    browser, live_server, player, teams
) -> None:
    phone(browser)
    start(browser, live_server, player, teams, "gridcourt", hands="none")
    items = browser.execute_script(KEY_LINES)
    assert [text for text, _ in items] == [
        "Kansas 2008 (visitors, ringed)",
        "Kentucky 2012 (home)",
    ]
    assert all(lines == 1 for _, lines in items), items
    assert severe_console(browser) == []


# The lines the roll's prompt (the blue box's badge, words and toggle) is drawn on.
PROMPT_LINES = """
const range = document.createRange();
range.selectNodeContents(document.getElementById("need"));
let lines = 0, bottom = -Infinity;
[...range.getClientRects()].filter(r => r.width > 0).sort((a, b) => a.top - b.top)
  .forEach(r => { if (r.top >= bottom - 1) { lines += 1; } bottom = Math.max(bottom, r.bottom); });
return [document.getElementById("need").innerText.trim(), lines];
"""


def test_grid_courts_roll_prompt_is_two_lines_on_a_phone_with_the_roll_in_full_behind_details(
    browser, live_server, player, teams
) -> None:
    from selenium.webdriver.common.by import By

    phone(browser)
    values = shortest_game("gridcourt", range(1, 6))
    start(browser, live_server, player, teams, "gridcourt", hands="none")
    toggle, more = (browser.find_element(By.ID, i) for i in ("need-more-toggle", "need-more"))
    seen: dict[str, str] = {}
    done = 0
    while len(seen) < 3:
        text, lines = browser.execute_script(PROMPT_LINES)
        assert lines <= 2, (text, lines)
        kind = "defense" if "defensive" in text else "no shot" if "no shot" in text else "shot"
        if kind not in seen:
            assert toggle.is_displayed() and not more.is_displayed()
            toggle.click()  # the roll in full: nothing of the long prompt lost
            assert more.is_displayed() and toggle.get_attribute("aria-expanded") == "true"
            seen[kind] = more.text
            toggle.click()
            assert not more.is_displayed()
        done = type_in(browser, values, done, done + 1, 1)
    assert "two dice, each typed (3 5, or 35), not their total" in seen["shot"]
    assert "2 is a steal" in seen["shot"] and "shot clock: movement roll" in seen["shot"]
    assert "2 is a steal; shot clock: movement roll" in seen["no shot"]
    assert "one die: the defense moves that many steps at most" in seen["defense"]
    assert severe_console(browser) == []


HAND = """return [...document.querySelectorAll("#reroll-hand li")].map(
  li => [li.className, li.textContent]);"""


def test_a_chip_reroll_shows_the_holders_whole_hand_kept_and_rerolled_dice_marked(
    browser, live_server, player, teams
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    phone(browser)
    # Seed 37 (as test_browser_boards' chip-reroll test): Kansas 2008, holding the chip,
    # trails a shot 2 to 4 after 48 dice and rerolls dice 2, 3, 4 and 6 of its six.
    _, values, tokens = recorded(37, {"home", "away"}, CHIP_REROLL, HOME, AWAY)
    steps = entries(values, tokens, CHIP_REROLL)[:6]
    start(browser, live_server, player, teams, "sixdice", chip_reroll=True)
    entry = browser.find_element(By.ID, "entry")
    typed(browser, " ".join(map(str, steps[0][1])), 36)  # type: ignore[arg-type]
    for choice, count in (("chip", 37), ("stay", 38)):
        browser.find_element(By.CSS_SELECTOR, f'#choice-options [data-choice="{choice}"]').click()
        wait_for(browser, count)
    typed(browser, " ".join(map(str, steps[3][1])), 50)  # type: ignore[arg-type]
    for die in (2, 3, 4, 6):
        browser.find_elements(By.CSS_SELECTOR, "#choice-dice label")[die - 1].click()
    browser.find_element(By.CSS_SELECTOR, '#choice-options [data-choice="reroll:"]').click()
    wait_for(browser, 51)
    hand, new = values[42:48], steps[5][1][:4]  # type: ignore[index]
    face = "BBBPSF"

    def shown(v: int) -> str:
        return f"{v} {face[v - 1]}"

    # Named, none typed yet: the whole hand, the dice to reroll marked.
    assert browser.execute_script(HAND) == [
        ["kept", f"die 1: {shown(hand[0])}, kept"],
        *[["waiting", f"die {d}: {shown(hand[d - 1])}, to reroll"] for d in (2, 3, 4)],
        ["kept", f"die 5: {shown(hand[4])}, kept"],
        ["waiting", f"die 6: {shown(hand[5])}, to reroll"],
    ]
    assert "chip reroll of dice 2, 3, 4, 6" in browser.find_element(By.ID, "last-play").text
    entry.send_keys(f"{new[0]} {new[1]}", Keys.ENTER)  # type: ignore[index]
    wait_for(browser, 53)
    got = browser.execute_script(HAND)
    assert [c for c, _ in got] == ["kept", "rerolled", "rerolled", "waiting", "kept", "waiting"]
    assert got[1][1] == f"die 2: {shown(new[0])}, rerolled (was {shown(hand[1])})"  # type: ignore[index]
    entry.send_keys(f"{new[2]} {new[3]}", Keys.ENTER)  # type: ignore[index]
    wait_for(browser, 55)
    got = browser.execute_script(HAND)
    after = [hand[0], *new[:3], hand[4], new[3]]  # type: ignore[index]
    assert [t.split(",")[0] for _, t in got] == [
        f"die {d}: {shown(v)}" for d, v in enumerate(after, start=1)
    ]
    assert [c for c, _ in got] == ["kept", "rerolled", "rerolled", "rerolled", "kept", "rerolled"]
    assert severe_console(browser) == []
