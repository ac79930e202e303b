"""The table at a phone's width (375x812): leftovers of the table-top player's review.

Found: on a new game's first screen the dice-file line above the entry panel pushed Undo
below the screen's foot; a chip reroll's last-play box showed the rerolled dice alone, not
the hand they change; a note of an entry typed ahead was cleared by the answer of the
entry after it, before it was ever seen; grid court's roll prompt ran to five lines and
its court key broke a team's name from its swatch.
"""

from __future__ import annotations

import pytest

from tests.table.test_browser import sign_in_and_start
from tests.table.test_browser_boards import IN_VIEW, severe_console, start
from tests.table.test_browser_phone_review import phone

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
