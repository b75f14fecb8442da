"""Finishing a game in the browser: a person resigns against the computer after confirming, the
end screen offers the replay and a rematch, and the rematch opens with the seats swapped."""

from __future__ import annotations

from collections.abc import Callable

from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
from tests.browser.conftest import ARTIFACTS, LiveService


def test_a_person_resigns_after_confirming_and_the_rematch_opens_with_the_seats_swapped(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    game_id = pages.create_game(
        driver, live_service.url, [pages.human("Ann"), pages.random_computer()]
    ).game_id
    pages.wait_until(driver, lambda d: pages.offered(d), what="Ann's first commands")

    pages.click(driver, "#resign")
    assert pages.shown(driver, "#resign-confirm"), "resigning asks first"
    assert pages.api_get(live_service.url, f"/games/{game_id}")["ending"] is None, "one click ends nothing"
    pages.click(driver, "#resign-no")
    assert not pages.shown(driver, "#resign-confirm")
    pages.click(driver, "#resign")
    pages.click(driver, "#resign-yes")

    pages.wait_until(driver, lambda d: pages.shown(d, "#result"), what="the end screen")
    assert "You resigned" in pages.find_or_fail(driver, "#resigned").text
    assert "Robo wins" in pages.find_or_fail(driver, "#result").text
    replay = pages.find_or_fail(driver, "#end-replay").get_attribute("href") or ""
    assert replay.endswith(f"/replay/{game_id}")
    ending = pages.api_get(live_service.url, f"/games/{game_id}")["ending"]
    assert (ending["how"], ending["seat"]) == ("resigned", 0)
    driver.save_screenshot(str(ARTIFACTS / "resigned.png"))

    pages.click(driver, "#rematch-ask")  # the computer agrees at once
    pages.wait_until(
        driver,
        lambda d: "/play/" in d.current_url and pages.game_id_of(d.current_url) != game_id,
        what="the rematch's page",
    )
    pages.wait_until(driver, lambda d: pages.status(d).get("seat") == "1", what="Ann's new seat, 1")
    rematch = pages.game_id_of(driver.current_url)
    seats = pages.api_get(live_service.url, f"/games/{rematch}")["seats"]
    assert [s["name"] for s in seats] == ["Robo", "Ann"]
