"""The table at a phone's width (375x812): leftovers of the table-top player's review.

Found: on a new game's first screen the dice-file line above the entry panel pushed Undo
below the screen's foot; a chip reroll's last-play box showed the rerolled dice alone, not
the hand they change; a note of an entry typed ahead was cleared by the answer of the
entry after it, before it was ever seen; grid court's roll prompt ran to five lines and
its court key broke a team's name from its swatch.
"""

from __future__ import annotations

import pytest

from tests.table.test_browser import sign_in_and_start, wait_for
from tests.table.test_browser_boards import IN_VIEW, severe_console, start
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
        "6 dice for Kansas 2008's main roll and 1 of Kentucky 2012's main roll: that roll "
        "needs 5 more"
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
