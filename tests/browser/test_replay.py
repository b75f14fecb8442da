"""The replay viewer on the game just played: step to a move, by button and by keyboard, and
annotate it."""

from __future__ import annotations

from collections.abc import Callable

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import landed, pages
from tests.browser.conftest import ARTIFACTS, FinishedGame, LiveService


def _shown_version(driver: WebDriver) -> int:
    replay = pages.find(driver, "#replay")
    return int((replay.get_attribute("data-version") if replay else None) or -1)


@landed.board
@landed.replay
def test_the_replay_of_the_finished_game_steps_to_a_move_and_takes_an_annotation_there(
    live_service: LiveService, finished_game: FinishedGame, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    # The player's own browser: the board page stores the seat's token, the replay uses it.
    driver.get(finished_game.url)
    pages.wait_until(driver, lambda d: pages.shown(d, "#result"), what="the end screen")
    driver.get(f"{live_service.url}/replay/{finished_game.game_id}")
    pages.wait_until(driver, lambda d: pages.find(d, "#replay #board svg"), what="the replay's board")

    slider = pages.find_or_fail(driver, "#step")
    start = int(slider.get_attribute("value") or 0)
    for _ in range(3):
        pages.find_or_fail(driver, "#next").click()
    pages.wait_until(
        driver, lambda d: int(slider.get_attribute("value") or 0) == start + 3, what="3 steps on"
    )
    slider.send_keys(Keys.ARROW_RIGHT)
    pages.wait_until(
        driver, lambda d: int(slider.get_attribute("value") or 0) == start + 4, what="a key step"
    )
    pages.find_or_fail(driver, "#prev").click()
    pages.wait_until(
        driver, lambda d: int(slider.get_attribute("value") or 0) == start + 3, what="a step back"
    )
    at = _shown_version(driver)
    assert at > 0

    text = f"Here the bridge race was decided (step {start + 3})"
    form = pages.find_or_fail(driver, "#annotate")
    form.find_element(By.CSS_SELECTOR, "textarea[name=text]").send_keys(text)
    form.find_element(By.CSS_SELECTOR, "[type=submit]").click()
    pages.wait_until(driver, lambda d: text in pages.find_or_fail(d, "#replay").text, what="the new note")
    driver.save_screenshot(str(ARTIFACTS / "replay-annotated.png"))

    notes = pages.api_get(live_service.url, f"/games/{finished_game.game_id}/annotations")["annotations"]
    assert [(n["version"], n["kind"]) for n in notes if n.get("text") == text] == [(at, "comment")]
