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
    assert "You resigned" in pages.text(driver, "#resigned")
    assert "Robo wins" in pages.text(driver, "#result")
    replay = pages.attribute(driver, "#end-replay", "href") or ""
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


def test_between_two_people_one_offers_the_rematch_and_the_other_accepts_it(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    ann, ben = open_browser(), open_browser()
    created = pages.create_game(ann, live_service.url, [pages.human("Ann"), pages.human("Ben")])
    ben.get(created.invites[1])
    pages.wait_until(ben, lambda d: pages.status(d).get("seat") == "1", what="Ben's page")
    pages.click(ben, "#resign")
    pages.click(ben, "#resign-yes")
    pages.wait_until(ann, lambda d: pages.shown(d, "#result"), what="the end on Ann's page, live")

    pages.click(ann, "#rematch-ask")
    pages.wait_until(ann, lambda d: "waiting" in pages.text(d, "#rematch-status"), what="the wait")
    pages.wait_until(ben, lambda d: "offers" in pages.text(d, "#rematch-status"), what="the offer")
    pages.click(ben, "#rematch-ask")

    for driver, seat in ((ann, "1"), (ben, "0")):
        pages.wait_until(
            driver,
            lambda d, s=seat: (
                pages.game_id_of(d.current_url) != created.game_id and pages.status(d).get("seat") == s
            ),
            what=f"the rematch at seat {seat}",
        )
    assert pages.game_id_of(ann.current_url) == pages.game_id_of(ben.current_url)
