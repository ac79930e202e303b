"""A fan's whole visit in one real browser: every kind of page of the three games (VABG,
grid court, six dice) at a desktop's 1280 px and a phone's 390 px, each checked as a fan
and an accessibility audit would: the page answers (no 4xx or 5xx but the 404 page's own),
nothing is wider than the screen, the console has no error, and axe-core finds nothing
serious or critical.

One Chromium session and one prepared league (a few played games of each game) walk it
all; ``test_every_page_kind_of_every_game_reads_well_on_a_desktop_and_a_phone`` reports
every problem of every page at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest

from cards.models import Player
from league import services, tournaments
from league.models import Game, Season
from tests.browsing import axe_in_every_page, serious_axe_findings
from tests.factories import TeamFactory, full_team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390
WIDTHS = (1280, PHONE)
BROWSER_WAIT = 0  # a page is read as it loads; what a script draws is waited for by name


@dataclass(frozen=True)
class Visit:
    """A page of the journey: what it is, its address and the status it must answer."""

    kind: str
    path: str
    status: int = 200
    ready: str = ""
    """A CSS selector that is there once the page's own scripts have drawn it."""


def _played(season: Season, capture: Any) -> Season:
    with capture(execute=True):
        services.simulation_start(season=season, scope="all")
    return season


LONG = " University of Agriculture and the Mechanical Arts of Stillwater Plai"
"""Added to a team's school: 80 characters in all, the longest a team's school may be."""


def league_world(capture: Any) -> list[Visit]:
    """Make a league of the three games with played games, and return the pages to visit."""
    vabg = services.league_get_or_create(name="Journey League")
    acc = [full_team(school=f"Atlantic {n}", conference="ACC") for n in range(2)]
    # A name as long as a team's may be (a review's made a phone's pages scroll sideways).
    big = [full_team(school=f"Plains {n}{LONG * (1 - n)}", conference="Big 12") for n in range(2)]
    # A player of the field's rosters: his page shows the real season's long source links.
    ucla = full_team(school="UCLA", season=1972, conference="Pac-8")
    walton = ucla.players.order_by("order").first()
    assert walton is not None
    walton.name = "Bill Walton"
    walton.save()
    season = services.season_create(
        league=vabg,
        name="Winter",
        teams=[*acc, *big],
        conferences={t.pk: t.conference for t in (*acc, *big)},
        start_date=date(2026, 1, 5),
        seed=11,
        cross_conference_games=1,
        strategy=False,
    )
    with capture(execute=True):
        services.simulation_start(season=season, scope="round", round=1)
    scheduled = Game.objects.filter(season=season, status=Game.Status.SCHEDULED).first()
    played = Game.objects.filter(season=season, status=Game.Status.FINAL).first()
    cup = _played(
        tournaments.tournament_create(
            league=vabg, name="Cup", teams=[ucla, *acc, big[0]], seed=5, strategy=False
        ),
        capture,
    )
    final = Game.objects.get(season=cup, round=cup_rounds(cup))
    line = played.result.lines.order_by("-pts").first()

    visits = [
        Visit("home", "/"),
        Visit("seasons", "/seasons/"),
        Visit("tournaments", "/tournaments/"),
        Visit("teams", "/teams/"),
        Visit("search", "/search/?q=Atlantic"),
        Visit("matchup", "/matchup/"),
        Visit("API docs", "/api/docs/", ready="#swagger-ui .opblock"),
        Visit("404", "/no-such-page/", 404),
        Visit("404 game", "/games/999999/", 404),
        Visit("VABG season and standings", f"/seasons/{season.pk}/"),
        Visit("VABG leaders", f"/seasons/{season.pk}/leaders/"),
        Visit("VABG team and its cards", f"/teams/{acc[0].pk}/"),
        Visit("VABG player", f"/players/{line.player_id}/"),
        Visit("player with sources", f"/players/{walton.pk}/"),
        Visit("VABG box score", f"/games/{played.pk}/"),
        Visit("VABG preview", f"/games/{scheduled.pk}/"),
        Visit("VABG tournament", f"/seasons/{cup.pk}/"),
        Visit("VABG bracket", f"/seasons/{cup.pk}/bracket/"),
        Visit("VABG final", f"/games/{final.pk}/"),
    ]
    for game, teams in (("gridcourt", 4), ("sixdice", 4)):
        other = services.league_get_or_create(name=f"Journey {game}")
        field = [TeamFactory(school=f"{game.title()} {n}{LONG * (n == 0)}") for n in range(teams)]
        group = _played(
            services.season_create(league=other, name="Winter", teams=field, seed=3, game=game),
            capture,
        )
        bracket = _played(
            tournaments.tournament_create(league=other, name="Cup", teams=field, seed=4, game=game),
            capture,
        )
        box = Game.objects.filter(season=group, status=Game.Status.FINAL).first()
        visits += [
            Visit(f"{game} season and standings", f"/seasons/{group.pk}/"),
            Visit(f"{game} leaders", f"/seasons/{group.pk}/leaders/"),
            Visit(f"{game} team", f"/teams/{field[0].pk}/"),
            Visit(f"{game} box score", f"/games/{box.pk}/"),
            Visit(f"{game} replay", f"/games/{box.pk}/replay/"),
            Visit(f"{game} tournament", f"/seasons/{bracket.pk}/"),
            Visit(f"{game} bracket", f"/seasons/{bracket.pk}/bracket/"),
        ]
    return visits


def cup_rounds(cup: Season) -> int:
    return tournaments.season_bracket(cup).rounds


def problems_of(driver: Any, base: str, visit: Visit, width: int) -> list[str]:
    """Load a page and return what a fan or an audit would object to, each in a sentence."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(base + visit.path)
    where = f"{visit.kind} ({visit.path}) at {width} px"
    if visit.ready:  # Swagger UI draws the API's operations from its script, after the load
        located = expected_conditions.presence_of_element_located((By.CSS_SELECTOR, visit.ready))
        WebDriverWait(driver, 20).until(located)
    console = [
        f"{where}: console error {entry['message']}"
        for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE"
        and not (
            visit.status >= 400 and f"{visit.path} - Failed to load resource" in entry["message"]
        )
    ]
    # The page's status, its width and the screen's, and its wide boxes without their hint,
    # read in one script (a round trip to the browser each cost more than what it read). A
    # table wider than its box (phones hide scroll bars) says so above it, and its box takes
    # the keyboard's focus to be scrolled (axe-core 4's scrollable-region-focusable).
    status, *wide, unmarked = driver.execute_script(
        "const d = document.documentElement;"
        "return [performance.getEntriesByType('navigation')[0].responseStatus,"
        " d.scrollWidth, d.clientWidth,"
        " [...document.querySelectorAll('.scroll')]"
        ".filter(b => b.scrollWidth > b.clientWidth + 1)"
        ".filter(b => !(b.tabIndex === 0 && b.getAttribute('role') === 'region'"
        " && b.getAttribute('aria-label') && b.previousElementSibling"
        " && b.previousElementSibling.classList.contains('scroll-hint')"
        " && b.previousElementSibling.offsetHeight > 0))"
        ".map(b => (b.querySelector('table') || b).className)]"
    )
    # A word of a table's first column cut across lines (a review: "Totals" a letter or two
    # a line in a phone's box score, its cell squeezed by the columns beside it).
    broken = driver.execute_script(
        "const out = [];"
        "for (const cell of document.querySelectorAll('table td:first-child')) {"
        " const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);"
        " for (let n = walk.nextNode(); n; n = walk.nextNode()) {"
        "  for (const m of n.textContent.matchAll(/\\S+/g)) {"
        "   const r = document.createRange(); r.setStart(n, m.index);"
        "   r.setEnd(n, m.index + m[0].length);"
        "   const lines = new Set([...r.getClientRects()].filter(x => x.width > 0)"
        "    .map(x => Math.round(x.top)));"
        "   if (lines.size > 1) out.push(m[0]); } } }"
        "return out.slice(0, 5);"
    )
    found = []
    if status != visit.status:
        found.append(f"{where}: answered {status}, not {visit.status}")
    found += [f"{where}: the word {word!r} cut across lines in a table" for word in broken]
    if wide[0] > wide[1]:
        found.append(f"{where}: {wide[0]} px wide on a {wide[1]} px screen")
    found += console
    found += [f"{where}: a wide .scroll without its hint or focus ({c})" for c in unmarked]
    # Colour contrast (over half of axe-core's time on these pages, a third of the suite's
    # browser work) is audited at the phone's width alone: no rule of the stylesheets for a
    # wider screen sets a colour (the rules of a width that do are a phone's, audited here).
    skip = ("color-contrast",) if width != PHONE else ()
    found += [f"{where}: {finding}" for finding in serious_axe_findings(driver, skip)]
    return found


def test_every_page_kind_of_every_game_reads_well_on_a_desktop_and_a_phone(
    browser, live_server, django_capture_on_commit_callbacks
) -> None:
    visits = league_world(django_capture_on_commit_callbacks)
    assert len(visits) == 33
    found = []
    hints = None
    with axe_in_every_page(browser):
        for width in WIDTHS:
            browser.set_window_size(width, 900)
            for visit in visits:
                found += problems_of(browser, live_server.url, visit, width)
                if width == PHONE and visit.kind == "VABG box score":
                    # Read on the page as checked (not loaded again for it).
                    hints = browser.execute_script(
                        "return [...document.querySelectorAll('.scroll-hint.on')]"
                        ".map(h => h.textContent)"
                    )
    assert not found, "\n".join(found)
    # The check above is not empty: at a phone's width a box score's lines scroll, hinted.
    assert hints and "swipe the table sideways" in hints[0], hints


def test_print_the_cards_prints_the_cards_alone(browser, live_server) -> None:
    from selenium.webdriver.common.by import By

    team = full_team(school="Print State")
    browser.get(f"{live_server.url}/teams/{team.pk}/")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    shown = browser.execute_script(
        "return [...document.querySelectorAll('body > *, main > *')]"
        ".filter(e => getComputedStyle(e).display !== 'none' && e.tagName !== 'SCRIPT')"
        ".map(e => e.id || e.tagName.toLowerCase())"
    )
    assert shown == ["main", "h1", "roster"]
    cards = browser.find_elements(By.CSS_SELECTOR, "#roster .vabg-card")
    assert len(cards) == Player.objects.filter(team=team).count() == 6


def test_a_big_season_s_pages_of_games_read_well_and_work_on_a_phone(
    browser, live_server, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """A season too big for one page (its schedule, a team's results, a player's log come a
    page at a time: made small here) at both widths, then walked as a fan on a phone would:
    the next round's link, and the round list to jump to any round."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from league import views

    monkeypatch.setattr(views, "SCHEDULE_PAGE_GAMES", 2)  # 6 teams: 5 rounds of 3 games
    monkeypatch.setattr(views, "GAMES_PAGE", 1)
    teams = [full_team(school=f"Longname Polytechnic Institute {n}") for n in range(6)]
    season = services.season_create(
        league=services.league_get_or_create(name="Paged League"),
        name="Long winter",
        teams=teams,
        start_date=date(2026, 1, 5),
        seed=8,
        strategy=False,
    )
    for number in (1, 2):
        with django_capture_on_commit_callbacks(execute=True):
            services.simulation_start(season=season, scope="round", round=number)
    player = teams[0].players.order_by("order").first()
    assert player is not None
    visits = [
        Visit("paged season", f"/seasons/{season.pk}/"),
        Visit("paged season, round 4", f"/seasons/{season.pk}/?round=4"),
        Visit("paged team", f"/teams/{teams[0].pk}/"),
        Visit("paged player", f"/players/{player.pk}/"),
    ]
    found = []
    with axe_in_every_page(browser):
        for width in WIDTHS:
            browser.set_window_size(width, 900)
            for visit in visits:
                found += problems_of(browser, live_server.url, visit, width)
    assert not found, "\n".join(found)

    # At the phone's width: the page of round 2 (the latest played), then round 3, then 5.
    browser.get(f"{live_server.url}/seasons/{season.pk}/")
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "main h3")]
    assert headings[-1].startswith("Round 2")
    browser.find_element(By.CSS_SELECTOR, "nav.pager a[rel=next]").click()
    WebDriverWait(browser, 10).until(lambda d: "round=3" in d.current_url)
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "main h3")]
    assert [h.split(" ·")[0] for h in headings] == ["Round 3"]
    Select(browser.find_element(By.ID, "round-top")).select_by_value("5")
    WebDriverWait(browser, 10).until(lambda d: "round=5" in d.current_url)
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "main h3")]
    assert [h.split(" ·")[0] for h in headings] == ["Round 5"]
    assert "(scheduled)" in browser.find_element(By.TAG_NAME, "main").text
