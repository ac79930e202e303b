"""What every browser test needs when a click loads another page: wait for that page.

Selenium's click returns once the click is dispatched, not once the next page is there; an
element found right after it may belong to the old page (and go stale while it is read)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SEVERE = ("serious", "critical")
"""The impacts of axe-core's findings a page must not have."""
AXE = (Path(__import__("axe_core_python").__file__).parent / "axe.min.js").read_text(
    encoding="utf8"
)
"""axe-core's script (4.4), as axe-core-python ships it: axe-selenium-python's 3.1 of 2018
missed a keyboard user's scroll boxes (scrollable-region-focusable) and more."""


AUDIT = """
const done = arguments[arguments.length - 1];
const skipped = arguments[0] || [];
if (typeof axe === "undefined") {
  done(null);
} else {
  // A rule whose every check is of a lesser impact than serious can find nothing serious
  // or critical: it is left out (what is asked for is the same, found sooner). A check
  // whose impact is not known keeps its rule.
  const lesser = ["minor", "moderate"];
  const rules = {};
  for (const id of skipped) rules[id] = {enabled: false};
  for (const rule of axe._audit.rules) {
    const checks = [...rule.any, ...rule.all, ...rule.none].map(c => c.id || c);
    if (checks.length && checks.every(c => lesser.includes((axe._audit.data.checks[c] || {}).impact))) {
      rules[rule.id] = {enabled: false};
    }
  }
  axe.run(document, {resultTypes: ["violations"], rules: rules}).then(done, e => done({error: String(e)}));
}
"""


def serious_axe_findings(driver: Any, skip: Sequence[str] = ()) -> list[str]:
    """Return what axe-core finds serious or critical on the page as it stands, one line
    each: the impact, the rule and where; the rules of ``skip`` left out. axe-core is put in
    the page unless it is there already (:func:`axe_in_every_page`)."""
    results = driver.execute_async_script(AUDIT, list(skip))
    if results is None:
        driver.execute_script(AXE)
        results = driver.execute_async_script(AUDIT, list(skip))
    assert "error" not in results, results
    return [
        f"axe {v['impact']} {v['id']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in results["violations"]
        if v["impact"] in SEVERE
    ]


@contextmanager
def axe_in_every_page(driver: Any) -> Iterator[None]:
    """Have Chromium run axe-core's script as each page it loads begins, while the block
    runs: sent to the browser once, instead of once a page with each audit (some 280 kB
    each time, parsed again each time)."""
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": AXE})
    try:
        yield
    finally:
        driver.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]}
        )


def tap(driver: Any, element: Any) -> None:
    """Click an element as a reader does: scrolled to the middle of the screen first, out
    from under a bar that stays at the screen's foot (the challenge's Save bar), then
    clicked."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def follow(driver: Any, element: Any, timeout: float = 30) -> None:
    """Click a link or button that leads to another page and wait until that page is loaded.

    The old page is marked in its window object, which a new document does not have (an
    element of the old page can answer a stale or a 'does not belong to the document'
    error while the new one replaces it)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script("window.vabgLeftPage = true")
    element.click()
    # A script run while the new document replaces the old may fail: ask again.
    WebDriverWait(
        driver, timeout, poll_frequency=0.05, ignored_exceptions=(WebDriverException,)
    ).until(
        lambda d: d.execute_script(
            "return !window.vabgLeftPage && document.readyState === 'complete'"
        )
    )


def start_chromium() -> Any:
    """Start the headless Chromium every browser test drives (one a test process): its
    console is kept for the tests that read it, and scrollbars take no width."""
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # No connections opened ahead of requests (preconnects): see conftest's chromium_session.
    options.add_experimental_option("prefs", {"net.network_prediction_options": 2})
    return webdriver.Chrome(
        service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options
    )


def fresh(driver: Any, size: tuple[int, int], wait: float) -> Any:
    """Give a test the shared Chromium as a new one would be: no cookie, nothing cached (a
    fan page is public for seconds, and the next test's page may have the same address),
    no emulated screen or medium, an empty console, a blank page of ``size``, and ``wait``
    seconds of implicit wait for elements."""
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.get_log("browser")  # read, so the test sees only its own pages' messages
    driver.set_window_size(*size)
    driver.implicitly_wait(wait)
    return driver
