"""The play page keeps the receipt of each move its seat makes (IndexedDB, across reloads) and
offers them as a JSON Lines download that the published keys verify."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from selenium.webdriver.remote.webdriver import WebDriver

from record import receipts
from tests.browser import pages
from tests.browser.conftest import ARTIFACTS, LiveService

DATA_URL = "data:application/x-ndjson;charset=utf-8,"


def kept_count(driver: WebDriver) -> int:
    link = pages.find(driver, "#receipts-link")
    return int(link.get_attribute("data-count") or 0) if link is not None else 0


def downloaded(driver: WebDriver) -> list[dict[str, Any]]:
    link = pages.find_or_fail(driver, "#receipts-link")
    assert link.get_attribute("download") == f"receipts-{pages.game_id_of(driver.current_url)}.jsonl"
    href = link.get_attribute("href") or ""
    assert href.startswith(DATA_URL), href[:80]
    return [json.loads(line) for line in unquote(href.removeprefix(DATA_URL)).splitlines()]


def test_the_play_page_keeps_each_move_s_receipt_and_offers_them_for_download(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    created = pages.create_game(driver, live_service.url, [pages.human("Ann"), pages.random_computer()])
    game_id = created.game_id
    pages.wait_until(driver, lambda d: pages.offered(d), what="seat 0's first commands")
    assert not pages.shown(driver, "[data-receipts]")  # nothing kept yet: no link
    placements = [
        c for _, c in pages.offered(driver) if c.get("type") == "PlaceBridge" and "take_back" not in c
    ]
    pages.place_by_board(driver, placements[0])
    pages.wait_until(driver, lambda d: kept_count(d) >= 1, what="the move's receipt kept")
    assert pages.shown(driver, "[data-receipts]")
    driver.execute_script("arguments[0].scrollIntoView()", pages.find_or_fail(driver, "#receipts-link"))
    driver.save_screenshot(str(ARTIFACTS / "receipts.png"))

    [receipt] = downloaded(driver)[:1]
    assert receipt["game_id"] == game_id and receipt["version"] >= 2
    keys = receipts.public_keys(pages.api_get(live_service.url, "/.well-known/archipelago/keys"))
    assert receipts.signature_fault(receipt, keys) is None
    events = pages.api_get(live_service.url, f"/games/{game_id}/events")["events"]
    assert events[receipt["version"] - 1]["hash"] == receipt["hash"]

    # Kept in IndexedDB: a reload of the page offers it again.
    count = kept_count(driver)
    driver.refresh()
    pages.wait_until(driver, lambda d: kept_count(d) >= count, what="the receipts after a reload")
    assert receipt in downloaded(driver)
