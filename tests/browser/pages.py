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

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

T = TypeVar("T")
#: Long enough for a computer reply and a round's scoring on a busy 2-core machine.
WAIT = 20.0
POLL = 0.05
RETRIES = 5


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
    """A game the form created: its id, the creator's own link (rebuilt from the token the page
    keeps, as the page drops the fragment) and each other person's invite link (seat -> link)."""

    game_id: str
    mine: str
    invites: dict[int, str]


def create_game(driver: WebDriver, base: str, seats: list[Seat], game: str = "kahuna") -> Created:
    """Fill the #new-game form (seat 0 to start), submit it, and reach one's own board page:
    directly when one plays alone against the computer, else by the #play-link of the page
    that lists the invite links."""
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
    wait_until(driver, lambda d: "/play/" in d.current_url or find(d, "#play-link"), what="the created game")
    invites = {
        int(link.get_attribute("data-invite") or -1): link.get_attribute("href") or ""
        for link in driver.find_elements(By.CSS_SELECTOR, "a[data-invite]")
    }
    mine = find(driver, "#play-link")
    if mine is not None:
        mine.click()
    wait_until(driver, lambda d: status(d).get("seat") == "0", what="the board page of seat 0")
    game_id = game_id_of(driver.current_url)
    token = driver.execute_script(
        "return localStorage.getItem(arguments[0]);", f"archipelago:token:{game_id}"
    )
    assert token, "the board page keeps no token for its seat"
    return Created(game_id, f"{base}/play/{game_id}#token={token}", invites)


def game_id_of(url: str) -> str:
    return url.split("/play/", 1)[1].split("#", 1)[0].split("?", 1)[0]


_STATUS = """
const status = document.querySelector("#status");
if (!status) return {};
return {version: status.dataset.version, seat: status.dataset.seat, active: status.dataset.active};
"""


def status(driver: WebDriver) -> dict[str, str]:
    """What the board page shows now: its version, this page's seat and the active seat (read
    in one script, so a live re-draw cannot fall between two reads)."""
    found: dict[str, str] = driver.execute_script(_STATUS)
    return found


def hand(driver: WebDriver) -> list[str]:
    """The cards of the page's #hand, in order."""
    cards: list[str] = driver.execute_script(
        'return [...document.querySelectorAll("#hand [data-card]")].map(card => card.dataset.card);'
    )
    return cards


def line_owner(driver: WebDriver, key: str) -> str | None:
    """The seat whose bridge the board draws on the line `key`; None for a free line."""
    owner: str | None = driver.execute_script(
        "const line = document.querySelector(`#board [data-line='${arguments[0]}']`);"
        "return line.getAttribute('data-seat');",
        key,
    )
    return owner


def version(driver: WebDriver) -> int:
    return int(status(driver).get("version") or 0)


def ended(driver: WebDriver) -> bool:
    return shown(driver, "#result")


_OFFERED = """
return [...document.querySelectorAll("#commands [data-command]")]
    .filter(button => !button.disabled && button.offsetParent !== null)
    .map(button => [button, button.dataset.command]);
"""


def offered(driver: WebDriver) -> list[tuple[WebElement, dict[str, Any]]]:
    """The enabled [data-command] buttons and the command each posts, read in one script."""
    return [(button, json.loads(body)) for button, body in driver.execute_script(_OFFERED)]


def choose(rng: random.Random, commands: list[dict[str, Any]]) -> dict[str, Any]:
    """A random command; half the time a draw when one is offered, which keeps games short."""
    draws = [c for c in commands if c.get("type") == "DrawCard"]
    if draws and rng.random() < 0.5:
        return rng.choice(draws)
    return rng.choice(commands)


def line_key(line: list[str]) -> str:
    """A line's data-line hook: the sorted pair joined by '-'."""
    return "-".join(sorted(line))


#: The middle of a line as drawn, in viewport pixels; and the line a pointer there would hit.
_LINE_MIDDLE = """
const line = arguments[0];
line.scrollIntoView({block: "center"});
const path = line.querySelector("path.stroke") || line.querySelector("path");
const at = path.getPointAtLength(path.getTotalLength() / 2);
const m = path.getScreenCTM();
const x = at.x * m.a + at.y * m.c + m.e, y = at.x * m.b + at.y * m.d + m.f;
const hit = document.elementFromPoint(x, y);
return [Math.round(x), Math.round(y), hit && hit.closest("[data-line]") === line];
"""


def click_line(driver: WebDriver, key: str) -> None:
    """A mouse click on the middle of the drawn line: a straight line's group has no height
    of its own, so WebDriver's element click, which aims at the box's centre, cannot be used."""
    line = find_or_fail(driver, f'#board [data-line="{key}"]')
    x, y, hits = driver.execute_script(_LINE_MIDDLE, line)
    assert hits, f"the line {key} is not what a click on its middle reaches"
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(x, y).click()
    actions.perform()


def place_by_board(driver: WebDriver, command: dict[str, Any]) -> None:
    """A bridge the way a person places one: the card in the hand, then the line on the board."""
    click(driver, f'#hand [data-card="{command["card"]}"]')
    click_line(driver, line_key(command["line"]))


def click(driver: WebDriver, css: str) -> None:
    """Click the element `css` names, finding it again if a live re-draw replaced it meanwhile."""
    for _ in range(RETRIES):
        try:
            find_or_fail(driver, css).click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"{css} was re-drawn under every one of {RETRIES} clicks")


def find_or_fail(driver: WebDriver, css: str) -> WebElement:
    return wait_until(driver, lambda d: find(d, css), timeout=5, what=css)


def _read(driver: WebDriver, css: str, read: Callable[[WebElement], T]) -> T:
    """What `read` sees of the element `css` names, found again when a live re-draw replaced it
    between the finding and the reading (an element found is no longer the page's element then)."""
    for _ in range(RETRIES):
        try:
            return read(find_or_fail(driver, css))
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"{css} was re-drawn under every one of {RETRIES} reads")


def text(driver: WebDriver, css: str) -> str:
    return _read(driver, css, lambda element: element.text)


def attribute(driver: WebDriver, css: str, name: str) -> str | None:
    return _read(driver, css, lambda element: element.get_attribute(name))


def play_one(driver: WebDriver, rng: random.Random) -> dict[str, Any] | None:
    """Play one offered command by clicks (a plain placement by card then line, the rest by
    its button) and wait until the page shows a newer version; None when nothing is offered."""
    for _ in range(RETRIES):
        try:
            return _play_one(driver, rng)
        except StaleElementReferenceException:
            continue  # a live update re-drew the panel between reading and clicking: read it again
    raise AssertionError(f"the panel was re-drawn under every one of {RETRIES} tries")


def _play_one(driver: WebDriver, rng: random.Random) -> dict[str, Any] | None:
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
        if play_one(driver, rng) is None:
            time.sleep(POLL)  # the computer's turn, or the round's scoring
        else:
            played += 1
    return played


Step = Callable[[WebDriver, random.Random, dict[str, int]], bool]
"""One click of a game's own page (False: nothing to do now), counting what it clicked by kind."""


def click_to_the_end(
    driver: WebDriver,
    step: Step,
    rng: random.Random,
    within: float,
    after_each: Callable[[dict[str, int]], None] = lambda seen: None,
) -> dict[str, int]:
    """Run `step` until the end screen shows; what it clicked, by kind."""
    seen: dict[str, int] = {}
    deadline = time.monotonic() + within
    while not ended(driver):
        assert time.monotonic() < deadline, f"no end screen after {seen}"
        try:
            if not step(driver, rng, seen):
                time.sleep(POLL)
        except StaleElementReferenceException:
            continue  # a live re-draw came between reading the page and clicking: read it again
        after_each(seen)
    return seen


def api_get(base: str, path: str) -> dict[str, Any]:
    """A spectator's GET of the JSON API, to check what the page shows against the service."""
    with urllib.request.urlopen(f"{base}{path}", timeout=10) as answer:
        body: dict[str, Any] = json.load(answer)
        return body
