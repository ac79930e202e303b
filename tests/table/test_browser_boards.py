"""Grid court and six dice at the table in a real browser (Chromium, the shared fixture).

Each test starts the game from the new-game form, taps and types a seeded game's dice
(a refused die, an undo and a reload on the way; six dice with both sides' choices made
by hand, as the default policy made them), stores it, and checks the stored game against
``python -m simulator play --game X --dice FILE --json`` for the same dice.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from league.models import Game
from simulator.games import StyledTeam, TeamName, find_game
from simulator.gridcourt.rules import GridRules
from simulator.sixdice.rules import CHIP_REROLL, STANDARD, SixDiceRules
from table.models import TableGame
from tests.browsing import serious_axe_findings
from tests.simulator.gridcourt.hands import recorded as grid_recorded
from tests.simulator.sixdice.hands import recorded
from tests.table.conftest import AWAY_FILE, HOME_FILE
from tests.table.dice import Written
from tests.table.test_browser import need, signed_in, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
HOME = TeamName("Kentucky", 2012)
AWAY = TeamName("Kansas", 2008)


def shortest_game(name: str, seeds: range) -> list[int]:
    """Return the dice of the shortest of a few seeded games (a short scripted game)."""
    games = []
    for seed in seeds:
        written = Written(seed)
        find_game(name).play(HOME, AWAY, written)
        games.append(written.values)
    return min(games, key=len)


def start(
    driver,
    live_server,
    player,
    teams,
    name: str,
    hands: str = "both",
    pieces: int = 5,
    chip_reroll: bool = False,
):  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    signed_in(driver, live_server, player)  # the sign-in form is the VABG whole game's
    driver.get(f"{live_server.url}/table/")
    home, away = teams
    Select(driver.find_element(By.NAME, "game")).select_by_value(name)
    assert driver.find_element(By.CSS_SELECTOR, '[data-game="vabg"]').is_displayed() is False
    Select(driver.find_element(By.NAME, "away")).select_by_visible_text(str(away))
    Select(driver.find_element(By.NAME, "home")).select_by_visible_text(str(home))
    Select(driver.find_element(By.NAME, "hands")).select_by_value(hands)
    if name == "gridcourt":
        Select(driver.find_element(By.NAME, "pieces")).select_by_value(str(pieces))
    if chip_reroll:  # six dice's advanced Power Chip (§2.11)
        driver.find_element(By.NAME, "chip_reroll").click()
    driver.find_element(By.CSS_SELECTOR, "#new-game button[type=submit]").click()
    wait_for(driver, 0)
    table = TableGame.objects.get()
    assert table.game == name
    return table


def type_in(driver, values: list[int], done: int, upto: int, chunk: int) -> int:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    entry = driver.find_element(By.ID, "entry")
    while done < upto:
        step = values[done : min(done + chunk, upto)]
        entry.send_keys(" ".join(map(str, step)), Keys.ENTER)
        done += len(step)
        wait_for(driver, done)
    return done


def engine_json(tmp_path: Path, name: str, dice: dict[str, object]) -> dict[str, object]:
    dice_file = tmp_path / "dice.json"
    dice_file.write_text(json.dumps(dice))
    cli = subprocess.run(
        [sys.executable, "-m", "simulator", "play", "--game", name, str(HOME_FILE),
         str(AWAY_FILE), "--dice", str(dice_file), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    doc: dict[str, object] = json.loads(cli.stdout)
    return doc


def finish_and_compare(driver, tmp_path: Path, name: str, values: list[int]):  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    assert need(driver) == ("", "")
    driver.find_element(By.ID, "finish").click()
    driver.find_element(By.ID, "league-game")  # waits for the stored game's link
    table = TableGame.objects.get()
    assert table.status == "finished"
    game = Game.objects.select_related("result").get(pk=table.league_game_id)
    assert game.result.dice["d6"] == values
    expected = engine_json(tmp_path, name, game.result.dice)
    assert game.result.events == expected["events"]
    home, away = expected["home"], expected["away"]
    assert isinstance(home, dict) and isinstance(away, dict)
    assert (game.result.home_score, game.result.away_score) == (home["score"], away["score"])
    assert driver.find_element(By.ID, "home-score").text == str(home["score"])
    assert driver.find_element(By.ID, "away-score").text == str(away["score"])
    link = driver.find_element(By.ID, "league-game").get_attribute("href")
    assert link.endswith(f"/games/{game.pk}/")
    return game, expected


def test_grid_court_is_tapped_and_typed_refused_undone_resumed_and_stored_as_the_engine_plays_it(
    browser,
    live_server,
    player,
    teams,
    tmp_path,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(1280, 900)
    values = shortest_game("gridcourt", range(1, 6))
    table = start(browser, live_server, player, teams, "gridcourt", hands="none")
    assert need(browser) == ("d6", "Kansas 2008: offensive roll")
    assert "coach style" in browser.find_element(By.ID, "policy-note").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#pad button")) == 6
    assert browser.find_element(By.ID, "undo-trip").text == "Undo roll"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#pieces tr[data-piece]")) == 5

    browser.find_element(By.CSS_SELECTOR, f'#pad button[data-value="{values[0]}"]').click()
    wait_for(browser, 1)
    assert browser.find_element(By.ID, "need-die").text == "d6 2/2"
    entry = browser.find_element(By.ID, "entry")
    entry.send_keys(f"{values[1]} 7", Keys.ENTER)
    assert browser.find_element(By.CSS_SELECTOR, "#entry-error .tok.bad").text == "7"
    assert "7 is not a face of a d6" in browser.find_element(By.ID, "entry-error").text
    assert TableGame.objects.get().dice == values[:1]
    entry.clear()
    browser.find_element(By.ID, "undo-die").click()
    wait_for(browser, 0)

    done = type_in(browser, values, 0, len(values) // 2, 9)
    before = browser.find_element(By.ID, "need-why").text
    browser.refresh()  # resume where it was left
    wait_for(browser, done)
    assert browser.find_element(By.ID, "need-why").text == before
    done = type_in(browser, values, done, len(values), 25)
    game, expected = finish_and_compare(browser, tmp_path, "gridcourt", values)
    for side in ("home", "away"):
        doc = expected[side]
        assert isinstance(doc, dict)
        assert game.result.box[side]["pieces"] == doc["pieces"]
        for line in doc["pieces"]:
            row = browser.find_element(
                By.CSS_SELECTOR, f'table.box[data-side="{side}"] tr[data-line="{line["piece"]}"]'
            )
            assert row.find_element(By.CSS_SELECTOR, "td.pts").text == str(line["pts"])
    assert table.pk == TableGame.objects.get().pk


def entries(
    values: list[int], tokens: list[str], rules: SixDiceRules = STANDARD, first: int | None = None
) -> list[tuple[str, object]]:
    """Return a six-dice game played by hand as the sheet asks for it: the dice up to the
    next choice (one entry, as a player types the rolls between two questions), or a
    choice. With ``first``, only the first entries, as many (the sheet is read again from
    the first die at every step: the rest of the game is not played for them)."""
    out: list[tuple[str, object]] = []
    dice: list[int] = []
    choices: list[str] = []
    engine = find_game("sixdice")
    while True:
        if first is not None and len(out) > first:  # the entry ``first`` is whole
            return out[:first]
        sheet = engine.sheet(HOME, AWAY, dice, rules=rules, choices=choices, hands=("home", "away"))
        if sheet.question is not None:
            out.append(("choice", tokens[len(choices)]))
            choices.append(tokens[len(choices)])
        elif sheet.need is not None:
            left = sheet.need.size - sheet.need.index + 1
            roll = values[len(dice) : len(dice) + left]
            if out and out[-1][0] == "dice":
                out[-1] = ("dice", [*out[-1][1], *roll])  # type: ignore[misc]
            else:
                out.append(("dice", roll))
            dice += roll
        else:
            return out


# The reads of a choice asked and made, each in one script (not a find_element and its
# atoms each): the panel and the entry box shown or not (as Selenium's is_displayed: laid
# out, visible, not transparent), the choice buttons' heights, the badge's text.
CHOICE_ASKED = """
const shown = e => e.getClientRects().length > 0
  && e.checkVisibility({opacityProperty: true, visibilityProperty: true});
const panel = document.getElementById("choice");
return [shown(panel), shown(document.getElementById("entry")),
        [...panel.querySelectorAll("#choice-options button")]
          .map(b => b.getBoundingClientRect().height),
        document.getElementById("need-die").innerText.trim()];
"""
FOCUS_AFTER_CHOICE = """
const f = document.activeElement;
return [f.getAttribute("data-choice"), f.getAttribute("data-value"), f.id,
        f.tagName.toLowerCase()];
"""


def test_six_dice_played_by_hand_at_phone_width_asks_each_choice_and_is_stored_choice_for_choice(
    browser,
    live_server,
    player,
    teams,
    tmp_path,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True},
    )
    # A seeded game, its choices written down as the policy made them: of seeds 1-399 the
    # one that asks the fewest (33, with 1,198 dice), since each choice is an entry.
    _, values, tokens = recorded(304, {"home", "away"}, STANDARD, HOME, AWAY)
    table = start(browser, live_server, player, teams, "sixdice")
    assert table.hands == ["away", "home"]  # the form's default: both sides by hand
    assert need(browser) == ("d6", "Kansas 2008: jump ball")
    assert browser.find_element(By.ID, "need-die").text == "d6 1/6"
    assert "make every choice the rules give" in browser.find_element(By.ID, "policy-note").text
    pad = browser.find_elements(By.CSS_SELECTOR, "#pad button")
    assert [b.text for b in pad] == ["1 B", "2 B", "3 B", "4 P", "5 S", "6 F"]
    assert all(b.size["height"] >= 44 for b in pad)
    for count, value in enumerate(values[:6], start=1):
        browser.find_element(By.CSS_SELECTOR, f'#pad button[data-value="{value}"]').click()
        wait_for(browser, count)
    assert need(browser) == ("d6", "Kentucky 2012: jump ball")
    browser.find_element(By.ID, "undo-trip").click()  # on a roll's first die: the roll before
    wait_for(browser, 0)
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    ), "the page scrolls sideways on a phone"
    # Both teams' columns of the team box on the screen: its two names wrap (at 375 px a
    # trial's long names hid the home team's column in a box scrolled sideways).
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 340, "height": 844, "deviceScaleFactor": 3, "mobile": True},
    )
    assert browser.execute_script(
        "var w = document.getElementById('team-box').parentElement;"
        "return w.scrollWidth <= w.clientWidth"
    ), "the team box hides a team's column on a phone"
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True},
    )

    count = asked = 0
    entry = browser.find_element(By.ID, "entry")
    for kind, what in entries(values, tokens):
        if kind == "dice":
            assert isinstance(what, list)
            entry.send_keys(" ".join(map(str, what)), Keys.ENTER)
            count += len(what)
        else:
            panel, box, heights, die = browser.execute_script(CHOICE_ASKED)
            assert panel and not box  # the choice's buttons shown, the entry box not
            assert heights and all(h >= 44 for h in heights)
            assert die == "choice"
            if asked == 0:  # the first choice is taken back once, then made again
                browser.find_element(By.CSS_SELECTOR, f'[data-choice="{what}"]').click()
                wait_for(browser, count + 1)
                assert browser.find_element(By.ID, "undo-die").text == "Undo last entry"
                browser.find_element(By.ID, "undo-die").click()
                wait_for(browser, count)
            browser.find_element(By.CSS_SELECTOR, f'#choice-options [data-choice="{what}"]').click()
            count += 1
            asked += 1
        wait_for(browser, count)
        if kind == "choice":  # the keyboard is on the next thing to do: a choice, or the box
            choice, value, ident, tag = browser.execute_script(FOCUS_AFTER_CHOICE)
            assert (
                choice or value or ident in ("entry", "finish")  # tapped: the pad, not the box
            ), f"focus on {tag} after choice {asked}"
    assert asked == len(tokens) > 0
    game, _ = finish_and_compare(browser, tmp_path, "sixdice", values)
    assert (game.result.dice["choices"], game.result.dice["hands"]) == (tokens, ["away", "home"])
    assert TableGame.objects.get().choice_tokens == tokens


def severe_console(driver) -> list[str]:  # type: ignore[no-untyped-def]
    """Return the page's console errors since the last read (a script that threw)."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def click_svg(driver, selector: str) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f"#court {selector}").click()


# Reads of the page done in one script each (a round trip to the browser costs more than
# what it reads): each returns what the former find_element and get_attribute calls did.
ON_COURT = """
let here = document.activeElement;
if (!here || !here.hasAttribute("data-cell")) {  // Tab to the court: its one focusable cell
  here = document.querySelector('#court rect[tabindex="0"]');
  here.focus();
}
return here.getAttribute("data-cell");
"""
FOCUSED = """
const here = document.activeElement;
return here && [here.getAttribute("data-cell"), here.getAttribute("aria-label"), here.id,
                here.tagName.toLowerCase()];
"""
ASKED = """
return [document.getElementById("need").getAttribute("data-question"),
        document.getElementById("need-die").innerText.trim()];  // "d6", or "d6 1/2"
"""
SHOWN = """
const shown = document.getElementById(arguments[0]);  // its text, if it is on the screen
return shown && shown.getClientRects().length ? shown.innerText.trim() : null;
"""
DRAWN = """
return [document.querySelectorAll("#boxes table#team-box").length,
        document.querySelectorAll("#pieces tr[data-piece]").length,
        [...document.querySelectorAll("#pieces td")]
          .filter(td => td.textContent.trim() === "not placed").length];
"""
ATTRIBUTES = """
const found = document.querySelector(arguments[0]);
return found && arguments[1].map(name => found.getAttribute(name));
"""


def attributes(driver, css: str, *names: str) -> list[str | None]:  # type: ignore[no-untyped-def]
    """Return the attributes ``names`` of the element ``css`` finds, waited for as
    find_element waits for it when it is not there (yet)."""
    from selenium.webdriver.common.by import By

    found = driver.execute_script(ATTRIBUTES, css, list(names))
    if found is None:
        element = driver.find_element(By.CSS_SELECTOR, css)
        found = [element.get_dom_attribute(name) for name in names]
    return list(found)


def focused(driver) -> tuple[str | None, str | None, str, str]:  # type: ignore[no-untyped-def]
    """Return the focused element's cell, its aria-label, its id and its tag name."""
    cell, label, ident, tag = driver.execute_script(FOCUSED)
    return cell, label, ident, tag


def keyboard_to(driver, cell: str) -> None:  # type: ignore[no-untyped-def]
    """Walk the court's keyboard cell to ``cell`` with the arrow keys, then press Enter,
    as a player without a mouse does (the court's one tab stop focused first)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    here = driver.execute_script(ON_COURT)
    (r0, c0), (r1, c1) = (map(int, x.split(",")) for x in (here, cell))
    keys = [Keys.ARROW_DOWN if r1 > r0 else Keys.ARROW_UP] * abs(r1 - r0)
    keys += [Keys.ARROW_RIGHT if c1 > c0 else Keys.ARROW_LEFT] * abs(c1 - c0)
    ActionChains(driver).send_keys(*keys).perform()
    at, label, _, _ = focused(driver)
    assert at == cell
    assert label is not None and label.startswith(
        "Row {}, column {}, worth".format(*cell.split(","))
    )
    ActionChains(driver).send_keys(Keys.ENTER).perform()


def tab_to_done(driver) -> None:  # type: ignore[no-untyped-def]
    """From the court, Tab on to "Done" (after the court and "Take back" in the tab order)
    and press Enter, as a player without a mouse does."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.execute_script(ON_COURT)
    for _ in range(2):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        where = focused(driver)[2]
        if where == "court-done":
            break
    assert where == "court-done"
    ActionChains(driver).send_keys(Keys.ENTER).perform()


def piece_cell(driver, selector: str) -> str:  # type: ignore[no-untyped-def]
    """Return the cell ("row,column") a piece drawn on the court stands on."""
    cy, cx = attributes(driver, f"#court {selector}", "cy", "cx")
    return "{},{}".format(*(round(float(str(x)) + 0.5) for x in (cy, cx)))


def test_grid_court_played_by_hand_on_the_drawn_court_is_stored_choice_for_choice(
    browser,
    live_server,
    player,
    teams,
    tmp_path,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(1280, 1000)
    # A seeded game of three pieces a side, its moves written down as the rulings' policy
    # made them: of seeds 1-299 the one that asks the fewest choices (55, with 55 dice).
    home, away = (StyledTeam(t.school, t.season, None) for t in (HOME, AWAY))
    rules = GridRules(pieces=3)
    played, values, tokens = grid_recorded(208, {"home", "away"}, rules, home, away)
    table = start(browser, live_server, player, teams, "gridcourt", pieces=3)
    assert table.hands == ["away", "home"] and table.options["pieces"] == 3
    assert browser.find_element(By.ID, "court").is_displayed()
    assert "make every choice by hand" in browser.find_element(By.ID, "policy-note").text
    count = used = 0
    took_back = placed_one = placed_both = False
    audited: set[str] = set()
    entry = browser.find_element(By.ID, "entry")
    while used < len(tokens) or count < len(values):
        question, die = browser.execute_script(ASKED)
        if not question:  # the roll's dice, typed at once
            index, size = map(int, die.split()[1].split("/")) if "/" in die else (1, 1)
            roll = values[count : count + size - index + 1]
            entry.send_keys(" ".join(map(str, roll)), Keys.ENTER)
            count += len(roll)
            wait_for(browser, count + used)
            continue
        token = tokens[used]
        body = token.partition(":")[2]
        # Every other choice on the court is made with the keyboard alone (arrows, Enter).
        keys = used % 2 == 1
        if question in ("place", "steps") and question not in audited:
            audited.add(question)  # the court as a grid of cells: nothing axe objects to
            assert serious_axe_findings(browser) == [], question
        if question == "place":
            # A wrong cell is not offered: only the arc's side of the court is marked.
            for n, cell in enumerate(body.split()):
                if keys:
                    keyboard_to(browser, cell)
                else:
                    click_svg(browser, f'rect.ok[data-cell="{cell}"]')
                assert str(browser.execute_script(SHOWN, "court-status")).startswith(f"{n + 1} of")
            if keys:
                tab_to_done(browser)
            else:
                browser.find_element(By.ID, "court-done").click()
        elif question == "announce":
            browser.find_element(
                By.CSS_SELECTOR, f'#choice-options [data-choice="{token}"]'
            ).click()
        else:
            assert question == "steps"
            selected = None
            for step in body.split():
                piece, _, cell = step.partition(">")
                mine = f'circle.mine[data-piece$="-{piece}"]'
                if piece != selected:  # a piece stays selected for its next step
                    if keys:
                        keyboard_to(browser, piece_cell(browser, mine))
                    else:
                        click_svg(browser, mine)
                    selected = piece
                assert "sel" in str(attributes(browser, f"#court {mine}", "class")[0])
                if keys:
                    keyboard_to(browser, cell)
                else:
                    click_svg(browser, f'rect.ok[data-cell="{cell}"]')
            if body and not took_back:  # once: a step taken back and made again
                took_back = True
                browser.find_element(By.ID, "court-back").click()
                piece, _, cell = body.split()[-1].partition(">")
                click_svg(browser, f'rect.ok[data-cell="{cell}"]')
            if keys:
                tab_to_done(browser)
            else:
                browser.find_element(By.ID, "court-done").click()
        used += 1
        try:
            wait_for(browser, count + used)
        except Exception:
            raise AssertionError(
                f"choice {used} {token!r}: " + browser.find_element(By.ID, "entry-error").text
            ) from None
        if question == "place":
            # The offense placed, the defense not yet (the game's start, each reset): the
            # page draws the board with the defense's pieces "not placed", no script error,
            # and the box score and the play-by-play still drawn.
            assert severe_console(browser) == [], token
            # Counted in the page, in one script (find_elements would wait out the
            # implicit wait each time there is none).
            boxes, pieces, unplaced = browser.execute_script(DRAWN)
            assert boxes and pieces, token
            placed_both |= unplaced == 0
            placed_one |= unplaced > 0
        # The keyboard goes on to the next thing to do, never back to the page's top.
        assert focused(browser)[3] != "body", f"focus lost after choice {used} {token!r}"
    assert need(browser) == ("", "")
    browser.find_element(By.ID, "finish").click()
    browser.find_element(By.ID, "league-game")  # waits for the stored game's link
    assert took_back and audited == {"place", "steps"}
    assert placed_one and placed_both  # the offense's placement, then the defense's
    game = Game.objects.select_related("result").get(pk=TableGame.objects.get().league_game_id)
    stored = game.result
    assert stored.dice["d6"] == values
    assert (stored.dice["choices"], stored.dice["hands"]) == (tokens, ["away", "home"])
    # Both sides chose as the rulings' policy would: the policy's game, event for event.
    assert stored.events == json.loads(json.dumps([e.to_json() for e in played.events]))


def test_on_a_phone_the_grid_court_s_cells_are_a_thumb_wide_and_only_the_court_scrolls(
    browser, live_server, player, teams
) -> None:
    from selenium.webdriver.common.by import By

    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True},
    )
    start(browser, live_server, player, teams, "gridcourt")
    court = browser.find_element(By.ID, "court")
    assert court.is_displayed()
    cell = browser.find_element(By.CSS_SELECTOR, "#court rect.cell")
    # A trial's 390 px phone drew 26 px cells: too small to tap.
    assert cell.rect["width"] >= 36, cell.rect
    page_width, screen = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert page_width <= screen  # the court scrolls inside its box, the page does not


def test_a_placing_under_way_survives_a_reload_and_a_cell_it_cannot_take_says_why(
    browser, live_server, player, teams
) -> None:
    """A trial: 3 of 5 defenders placed, a reload, and "0 of 5 placed"; a tap inside the
    arc while the offense placed did nothing and said nothing."""
    from selenium.webdriver.common.by import By

    start(browser, live_server, player, teams, "gridcourt")
    # The court says which colour is which team and numbers its rows and columns, as every
    # prompt and refusal names cells by (row, column) (a table-top player's review).
    key = browser.find_element(By.ID, "court-key").text
    assert "(visitors, ringed)" in key and "(home)" in key
    rows, columns, axis = browser.execute_script(
        "var cells = [...document.querySelectorAll('#court rect.cell')].map(r => r.dataset.cell.split(',').map(Number));"
        "return [Math.max(...cells.map(c => c[0])), Math.max(...cells.map(c => c[1])),"
        " [...document.querySelectorAll('#court text.axis')].map(t => t.textContent)]"
    )
    assert sorted(axis, key=int) == sorted(
        [str(n) for n in range(1, rows + 1)] + [str(n) for n in range(1, columns + 1)], key=int
    )
    ok = browser.execute_script(
        "return [...document.querySelectorAll('#court rect.ok')].map(r => r.dataset.cell)"
    )
    for cell in ok[:3]:
        browser.find_element(By.CSS_SELECTOR, f'#court rect[data-cell="{cell}"]').click()
    assert browser.find_element(By.ID, "court-status").text == "3 of 5 placed"
    browser.refresh()
    wait_for(browser, 0)
    assert browser.find_element(By.ID, "court-status").text == "3 of 5 placed"
    inside = browser.execute_script(
        "return [...document.querySelectorAll('#court rect.in:not(.ok)')][0].dataset.cell"
    )
    browser.find_element(By.CSS_SELECTOR, f'#court rect[data-cell="{inside}"]').click()
    row, column = inside.split(",")
    assert browser.find_element(By.ID, "court-refused").text == (
        f"({row}, {column}) is inside the arc: the offense places outside it."
    )
    click_svg(browser, f'circle[data-cell="{ok[0]}"]')  # the piece placed there
    assert browser.find_element(By.ID, "court-refused").text.endswith("is taken.")
    assert browser.find_element(By.ID, "court-status").text == "3 of 5 placed"


IN_VIEW = """
// Whether each element is wholly on the screen, as it stands (nothing scrolled for it).
return arguments[0].map(function (id) {
  var node = typeof id === "string" ? document.querySelector(id) : id;
  if (!node || !node.getClientRects().length) { return id + ": not drawn"; }
  var r = node.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight ? "" : id + ": " + Math.round(r.top) + "-" + Math.round(r.bottom);
}).filter(function (x) { return x; });
"""


def test_on_a_phone_the_court_and_its_prompt_pad_and_buttons_are_on_one_screen(
    browser, live_server, player, teams
) -> None:
    # A table-top player's review at 390x844: the court was below the fold at the first
    # "place pieces" question and the dice pad above it, so every move meant scrolling; and
    # a placed piece hid its cell's value.
    from selenium.webdriver.common.by import By

    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True},
    )
    start(browser, live_server, player, teams, "gridcourt", pieces=3)
    kinds: set[str] = set()
    for count in range(1, 13):
        question, _die = browser.execute_script(ASKED)
        if question in ("place", "steps"):
            kinds.add(question)
            assert browser.execute_script(IN_VIEW, ["#need", "#court", "#court-done"]) == []
            if question == "place":
                for _piece in range(3):
                    browser.find_element(By.CSS_SELECTOR, "#court rect.ok").click()
            # Only the court scrolls sideways: scrolled to its last column, Take back and
            # Done stay whole on the screen (they scrolled away with it, Done cut short).
            across = browser.execute_script(
                "var box = document.getElementById('court-scroll'); box.scrollLeft = 1e6;"
                "return [box.scrollLeft > 0].concat(['court-back', 'court-done'].map("
                "function (id) { var r = document.getElementById(id).getBoundingClientRect();"
                " return r.left >= 0 && r.right <= window.innerWidth; }))"
            )
            assert across == [True, True, True], across
            browser.find_element(By.ID, "court-done").click()
        elif question:  # announce a shot or roll to move: its buttons, above the court
            kinds.add(question)
            assert browser.execute_script(IN_VIEW, ["#need", "#choice-options", "#court"]) == []
            browser.find_elements(By.CSS_SELECTOR, "#choice-options button")[-1].click()
        else:  # the dice: the pad and the court the roll moves on, together
            kinds.add("dice")
            assert browser.execute_script(IN_VIEW, ["#need", "#pad", "#court"]) == []
            browser.find_element(By.CSS_SELECTOR, '#pad button[data-value="3"]').click()
        wait_for(browser, count)
    assert {"place", "dice"} <= kinds, kinds
    # The cells' values are drawn over the pieces: a piece never hides its cell's value.
    order = browser.execute_script(
        "var svg = document.getElementById('court');"
        "return [svg.lastElementChild.getAttribute('class'),"
        " svg.querySelectorAll('circle').length, svg.lastElementChild.children.length]"
    )
    assert order[0] == "values" and order[1] >= 3 and order[2] == 14 * 10, order
    assert severe_console(browser) == []
    page_width, screen = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert page_width <= screen


def test_a_step_the_rules_refuse_says_why_beside_the_court(
    browser, live_server, player, teams
) -> None:
    """A step the offense cannot take, tapped on the court: a diagonal step, a cell not
    next to the piece, and a cell another piece stands on (a tap on the other team's piece
    said nothing at all): each is refused saying why, and nothing moves."""
    from django.test import Client
    from selenium.webdriver.common.by import By

    table = start(browser, live_server, player, teams, "gridcourt", pieces=3)
    # A scripted position, entered through the API: Kansas (offense) at (8, 5), (9, 9) and
    # (10, 12), Kentucky's piece 1 at (7, 5) right above Kansas's piece 1; Kansas rolls 3 3.
    client = Client()
    client.force_login(player)
    api = f"/table/api/games/{table.pk}/"
    for count, (url, body) in enumerate(
        [
            ("choice/", {"choice": "place:8,5 9,9 10,12"}),
            ("choice/", {"choice": "place:7,5 5,8 4,7"}),
            ("choice/", {"choice": "move"}),
            ("dice/", {"dice": [3, 3]}),
        ]
    ):
        answer = client.post(
            api + url, {**body, "expected": count}, content_type="application/json"
        )
        assert answer.status_code == 200, answer.content
    browser.refresh()
    wait_for(browser, 5)
    assert browser.execute_script(ASKED)[0] == "steps"
    click_svg(browser, 'circle.mine[data-piece="away-1"]')
    refused = browser.find_element(By.ID, "court-refused")
    for tap, why in [
        (
            'rect[data-cell="9,4"]',
            "(9, 4) is a diagonal step from piece 1 at (8, 5): the offense steps up, down, "
            "left or right only (§2.6); the defense may step diagonally.",
        ),
        (
            'rect[data-cell="8,8"]',
            "(8, 8) is not next to piece 1 at (8, 5): a step moves one cell.",
        ),
        (
            'circle[data-piece="home-1"]',  # the other team's piece, at (7, 5)
            "(7, 5) is taken: a step moves to an empty cell.",
        ),
    ]:
        click_svg(browser, tap)
        assert refused.text == why
        assert browser.find_element(By.ID, "court-status").text == "0 of 6 steps · piece 1 selected"
        assert piece_cell(browser, 'circle[data-piece="away-1"]') == "8,5"
    click_svg(browser, 'rect.ok[data-cell="8,4"]')  # a step the rules allow: taken, no refusal
    assert refused.text == ""
    assert piece_cell(browser, 'circle[data-piece="away-1"]') == "8,4"
    assert severe_console(browser) == []


# The choice asked, as a player sees it: its kind, the prompt, the buttons, and a reroll's
# boxes (their labels, ticked or not, and their heights: a thumb's tap).
QUESTION = """
const panel = document.getElementById("choice");
const boxes = [...panel.querySelectorAll("#choice-dice label")];
return [document.getElementById("need").getAttribute("data-question"),
        document.getElementById("need-why").innerText.trim(),
        [...panel.querySelectorAll("#choice-options button")].map(b => b.innerText.trim()),
        boxes.map(l => [l.innerText.trim(), l.querySelector("input").checked,
                        l.getBoundingClientRect().height])];
"""


def test_six_dice_by_hand_asks_the_chip_reroll_of_a_holder_who_trails_and_a_tie_once(
    browser, live_server, player, teams
) -> None:
    """Power Chip reroll on (§2.11), both sides by hand, at a phone's width: a tied main
    roll asks the chip question alone (questions version 2: a tie was asked twice, a
    reroll and then the chip); a holder who trails a shot is asked to reroll, a box per
    die, and Keep and Reroll both do what they say."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 375, "height": 812, "deviceScaleFactor": 3, "mobile": True},
    )
    # Seed 37 of the default policy: Kentucky, holding the chip, ties the main roll after
    # 36 dice (and plays the chip); Kansas, holding it then, trails a shot 2 to 4 after 48
    # and rerolls four of its six dice.
    _, values, tokens = recorded(37, {"home", "away"}, CHIP_REROLL, HOME, AWAY)
    assert tokens[:3] == ["chip", "stay", "reroll:2,3,4,6"]
    steps = entries(values, tokens, CHIP_REROLL, first=6)
    assert [k for k, _ in steps] == ["dice", "choice", "choice", "dice", "choice", "dice"]
    table = start(browser, live_server, player, teams, "sixdice", chip_reroll=True)
    assert table.options["chip_reroll"] is True and table.questions_version == 2
    entry = browser.find_element(By.ID, "entry")
    assert entry.get_attribute("placeholder") == "1 1 4 5 2 6 or BBPSBF"  # as the server's
    entry.send_keys(" ".join(map(str, steps[0][1])), Keys.ENTER)  # type: ignore[arg-type]
    wait_for(browser, 36)

    # The tie: the chip question, straight after the dice (no reroll question first).
    kind, prompt, buttons, boxes = browser.execute_script(QUESTION)
    assert kind == "chip" and prompt.startswith("The main roll is tied at 3."), prompt
    assert prompt.count("Kentucky 2012") == 1, prompt  # whose choice, said once
    # The prompt and both buttons on the screen (the second was below its foot).
    assert browser.execute_script(IN_VIEW, ["#need", "#choice-options"]) == []
    assert buttons == ["Play the chip: win the tie", "Keep the chip: lose the tie"]
    assert boxes == []
    assert TableGame.objects.get().choice_tokens == []
    browser.find_element(By.CSS_SELECTOR, '#choice-options [data-choice="chip"]').click()
    wait_for(browser, 37)
    assert browser.execute_script(QUESTION)[0] == "push"  # the shot's question, not the tie again
    browser.find_element(By.CSS_SELECTOR, '#choice-options [data-choice="stay"]').click()
    wait_for(browser, 38)
    entry.send_keys(" ".join(map(str, steps[3][1])), Keys.ENTER)  # type: ignore[arg-type]
    wait_for(browser, 50)

    # The holder trails: asked to reroll, a box per die of its own, none ticked.
    kind, prompt, buttons, boxes = browser.execute_script(QUESTION)
    assert kind == "reroll" and prompt.startswith("The shot stands 2 to 4 (you trail)."), prompt
    assert browser.execute_script(IN_VIEW, ["#need", "#choice-options"]) == []
    assert buttons == ["Keep the chip", "Reroll the dice named"]
    own = values[42:48]
    assert [b[0] for b in boxes] == [
        f"die {i}: {v} {'BBBPSF'[v - 1]}" for i, v in enumerate(own, start=1)
    ]
    assert not any(b[1] for b in boxes)
    assert all(b[2] >= 44 for b in boxes), boxes  # a thumb's tap on a phone
    reroll = browser.find_element(By.CSS_SELECTOR, '#choice-options [data-choice="reroll:"]')
    reroll.click()  # nothing ticked: said, nothing sent
    assert browser.find_element(By.ID, "entry-error").text == (
        "Tick the dice to reroll first, or keep the chip."
    )
    assert TableGame.objects.get().choice_tokens == ["chip", "stay"]
    # Keep: the game goes on without a reroll; then undone, and the question is back.
    browser.find_element(By.CSS_SELECTOR, '#choice-options [data-choice="keep"]').click()
    wait_for(browser, 51)
    assert TableGame.objects.get().choice_tokens == ["chip", "stay", "keep"]
    assert "chip reroll" not in need(browser)[1]
    browser.find_element(By.ID, "undo-die").click()
    wait_for(browser, 50)
    assert browser.execute_script(QUESTION)[0] == "reroll"
    # Reroll dice 2, 3, 4 and 6 (ticked by a tap on their labels): four dice asked for.
    for die in (2, 3, 4, 6):
        browser.find_elements(By.CSS_SELECTOR, "#choice-dice label")[die - 1].click()
    assert [b[1] for b in browser.execute_script(QUESTION)[3]] == [
        False, True, True, True, False, True,
    ]  # fmt: skip
    browser.find_element(By.CSS_SELECTOR, '#choice-options [data-choice="reroll:"]').click()
    wait_for(browser, 51)
    assert TableGame.objects.get().choice_tokens == ["chip", "stay", "reroll:2,3,4,6"]
    assert need(browser) == ("d6", "Kansas 2008: chip reroll")
    assert browser.find_element(By.ID, "need-die").text == "d6 1/4"
    # the box's example is four dice (it said six), as numbers or faces
    assert entry.get_attribute("placeholder") == "1 1 4 5 or BBPS"
    entry.send_keys(" ".join(map(str, steps[5][1][:4])), Keys.ENTER)  # type: ignore[index]
    wait_for(browser, 55)
    assert "chip reroll" not in need(browser)[1]
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    ), "the page scrolls sideways on a phone"
    assert severe_console(browser) == []
