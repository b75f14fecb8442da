"""A new player's first Kahuna game: "Learn Kahuna" in the lobby, then the guide's words followed
to the end screen. The guide's words change with the situation it reads on the page (a card to
pick, a lit line to click, more bridges or a draw, the computer's turn, the end), and the pages
on the way break neither the accessibility rules nor the Content-Security-Policy."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import axe, pages
from tests.browser.conftest import ARTIFACTS, GAME_WITHIN, LiveService
from tests.browser.test_csp import RECORDER, violations

_GUIDE = """
const box = document.querySelector("#guide");
const panel = document.querySelector("#panel .panel");
if (!box || box.hidden) return null;
return {situation: box.dataset.situation || "", step: document.querySelector("#guide-step").textContent,
        why: document.querySelector("#guide-why").textContent,
        current: !panel || box.dataset.version === panel.dataset.version};
"""


def guide(driver: WebDriver) -> dict[str, str] | None:
    """What the guide box says now (None while it is hidden), read in one script. The box is
    redrawn a frame after the panel: until it speaks of the panel shown, `current` is False."""
    said: dict[str, str] | None = driver.execute_script(_GUIDE)
    return said


def guide_in(driver: WebDriver, *situations: str) -> dict[str, str]:
    return pages.wait_until(
        driver,
        lambda d: (said := guide(d)) is not None and said["situation"] in situations and said,
        what=f"the guide to speak of {situations}",
    )


def placements(driver: WebDriver) -> list[dict[str, Any]]:
    return [c for _, c in pages.offered(driver) if c.get("type") == "PlaceBridge" and "take_back" not in c]


def draw(driver: WebDriver, rng: random.Random) -> None:
    """A draw as the guide says it: the stack, or a face-up card once the stack is empty; the
    turn's end without a draw once no card is left."""
    offered = pages.offered(driver)
    draws = [c for _, c in offered if c.get("type") == "DrawCard"]
    if not draws:
        ends = [button for button, c in offered if c.get("type") in ("SkipDraw", "EndTurn")]
        assert ends, f"the guide says to draw or end the turn and neither is offered: {offered}"
        ends[0].click()
        return
    if any(c["source"] == "stack" for c in draws):
        pages.click(driver, "#stack")
    else:
        pages.click(driver, f'#row [data-card="{rng.choice(draws)["card"]}"]')


def follow(driver: WebDriver, rng: random.Random, told: dict[str, set[str]]) -> bool:
    """Do what the guide says once (False: nothing for this seat to do now)."""
    said = pages.wait_until(
        driver,
        lambda d: (g := guide(d)) is not None and g["current"] and g,
        what="the guide on the panel shown",
    )
    told.setdefault(said["situation"], set()).add(said["step"])
    before = pages.version(driver)
    if (
        said["situation"] in ("card", "more")
        and placements(driver)
        and (said["situation"] == "card" or rng.random() < 0.3)
    ):
        command = rng.choice(placements(driver))
        card = command["card"]
        pages.click(driver, f'#hand [data-card="{card}"]')
        line = guide_in(driver, "line")
        told["line"].add(line["step"])
        assert card in line["why"], line  # the guide names the island the picked card allows
        pages.click_line(driver, pages.line_key(command["line"]))
    elif said["situation"] in ("card", "more", "draw", "end"):
        draw(driver, rng)
    elif said["situation"] in ("discard", "choose"):
        button, _ = rng.choice(pages.offered(driver))
        button.click()
    else:
        return False  # the computer's turn, a scoring, or the end
    pages.wait_until(driver, lambda d: pages.version(d) > before or pages.ended(d), what=f"{said}")
    return True


def test_a_new_player_follows_the_guide_through_a_whole_kahuna_game(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    driver.get(f"{live_service.url}/rules/kahuna")
    pages.wait_until(driver, lambda d: pages.find(d, "#learn"), what="the Learn Kahuna button")
    pages.click(driver, "#learn")
    pages.wait_until(driver, lambda d: pages.status(d).get("seat") == "0", what="the guided board")
    first = guide_in(driver, "card")
    assert "pick a card" in first["step"] and "names an island" in first["why"]
    assert axe.barred(axe.violations(driver)) == []

    rng = random.Random(3)
    told: dict[str, set[str]] = {"line": set()}
    deadline = time.monotonic() + GAME_WITHIN
    while not pages.ended(driver):
        assert time.monotonic() < deadline, f"no end screen; the guide said {told}"
        if not follow(driver, rng, told):
            time.sleep(pages.POLL)
    end = guide_in(driver, "over")
    driver.save_screenshot(str(ARTIFACTS / "guided-end.png"))

    assert "The game is over" in end["step"] and "difference" in end["why"]
    # The words followed the game: a card, then a line, then more or a draw, and the computer's turns.
    assert {"card", "line", "waiting"} <= set(told) and {"more", "draw"} & set(told), told
    steps = {step for said in told.values() for step in said}
    assert len(steps) >= 4, told
    assert violations(driver) == []


def test_the_guide_stays_hidden_on_an_ordinary_game_and_can_be_hidden_on_a_guided_one(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    pages.create_game(driver, live_service.url, [pages.human("Ann"), pages.random_computer()])
    pages.wait_until(driver, lambda d: pages.offered(d), what="seat 0's commands")
    assert guide(driver) is None

    driver.get(f"{live_service.url}/")
    pages.click(driver, "#learn")
    guide_in(driver, "card")
    pages.click(driver, "#guide-off")
    assert guide(driver) is None
    driver.refresh()
    pages.wait_until(driver, lambda d: pages.offered(d), what="seat 0's commands after a reload")
    assert guide(driver) is None
