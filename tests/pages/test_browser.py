"""A fan's clicks in a real browser: Debian's headless Chromium, driven by Selenium."""

from __future__ import annotations

import time
from datetime import date

import pytest

from league import services
from league.models import BoxLine, Game
from tests.browsing import follow
from tests.factories import full_team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def season(django_capture_on_commit_callbacks):  # type: ignore[no-untyped-def]
    league = services.league_get_or_create(name="Browser League")
    season = services.season_create(
        league=league,
        name="2003",
        teams=[full_team() for _ in range(4)],
        start_date=date(2003, 1, 1),
        seed=3,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="all")
    return season


def test_a_fan_clicks_from_the_home_page_to_a_box_score_and_a_player(
    browser, live_server, season
) -> None:
    from selenium.webdriver.common.by import By

    browser.get(live_server.url)
    follow(browser, browser.find_element(By.LINK_TEXT, str(season)))
    assert browser.find_element(By.TAG_NAME, "h1").text == str(season)

    game = Game.objects.filter(season=season, round=1).select_related("result").first()
    follow(browser, browser.find_element(By.CSS_SELECTOR, f'a[href="/games/{game.pk}/"]'))
    heading = browser.find_element(By.TAG_NAME, "h1").text
    assert str(game.home) in heading and str(game.away) in heading
    finals = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".linescore strong")]
    assert finals == [str(game.result.away_score), str(game.result.home_score)]

    line = BoxLine.objects.filter(result__game=game, side="home").order_by("-pts").first()
    row = browser.find_element(
        By.CSS_SELECTOR, f'table[data-side="home"] tr[data-player="{line.name}"]'
    )
    assert row.find_element(By.CSS_SELECTOR, "td.pts").text == str(line.pts)
    follow(browser, row.find_element(By.LINK_TEXT, line.name))

    assert browser.find_element(By.TAG_NAME, "h1").text == line.name
    card = browser.find_element(By.CSS_SELECTOR, ".vabg-card")
    assert card.get_attribute("data-player") == line.name
    log = browser.find_elements(By.CSS_SELECTOR, "table.game-log tbody tr")
    assert len(log) == 3  # a four-team round robin: three games each
    assert any(
        r.find_elements(By.TAG_NAME, "td")[4].text == str(line.pts) for r in log
    )  # after Season


def test_search_from_the_header_finds_a_player(browser, live_server, season) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    player = season.entries.first().team.players.first()
    browser.get(live_server.url)
    box = browser.find_element(By.CSS_SELECTOR, "header input[name=q]")
    box.send_keys(player.name, Keys.ENTER)
    follow(browser, browser.find_element(By.LINK_TEXT, player.name))
    assert browser.find_element(By.TAG_NAME, "h1").text == player.name


def test_a_fan_opens_the_bracket_and_clicks_to_the_final_and_its_top_scorer(
    browser, live_server, django_capture_on_commit_callbacks
) -> None:
    from selenium.webdriver.common.by import By

    from league import tournaments

    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Cup"),
        name="Browser Cup",
        teams=[full_team() for _ in range(8)],
        seed=12,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=cup, scope="all")
    champion = tournaments.champion(cup)
    long_name = cup.entries.exclude(team=champion).select_related("team").first().team
    long_name.school = "Southern Illinois University Edwardsville"
    long_name.save()

    browser.get(f"{live_server.url}/seasons/{cup.pk}/bracket/")
    assert champion.school in browser.find_element(By.ID, "champion").text
    rounds = browser.find_elements(By.CSS_SELECTOR, ".bracket .round")
    assert [len(r.find_elements(By.CSS_SELECTOR, ".bgame")) for r in rounds] == [4, 2, 1]
    final = rounds[-1].find_element(By.CSS_SELECTOR, ".bgame")
    assert champion.school in final.find_element(By.CSS_SELECTOR, ".bslot.won").text
    # On a phone a long school is cut short, never its year: the year tells two teams of a
    # school apart, and the whole name is the slot's title.
    browser.set_window_size(375, 812)
    browser.get(f"{live_server.url}/seasons/{cup.pk}/bracket/")
    slots = browser.execute_script(
        "return [...document.querySelectorAll('.bslot .team')].map(t => {"
        " const y = t.querySelector('.year').getBoundingClientRect(),"
        " box = t.closest('.bslot').getBoundingClientRect();"
        " return [t.title, t.querySelector('.year').textContent, y.right <= box.right + 0.5,"
        " y.width > 0]; })"
    )
    assert slots and all(inside and shown for _, _, inside, shown in slots), slots
    assert all(title.endswith(" " + year) for title, year, _, _ in slots), slots
    assert any(title == str(long_name) for title, _, _, _ in slots)
    browser.set_window_size(1280, 900)
    browser.get(f"{live_server.url}/seasons/{cup.pk}/bracket/")
    rounds = browser.find_elements(By.CSS_SELECTOR, ".bracket .round")
    final = rounds[-1].find_element(By.CSS_SELECTOR, ".bgame")
    follow(browser, final.find_element(By.TAG_NAME, "a"))

    game = Game.objects.get(season=cup, round=3)
    heading = browser.find_element(By.TAG_NAME, "h1").text
    assert str(game.home) in heading and str(game.away) in heading
    top = BoxLine.objects.filter(result__game=game).order_by("-pts", "name").first()
    follow(browser, browser.find_element(By.LINK_TEXT, top.name))
    assert browser.find_element(By.TAG_NAME, "h1").text == top.name
    assert (
        browser.find_element(By.CSS_SELECTOR, ".vabg-card").get_attribute("data-player") == top.name
    )


def test_a_phone_fan_s_place_on_the_bracket_outlives_the_page_looking_again(
    browser, live_server, django_capture_on_commit_callbacks
) -> None:
    """A review at phone width: the what-if form made the whole page scroll sideways, and a
    bracket whose odds were being worked out reloaded every 5 s, sending each region back to
    its first round and closing the what-ifs."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from league import tournaments

    with django_capture_on_commit_callbacks(execute=True):
        cup = tournaments.tournament_create(
            league=services.league_get_or_create(name="Cup"),
            name="Phone Cup",
            teams=[full_team() for _ in range(8)],
            seed=5,
        )
    browser.set_window_size(390, 844)
    browser.get(f"{live_server.url}/seasons/{cup.pk}/bracket/")
    browser.find_element(By.CSS_SELECTOR, "#what-if summary").click()
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    ), "the what-if form is wider than the phone"
    left = browser.execute_script(
        "const b = document.querySelector('.bracket'); b.scrollLeft = 300; return b.scrollLeft"
    )
    assert left > 0

    def reloaded(wait: float) -> None:
        browser.execute_script("window.vabgLeftPage = true; window.vabgLookAgain(100)")
        WebDriverWait(browser, wait, poll_frequency=0.05).until(
            lambda d: d.execute_script(
                "return !window.vabgLeftPage && document.readyState === 'complete'"
            )
        )

    reloaded(5)
    assert browser.execute_script("return document.querySelector('.bracket').scrollLeft") == left
    assert browser.find_element(By.ID, "what-if").get_attribute("open") is not None
    # A keyboard reader's place (an accessibility review: focus went back to the top at
    # every reload): the link tabbed to has the focus again, the same one of links alike.
    where = (
        "const a = document.activeElement; return [a.tagName, a.getAttribute('href'),"
        " a.textContent.trim(), [...document.querySelectorAll('a[href]')].indexOf(a)]"
    )
    links = browser.find_elements(By.CSS_SELECTOR, "main a[href]")
    assert len(links) > 4
    browser.execute_script("arguments[0].focus()", links[-2])
    focused = browser.execute_script(where)
    reloaded(5)
    assert browser.execute_script(where) == focused
    # A what-if being chosen is not taken away: the page waits while a field has the focus.
    browser.execute_script("document.querySelector('#what-if select').focus()")
    browser.execute_script("window.vabgLeftPage = true; window.vabgLookAgain(100)")
    time.sleep(0.5)  # five times the page's wait
    assert browser.execute_script("return window.vabgLeftPage === true")
    browser.execute_script("document.activeElement.blur()")
    WebDriverWait(browser, 5, poll_frequency=0.05).until(
        lambda d: d.execute_script(
            "return !window.vabgLeftPage && document.readyState === 'complete'"
        )
    )
