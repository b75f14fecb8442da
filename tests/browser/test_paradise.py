"""Conquest of Paradise in the browser: a person and two computer seats play a 3-player game
to its end by clicks: a hex of the map for each move that acts on one (then the button, when
several act there), the build form for a list of orders (each added, then all committed at
once), a button for the rest."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from tests.browser import pages
from tests.browser.conftest import ARTIFACTS, GAME_WITHIN, LiveService

GAME = "conquest-of-paradise"


def create(driver: WebDriver, base: str) -> str:
    """The lobby's form: Ann and two random computers, a game of three turns; Ann's board."""
    driver.get(f"{base}/games/new")
    form = pages.wait_until(driver, lambda d: pages.find(d, "#new-game"), what="the #new-game form")
    Select(form.find_element(By.CSS_SELECTOR, "select[name=game]")).select_by_value(GAME)
    for n, (kind, name) in enumerate((("human", "Ann"), ("random", "Robo"), ("random", "Rita"))):
        Select(form.find_element(By.CSS_SELECTOR, f"select[name=seat-{n}]")).select_by_value(kind)
        field = form.find_element(By.CSS_SELECTOR, f"input[name=name-{n}]")
        field.clear()
        field.send_keys(name)
    Select(form.find_element(By.CSS_SELECTOR, "select[name=first_seat]")).select_by_value("0")
    form.find_element(By.CSS_SELECTOR, "#options").send_keys('{"last_turn": 3}')
    form.find_element(By.CSS_SELECTOR, "#create").click()
    pages.wait_until(driver, lambda d: pages.status(d).get("seat") == "0", what="Ann's board page")
    return pages.game_id_of(driver.current_url)


def hex_of(command: dict[str, Any]) -> str:
    path = command.get("path")
    at = path[-1] if path else command.get("hex")
    return f"{at[0]},{at[1]}" if isinstance(at, list) else ""


MOVED: list[tuple[Any, dict[str, Any]]] = [(None, {})]


def _narrowed_or_moved(driver: WebDriver, before: int, at: str) -> list[tuple[Any, dict[str, Any]]] | None:
    """After a click on hex `at` where several moves act: the offered moves once they are all of
    that hex, MOVED when another seat's move re-drew the page meanwhile (the selection is gone
    with it), None (wait on) while the page still offers others. A page that never narrows them
    fails the wait."""
    if pages.version(driver) != before or pages.ended(driver):
        return MOVED
    narrowed = pages.offered(driver)
    return narrowed if narrowed and all(hex_of(c) == at for _, c in narrowed) else None


def _written(driver: WebDriver, orders: list[dict[str, Any]]) -> bool:
    """Each order added to the build form's list, when the form offers them all (a plan's order
    that only rotation's point pays for is not offered alone: its button is clicked instead)."""
    form = pages.find(driver, "#build-form")
    if form is None:
        return False
    select = Select(pages.find_or_fail(driver, "#build-item"))
    values = {
        json.dumps(json.loads(o.get_attribute("value")), sort_keys=True): o.get_attribute("value")
        for o in select.options
    }
    wanted = [json.dumps(order, sort_keys=True) for order in orders]
    if not all(w in values for w in wanted):
        return False
    for n, w in enumerate(wanted):
        select.select_by_value(values[w])
        pages.click(driver, "#build-add")
        pages.wait_until(
            driver,
            lambda d, count=n + 1: (
                len(d.find_elements(By.CSS_SELECTOR, "#orders li")) == count
                and "none yet" not in d.find_element(By.CSS_SELECTOR, "#orders").text
            ),
            what="the order in the list",
        )
    return True


def _untried_first(commands: list[dict[str, Any]], seen: dict[str, int]) -> list[dict[str, Any]]:
    """The commands a way of playing not yet used would send (a map click, the build form), when
    there are any: the computers' random seats shape which moves Ann is offered, and a game where
    her random picks never touched the map proved nothing about it."""
    on_map = [c for c in commands if hex_of(c)]
    by_form = [c for c in commands if c["type"] == "EndBuild" and c.get("orders")]
    for way, candidates in (("map", on_map), ("form", by_form)):
        if candidates and not seen.get(way):
            return candidates
    return commands


def play_one(driver: WebDriver, rng: random.Random, seen: dict[str, int]) -> bool:
    """One move by clicks; False when the page offers Ann nothing now."""
    before = pages.version(driver)
    commands = pages.offered(driver)
    if not commands:
        return False
    if pages.version(driver) != before:
        return True  # a computer's move re-drew the page while it was read: read it again
    command = rng.choice(_untried_first([c for _, c in commands], seen))
    how = "button"
    if command["type"] == "EndBuild" and command.get("orders") and _written(driver, command["orders"]):
        pages.click(driver, "#build-submit")
        how = "form"
    elif hex_of(command):
        at = hex_of(command)
        pages.click(driver, f'#board [data-hex="{at}"]')
        # The page sends the one move that acts on a hex by the click itself: clicking its
        # button too would race the re-draw that move brings.
        if sum(hex_of(c) == at for _, c in commands) > 1:
            narrowed = pages.wait_until(
                driver, lambda d: _narrowed_or_moved(d, before, at), what="the map click's moves"
            )
            if narrowed is MOVED:
                return True  # another seat's move came first and cleared the choice: read again
            next(button for button, c in narrowed if c == command).click()
        how = "map"
    else:
        next(button for button, c in commands if c == command).click()
    seen[how] = seen.get(how, 0) + 1
    pages.wait_until(
        driver, lambda d: pages.version(d) > before or pages.ended(d), what=f"the page to show {command}"
    )
    return True


def test_a_person_and_two_computers_play_conquest_of_paradise_to_its_end_by_clicks(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    game_id = create(driver, live_service.url)
    assert pages.find(driver, '#board [data-hex="5,6"]') is not None

    def shot_of_the_map(seen: dict[str, int]) -> None:
        if seen.get("map", 0) >= 3 and not (ARTIFACTS / "paradise-map.png").exists():
            driver.save_screenshot(str(ARTIFACTS / "paradise-map.png"))

    seen = pages.click_to_the_end(driver, play_one, random.Random(4), GAME_WITHIN, shot_of_the_map)
    game = pages.api_get(live_service.url, f"/games/{game_id}")
    assert game["phase"] == "ended" and game["result"]["winners"]
    assert seen.get("map", 0) > 0 and seen.get("button", 0) > 0 and seen.get("form", 0) > 0
    result = pages.text(driver, "#result")
    assert any(game["seats"][w]["name"] in result for w in game["result"]["winners"])
    driver.save_screenshot(str(ARTIFACTS / "paradise-end.png"))
