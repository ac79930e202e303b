"""Six dice at a phone's width (375 px), from a table-top player's review.

Found: the long policy note sat in the middle of the entry panel, pushing the pad and the
Undo buttons down on every roll; the last-play box of a main roll was headed "<team>,
throw N" over the last six dice alone while its line compared both teams' dice; the first
choice button, focused once dice open a question, wore the site's bold focus ring and read
as "Play the chip" picked already; a die typed past a roll silently began the next one.
"""

from __future__ import annotations

import pytest

from tests.table.test_browser import need, sign_in_and_start, wait_for
from tests.table.test_browser_boards import severe_console, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Kansas 2008 (the visitors) win the jump ball 3 Balls to none: their main roll is first.
JUMP = "1 2 3 4 5 6 4 4 5 5 6 6"

# Where the entry panel's parts are, top to bottom, in one script.
PANEL = """
const box = id => { const e = document.getElementById(id);
  if (!e || !e.getClientRects().length) { return null; }
  const r = e.getBoundingClientRect(); return [r.top, r.bottom]; };
const order = [...document.getElementById("entry-panel").children].map(e => e.id || e.className);
return {pad: box("pad"), undo: box("undo-trip"), note: box("policy-note"), court: box("court-wrap"),
        order: order, height: window.innerHeight};
"""

# The last-play box: its heading, each team's named dice, the lines under them.
LAST = """
const box = document.getElementById("last-play");
return [box.querySelector("strong").textContent,
        [...box.querySelectorAll("ul.both-dice li")].map(li => li.textContent),
        [...box.querySelectorAll("ul:not(.both-dice) li")].map(li => li.textContent)];
"""

# The focused choice button and another, as drawn.
FOCUS_LOOK = """
const f = document.activeElement, other = document.querySelector('#choice-options button[data-choice="keep"]');
const look = e => { const s = getComputedStyle(e);
  return {bg: s.backgroundColor, border: s.borderColor, color: s.color, outline: s.outlineStyle,
          offset: parseFloat(s.outlineOffset), width: parseFloat(s.outlineWidth)}; };
return [f.getAttribute("data-choice"), f.matches(":focus-visible"), look(f), look(other)];
"""


def phone(driver) -> None:  # type: ignore[no-untyped-def]
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 375, "height": 812, "deviceScaleFactor": 3, "mobile": True},
    )


def typed(driver, text: str, count: int) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.find_element(By.ID, "entry").send_keys(text, Keys.ENTER)
    wait_for(driver, count)


def faces(dice: str) -> str:
    """The faces of a named team's dice as the box shows them ("d6 1 B, d6 4 P": "BP")."""
    return "".join(d.split()[-1] for d in dice.split(": ", 1)[1].split(", "))


def test_six_dice_on_a_phone_says_who_chooses_after_the_pad_and_undo(
    browser, live_server, player, teams
) -> None:
    from selenium.webdriver.common.by import By

    phone(browser)
    start(browser, live_server, player, teams, "sixdice", hands="none")
    panel = browser.execute_script(PANEL)
    # Who chooses is said after the actions: the pad and Undo come first.
    # (the entry's note, which rolls its dice went to, sits between them, under Undo die)
    assert panel["order"][-3:] == ["actions", "entry-note", "policy-note"]
    assert panel["pad"][1] <= panel["undo"][0] <= panel["undo"][1] <= panel["note"][0]
    assert "coach style" in browser.find_element(By.ID, "policy-note").text
    typed(browser, JUMP, 12)
    # Once rolling, the pad and Undo are on the screen (as on the first: test_browser_phone_leftovers).
    panel = browser.execute_script(PANEL)
    assert panel["pad"][1] <= panel["undo"][0] <= panel["note"][0]
    assert panel["undo"][1] <= panel["height"]
    assert browser.find_element(By.ID, "policy-note").is_displayed()
    assert severe_console(browser) == []


def test_six_dice_last_play_of_a_main_roll_names_both_teams_dice_its_line_compares(
    browser, live_server, player, teams
) -> None:
    phone(browser)
    start(browser, live_server, player, teams, "sixdice", hands="none")
    typed(browser, JUMP, 12)
    typed(browser, "1 1 2 2 4 5 3 4 4 5 5 6", 24)
    heading, named, lines = browser.execute_script(LAST)
    assert heading == "Main roll, throw 3 and throw 4:"
    assert named == [
        "Kansas 2008: d6 1 B, d6 1 B, d6 2 B, d6 2 B, d6 4 P, d6 5 S",
        "Kentucky 2012: d6 3 B, d6 4 P, d6 4 P, d6 5 S, d6 5 S, d6 6 F",
    ]
    compared = next(line for line in lines if " | " in line)
    for team in named:
        assert f"{team.split(':')[0]} {faces(team)}" in compared, (team, compared)
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    ), "the page scrolls sideways on a phone"
    assert severe_console(browser) == []


def test_six_dice_a_die_typed_past_the_roll_is_kept_and_the_page_says_whose_roll_it_began(
    browser, live_server, player, teams
) -> None:
    from selenium.webdriver.common.by import By

    phone(browser)
    start(browser, live_server, player, teams, "sixdice", hands="none")
    typed(browser, JUMP, 12)  # both teams' jump ball in one entry: each team's dice named
    assert need(browser) == ("d6", "Kansas 2008: main roll")
    assert browser.find_element(By.ID, "entry-note").text.startswith(
        "12 dice to 2 rolls: Kansas 2008's jump ball: 1 2 3 4 5 6; "
    )
    # Seven dice for a six-dice roll: the seventh begins Kentucky's roll, and the page says so.
    typed(browser, "1 1 2 2 4 5 3", 19)
    assert need(browser) == ("d6", "Kentucky 2012: main roll")
    note = browser.find_element(By.ID, "entry-note")
    assert note.is_displayed() and note.text == (
        "7 dice to 2 rolls: Kansas 2008's main roll: 1 1 2 2 4 5; Kentucky 2012's main roll: "
        "3. Kentucky 2012's main roll needs 5 more. Too many? Undo die."
    )
    assert browser.find_element(By.ID, "need-die").text == "d6 2/6"
    typed(browser, "4 4 5 5 6", 24)  # the rest of the roll: nothing more to say
    assert not browser.find_element(By.ID, "entry-note").is_displayed()
    assert severe_console(browser) == []


def test_a_question_opened_by_typed_dice_focuses_its_first_answer_without_looking_picked(
    browser, live_server, player, teams
) -> None:
    phone(browser)
    start(browser, live_server, player, teams, "sixdice", hands="both")
    typed(browser, JUMP, 12)
    # Both main rolls show three Balls: a tie, Kentucky 2012's Power Chip to play or keep.
    typed(browser, "1 1 1 4 5 6 1 1 1 4 5 6", 24)
    choice, visible, focused, other = browser.execute_script(FOCUS_LOOK)
    assert choice == "chip"  # the keyboard is on the first answer: Enter plays it
    assert visible
    # ...drawn as the other answer is (no fill, no border of a pick), a dashed ring apart.
    assert {k: focused[k] for k in ("bg", "border", "color")} == {
        k: other[k] for k in ("bg", "border", "color")
    }
    assert focused["outline"] == "dashed" and focused["offset"] > 0 and other["outline"] == "none"


def test_grid_court_on_a_phone_keeps_the_court_under_the_pad_and_who_chooses_last(
    browser, live_server, player, teams
) -> None:
    phone(browser)
    start(browser, live_server, player, teams, "gridcourt", hands="none")
    panel = browser.execute_script(PANEL)
    assert panel["order"].index("pad") < panel["order"].index("court-wrap")
    assert panel["order"].index("court-wrap") < panel["order"].index("actions")
    assert panel["order"][-1] == "policy-note"
    assert panel["pad"][1] <= panel["court"][0] <= panel["court"][1] <= panel["undo"][0]
    assert panel["undo"][1] <= panel["note"][0]


def test_a_vabg_die_typed_past_a_trip_is_kept_and_named_as_the_other_team_s_d8(
    browser, live_server, player, teams
) -> None:
    """A fifth die typed for a trip that ends on its d20 became Kentucky 2012's d8 unseen
    (VABG said nothing of an entry's dice past its trip): the page now names each trip."""
    from selenium.webdriver.common.by import By

    phone(browser)
    sign_in_and_start(browser, live_server, player, teams)
    typed(browser, "5 3 4 1 6", 5)  # Kansas 2008's trip 44 ends on its d20 (1: made)
    note = browser.find_element(By.ID, "entry-note")
    assert note.is_displayed() and note.text == (
        "5 dice to 2 trips: Kansas 2008's possession 44: 5 3 4 1; Kentucky 2012's possession "
        "44: 6. Too many? Undo die."
    )
    top, bottom = browser.execute_script(
        "var r = document.getElementById('entry-note').getBoundingClientRect();"
        "return [r.top, r.bottom];"
    )
    assert top >= 0 and bottom <= 812  # on the screen, under Undo die
    browser.find_element(By.ID, "undo-die").click()  # the die taken back, and its note
    wait_for(browser, 4)
    assert not note.is_displayed()
    assert need(browser)[1] == "d8"
    assert severe_console(browser) == []
