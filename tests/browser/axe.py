"""axe-core (vendored: tests/browser/vendor/axe-core/README.md) injected into the page under test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from selenium.webdriver.remote.webdriver import WebDriver

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
#: The impacts a page must not have; "minor" and "moderate" ones are reported by axe all the same.
BARRED = ("serious", "critical")

_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]})
    .then(results => done(results.violations))
    .catch(error => done([{id: "axe-error", impact: "critical", help: String(error), nodes: []}]));
"""


def violations(driver: WebDriver) -> list[dict[str, Any]]:
    """Every axe-core violation on the page as it is now (WCAG 2 A/AA and best practices)."""
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    driver.set_script_timeout(60)
    found: list[dict[str, Any]] = driver.execute_async_script(_RUN)
    return found


def barred(found: list[dict[str, Any]]) -> list[str]:
    """The serious and critical ones, one line each: rule, help and the first elements hit."""
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v.get("impact") in BARRED
    ]
