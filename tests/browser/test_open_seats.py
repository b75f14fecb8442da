"""Open seats by clicks: Ann creates a Kahuna game with an open seat, Ben finds it in the lobby's
open games and takes it, Ann's page shows Ben's name without a reload, and they play a turn each."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
from tests.browser.conftest import ARTIFACTS, LiveService

OPEN = pages.Seat("open", "")


def _name_of_seat(driver: WebDriver, seat: int) -> str:
    row = pages.find(driver, f'#scores tr[data-seat="{seat}"]')
    return "" if row is None else row.text


def _play_a_turn(driver: WebDriver, seat: str, rng: random.Random) -> int:
    """Click offered commands until the turn passes to the other seat; how many were played."""
    pages.wait_until(driver, lambda d: pages.status(d)["active"] == seat, what=f"seat {seat}'s turn")
    played = 0
    while pages.status(driver)["active"] == seat:
        if pages.play_one(driver, rng) is not None:
            played += 1
        else:
            time.sleep(pages.POLL)  # the page has not drawn the turn's commands yet
    return played


def test_a_seat_opened_by_one_browser_is_taken_in_the_lobby_by_another_and_they_play(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    ann, ben = open_browser(), open_browser()
    created = pages.create_game(ann, live_service.url, [pages.human("Ann"), OPEN])
    assert set(created.invites) == {0}, "an open seat has no invite link"
    pages.wait_until(ann, lambda d: "open seat" in pages.text(d, "#status"), what="waiting")
    assert pages.offered(ann) == [], "nobody moves before the table is full"
    share = pages.attribute(ann, "#seat-link-field", "value") or ""
    assert pages.shown(ann, "#seat-link") and share == created.mine
    ann.execute_script("window.sameDocument = true;")  # gone if the page were loaded again

    ben.get(live_service.url + "/")
    entry = f'#open li[data-game-id="{created.game_id}"]'
    form = pages.find_or_fail(ben, f"{entry} form.take-seat")
    form.find_element(By.CSS_SELECTOR, "input[name=name]").send_keys("Ben")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    pages.wait_until(ben, lambda d: pages.status(d).get("seat") == "1", what="Ben's seat page")
    assert pages.game_id_of(ben.current_url) == created.game_id

    pages.wait_until(ann, lambda d: "Ben" in _name_of_seat(d, 1), timeout=10, what="Ben's name on Ann's page")
    assert ann.execute_script("return window.sameDocument === true;"), "Ann's page was reloaded"
    ben_link = pages.attribute(ben, "#seat-link-field", "value") or ""
    assert ben_link.startswith(f"{live_service.url}/play/{created.game_id}#token=") and ben_link != share
    assert pages.api_get(live_service.url, "/games?status=open")["games"] == []

    rng = random.Random(5)
    assert _play_a_turn(ann, "0", rng) > 0
    assert _play_a_turn(ben, "1", rng) > 0
    last = pages.version(ben)
    pages.wait_until(
        ann, lambda d: pages.version(d) >= last, timeout=10, what=f"version {last} on Ann's page"
    )
    ann.save_screenshot(str(ARTIFACTS / "open-seat-ann.png"))
