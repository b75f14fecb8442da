"""Playing Kahuna in the browser by clicks: a whole game against the random computer, and an
undo within a turn."""

from __future__ import annotations

from collections.abc import Callable

from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
from tests.browser.conftest import ARTIFACTS, FinishedGame, LiveService


def test_a_whole_kahuna_game_against_the_random_computer_is_played_by_clicks_to_its_end_screen(
    live_service: LiveService, finished_game: FinishedGame
) -> None:
    game = pages.api_get(live_service.url, f"/games/{finished_game.game_id}")
    assert game["phase"] == "ended"
    assert finished_game.played > 0
    # The end screen tells the outcome the service recorded: every seat's name and final score.
    for seat in game["seats"]:
        assert seat["name"] in finished_game.result_text, (finished_game.result_text, game["seats"])
        assert str(seat["score"]) in finished_game.result_text, (finished_game.result_text, game["seats"])


def _first_placement(driver: WebDriver) -> dict[str, object]:
    """Seat 0's first move of its turn: a plain bridge placement, made by card then line."""
    placements = [
        c for _, c in pages.offered(driver) if c.get("type") == "PlaceBridge" and "take_back" not in c
    ]
    assert placements, f"no placement offered: {[c for _, c in pages.offered(driver)]}"
    command = placements[0]
    before = pages.version(driver)
    pages.place_by_board(driver, command)
    pages.wait_until(driver, lambda d: pages.version(d) > before, what="the placed bridge")
    return command


def test_an_undo_within_the_turn_takes_the_placed_bridge_back_on_the_board(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    game_id = pages.create_game(
        driver, live_service.url, [pages.human("Ann"), pages.random_computer()]
    ).game_id
    pages.wait_until(driver, lambda d: pages.offered(d), what="seat 0's first commands")
    hand_before = pages.hand(driver)
    command = _first_placement(driver)
    key = pages.line_key(command["line"])  # type: ignore[arg-type]
    assert pages.line_owner(driver, key) == "0"
    assert len(pages.hand(driver)) == len(hand_before) - 1

    placed = pages.version(driver)
    pages.click(driver, "#undo")
    pages.wait_until(driver, lambda d: pages.version(d) > placed, what="the undo")

    assert pages.line_owner(driver, key) is None
    assert pages.hand(driver) == hand_before
    assert pages.api_get(live_service.url, f"/games/{game_id}")["active"] == 0
    driver.save_screenshot(str(ARTIFACTS / "undo.png"))
