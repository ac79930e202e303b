"""A fan's clicks on six-dice and grid-court games in a real browser: box scores, replays."""

from __future__ import annotations

import pytest

from league import services
from league.models import Game
from simulator.games import find_game
from tests.factories import TeamFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game() -> Game:
    league = services.league_get_or_create(name="Dice League")
    season = services.season_create(
        league=league, name="2026", teams=[TeamFactory(), TeamFactory()], seed=8, game="sixdice"
    )
    return services.game_simulate(game_id=season.games.get().pk)


def test_a_fan_reads_a_six_dice_box_score_and_steps_through_its_replay(
    browser,
    live_server,
    game,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    result = game.result
    browser.get(f"{live_server.url}/games/{game.pk}/")
    finals = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".linescore strong")]
    assert finals == [str(result.away_score), str(result.home_score)]
    row = browser.find_element(By.CSS_SELECTOR, 'table.team-figures tr[data-key="rolls_won"]')
    assert [td.text for td in row.find_elements(By.TAG_NAME, "td")] == [
        str(result.box["away"]["rolls_won"]),
        str(result.box["home"]["rolls_won"]),
    ]
    header = browser.find_element(By.CSS_SELECTOR, 'tr[data-key="stl_push"] th')
    assert header.text == "STL-PUSH"
    abbr = header.find_element(By.TAG_NAME, "abbr")
    assert abbr.get_attribute("title") == "steals by pushing back past half court"

    browser.find_element(By.CSS_SELECTOR, "a.replay-link").click()
    assert "Turn 1 of" in browser.find_element(By.CSS_SELECTOR, ".turn").text
    frames = (
        find_game("sixdice")
        .replay_frames(
            result.events, result.rules, {"away": str(game.away), "home": str(game.home)}
        )
        .frames
    )
    jump = next(e for e in result.events if e["type"] == "jump_ball")
    away = browser.find_elements(By.CSS_SELECTOR, 'tr[data-side="away"] .die')
    assert "".join(d.text for d in away) == "".join("BBBPSF"[v - 1] for v in jump["away"])
    # The first turn with the pawn on court: the jump ball won.
    won = next(f for f in frames if f.section is not None)
    browser.get(f"{live_server.url}/games/{game.pk}/replay/?turn={won.number}")
    court = browser.find_element(By.CSS_SELECTOR, "svg.court")
    assert court.get_attribute("data-section") == str(won.section)
    assert court.get_attribute("data-chip") == won.chip != won.offense
    assert browser.find_element(By.CSS_SELECTOR, "svg.court circle.pawn")
    assert browser.find_element(By.CSS_SELECTOR, "svg.court g.chip")
    browser.get(f"{live_server.url}/games/{game.pk}/replay/")

    browser.find_element(By.ID, "next").click()
    assert "Turn 2 of" in browser.find_element(By.CSS_SELECTOR, ".turn").text
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert "Turn 3 of" in browser.find_element(By.CSS_SELECTOR, ".turn").text
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert "Turn 2 of" in browser.find_element(By.CSS_SELECTOR, ".turn").text
    # An accessibility review: the left arrow in the header's search went to another turn,
    # the words typed lost. A key of a field (or of a box that scrolls) is the reader's own.
    search = browser.find_element(By.CSS_SELECTOR, "input[type=search]")
    search.send_keys("duke", Keys.ARROW_LEFT, Keys.HOME, Keys.END)
    assert "Turn 2 of" in browser.find_element(By.CSS_SELECTOR, ".turn").text
    assert search.get_attribute("value") == "duke"
    # A turn with no pawn on court is said so to a screen reader ("section None" before).
    browser.get(f"{live_server.url}/games/{game.pk}/replay/?turn=1")
    label = browser.find_element(By.CSS_SELECTOR, "svg.court").get_attribute("aria-label")
    assert "None" not in label and label.startswith("the court strip: "), label
    browser.find_element(By.ID, "last").click()
    notes = browser.find_element(By.CSS_SELECTOR, ".notes").text
    assert "reaches 21" in notes
    score = browser.find_element(By.CSS_SELECTOR, "p.score").text
    assert str(result.away_score) in score and str(result.home_score) in score


def test_a_fan_steps_through_a_grid_court_replay(browser, live_server) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    league = services.league_get_or_create(name="Grid League")
    season = services.season_create(
        league=league, name="2026", teams=[TeamFactory(), TeamFactory()], seed=8,
        game="gridcourt", options={"pieces": 4},
    )  # fmt: skip
    game = services.game_simulate(game_id=season.games.get().pk)
    browser.get(f"{live_server.url}/games/{game.pk}/")
    header = browser.find_element(By.CSS_SELECTOR, 'table[data-side="home"] thead').text
    assert "PTS" in header and "3SEC" in header
    rows = browser.find_elements(By.CSS_SELECTOR, 'table[data-side="home"] tbody tr')
    assert len(rows) == 4
    browser.find_element(By.CSS_SELECTOR, "a.replay-link").click()
    assert "Turn 1 of" in browser.find_element(By.CSS_SELECTOR, ".turn").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.board g.piece")) == 8
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert "Turn 2 of" in browser.find_element(By.CSS_SELECTOR, ".turn").text
    current = browser.find_element(By.CSS_SELECTOR, ".pbp tr.current")
    assert current.find_element(By.TAG_NAME, "a").text == "2"
    browser.find_element(By.ID, "last").click()
    score = browser.find_element(By.CSS_SELECTOR, "p.score").text
    assert str(game.result.away_score) in score and str(game.result.home_score) in score
