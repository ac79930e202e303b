"""The score sheet in a real browser: Debian's headless Chromium, driven by Selenium.

The ``browser`` fixture is the fans' pages' own (tests/pages/test_browser.py): a phone-sized
window; the whole-game test widens it to a desk's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from league.models import BoxLine, Game
from simulator.vabg import read_team_file
from simulator.vabg.sheet import replay
from table.models import TableGame
from tests.browsing import follow, serious_axe_findings
from tests.table.conftest import AWAY_FILE, HOME_FILE
from tests.table.dice import rolled_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
HOME = read_team_file(HOME_FILE)
AWAY = read_team_file(AWAY_FILE)


def signed_in(driver, live_server, player) -> None:  # type: ignore[no-untyped-def]
    """Give Chromium the session cookie signing in as ``player`` leaves, as a test that is
    not about signing in begins (the sign-in form is typed in by the whole game's test)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(player)
    name = settings.SESSION_COOKIE_NAME
    driver.execute_cdp_cmd(
        "Network.setCookie",
        {"name": name, "value": client.cookies[name].value, "url": live_server.url,
         "path": "/", "httpOnly": True, "secure": settings.SESSION_COOKIE_SECURE},
    )  # fmt: skip


def sign_in_and_start(driver, live_server, player, teams, by_form: bool = False):  # type: ignore[no-untyped-def]
    """Start a game of VABG from the new-game form, signed in through the sign-in form the
    table sends a visitor to (``by_form``) or by the session cookie it leaves."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    if not by_form:
        signed_in(driver, live_server, player)
    driver.get(f"{live_server.url}/table/")
    if by_form:
        assert "/table/sign-in/" in driver.current_url
        driver.find_element(By.NAME, "username").send_keys(player.username)
        driver.find_element(By.NAME, "password").send_keys("fan-password-1")
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    home, away = teams
    Select(driver.find_element(By.NAME, "away")).select_by_visible_text(str(away))
    Select(driver.find_element(By.NAME, "home")).select_by_visible_text(str(home))
    driver.find_element(By.CSS_SELECTOR, "#new-game button[type=submit]").click()
    wait_for(driver, 0)
    return TableGame.objects.get()


SETTLED = """
const [count, limit, done] = arguments;
const settled = () => {
  const game = document.getElementById("table-game");
  return Boolean(game && game.getAttribute("data-count") === String(count)
                 && !game.getAttribute("data-busy"));
};
if (settled()) {
  done(true);
} else {
  // Looked at again after each change of the page (the observer's callback runs once a
  // task's changes are made), not on a timer: nothing runs in the page while it waits.
  const watch = new MutationObserver(() => settled() && finish(true));
  const timer = setTimeout(() => finish(settled()), limit);
  function finish(answer) {
    watch.disconnect();
    clearTimeout(timer);
    done(answer);
  }
  watch.observe(document.documentElement, {attributes: true, childList: true, subtree: true,
                                           attributeFilter: ["data-count", "data-busy"]});
}
"""
"""Wait in the page until it shows ``count`` entries and no request is in flight (the page
sets both in one task once an answer is drawn): one round trip to the browser, not one a
poll."""


NOW_SHOWN = """return Array.from(document.querySelectorAll('.screen-sheet')).map(function (w) {
  var now = w.querySelector('th.now'), a = w.getBoundingClientRect();
  if (!now) { return null; }
  var b = now.getBoundingClientRect();
  return b.left >= a.left && b.right <= a.right;
});"""
"""Whether each on-screen sheet shows its current possession's column."""


def wait_for(driver, count: int, timeout: float = 15) -> None:  # type: ignore[no-untyped-def]
    """Wait until the page shows ``count`` dice entered and no request is in flight."""
    import time

    from selenium.common.exceptions import TimeoutException, WebDriverException

    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            if driver.execute_async_script(SETTLED, count, max(0, int(left * 1000))):
                return
        except WebDriverException:  # the page was being replaced (a reload, a form sent)
            if time.monotonic() < deadline:
                time.sleep(0.05)
                continue
        raise TimeoutException(f"the page did not settle at {count} entries")


def need(driver) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.ID, "need")
    return box.get_attribute("data-die"), box.get_attribute("data-step")


# A team's sheet as printed, read in one script (not an atom a column): the screen's sheet
# (its columns' numbers, shown or not: as Selenium's is_displayed, laid out, visible and
# not transparent) and each printed block (shown or not, its width and its page's, its
# columns' numbers).
PRINTED_SHEET = """
const side = arguments[0];
const shown = e => e.getClientRects().length > 0
  && e.checkVisibility({opacityProperty: true, visibilityProperty: true});
const numbers = t => [...t.querySelectorAll("thead th[data-column]")].map(th => th.textContent);
const screen = document.querySelector(`.screen-sheet table[data-side="${side}"]`);
return {
  numbers: numbers(screen),
  screen_shown: shown(screen),
  blocks: [...document.querySelectorAll(`.print-sheet[data-side="${side}"] table.sheet`)].map(
    b => ({shown: shown(b), width: b.scrollWidth, room: b.parentElement.clientWidth,
           numbers: numbers(b)})),
};
"""
BOX_LINES = """
const rows = document.querySelectorAll(`table.box[data-side="${arguments[0]}"] tr[data-player]`);
return Object.fromEntries([...rows].map(r => [r.getAttribute("data-player"),
  [r.querySelector("td.pts").innerText.trim(), r.querySelector("td.reb").innerText.trim()]]));
"""


PAD = """
return [...document.querySelectorAll("#pad button")].map(b => {
  const r = b.getBoundingClientRect();  // as Selenium's size and location: one script for all
  return [r.height, Math.round(r.top + window.scrollY)];
});
"""


def prints_whole(driver) -> None:  # type: ignore[no-untyped-def]
    """Check the page as printed on landscape paper (letter's width, the narrower): each
    team's sheet in stacked blocks that fit the width and hold every possession of the
    game (overtimes too) once, and the whole play-by-play, in no scroll box."""
    from selenium.webdriver.common.by import By

    driver.set_window_size(980, 900)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        for side in ("away", "home"):
            sheet = driver.execute_script(PRINTED_SHEET, side)
            numbers = sheet["numbers"]
            assert len(numbers) >= 44 and not sheet["screen_shown"]
            assert len(sheet["blocks"]) >= 2
            printed = []
            for block in sheet["blocks"]:
                assert block["shown"]
                width, room = block["width"], block["room"]
                assert width <= room, f"a sheet block is {width} px wide on a {room} px page"
                printed += block["numbers"]
            assert printed == numbers
        plays = driver.find_element(By.ID, "plays")
        assert driver.execute_script(
            "var p = arguments[0]; return p.scrollHeight <= p.clientHeight"
            " && getComputedStyle(p).overflowY === 'visible'",
            plays,
        ), "the play-by-play prints in a scroll box"
        assert not driver.find_element(By.ID, "entry-panel").is_displayed()
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_a_whole_game_typed_through_the_page_is_stored_with_the_command_lines_box_score(
    browser,
    live_server,
    player,
    teams,
    tmp_path,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(1280, 900)
    played, written = rolled_game(HOME, AWAY, 31)
    trips = [len(p.rolls) for p in replay(HOME, AWAY, written.values).plays() if p.rolls]
    sign_in_and_start(browser, live_server, player, teams, by_form=True)
    assert need(browser) == ("d8", "d8")
    assert "Kansas 2008 ball, possession 44" in browser.find_element(By.ID, "need-why").text
    entry = browser.find_element(By.ID, "entry")
    done = 0
    # The first trips one per entry, then ten trips an entry (each entry replays the game
    # so far and redraws the sheet): every die of the game is typed through the page.
    entries = [trips[i : i + 1] for i in range(10)]
    entries += [trips[i : i + 10] for i in range(10, len(trips), 10)]
    for n, sizes in enumerate(entries):
        size = sum(sizes)
        entry.send_keys(" ".join(map(str, written.values[done : done + size])), Keys.ENTER)
        done += size
        wait_for(browser, done)
        if n in (len(entries) - 3, len(entries) - 2):  # late: the possession being played is
            assert browser.execute_script(NOW_SHOWN) == [True, True]  # in view on both sheets
    assert need(browser) == ("", "")
    assert browser.find_element(By.ID, "away-score").text == str(played.away.score)
    assert browser.find_element(By.ID, "home-score").text == str(played.home.score)
    # The keyboard goes to the next thing to do: storing the game, then the stored game.
    assert browser.switch_to.active_element.get_attribute("id") == "finish"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    browser.find_element(By.ID, "league-game")  # waits for the stored game's link
    assert browser.switch_to.active_element.get_attribute("id") == "league-game"
    prints_whole(browser)

    dice_file = tmp_path / "dice.json"
    table = TableGame.objects.get()
    assert table.status == "finished"
    dice_file.write_text(json.dumps(table.league_game.result.dice))
    cli = subprocess.run(
        [sys.executable, "-m", "simulator", "play", str(HOME_FILE), str(AWAY_FILE),
         "--dice", str(dice_file), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    expected = json.loads(cli.stdout)
    game = Game.objects.select_related("result").get(pk=table.league_game_id)
    assert (game.result.home_score, game.result.away_score) == (
        expected["home"]["score"],
        expected["away"]["score"],
    )
    for side in ("home", "away"):
        stored = [
            {
                "name": b.name,
                **{f: getattr(b, f) for f in expected[side]["players"][0] if f != "name"},
            }
            for b in BoxLine.objects.filter(result=game.result, side=side).order_by("order")
        ]
        assert stored == expected[side]["players"]
        shown = browser.execute_script(BOX_LINES, side)  # the page's box: points, rebounds
        for line in expected[side]["players"]:
            assert shown[line["name"]] == [str(line["pts"]), str(line["reb"])], line["name"]
    assert game.result.events == expected["events"]
    follow(browser, browser.find_element(By.ID, "league-game"))
    heading = browser.find_element(By.TAG_NAME, "h1").text
    assert str(game.home) in heading and str(game.away) in heading


def test_at_phone_width_taps_enter_dice_a_bad_die_is_refused_in_place_and_undo_works(
    browser,
    live_server,
    player,
    teams,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    # Headless Chromium keeps windows at least 500 wide: emulate a 390-pixel phone instead.
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True},
    )
    sign_in_and_start(browser, live_server, player, teams)
    assert browser.execute_script("return window.innerWidth") == 390
    pad = browser.execute_script(PAD)
    assert len(pad) == 8  # a d8 wants 1-8
    assert all(height >= 44 for height, _ in pad)  # a thumb's width
    for count, value in enumerate((5, 3, 4, 1), start=1):
        browser.find_element(By.CSS_SELECTOR, f'#pad button[data-value="{value}"]').click()
        wait_for(browser, count)
    assert need(browser) == ("d8", "d8")  # a d20 of 1: a made 3, the home team's ball
    assert browser.find_element(By.ID, "away-score").text == "23"
    assert "makes a 3-pointer" in browser.find_element(By.ID, "last-play").text
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    ), "the page scrolls sideways on a phone; only the sheet should"

    entry = browser.find_element(By.ID, "entry")
    entry.send_keys("5 3 9 17", Keys.ENTER)
    bad = browser.find_element(By.CSS_SELECTOR, "#entry-error .tok.bad")
    assert bad.text == "9"
    # What a screen reader reads of the alert: the dice apart, then why.
    alert = browser.find_element(By.ID, "entry-error").get_attribute("textContent")
    assert alert.startswith("5 3 9 17: 9 is not a face of a d6"), alert
    assert serious_axe_findings(browser) == []
    assert (
        browser.execute_script(
            "var e = document.getElementById('entry');"
            "return e.value.substring(e.selectionStart, e.selectionEnd)"
        )
        == "9"
    )
    assert TableGame.objects.get().dice == [5, 3, 4, 1]  # nothing of the bad entry was kept
    entry.clear()
    entry.send_keys("6 3 4 17", Keys.ENTER)
    wait_for(browser, 8)

    browser.find_element(By.ID, "undo-die").click()
    wait_for(browser, 7)
    assert need(browser) == ("d20", "d20")
    # The sticky panel stays small on a phone when a d20 is wanted (its pad in two rows of
    # ten), so the sheet under it stays readable; the pad can be folded away.
    panel = browser.find_element(By.ID, "entry-panel")
    assert panel.size["height"] <= 0.35 * 844, panel.size
    pad = browser.execute_script(PAD)
    assert len(pad) == 20 and all(height >= 44 for height, _ in pad)
    assert len({top for _, top in pad}) == 2
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    ), "the page scrolls sideways on a phone"
    folded = panel.size["height"]
    browser.find_element(By.ID, "pad-toggle").click()
    assert not browser.find_element(By.ID, "pad").is_displayed()
    assert panel.size["height"] < folded - 80
    browser.find_element(By.ID, "pad-toggle").click()
    assert browser.find_element(By.ID, "pad").is_displayed()
    browser.find_element(By.ID, "undo-trip").click()
    wait_for(browser, 4)
    assert need(browser) == ("d8", "d8")
    assert TableGame.objects.get().dice == [5, 3, 4, 1]


def test_a_game_resumes_after_a_reload_where_it_was_left(
    browser,
    live_server,
    player,
    teams,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    _played, written = rolled_game(HOME, AWAY, 32)
    table = sign_in_and_start(browser, live_server, player, teams)
    browser.find_element(By.ID, "entry").send_keys(
        " ".join(map(str, written.values[:57])), Keys.ENTER
    )
    wait_for(browser, 57)
    before = {
        "need": need(browser),
        "why": browser.find_element(By.ID, "need-why").text,
        "away": browser.find_element(By.ID, "away-score").text,
        "home": browser.find_element(By.ID, "home-score").text,
        "plays": len(browser.find_elements(By.CSS_SELECTOR, "#plays li")),
    }
    browser.get(f"{live_server.url}/table/")
    browser.find_element(By.CSS_SELECTOR, f'#playing a[href="/table/{table.pk}/"]').click()
    wait_for(browser, 57)
    after = {
        "need": need(browser),
        "why": browser.find_element(By.ID, "need-why").text,
        "away": browser.find_element(By.ID, "away-score").text,
        "home": browser.find_element(By.ID, "home-score").text,
        "plays": len(browser.find_elements(By.CSS_SELECTOR, "#plays li")),
    }
    assert after == before
    browser.refresh()
    wait_for(browser, 57)
    browser.find_element(By.ID, "entry").send_keys(str(written.values[57]), Keys.ENTER)
    wait_for(browser, 58)
    assert TableGame.objects.get().dice == written.values[:58]


def test_dice_tapped_while_one_is_saved_wait_their_turn_and_one_not_recorded_says_so(
    browser,
    live_server,
    player,
    teams,
) -> None:
    """A quick thumb on a slow network: each die goes, in order, once. A die the server did
    not take (offline, a server error, an answer lost on the way) is named in the alert
    box, back in the entry box for Enter to send again, and never recorded twice."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True},
    )
    sign_in_and_start(browser, live_server, player, teams)
    entry = browser.find_element(By.ID, "entry")
    alert = browser.find_element(By.ID, "entry-error")

    def network(offline: bool, latency: int) -> None:
        browser.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": offline, "latency": latency, "downloadThroughput": -1,
             "uploadThroughput": -1},
        )  # fmt: skip

    def refused() -> str:
        WebDriverWait(browser, 10).until(
            lambda d: (
                "NOT recorded" in alert.text
                and not d.find_element(By.ID, "table-game").get_attribute("data-busy")
            )
        )
        return str(alert.text)

    browser.execute_cdp_cmd("Network.enable", {})
    try:
        network(False, 600)
        browser.find_element(By.CSS_SELECTOR, '#pad button[data-value="5"]').click()
        browser.find_element(By.CSS_SELECTOR, '#pad button[data-value="3"]').click()
        assert browser.find_element(By.ID, "pad").get_attribute("aria-busy") == "true"
        assert "Saving" in browser.find_element(By.ID, "save-status").text
        wait_for(browser, 2)
        assert TableGame.objects.get().dice == [5, 3]
        assert browser.find_element(By.ID, "save-status").text == ""

        network(True, 0)  # offline: a tap, then a typed entry
        browser.find_element(By.CSS_SELECTOR, '#pad button[data-value="4"]').click()
        assert "The die 4 was NOT recorded" in refused()
        assert entry.get_attribute("value") == "4"
        entry.send_keys(" 2", Keys.ENTER)
        assert "The dice 4 2 were NOT recorded" in refused()
        assert entry.get_attribute("value") == "4 2"
        assert TableGame.objects.get().dice == [5, 3]
        network(False, 0)
    finally:
        network(False, 0)
        browser.execute_cdp_cmd("Network.disable", {})

    # The server failing (500, an HTML page): said so, kept in the box.
    browser.execute_script(
        "window.realFetch = window.fetch;"
        "window.fetch = function () { return Promise.resolve(new Response('<h1>Server Error</h1>',"
        " {status: 500})); };"
    )
    entry.send_keys(Keys.ENTER)
    assert "error 500" in refused()
    assert entry.get_attribute("value") == "4 2"
    # The answer lost on the way back: the dice are stored, the page does not know it.
    browser.execute_script(
        "window.fetch = function () { return window.realFetch.apply(window, arguments)"
        ".then(function () { throw new TypeError('Failed to fetch'); }); };"
    )
    entry.send_keys(Keys.ENTER)
    assert "could not reach the server" in refused()
    assert TableGame.objects.get().dice == [5, 3, 4, 2]
    browser.execute_script("window.fetch = window.realFetch;")
    entry.send_keys(Keys.ENTER)  # sent again: the count it carries is stale, so refused
    WebDriverWait(browser, 10).until(lambda d: "Reload to see it" in alert.text)
    assert TableGame.objects.get().dice == [5, 3, 4, 2]  # not twice
    browser.refresh()
    wait_for(browser, 4)


def test_a_game_begins_from_a_dice_file_chosen_on_the_sheet(
    browser, live_server, player, teams, tmp_path
) -> None:
    import json

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    played, written = rolled_game(HOME, AWAY, 33)
    doc = {"format": "vabg-dice/1", "d8": [], "d6": [], "d20": []}
    for die, value in zip(written.dice, written.values, strict=True):
        doc[die].append(value)
    path = tmp_path / "rolled.json"
    path.write_text(json.dumps(doc))
    not_json = tmp_path / "notes.json"
    not_json.write_text("d8 5, d6 3 4")
    table = sign_in_and_start(browser, live_server, player, teams)
    picker = browser.find_element(By.ID, "dice-file-input")
    picker.send_keys(str(not_json))
    error = browser.find_element(By.ID, "entry-error")
    # the file is read in a promise: its refusal comes a moment after the choice
    WebDriverWait(browser, 10).until(lambda d: "is not a dice file" in error.text)
    assert "notes.json is not a dice file: it is not JSON" in error.text
    picker.send_keys(str(path))
    wait_for(browser, len(written.values))
    assert browser.find_element(By.ID, "away-score").text == str(played.away.score)
    assert browser.find_element(By.ID, "home-score").text == str(played.home.score)
    assert not browser.find_element(By.ID, "dice-file-entry").is_displayed()
    assert TableGame.objects.get(pk=table.pk).dice == written.values
