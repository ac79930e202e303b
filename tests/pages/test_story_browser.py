"""A fan in Chromium, at desktop and phone widths: the tournament page, the game story and
the play-by-play in plain words, with the keyboard where a fan would use it."""

from __future__ import annotations

import re

import pytest

from league import services, tournaments
from league.models import Game
from tests.browsing import follow
from tests.factories import full_team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"desktop": (1280, 900), "phone": (420, 900)}


@pytest.fixture
def cup(django_capture_on_commit_callbacks):  # type: ignore[no-untyped-def]
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Cup"),
        name="Story Cup",
        teams=[full_team() for _ in range(8)],
        seed=12,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=cup, scope="all")
    return cup


def no_sideways_scroll(driver) -> bool:  # type: ignore[no-untyped-def]
    return bool(
        driver.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth + 1"
        )
    )


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_fan_reads_the_tournament_page_and_opens_the_final(
    browser,
    live_server,
    cup,
    width,
) -> None:
    from selenium.webdriver.common.by import By

    browser.set_window_size(*WIDTHS[width])
    champion = tournaments.champion(cup)
    browser.get(f"{live_server.url}/")
    follow(browser, browser.find_element(By.LINK_TEXT, "Tournaments"))
    follow(browser, browser.find_element(By.LINK_TEXT, str(cup)))
    assert browser.title.startswith(f"{cup}: {champion} champion")
    crown = browser.find_element(By.ID, "champion")
    assert champion.school in crown.text and "Championship" in crown.text
    assert crown.is_displayed()
    assert no_sideways_scroll(browser)
    # the champion comes before the results; the standings of a season are not there
    results = browser.find_element(By.ID, "results")
    assert crown.location["y"] < results.location["y"]
    assert "Tiebreaker" not in browser.page_source and "Standings" not in browser.page_source
    rounds = browser.find_elements(By.CSS_SELECTOR, "details.round")
    assert [r.get_attribute("open") is not None for r in rounds] == [True, False, False]
    # a closed round opens from its summary, and lists its four games
    rounds[-1].find_element(By.TAG_NAME, "summary").click()
    first_round = rounds[-1].find_elements(By.CSS_SELECTOR, "li[data-game]")
    assert len(first_round) == 4 and all(li.is_displayed() for li in first_round)
    final = Game.objects.get(season=cup, round=3)
    follow(browser, rounds[0].find_element(By.CSS_SELECTOR, f'a[href="/games/{final.pk}/"]'))
    headline = browser.find_element(By.CSS_SELECTOR, "#story h2")
    high = max(final.result.home_score, final.result.away_score)
    low = min(final.result.home_score, final.result.away_score)
    assert champion.school in headline.text and f"{high}-{low}" in headline.text
    linescore = browser.find_element(By.CSS_SELECTOR, ".linescore")
    assert headline.location["y"] < linescore.location["y"]  # the story leads the box score
    browser.back()
    follow(browser, browser.find_element(By.LINK_TEXT, "The bracket"))
    assert champion.school in browser.find_element(By.ID, "champion").text


# The play-by-play read in one script, not a find_element and an atom or two a row: the
# text of the rows' cells (``null`` for one not displayed: as Selenium's is_displayed, laid
# out, visible and not transparent), and the classes of the rows displayed.
CELLS = """
const [cell, upto] = arguments;
const shown = e => e.getClientRects().length > 0
  && e.checkVisibility({opacityProperty: true, visibilityProperty: true});
return [...document.querySelectorAll("#plays tbody tr")].slice(0, upto)
  .map(r => r.querySelector(cell)).map(c => shown(c) ? c.innerText.trim() : null);
"""
SHOWN_ROWS = """
const shown = e => e.getClientRects().length > 0
  && e.checkVisibility({opacityProperty: true, visibilityProperty: true});
return [...document.querySelectorAll("#plays tbody tr")].slice(0, arguments[0])
  .filter(shown).map(r => r.getAttribute("class") || "");
"""


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_play_by_play_reads_in_words_and_the_dice_wait_behind_a_button(
    browser,
    live_server,
    cup,
    width,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(*WIDTHS[width])
    game = Game.objects.get(season=cup, round=3)
    browser.get(f"{live_server.url}/games/{game.pk}/")
    rows = browser.find_elements(By.CSS_SELECTOR, "#plays tbody tr")
    shown = [t for t in browser.execute_script(CELLS, "td.play", 40) if t is not None]
    assert shown and all("d8" not in t and "11-66" not in t for t in shown)
    assert browser.execute_script(CELLS, "td.dice", 13)[12] is None  # not displayed
    final = rows[-1].find_element(By.CSS_SELECTOR, "td.score")
    browser.execute_script("arguments[0].scrollIntoView()", final)
    assert final.text == f"{game.result.away_score}-{game.result.home_score}"
    assert no_sideways_scroll(browser)

    # the dice for table players: a button, pressed from the keyboard
    toggle = browser.find_element(By.ID, "toggle-dice")
    browser.execute_script("arguments[0].focus()", toggle)
    toggle.send_keys(Keys.SPACE)
    assert toggle.get_attribute("aria-pressed") == "true"
    with_dice = browser.execute_script(CELLS, "td.dice", 40)
    assert any("d8" in d for d in with_dice if d is not None)
    # every die of the game, each labelled as the table labels it: a foul's free-throw d20s
    # on the foul's own line; on a phone the dice go under their play, with no sideways
    # scroll in the play-by-play either
    plays = browser.execute_script(CELLS, "td.play", len(rows))
    foul = rows[next(i for i, t in enumerate(plays) if t and "free throw" in t)]
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", foul)
    assert "free throw 1" in foul.find_element(By.CSS_SELECTOR, "td.dice").text
    assert no_sideways_scroll(browser)
    assert browser.execute_script(
        "const b = document.querySelector('.pbp'); return b.scrollWidth <= b.clientWidth + 2"
    )

    # scoring plays only: every row left moved the score, lead changes stand out
    scoring = browser.find_element(By.ID, "toggle-scoring")
    browser.execute_script("arguments[0].focus()", scoring)
    scoring.send_keys(Keys.ENTER)
    visible = browser.execute_script(SHOWN_ROWS, 80)  # the classes of the rows shown
    assert visible and all("score" in c.split() or "period" in c for c in visible)
    # one round trip for every tag's text, not one a tag
    tags = browser.execute_script(
        "return [...document.querySelectorAll('#plays tr.lead-change .tag')]"
        ".map(t => t.textContent.trim().toLowerCase())"
    )
    assert all(t == "lead change" for t in tags)
    said = browser.execute_script(
        "return [...document.querySelectorAll('p.muted')].map(p => p.textContent)"
        ".find(t => t.includes('lead change')) || ''"
    )
    count = re.search(r"(\d+) lead change", said)
    assert len(tags) == (int(count.group(1)) if count else 0) and (count or "No lead" in said)


def test_the_story_copies_and_the_skip_link_works_from_the_keyboard(
    browser,
    live_server,
    cup,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    game = Game.objects.filter(season=cup, round=1).first()
    browser.get(f"{live_server.url}/games/{game.pk}/")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    skip = browser.switch_to.active_element
    assert skip.text == "Skip to the content" and skip.is_displayed()
    skip.send_keys(Keys.ENTER)
    assert browser.switch_to.active_element.get_attribute("id") == "main"

    browser.find_element(By.CSS_SELECTOR, "button.copy-story").click()
    status = browser.find_element(By.CSS_SELECTOR, "#story .copy-status")
    WebDriverWait(browser, 5).until(lambda _: status.text)
    assert status.text.startswith("Copied as Markdown")
    browser.get(f"{live_server.url}/games/{game.pk}/story.md")
    text = browser.find_element(By.TAG_NAME, "body").text
    assert text.startswith(f"## {game.away} v {game.home}") and "| Totals |" in text
