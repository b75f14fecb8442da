"""Playing a Nanuuk! learning game in the browser by clicks: a cell of the hexagonal board for
each placement and move, then the line to crack among those the page lights."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
from tests.browser.conftest import ARTIFACTS, GAME_WITHIN, LiveService

#: The middle of a hexagonal board's line or cell, in viewport pixels, and whether a pointer
#: there reaches that very hook (nothing drawn over it takes the click).
_MIDDLE = """
const hook = arguments[0];
hook.scrollIntoView({block: "center"});
const shape = hook.querySelector("path.hit") || hook.querySelector("path.ice");
const box = shape.getBBox();
const m = shape.getScreenCTM();
const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
const x = cx * m.a + cy * m.c + m.e, y = cx * m.b + cy * m.d + m.f;
const hit = document.elementFromPoint(x, y);
const name = hook.hasAttribute("data-line") ? "data-line" : "data-cell";
return [Math.round(x), Math.round(y), !!hit && hit.closest("[" + name + "]") === hook];
"""


def click_hook(driver: WebDriver, css: str) -> None:
    """A mouse click on the middle of the board's cell or line that `css` names."""
    hook = pages.find_or_fail(driver, css)
    x, y, hits = driver.execute_script(_MIDDLE, hook)
    assert hits, f"{css} is not what a click on its middle reaches"
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(x, y).click()
    actions.perform()


def cell_key(cell: list[int]) -> str:
    return f"{cell[0]},{cell[1]}"


def crack_key(crack: list[list[int]]) -> str:
    return "|".join(cell_key(c) for c in sorted(crack))


def lit(driver: WebDriver, css: str) -> list[str]:
    found: list[str] = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.dataset.cell || e.dataset.line);", css
    )
    return found


def play_one(driver: WebDriver, rng: random.Random, seen: dict[str, int]) -> bool:
    """Play one offered command by clicks on the board; False when nothing is offered."""
    commands = pages.offered(driver)
    if not commands:
        return False
    before = pages.version(driver)
    command: dict[str, Any] = rng.choice([c for _, c in commands])
    if command.get("type") == "PlaceCrack":
        key = crack_key(command["crack"])
        assert key in lit(driver, "#board svg.hex.cracking [data-line].target"), "the crack's line is not lit"
        click_hook(driver, f'#board [data-line="{key}"]')
    elif "cell" in command:
        key = cell_key(command["cell"])
        assert key in lit(driver, "#board [data-cell].cell.target"), "the cell is not lit"
        click_hook(driver, f'#board [data-cell="{key}"].cell')
        same = [c for _, c in commands if c.get("cell") == command["cell"]]
        if len(same) > 1:  # several moves end there: the list now offers those alone
            pages.wait_until(driver, lambda d: len(pages.offered(d)) == len(same), what="the narrowed list")
            next(button for button, c in pages.offered(driver) if c == command).click()
    else:
        next(button for button, c in commands if c == command).click()
    seen[str(command["type"])] = seen.get(str(command["type"]), 0) + 1
    pages.wait_until(
        driver, lambda d: pages.version(d) > before or pages.ended(d), what=f"the page to show {command}"
    )
    return True


def test_a_learning_game_is_played_by_clicks_on_cells_and_crack_lines_to_its_end(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    created = pages.create_game(
        driver, live_service.url, [pages.human("Ann"), pages.random_computer()], game="nanuuk-learning"
    )
    assert pages.find(driver, "#board svg.hex") is not None

    def shot_of_the_first_crack(seen: dict[str, int]) -> None:
        if seen.get("PlaceCrack") == 1 and not (ARTIFACTS / "nanuuk-crack.png").exists():
            driver.save_screenshot(str(ARTIFACTS / "nanuuk-crack.png"))

    seen = pages.click_to_the_end(driver, play_one, random.Random(4), GAME_WITHIN, shot_of_the_first_crack)
    game = pages.api_get(live_service.url, f"/games/{created.game_id}")
    assert game["phase"] == "ended" and game["result"]["winners"]
    assert seen.get("PlacePiece", 0) == 2 and seen.get("Move", 0) > 0 and seen.get("PlaceCrack", 0) > 0
    result = pages.text(driver, "#result")
    assert any(game["seats"][w]["name"] in result for w in game["result"]["winners"])
    drawn = len(driver.find_elements("css selector", "#board [data-line].crack"))
    assert drawn == len(game["cracks"])
    driver.save_screenshot(str(ARTIFACTS / "nanuuk-end.png"))
