"""The tournament page's script: registration through the JSON API, the entrant's own game with
its seat link, a refusal with its code, and the tables following the tournament's stream."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import axe, pages
from tests.browser.conftest import LiveService


def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"{base}{path}", json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        answered: dict[str, Any] = json.load(answer)
        return answered


def _register(driver: WebDriver, name: str) -> None:
    field = pages.find_or_fail(driver, "#register-name")
    field.clear()
    field.send_keys(name)
    pages.find_or_fail(driver, "#register").find_element(By.CSS_SELECTOR, "[type=submit]").click()


def test_a_person_registers_on_the_page_then_sees_the_pairing_live_and_opens_its_seat(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    base = live_service.url
    created = _post(
        base, "/tournaments", {"name": "Page Cup", "game": "kahuna", "format": "swiss", "rounds": 1}
    )
    tid, organizer = created["tournament_id"], created["organizer_token"]
    driver = open_browser()
    driver.get(f"{base}/t/{tid}")

    _register(driver, "Ann")
    pages.wait_until(driver, lambda d: pages.shown(d, "#you"), what="the entrant the page registered")
    assert "Ann (e1)" in pages.text(driver, "#you-entrant")
    _register(driver, "   ")  # passes `required`, trimmed to nothing: the schema refuses it
    said = pages.wait_until(
        driver, lambda d: pages.text(d, "#register-name-error"), what="the field's refusal"
    )
    assert said.startswith("Your name: ") and "between 1 and 60" in said
    assert pages.attribute(driver, "#register-name", "aria-invalid") == "true"
    reason = pages.text(driver, "#register-error")
    assert "see errors" not in reason and reason.endswith("(invalid_request)")
    _register(driver, "Ann")
    code = pages.wait_until(
        driver,
        lambda d: pages.attribute(d, "#register-error", "data-code") == "name_taken",
        what="a refusal",
    )
    assert code
    said = pages.text(driver, "#register-name-error")
    assert said == "Your name: an entrant named 'Ann' is registered already"
    assert axe.barred(axe.violations(driver)) == []  # the form with its refusals shown

    _post(base, f"/tournaments/{tid}/entrants", {"kind": "ai", "level": 1}, organizer)
    _post(base, f"/tournaments/{tid}/commands", {"type": "StartTournament"}, organizer)
    _post(base, f"/tournaments/{tid}/commands", {"type": "PairRound"}, organizer)
    seat_link = pages.wait_until(
        driver,
        lambda d: d.find_elements(By.CSS_SELECTOR, "#your-game a") and pages.find(d, "#round-1"),
        what="the pairing, live, and the entrant's game",
    )
    assert seat_link is not None
    href = pages.attribute(driver, "#your-game a", "href") or ""
    game_id = pages.api_get(base, f"/tournaments/{tid}")["tables"][0]["game_id"]
    assert href.startswith(f"{base}/play/{game_id}#token=")
    assert pages.find(driver, "#register") is None  # closed at the start: the form is gone
    assert axe.barred(axe.violations(driver)) == []  # every table, the entrant's part shown

    pages.click(driver, "#your-game a")
    pages.wait_until(driver, lambda d: pages.status(d).get("seat") not in (None, ""), what="the seat's board")


def test_the_list_of_tournaments_has_no_serious_axe_violation(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    _post(
        live_service.url,
        "/tournaments",
        {"name": "Listed Cup", "game": "kahuna", "format": "swiss", "rounds": 1},
    )
    driver = open_browser()
    driver.get(f"{live_service.url}/t")
    pages.wait_until(driver, lambda d: pages.find(d, "table#tournaments"), what="the list")
    assert axe.barred(axe.violations(driver)) == []
