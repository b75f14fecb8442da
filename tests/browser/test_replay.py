"""The replay viewer on the game just played: step to a move, by button and by keyboard, and
annotate it."""

from __future__ import annotations

from collections.abc import Callable

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
from tests.browser.conftest import ARTIFACTS, FinishedGame, LiveService


def _at_step(driver: WebDriver, step: int) -> int | None:
    """The version the viewer shows once its slider and its board are both at `step`, else None."""
    shown = driver.execute_script(
        "const frame = document.querySelector('#frame .frame');"
        "return [document.querySelector('#step').value, frame && frame.dataset.step,"
        " document.querySelector('#replay').dataset.version];"
    )
    return int(shown[2]) if shown[:2] == [str(step), str(step)] else None


def test_the_replay_of_the_finished_game_steps_to_a_move_and_takes_an_annotation_there(
    live_service: LiveService, finished_game: FinishedGame, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    # The player's own browser: the board page stores the seat's token, the replay uses it.
    driver.get(finished_game.url)
    pages.wait_until(driver, lambda d: pages.shown(d, "#result"), what="the end screen")
    driver.get(f"{live_service.url}/replay/{finished_game.game_id}")
    pages.wait_until(driver, lambda d: pages.find(d, "#replay #board svg"), what="the replay's board")

    pages.click(driver, "#first")
    pages.wait_until(driver, lambda d: _at_step(d, 0) is not None, what="the first step")
    for _ in range(3):
        pages.click(driver, "#next")
    pages.wait_until(driver, lambda d: _at_step(d, 3) is not None, what="3 steps on")
    pages.find_or_fail(driver, "#step").send_keys(Keys.ARROW_RIGHT)
    pages.wait_until(driver, lambda d: _at_step(d, 4) is not None, what="a step on by the arrow key")
    pages.click(driver, "#prev")
    at = pages.wait_until(driver, lambda d: _at_step(d, 3), what="a step back")
    assert at > 0

    text = "Here the bridge race was decided (step 3)"
    form = pages.find_or_fail(driver, "#annotate")
    form.find_element(By.CSS_SELECTOR, "textarea[name=text]").send_keys(text)
    form.find_element(By.CSS_SELECTOR, "[type=submit]").click()
    pages.wait_until(driver, lambda d: text in pages.text(d, "#replay"), what="the new note")
    driver.save_screenshot(str(ARTIFACTS / "replay-annotated.png"))

    notes = pages.api_get(live_service.url, f"/games/{finished_game.game_id}/annotations")["annotations"]
    assert [(n["version"], n["kind"]) for n in notes if n.get("text") == text] == [(at, "comment")]
