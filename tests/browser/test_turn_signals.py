"""The waiting seat's page after the other seat's turn: the tab's title says it is its turn and
the board outlines the bridge just placed; a click out of turn said why beside the line, and
those words go once the game moves on."""

from __future__ import annotations

from collections.abc import Callable

from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
from tests.browser.conftest import ARTIFACTS, LiveService

YOUR_TURN = "\u25cf Your turn \u2014 Kahuna"


def test_after_the_other_seats_move_the_title_says_your_turn_and_the_move_is_outlined(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    ann, ben = open_browser(), open_browser()
    created = pages.create_game(ann, live_service.url, [pages.human("Ann"), pages.human("Ben")])
    ben.get(created.invites[1])
    pages.wait_until(ben, lambda d: pages.status(d).get("seat") == "1", what="Ben's seat")
    pages.wait_until(ann, lambda d: ann.title == YOUR_TURN, what="Ann's title to say her turn")
    assert ben.title != YOUR_TURN

    # The permission is granted as a person's click on the browser's prompt would grant it.
    ben.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": live_service.url, "permissions": ["notifications"]}
    )
    pages.click(ben, "#notify")
    pages.wait_until(ben, lambda d: "Stop" in pages.text(d, "#notify"), what="reminders on")

    pages.click_line(
        ben, ben.execute_script("return document.querySelector('#board [data-line]').dataset.line")
    )
    pages.wait_until(ben, lambda d: pages.shown(d, "#refusal"), what="the refusal beside the line")
    assert pages.text(ben, "#refusal") == "Not your turn \u2014 Ann is to move."
    ben.save_screenshot(str(ARTIFACTS / "turn-signals-refusal.png"))

    placed = None
    while pages.status(ann)["active"] == "0":
        offered = [c for _, c in pages.offered(ann)]
        bridge = next((c for c in offered if c["type"] == "PlaceBridge" and "take_back" not in c), None)
        command = bridge if placed is None and bridge else next(c for c in offered if c["type"] == "DrawCard")
        before = pages.version(ann)
        if command is bridge:
            pages.place_by_board(ann, command)
            placed = pages.line_key(command["line"])
        else:
            next(b for b, c in pages.offered(ann) if c == command).click()
        pages.wait_until(ann, lambda d, v=before: pages.version(d) > v, what=f"Ann's {command['type']}")
    assert placed is not None, "Ann had a bridge to place"

    pages.wait_until(ben, lambda d: d.title == YOUR_TURN, what="Ben's title to say his turn")
    outlined = ben.execute_script(
        "return [...document.querySelectorAll('#board .last-move')]"
        ".map(e => e.dataset.line || e.dataset.island);"
    )
    ben.save_screenshot(str(ARTIFACTS / "turn-signals-ben.png"))
    assert placed in outlined and ann.title != YOUR_TURN
    assert pages.text(ben, "#message") == "" and not pages.shown(ben, "#refusal")
    assert pages.text(ben, "#notify") == "Stop telling me when it is my turn"
    assert pages.shown(ben, "#notify")  # the offer of a notification; asked for on its click only
