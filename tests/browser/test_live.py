"""Two browsers as the two seats of one game: each sees the other's move live, by Server-Sent
Events. The delays are a measurement, written to live-delays.json (0.14-0.46 s on a quiet
machine); the test's ceiling is for a machine whose cores are busy, so it cannot fail by luck."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
from tests.browser.conftest import ARTIFACTS, LiveService

#: A move's arrival on the other page, measured; a ceiling for a machine under load.
LIVE_WITHIN = 5.0


def _seen_after(mover: WebDriver, watcher: WebDriver, rng: random.Random) -> float:
    """Seconds from the mover's click to the watcher's page showing the move: the POST, the
    event on the watcher's stream and its page's re-draw (an upper bound of the SSE delay)."""
    pages.wait_until(mover, lambda d: pages.offered(d), what="the mover's commands")
    moved_at = time.monotonic()
    command = pages.play_one(mover, rng)
    assert command is not None
    target = pages.version(mover)
    pages.wait_until(watcher, lambda d: pages.version(d) >= target, timeout=10, what=f"version {target}")
    return time.monotonic() - moved_at


def test_two_browsers_as_two_seats_see_each_others_moves_live(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    first, second = open_browser(), open_browser()
    created = pages.create_game(first, live_service.url, [pages.human("Ann"), pages.human("Ben")])
    second.get(created.invites[1])
    # The page is first drawn for a spectator; its script then shows it again for the link's seat.
    for driver, seat in ((first, "0"), (second, "1")):
        pages.wait_until(
            driver, lambda d, s=seat: pages.status(d).get("seat") == s, what=f"seat {seat}'s page"
        )
    rng = random.Random(11)
    delays = []
    # Two turns each: a seat plays until its turn passes (a draw ends a turn), then the other.
    for mover, watcher, seat in ((first, second, "0"), (second, first, "1")) * 2:
        pages.wait_until(mover, lambda d, s=seat: pages.status(d)["active"] == s, what=f"seat {seat}'s turn")
        while pages.status(mover)["active"] == seat:
            delays.append(_seen_after(mover, watcher, rng))
    first.save_screenshot(str(ARTIFACTS / "live-seat-0.png"))
    second.save_screenshot(str(ARTIFACTS / "live-seat-1.png"))
    (ARTIFACTS / "live-delays.json").write_text(json.dumps({"seconds": delays}))
    assert max(delays) < LIVE_WITHIN, delays
