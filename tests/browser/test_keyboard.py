"""Playing by keyboard alone: a Kahuna turn (a bridge placed, then a card drawn to end it) in
under 15 key presses, with the arrow keys going from line to line on the board."""

from __future__ import annotations

from collections.abc import Callable

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
from tests.browser.conftest import LiveService

MOST_PRESSES = 15

#: The element with the focus: what it is and where its centre is drawn.
_FOCUSED = """
const a = document.activeElement;
const box = a.getBoundingClientRect();
return {line: a.dataset.line || null, card: a.dataset.card || null, id: a.id || null,
        target: a.classList.contains("target"), pressed: a.getAttribute("aria-pressed"),
        board: a.closest("#board") !== null, x: box.left + box.width / 2, y: box.top + box.height / 2};
"""

#: Whether any place on the board lies to the right of the given x.
_ANY_RIGHT_OF = """
return [...document.querySelectorAll("#board [tabindex]")].some(e => {
  const box = e.getBoundingClientRect();
  return box.left + box.width / 2 > arguments[0] + 0.5;
});
"""


def test_a_kahuna_turn_is_played_by_keyboard_alone_in_under_15_key_presses(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    seats = [pages.human("Ann"), pages.random_computer()]
    game_id = pages.create_game(driver, live_service.url, seats).game_id
    pages.wait_until(driver, lambda d: pages.offered(d), what="Ann's moves")
    hand = pages.hand(driver)
    presses = 0

    def press(key: str, held: str | None = None) -> dict[str, object]:
        """One key (with `held` down around it, a chord counted as one press)."""
        nonlocal presses
        presses += 1
        chain = ActionChains(driver)
        if held:
            chain.key_down(held)
        chain.send_keys(key)
        if held:
            chain.key_up(held)
        chain.perform()
        focused: dict[str, object] = driver.execute_script(_FOCUSED)
        return focused

    # The board is one stop of the Tab order, not one per line: Tab from the top reaches the
    # hand in a few presses where it took dozens.
    tab_stops = driver.execute_script("return document.querySelectorAll('#board [tabindex=\"0\"]').length;")
    assert tab_stops == 1

    assert press("h")["card"] == hand[0]
    picked = press(Keys.ENTER)
    pages.wait_until(
        driver, lambda d: pages.find(d, "#board [data-line].target"), what="the lines the card can go on"
    )
    assert picked["card"] == hand[0]
    on_board = press("b")
    assert on_board["board"] and on_board["target"] and on_board["line"], on_board
    chosen = str(on_board["line"])

    moved = press(Keys.ARROW_RIGHT)
    if driver.execute_script(_ANY_RIGHT_OF, on_board["x"]):
        assert moved["board"] and float(moved["x"]) > float(on_board["x"]), (on_board, moved)  # type: ignore[arg-type]
    else:
        assert moved["line"] == chosen
    back = press("b")
    assert back["line"] == chosen, "B goes back to the first place the card can go"

    before = pages.version(driver)
    press(Keys.ENTER)
    pages.wait_until(driver, lambda d: pages.version(d) > before, what="the bridge Enter placed")
    assert pages.line_owner(driver, chosen) == "0"

    # The turn ends with a card drawn: the stack is the stop before the hand.
    assert press("h")["card"] is not None
    stop = press(Keys.TAB, held=Keys.SHIFT)
    assert stop["id"] == "stack", stop
    placed = pages.version(driver)
    press(Keys.ENTER)
    pages.wait_until(driver, lambda d: pages.version(d) > placed, what="the card drawn")
    game = pages.api_get(live_service.url, f"/games/{game_id}")
    assert game["seats"][0]["hand_count"] == len(hand), "one card played, one drawn"
    assert presses < MOST_PRESSES, presses
