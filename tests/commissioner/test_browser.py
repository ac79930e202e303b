"""A commissioner's first day in a real browser (Debian's headless Chromium, Selenium) against
``make run``'s own server: the runserver of its recipe, on the field its set-up steps loaded,
SQLite and no broker. One server and one browser for the module.

The commissioner signs in with the password ``make run`` printed, adds a league and a season
in the admin and simulates it, following the run's page to its end; starts a run through the
API and follows its ``Location``; edits a card (a refused value first), renames a player and
a team and sees the fans' pages say so; imports a team file; and reads a loaded card's
history. Every admin page visited fits the window at 1,366 px and at 390 px, and axe-core
finds nothing serious on it.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.browsing import follow, serious_axe_findings
from tests.commissioner.conftest import (
    PYTHON,
    ROOT,
    Field,
    command,
    embedded_env,
    run_recipe,
)

pytestmark = pytest.mark.browser

WAIT = 90  # seconds: a page or a run that takes longer is stuck, not slow
# Three of the SEC, and three teams each alone in its conference, who play as independents.
SEASON_TEAMS = ["Kentucky 2012", "Kentucky 1996", "Florida 2006", "Butler 2011", "Gonzaga 2017",
                "Princeton 1965"]  # fmt: skip


@dataclass
class Server:
    url: str
    env: dict[str, str]
    password: str
    process: subprocess.Popen[bytes]

    def api(self, method: str, path: str, token: str, body: object = None) -> tuple[int, Any, str]:
        """Call the API with the commissioner's token; return the status, JSON and Location."""
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.load(answer), answer.headers.get("Location", "")
        except urllib.error.HTTPError as refused:
            return refused.code, json.load(refused), ""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(field: Field, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``make run``'s server as its recipe starts it (without the reloader, so it can be
    stopped), on a copy of the loaded field."""
    env = embedded_env(field.copy(tmp_path_factory.mktemp("server")))
    port = free_port()
    (serve,) = [argv for argv in run_recipe("run") if "runserver" in argv]
    serve = [w.replace("$(HOST)", "127.0.0.1").replace("$(PORT)", str(port)) for w in serve]
    process = subprocess.Popen(
        [*serve, "--noreload"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + WAIT
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=5):
                break
        except OSError:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.3)
    yield Server(url=url, env=env, password=field.password, process=process)
    process.terminate()
    _, errors = process.communicate(timeout=30)
    assert "Traceback" not in errors.decode(), errors.decode()


@pytest.fixture(scope="module")
def browser(server: Server, chromium_session: Any) -> Iterator[Any]:
    """The shared Chromium for the module, signed in as the commissioner ``make run``
    created."""
    from selenium.webdriver.common.by import By

    from tests.browsing import fresh

    driver = fresh(chromium_session, (1366, 900), 5)
    driver.get(server.url + "/admin/")
    driver.find_element(By.NAME, "username").send_keys("commissioner")
    driver.find_element(By.NAME, "password").send_keys(server.password)
    follow(driver, driver.find_element(By.CSS_SELECTOR, "input[type=submit]"))
    assert driver.title.startswith("Commissioner's desk")
    yield driver
    fresh(driver, (1366, 900), 0)  # signed out for the next module


def fits(driver: Any) -> None:
    """Assert the page has no horizontal overflow at 1,366 px and at a phone's 390 px."""
    for width in (1366, 390):
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600},
        )
        wide = driver.execute_script(
            "return document.documentElement.scrollWidth - window.innerWidth"
        )
        assert wide <= 0, f"{driver.current_url} is {wide} px too wide at {width} px"
        # An inline table wider than the screen says so above it and takes the focus to be
        # scrolled (a phone cut the season's teams after a column, looking whole).
        unmarked = driver.execute_async_script(
            "var done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() =>"
            " done([...document.querySelectorAll('.inline-group')]"
            ".filter(b => b.scrollWidth > b.clientWidth + 1)"
            ".filter(b => !(b.tabIndex === 0 && b.getAttribute('role') === 'region'"
            " && b.previousElementSibling && b.previousElementSibling.offsetHeight > 0"
            " && b.previousElementSibling.classList.contains('scroll-hint')))"
            ".map(b => b.id))))"
        )
        assert unmarked == [], f"{driver.current_url} at {width} px: {unmarked} scroll unhinted"
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    # Django's admin markup gave a roster's cells no labels and the teams selector's icon
    # a label a span may not carry (a screen reader read "edit text" sixty times).
    assert serious_axe_findings(driver) == [], driver.current_url


def wait_for(driver: Any, check: Any, what: str) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # The run's page reloads itself once the run is over: an element may go stale meanwhile.
    waiting = WebDriverWait(
        driver, WAIT, poll_frequency=0.3, ignored_exceptions=[StaleElementReferenceException]
    )
    return waiting.until(check, message=what)


def text(driver: Any, css: str) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.CSS_SELECTOR, css).text)


def submit(driver: Any, name: str = "_save") -> None:
    """Press a form's button and wait for the page it leads to (never read the old one)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    page = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, f'input[type=submit][name="{name}"]').click()
    WebDriverWait(driver, 30).until(expected_conditions.staleness_of(page))


def test_the_commissioner_adds_a_season_and_follows_its_run_to_the_end(
    server: Server, browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(server.url + "/admin/league/league/add/")
    browser.find_element(By.NAME, "name").send_keys("Commissioner League")
    submit(browser)
    assert "was added successfully" in text(browser, ".messagelist")

    browser.get(server.url + "/admin/league/season/add/")
    fits(browser)
    Select(browser.find_element(By.NAME, "league")).select_by_visible_text("Commissioner League")
    browser.find_element(By.NAME, "name").send_keys("Winter 2027")
    choices = Select(browser.find_element(By.ID, "id_teams_from"))
    for team in SEASON_TEAMS:
        choices.select_by_visible_text(team)
    browser.find_element(By.ID, "id_teams_add").click()
    cross = browser.find_element(By.NAME, "cross_conference_games")
    cross.clear()
    cross.send_keys("2")
    submit(browser)
    # Two round robins of three and two games a team across: 3 + 3 + 6.
    assert "Commissioner League Winter 2027 was added: 6 teams, 12 games." in text(
        browser, ".messagelist"
    )
    entries = browser.find_elements(
        By.CSS_SELECTOR, "#entries-group input[name$='-conference']:not([name*='__prefix__'])"
    )
    assert sorted(e.get_attribute("value") for e in entries) == ["Independent"] * 3 + ["SEC"] * 3
    fits(browser)

    browser.get(server.url + "/admin/league/season/")
    row = browser.find_element(By.XPATH, "//tr[.//a[contains(., 'Winter 2027')]]")
    row.find_element(By.CSS_SELECTOR, "input.action-select").click()
    Select(browser.find_element(By.NAME, "action")).select_by_value("simulate_rest")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "button[name=index]"))
    # The action answers at once with the run's page, which follows the run to its end.
    assert "/admin/league/simulationrun/" in browser.current_url
    assert "started for 12 games" in text(browser, ".messagelist")
    wait_for(browser, lambda d: text(d, "#run-status") == "Done", "the run to end")
    assert text(browser, "#run-done") == text(browser, "#run-total") == "12"
    fits(browser)
    follow(browser, browser.find_element(By.LINK_TEXT, "The season's page"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Commissioner League Winter 2027"


def test_a_run_started_through_the_api_answers_at_once_and_is_followed_to_its_end(
    server: Server, browser: Any
) -> None:

    made = command([PYTHON, "manage.py", "drf_create_token", "commissioner"], server.env)
    token = made.split()[2]
    status, teams, _ = server.api("GET", "/api/teams/", token)
    assert status == 200
    status, league, _ = server.api("POST", "/api/leagues/", token, {"name": "API League"})
    assert status == 201
    body = {"league": league["id"], "name": "API Winter", "seed": 4, "conferences": "none",
            "teams": [t["id"] for t in teams["results"][:4]]}  # fmt: skip
    status, season, _ = server.api("POST", "/api/seasons/", token, body)
    assert status == 201
    simulate = f"/api/seasons/{season['id']}/simulate/"
    status, refused, _ = server.api("POST", simulate, token, {"scope": "round", "round": 32768})
    assert (status, list(refused)) == (400, ["round"])
    status, run, location = server.api("POST", simulate, token, {"scope": "all"})
    assert status == 202 and location == f"{server.url}/api/runs/{run['id']}/"
    assert run["total"] == 6
    deadline = time.monotonic() + WAIT
    while run["status"] == "running":
        assert time.monotonic() < deadline, f"run {run['id']} did not end: {run}"
        time.sleep(0.3)
        _, run, _ = server.api("GET", location.removeprefix(server.url), token)
    assert (run["status"], run["done"], run["failed"]) == ("done", 6, 0)
    browser.get(f"{server.url}/admin/league/simulationrun/{run['id']}/change/")
    assert text(browser, "#run-status") == "Done"
    # A run that is over is not polled (no implicit wait: none is expected).
    assert (
        browser.execute_script("return document.querySelectorAll('#run-progress script').length")
        == 0
    )


def test_the_commissioner_edits_a_card_renames_a_player_and_a_team_and_imports_a_file(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    # A card: a value off the card is refused in the commissioner's words, the preview still
    # shows the card as saved; a good value is saved.
    browser.get(server.url + "/admin/cards/card/?q=Anthony+Davis")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "#result_list tbody th a"))
    saved_steal = text(browser, ".vabg-card table tr:nth-child(3) td")
    steal = browser.find_element(By.NAME, "steal_top")
    steal.clear()
    steal.send_keys("99")
    submit(browser, "_continue")
    assert "The steal range top must be 10 to 30, as on a VABG card." in text(
        browser, ".field-steal_top"
    )
    assert text(browser, ".vabg-card table tr:nth-child(3) td") == saved_steal
    fits(browser)
    steal = browser.find_element(By.NAME, "steal_top")
    steal.clear()
    steal.send_keys("12")
    submit(browser, "_continue")
    assert "was changed successfully" in text(browser, ".messagelist")
    assert text(browser, ".vabg-card table tr:nth-child(3) td") == "11-12"
    follow(browser, browser.find_element(By.CSS_SELECTOR, "a.historylink"))
    history = text(browser, "#change-history")
    assert "Loaded by load_teams from kentucky-2012.json" in history
    assert "commissioner" in history and "Steal range top" in history
    fits(browser)  # a review: the history table was 449 px wide on a 390 px phone

    # A player and a team renamed: the fans' pages say so at once.
    browser.get(server.url + "/admin/cards/player/?q=Anthony+Davis")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "#result_list tbody th a"))
    name = browser.find_element(By.NAME, "name")
    name.clear()
    name.send_keys("Anthony Marshon Davis")
    submit(browser, "_continue")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "a.viewsitelink"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Anthony Marshon Davis"

    browser.get(server.url + "/admin/cards/team/?q=Kansas+2008")
    follow(browser, browser.find_element(By.LINK_TEXT, "Kansas 2008"))
    fits(browser)
    school = browser.find_element(By.NAME, "school")
    school.clear()
    school.send_keys("Kansas Jayhawks")
    submit(browser, "_continue")
    assert "was changed successfully" in text(browser, ".messagelist")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "a.viewsitelink"))
    assert "Kansas Jayhawks 2008" in browser.find_element(By.TAG_NAME, "h1").text

    # A team file imported: a new team.
    document = json.loads((ROOT / "fixtures" / "teams" / "kentucky-2012.json").read_text())
    upload = tmp_path / "kentucky-2013.json"
    upload.write_text(json.dumps({**document, "season": 2013}))
    browser.get(server.url + "/admin/cards/team/import/")
    fits(browser)
    browser.find_element(By.NAME, "files").send_keys(str(upload))
    follow(browser, browser.find_element(By.CSS_SELECTOR, "input[type=submit][value=Import]"))
    assert "Kentucky 2013: created" in text(browser, ".messagelist")
    browser.get(server.url + "/admin/cards/team/")
    fits(browser)
    assert browser.find_elements(By.LINK_TEXT, "Kentucky 2013")


def test_on_a_phone_the_list_filters_come_first_folded_naming_what_narrows_the_list(
    server: Server, browser: Any
) -> None:
    """Django's admin put a list's filters after every row on a phone: the commissioner
    scrolled past 96 teams to narrow them by conference."""
    from selenium.webdriver.common.by import By

    def phone_list(query: str) -> dict[str, Any]:
        browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": 390, "height": 900, "deviceScaleFactor": 1, "mobile": True},
        )
        browser.get(server.url + "/admin/cards/team/" + query)
        wait_for(browser, lambda d: d.find_element(By.ID, "result_list"), "the team list")
        seen: dict[str, Any] = browser.execute_script(
            "const top = e => e.getBoundingClientRect().top;"
            "return {filters: top(document.getElementById('changelist-filter')),"
            " rows: top(document.getElementById('result_list')),"
            " open: [...document.querySelectorAll('#changelist-filter details')]"
            ".filter(d => d.open).map(d => d.dataset.filterTitle),"
            " headings: [...document.querySelectorAll('#changelist-filter summary')]"
            ".map(s => s.textContent.trim())}"
        )
        return seen

    browser.execute_script("sessionStorage.clear()")
    try:
        seen = phone_list("")
        assert seen["filters"] < seen["rows"] < 900, seen
        assert seen["open"] == [], seen
        assert "By conference" in seen["headings"], seen
        # The heading says what narrows the list, the filter folded all the same.
        narrowed = phone_list("?conference=Big+12")
        assert "By conference: Big 12" in narrowed["headings"], narrowed
        assert narrowed["open"] == [] and narrowed["filters"] < narrowed["rows"] < 900, narrowed
        fits(browser)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        browser.execute_script("sessionStorage.clear()")
