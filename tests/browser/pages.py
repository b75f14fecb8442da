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
    """How the lobby's seat select is set: its option value."""

    value: str


HUMAN = Seat("human")
RANDOM_COMPUTER = Seat("random")


def create_game(driver: WebDriver, base: str, seats: list[Seat], game: str = "kahuna") -> str:
    """Fill the lobby's #new-game form and submit it; return the game id of the page it leads to."""
    driver.get(f"{base}/")
    form = wait_until(driver, lambda d: find(d, "#new-game"), what="the lobby's #new-game form")
    Select(form.find_element(By.CSS_SELECTOR, "select[name=game]")).select_by_value(game)
    for n, seat in enumerate(seats):
        Select(form.find_element(By.CSS_SELECTOR, f"select[name=seat-{n}]")).select_by_value(seat.value)
    form.submit()
    wait_until(driver, lambda d: "/play/" in d.current_url, what="the board page after creating")
    return game_id_of(driver.current_url)


def game_id_of(url: str) -> str:
    return url.split("/play/", 1)[1].split("#", 1)[0].split("?", 1)[0]


def invite_link(driver: WebDriver, seat: int) -> str:
    """The invite link of `seat` that the creator's page shows (/play/<id>#token=...)."""
    link = wait_until(driver, lambda d: find(d, f'a[data-invite="{seat}"]'), what=f"seat {seat}'s invite")
    href = link.get_attribute("href")
    assert href and "#token=" in href, href
    return href


def status(driver: WebDriver) -> dict[str, str]:
    """The board page's #status data: version, phase, active seat and this page's seat."""
    element = find(driver, "#status")
    if element is None:
        return {}
    return {k: element.get_attribute(f"data-{k}") or "" for k in ("version", "phase", "active", "seat")}


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
