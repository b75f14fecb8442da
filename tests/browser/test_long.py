"""The long form (`make test-browser-long`, left out of `make test`): a whole game of each other
island game by clicks, one person against random computers."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
from tests.browser.conftest import ARTIFACTS, GAME_WITHIN, LiveService


@pytest.mark.browser_long
@pytest.mark.parametrize(("game", "computers"), [("arabana-ikibiti", 1), ("arabana-opodopo", 2)])
def test_a_whole_game_of_each_island_game_is_played_by_clicks_to_its_end_screen(
    live_service: LiveService, open_browser: Callable[[], WebDriver], game: str, computers: int
) -> None:
    driver = open_browser()
    seats = [pages.human("Ann"), *(pages.random_computer(f"Robo {n + 1}") for n in range(computers))]
    created = pages.create_game(driver, live_service.url, seats, game=game)
    pages.play_to_the_end(driver, random.Random(game), deadline=time.monotonic() + GAME_WITHIN)
    driver.save_screenshot(str(ARTIFACTS / f"{game}-end.png"))
    ended = pages.api_get(live_service.url, f"/games/{created.game_id}")
    assert ended["phase"] == "ended"
    result = pages.text(driver, "#result")
    for seat in ended["seats"]:
        assert seat["name"] in result and str(seat["score"]) in result, (result, ended["seats"])
