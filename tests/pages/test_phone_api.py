"""On a phone (390 px, emulated as a phone is: mobile, 3 device pixels a CSS pixel): DRF's
browsable API is laid out at the screen's width, not at 980 px shrunk to fit, and nothing of
it, nor of a scheduled game's preview, is wider than the screen.

A user trial found both: the browsable API had no viewport meta (tiny text), and a preview's
team column, kept on one line, drew its table a pixel or more past the screen's edge. The
browsable API's pages and a commissioner's forms also pass axe-core with nothing serious or
critical: DRF's own template had no language, an unnamed format button, unlabelled form
fields and grey text below 4.5:1 (templates/rest_framework/)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from cards.models import Team
from league import services
from league.models import Game, Season
from tests.browsing import serious_axe_findings
from tests.factories import commissioner, full_team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
"""A trial's phone, as tests/table/test_browser_boards.py emulates it."""
SCHOOLS = ("North Carolina State", "Southern Methodist", "Atlantic 0", "Atlantic 1")
"""Long names among them: 'Southern Methodist 2000 (home)' drew the preview 433 px wide."""

MEASURE = """
const d = document.documentElement;
const wide = [...document.querySelectorAll('body *')].filter(e => {
  const r = e.getBoundingClientRect();
  // inside a box that scrolls sideways (a chart, a wide table: hinted) is not past the edge
  const inScroller = e.parentElement && e.parentElement.closest('.scroll');
  return r.width && r.right > d.clientWidth + 0.5 && !e.closest('pre') && !inScroller;
});
return {
  client: d.clientWidth, scroll: d.scrollWidth, inner: window.innerWidth,
  scale: window.visualViewport.scale,
  viewport: !!document.querySelector('meta[name=viewport][content*=device-width]'),
  body: parseFloat(getComputedStyle(document.body).fontSize),
  wide: wide.slice(0, 5).map(e => e.tagName.toLowerCase() + '.' + e.className),
};
"""


def season_of_long_names(capture: Any) -> Season:
    """A season of four VABG teams, two of long names, its first round played."""
    teams = [full_team(school=school) for school in SCHOOLS]
    season = services.season_create(
        league=services.league_get_or_create(name="Phone League"),
        name="Winter",
        teams=teams,
        start_date=date(2026, 1, 5),
        seed=11,
        strategy=False,
    )
    with capture(execute=True):
        services.simulation_start(season=season, scope="round", round=1)
    return season


def problems_at_390(driver: Any, url: str) -> list[str]:
    """Load ``url`` on the emulated phone and return what is wrong with its width."""
    driver.get(url)
    m = driver.execute_script(MEASURE)
    found = []
    if not m["viewport"] or m["client"] != 390 or m["scale"] != 1:
        found.append(
            f"laid out {m['client']} px wide (window {m['inner']}, scale {m['scale']}, "
            f"viewport meta {m['viewport']}), not the 390 px screen"
        )
    if m["scroll"] > m["client"]:
        found.append(f"{m['scroll']} px wide on a {m['client']} px screen")
    if m["wide"]:
        found.append(f"past the screen's edge: {m['wide']}")
    if m["body"] < 14:
        found.append(f"text {m['body']} px")
    return [f"{url}: {p}" for p in found]


def test_the_browsable_api_is_as_wide_as_a_phone_and_its_forms_fit(
    browser, live_server, django_capture_on_commit_callbacks
) -> None:
    from selenium.webdriver.common.by import By

    season = season_of_long_names(django_capture_on_commit_callbacks)
    played = Game.objects.filter(season=season, status=Game.Status.FINAL).first()
    scheduled = Game.objects.filter(season=season, status=Game.Status.SCHEDULED).first()
    assert played is not None and scheduled is not None
    commissioner()
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    paths = [
        "/api/",
        "/api/seasons/?format=api",
        "/api/teams/?format=api",
        f"/api/games/{played.pk}/?format=api",  # a box score's long JSON lines
        f"/api/games/{scheduled.pk}/?format=api",
        f"/api/seasons/{season.pk}/?format=api",
    ]
    found = []
    for path in paths:
        found += problems_at_390(browser, live_server.url + path)
        found += [f"{path}: {finding}" for finding in serious_axe_findings(browser)]
        # A long JSON line scrolls inside its own box.
        pres = browser.execute_script(
            "return [...document.querySelectorAll('pre')].map(p => getComputedStyle(p).overflowX)"
        )
        assert pres and all(o in ("auto", "scroll") for o in pres), (path, pres)

    # A commissioner sees the forms that create a season and a league: none wider than the phone.
    browser.get(f"{live_server.url}/admin/login/")
    browser.find_element(By.NAME, "username").send_keys("commish")
    browser.find_element(By.NAME, "password").send_keys("commish-password-1")
    browser.find_element(By.CSS_SELECTOR, "[type=submit]").click()
    browser.find_element(By.ID, "user-tools")  # signed in: the admin's index
    for path in ("/api/seasons/", "/api/leagues/"):
        found += problems_at_390(browser, live_server.url + path)
        # Its fields named to a screen reader, as the pages above: axe finds nothing serious.
        found += [f"{path}: {finding}" for finding in serious_axe_findings(browser)]
        fields = browser.execute_script(
            "return [...document.querySelectorAll('#post-object-form select,"
            " #post-object-form input:not([type=hidden]), #post-object-form textarea')]"
            ".map(e => [e.name, e.getBoundingClientRect().left, e.getBoundingClientRect().right])"
        )
        assert len(fields) >= 3, (path, fields)  # the HTML form is there, fields and all
        found += [f"{path}: field {n} at {a}-{b} px" for n, a, b in fields if a < 0 or b > 390]
    assert not found, "\n".join(found)


def test_a_scheduled_game_s_preview_fits_a_phone(
    browser, live_server, django_capture_on_commit_callbacks
) -> None:
    season = season_of_long_names(django_capture_on_commit_callbacks)
    scheduled = list(Game.objects.filter(season=season, status=Game.Status.SCHEDULED))
    assert len(scheduled) == 4  # every pair once: 6 games, round 1's two played
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    found = []
    for game in scheduled:
        url = f"{live_server.url}/games/{game.pk}/"
        found += problems_at_390(browser, url)
        right = browser.execute_script(
            "const t = document.querySelector('#preview table.data');"
            "return t && t.innerText.includes('Predicted') && t.getBoundingClientRect().right"
        )
        assert right, f"{url}: no preview table"
        if right > 390:
            found.append(f"{url}: the preview's table ends at x={right}")
    # The matchup page draws the same preview.
    away, home = (Team.objects.get(school=school).pk for school in SCHOOLS[:2])
    found += problems_at_390(
        browser,
        f"{live_server.url}/matchup/?home={home}&away={away}&rules=advanced&court=home",
    )
    assert not found, "\n".join(found)
