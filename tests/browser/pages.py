"""What a person does on the pages, as Selenium steps: create a game in the lobby, read the
board page's status, click a command the page offers. Only the ids of the pages' contract
(docs/web.md) are used, never the pages' inner structure."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

T = TypeVar("T")
#: Long enough for a computer reply and a round's scoring on a busy 2-core machine.
WAIT = 20.0
POLL = 0.05


def wait_until(
    driver: WebDriver, check: Callable[[WebDriver], T], timeout: float = WAIT, what: str = ""
) -> T:
    """The first truthy value of `check`, polled every 50 ms; a page re-render in between is retried."""
    waiter = WebDriverWait(
        driver, timeout, poll_frequency=POLL, ignored_exceptions=(StaleElementReferenceException,)
    )
    return waiter.until(check, message=f"waited {timeout:.0f} s for {what}")


def find(driver: WebDriver, css: str) -> WebElement | None:
    found = driver.find_elements(By.CSS_SELECTOR, css)
    return found[0] if found else None


def shown(driver: WebDriver, css: str) -> bool:
    element = find(driver, css)
    return element is not None and element.is_displayed()


@dataclass(frozen=True)
class Seat:
    """A seat of the new-game form: its kind (the select's value) and the name typed in."""

    kind: str
    name: str


def human(name: str) -> Seat:
    return Seat("human", name)


def random_computer(name: str = "Robo") -> Seat:
    return Seat("random", name)


@dataclass(frozen=True)
class Created:
    """A game the form created: its id and each person's invite link (seat -> /play/<id>#token=...)."""

    game_id: str
    invites: dict[int, str]


def create_game(driver: WebDriver, base: str, seats: list[Seat], game: str = "kahuna") -> Created:
    """Fill the #new-game form (seat 0 to start), submit it, read the invite links, and
    follow one's own link to the board page."""
    driver.get(f"{base}/games/new")
    form = wait_until(driver, lambda d: find(d, "#new-game"), what="the #new-game form")
    Select(form.find_element(By.CSS_SELECTOR, "select[name=game]")).select_by_value(game)
    for n, seat in enumerate(seats):
        Select(form.find_element(By.CSS_SELECTOR, f"select[name=seat-{n}]")).select_by_value(seat.kind)
        name = form.find_element(By.CSS_SELECTOR, f"input[name=name-{n}]")
        name.clear()
        name.send_keys(seat.name)
    Select(form.find_element(By.CSS_SELECTOR, "select[name=first_seat]")).select_by_value("0")
    form.find_element(By.CSS_SELECTOR, "#create").click()
    mine = wait_until(driver, lambda d: find(d, "#play-link"), what="the created game's #play-link")
    invites = {
        int(item.get_attribute("data-seat") or -1): field.get_attribute("value") or ""
        for item in driver.find_elements(By.CSS_SELECTOR, "#invites li[data-seat]")
        for field in item.find_elements(By.CSS_SELECTOR, "input.invite")
    }
    mine.click()
    wait_until(driver, lambda d: find(d, "#board svg"), what="the board page")
    return Created(game_id_of(driver.current_url), invites)


def game_id_of(url: str) -> str:
    return url.split("/play/", 1)[1].split("#", 1)[0].split("?", 1)[0]


def status(driver: WebDriver) -> dict[str, str]:
    """What the board page shows now: its version, this page's seat and the active seat."""
    panel = find(driver, "#panel .panel")
    if panel is None:
        return {}
    active = find(driver, "#scores tr.active")
    return {
        "version": panel.get_attribute("data-version") or "",
        "seat": panel.get_attribute("data-seat") or "",
        "active": (active.get_attribute("data-seat") or "") if active else "",
    }


def version(driver: WebDriver) -> int:
    return int(status(driver).get("version") or 0)


def ended(driver: WebDriver) -> bool:
    return shown(driver, "#result")


def offered(driver: WebDriver) -> list[tuple[WebElement, dict[str, Any]]]:
    """The enabled [data-command] buttons and the command each posts."""
    found = []
    for button in driver.find_elements(By.CSS_SELECTOR, "#commands [data-command]"):
        if button.is_enabled() and button.is_displayed():
            found.append((button, json.loads(button.get_attribute("data-command") or "{}")))
    return found


def choose(rng: random.Random, commands: list[dict[str, Any]]) -> dict[str, Any]:
    """A random command; half the time a draw when one is offered, which keeps games short."""
    draws = [c for c in commands if c.get("type") == "DrawCard"]
    if draws and rng.random() < 0.5:
        return rng.choice(draws)
    return rng.choice(commands)


def line_key(line: list[str]) -> str:
    """A line's data-line hook: the sorted pair joined by '-'."""
    return "-".join(sorted(line))


def place_by_board(driver: WebDriver, command: dict[str, Any]) -> None:
    """A bridge the way a person places one: the card in the hand, then the line on the board."""
    find_or_fail(driver, f'#hand [data-card="{command["card"]}"]').click()
    find_or_fail(driver, f'#board [data-line="{line_key(command["line"])}"]').click()


def find_or_fail(driver: WebDriver, css: str) -> WebElement:
    return wait_until(driver, lambda d: find(d, css), timeout=5, what=css)


def play_one(driver: WebDriver, rng: random.Random) -> dict[str, Any] | None:
    """Play one offered command by clicks (a plain placement by card then line, the rest by
    its button) and wait until the page shows a newer version; None when nothing is offered."""
    commands = offered(driver)
    if not commands:
        return None
    before = version(driver)
    command = choose(rng, [c for _, c in commands])
    if command.get("type") == "PlaceBridge" and "take_back" not in command:
        place_by_board(driver, command)
    else:
        next(button for button, c in commands if c == command).click()
    wait_until(driver, lambda d: version(d) > before or ended(d), what=f"the page to show {command}")
    return command


def play_to_the_end(driver: WebDriver, rng: random.Random, deadline: float) -> int:
    """Click offered commands until the end screen shows; return how many this page played."""
    played = 0
    while not ended(driver):
        assert time.monotonic() < deadline, f"no end screen after {played} commands"
        try:
            if play_one(driver, rng) is None:
                time.sleep(POLL)  # the computer's turn, or the round's scoring
            else:
                played += 1
        except (StaleElementReferenceException, WebDriverException) as exc:
            # A live update re-drew the controls between reading and clicking: read them again.
            if not isinstance(exc, StaleElementReferenceException) and "not interactable" not in str(exc):
                raise
    return played


def api_get(base: str, path: str) -> dict[str, Any]:
    """A spectator's GET of the JSON API, to check what the page shows against the service."""
    with urllib.request.urlopen(f"{base}{path}", timeout=10) as answer:
        body: dict[str, Any] = json.load(answer)
        return body
