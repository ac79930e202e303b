"""What every browser test needs when a click loads another page: wait for that page.

Selenium's click returns once the click is dispatched, not once the next page is there; an
element found right after it may belong to the old page (and go stale while it is read)."""

from __future__ import annotations

from typing import Any


def follow(driver: Any, element: Any, timeout: float = 30) -> None:
    """Click a link or button that leads to another page and wait until that page is loaded."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    page = driver.find_element(By.TAG_NAME, "html")
    element.click()
    WebDriverWait(driver, timeout).until(expected_conditions.staleness_of(page))
    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return document.readyState") == "complete"
    )
