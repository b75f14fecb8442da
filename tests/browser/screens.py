"""The two screens the pages are tested at: a desktop window and a phone (390×844, Chromium's
mobile emulation with touch), and what is measured there: sideways scrolling and tap targets."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from selenium.webdriver.remote.webdriver import WebDriver

DESKTOP = (1280, 960)
PHONE = (390, 844)
#: The least width and height of a control a finger can hit (WCAG 2.5.5, Apple's and Google's guides).
TAP = 44
#: WCAG 2.2's least target size (2.5.8, level AA), for lines that lie closer than TAP together.
LEAST_TAP = 24


def as_phone(driver: WebDriver) -> None:
    """A 390×844 phone at 3 device pixels a CSS pixel, with touch events, until `as_desktop`."""
    width, height = PHONE
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 3, "mobile": True},
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


def as_desktop(driver: WebDriver) -> None:
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
    driver.set_window_size(*DESKTOP)


def sideways(driver: WebDriver) -> int:
    """How many CSS pixels the page is wider than its viewport (0: no sideways scrolling).

    Against the layout viewport (clientWidth), not innerWidth: a phone's browser zooms out to
    a page that is too wide, and its innerWidth grows with the page (608 px for a 600 px wide
    block at 390 px), so scrollWidth <= innerWidth would always hold there."""
    over: int = driver.execute_script(
        "return Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth);"
    )
    return over


def post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"{base}{path}", json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            answered: dict[str, Any] = json.load(answer)
            return answered
    except urllib.error.HTTPError as refused:
        raise AssertionError(f"POST {path} {body}: {refused.code} {refused.read()!r}") from None
