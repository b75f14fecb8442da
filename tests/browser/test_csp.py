"""Every page works under its Content-Security-Policy (service/web/headers.py): Chromium reports
no violation on the lobby, the new-game form, the board of each game family while a move is
played, the replay, the tournament list and a tournament's page while a person registers.

A listener that DevTools installs before any page script records each `securitypolicyviolation`
event of a page; a script the test injects on purpose shows that the listener hears them."""

from __future__ import annotations

import json
import random
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
from tests.browser.conftest import LiveService

RECORDER = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(
    e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":"
    + e.lineNumber + " " + (e.sample || ""));
}, true);
"""


def violations(driver: WebDriver) -> list[str]:
    """What the policy blocked on the page now shown, as Chromium reported it (event and console)."""
    found: list[str] = driver.execute_script("return window.__violations || null;")
    assert found is not None, "the page has no violation listener"
    logged = [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]
    return found + logged


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(f"{base}{path}", json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        answered: dict[str, Any] = json.load(answer)
        return answered


@pytest.fixture
def browser(open_browser: Callable[[], WebDriver]) -> Iterator[WebDriver]:
    """A Chromium window that records every page's policy violations."""
    driver = open_browser()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    yield driver


def open_page(driver: WebDriver, url: str, ready: str) -> None:
    driver.get(url)
    pages.wait_until(driver, lambda d: pages.find(d, ready), what=ready)


def test_the_listener_hears_what_the_policy_blocks(live_service: LiveService, browser: WebDriver) -> None:
    open_page(browser, live_service.url + "/", "#join")
    browser.execute_script(
        "const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        "document.body.append(s);"
        "const d = document.createElement('p'); d.setAttribute('style', 'color: red');"
        "document.body.append(d);"
    )

    found = pages.wait_until(
        browser, lambda d: len(violations(d)) >= 2 and violations(d), what="2 violations"
    )

    assert browser.execute_script("return window.ran === undefined;")
    assert any("script-src" in v for v in found) and any("style-src" in v for v in found)


def test_no_page_breaks_its_policy(live_service: LiveService, browser: WebDriver) -> None:
    base = live_service.url
    seen: dict[str, list[str]] = {}
    open_page(browser, base + "/", "#join")
    seen["lobby"] = violations(browser)

    created = pages.create_game(browser, base, [pages.human("Ann"), pages.random_computer()])
    seen["new-game form and the board"] = violations(browser)
    rng = random.Random(3)
    for _ in range(2):
        pages.wait_until(browser, lambda d: pages.offered(d), what="a command offered")
        pages.play_one(browser, rng)
    seen["the board after two moves"] = violations(browser)

    open_page(browser, f"{base}/replay/{created.game_id}", "#frame svg")
    pages.click(browser, "#next")
    seen["the replay"] = violations(browser)

    seats = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cai"}]
    for game in ("nanuuk", "conquest-of-paradise"):
        made = _post(base, "/games", {"game": game, "seats": seats, "first_seat": 0})
        token = made["seats"][0]["token"]
        open_page(browser, f"{base}/play/{made['game_id']}#token={token}", "#board svg")
        pages.wait_until(browser, lambda d: pages.status(d).get("seat") == "0", what=f"seat 0 of {game}")
        seen[game] = violations(browser)

    tournament = _post(
        base, "/tournaments", {"name": "Cup", "game": "kahuna", "format": "swiss", "rounds": 1}
    )
    open_page(browser, base + "/t", "#tournaments")
    seen["tournaments"] = violations(browser)
    open_page(browser, f"{base}/t/{tournament['tournament_id']}", "#register")
    pages.find_or_fail(browser, "#register-name").send_keys("Ann")
    pages.find_or_fail(browser, "#register").find_element(By.CSS_SELECTOR, "[type=submit]").click()
    pages.wait_until(browser, lambda d: pages.shown(d, "#you"), what="the entrant the page registered")
    seen["a tournament"] = violations(browser)

    assert {page: found for page, found in seen.items() if found} == {}
