"""An organizer runs a Swiss from `/t/new` to the close by clicks only: entrants, the start, two
pairings, a bye for a late entrant, a forfeit, a correction, a withdrawal; refusals in words;
the audit's page at the end; no serious axe violation and nothing the pages' policy blocks.
The entrants are people who never move: the organizer's forfeits give the tables their
results, so nothing waits on a game."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Callable
from typing import Any

from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from replays.trf import read_trf, score_mismatches
from tests.browser import axe, pages
from tests.browser.conftest import LiveService
from tests.browser.test_csp import RECORDER, violations

#: The whole tournament by clicks, on a busy 2-core machine.
WITHIN = 60.0


def _settled(driver: WebDriver, base: str, tournament_id: str) -> None:
    """Wait until the page shows the tournament's newest version (no re-draw left to come)."""

    def caught_up(d: WebDriver) -> bool:
        shown = pages.attribute(d, "#tournament", "data-version")
        return shown == str(pages.api_get(base, f"/tournaments/{tournament_id}")["version"])

    pages.wait_until(driver, caught_up, what="the page at the tournament's newest version")


def _message(driver: WebDriver) -> str:
    return pages.text(driver, "#organizer-message")


def _phase(driver: WebDriver) -> str:
    return pages.text(driver, "#phase")


def _command(driver: WebDriver, base: str, tid: str, css: str, done: str) -> None:
    """Click `css` and wait for the organizer's message `done` and the page re-drawn after it."""
    pages.click(driver, css)
    pages.wait_until(driver, lambda d: _message(d).startswith(done), what=f"{done!r} after {css}")
    _settled(driver, base, tid)


def _add(driver: WebDriver, base: str, tid: str, name: str) -> None:
    pages.find_or_fail(driver, "#entrant-name").send_keys(name)
    _command(driver, base, tid, "#add-entrant [type=submit]", "Entrant ")


def _states(driver: WebDriver) -> dict[str, str]:
    rows = driver.find_elements("css selector", "#entrants tbody tr")
    return {
        row.find_elements("css selector", "td")[1].text: row.find_elements("css selector", "td")[3].text
        for row in rows
    }


def test_an_organizer_runs_a_swiss_from_the_new_form_to_the_close_by_clicks(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    started = time.monotonic()
    base = live_service.url
    driver = open_browser()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    driver.get(f"{base}/t")
    pages.click(driver, "#new-tournament-link")

    # The form: a Swiss without its rounds is refused next to the field, then created.
    pages.find_or_fail(driver, "#name").send_keys("Clicks Cup")
    Select(pages.find_or_fail(driver, "#format")).select_by_value("swiss")
    pages.click(driver, "#late_entry")
    pages.click(driver, "#create")
    said = pages.wait_until(
        driver,
        lambda d: pages.find(d, "#rounds-error") and d.find_element("id", "rounds-error").text,
        what="the refusal next to the rounds",
    )
    assert said.startswith("Rounds: rounds must be a whole number")
    assert pages.attribute(driver, "#form-error", "data-code") == "bad_rounds"
    assert violations(driver) == []  # the form, refused
    pages.find_or_fail(driver, "#rounds").send_keys("2")
    pages.click(driver, "#create")
    pages.wait_until(
        driver, lambda d: pages.shown(d, "#organizer-held"), what="the organizer's page with its token"
    )
    assert "#" not in driver.current_url  # the token left the address bar for the browser's storage
    tid = pages.attribute(driver, "#tournament", "data-tournament-id") or ""
    assert "#organizer=" in (pages.attribute(driver, "#organizer-link", "value") or "")
    assert pages.find(driver, "#start") is None  # nobody to start with

    for name in ("Ann", "Ben", "Cy"):
        _add(driver, base, tid, name)
    pages.find_or_fail(driver, "#entrant-name").send_keys("Ann")
    pages.click(driver, "#add-entrant [type=submit]")
    refused = pages.wait_until(
        driver, lambda d: "name_taken" in _message(d) and _message(d), what="a refusal"
    )
    assert refused == "Refused: an entrant named 'Ann' is registered already (name_taken)"

    _command(driver, base, tid, "#start", "Started.")
    pages.wait_until(driver, lambda d: pages.find(d, "#pair"), what="the lots drawn, the pairing offered")
    _settled(driver, base, tid)
    assert _phase(driver) == "started; no round paired yet"
    _command(driver, base, tid, "#pair", "Round paired.")
    assert _phase(driver) == "round 1 being played"

    # A late entrant gets the organizer's bye for the round it missed.
    _add(driver, base, tid, "Di")
    Select(pages.find_or_fail(driver, "#bye-entrant")).select_by_value("e4")
    _command(driver, base, tid, "#give-bye [type=submit]", "Bye given.")
    assert "organizer" in pages.text(driver, '#round-1 [data-bye="e4"]')

    # Round 1's one table: a no-show, then the result corrected (a reason is required).
    _command(driver, base, tid, "#forfeit [type=submit]", "Seat forfeited.")
    assert _phase(driver) == "round 1 over; round 2 not paired yet"
    assert pages.text(driver, "#round-1 caption") == "Round 1: over"
    for seat, total in ((0, "7"), (1, "3")):
        field = pages.find_or_fail(driver, f"#correct-total-{seat}")
        field.clear()
        field.send_keys(total)
    pages.click(driver, "#correct [type=submit]")
    refused = pages.wait_until(
        driver, lambda d: "reason_required" in _message(d) and _message(d), what="a refusal"
    )
    assert refused == "Refused: a correction says why (reason_required)"
    assert pages.attribute(driver, "#organizer-message", "role") == "alert"
    pages.find_or_fail(driver, "#correct-reason").send_keys("the score sheet")
    _command(driver, base, tid, "#correct [type=submit]", "Result corrected.")
    assert "(corrected)" in pages.text(driver, "#round-1")

    # Round 2: Di withdraws from a game (forfeited), the other table is a no-show.
    _command(driver, base, tid, "#pair", "Round paired.")
    Select(pages.find_or_fail(driver, "#withdraw-entrant")).select_by_value("e4")
    _command(driver, base, tid, "#withdraw [type=submit]", "Entrant withdrawn.")
    assert _phase(driver) == "round 2 being played"
    _command(driver, base, tid, "#forfeit [type=submit]", "Seat forfeited.")
    assert _phase(driver) == "all 2 rounds played; waiting for the close"
    assert pages.find(driver, "#pair") is None
    assert axe.barred(axe.violations(driver)) == []  # the organizer's page with its forms
    assert violations(driver) == []  # nor has its policy blocked anything

    _command(driver, base, tid, "#close", "Closed.")
    assert _phase(driver) == "closed after 2 rounds"
    states = _states(driver)
    assert states["Di"] == "withdrawn after round 2"
    assert sorted(v for k, v in states.items() if k != "Di")[0] == "finished, rank 1"
    assert pages.find(driver, "#no-commands") is not None

    pages.click(driver, "#audit-link")
    verdict = pages.wait_until(driver, lambda d: pages.find(d, "#audit-verdict"), what="the audit's page")
    assert verdict.get_attribute("data-ok") == "true"
    assert "the score sheet" in pages.text(driver, "#audit-corrections")
    assert violations(driver) == []
    # A link with another token: the page says it holds none that is valid here.
    driver.get(f"{base}/t/{tid}/organize#organizer=not-the-organizers")
    pages.wait_until(driver, lambda d: pages.shown(d, "#organizer-missing"), what="the missing token said")
    assert pages.attribute(driver, "#organizer-message", "data-code") == "invalid_token"
    view = pages.api_get(base, f"/tournaments/{tid}")
    assert [b["reason"] for b in view["byes"]].count("organizer") == 1
    assert sorted(t["result"]["how"] for t in view["tables"]) == ["corrected", "forfeit", "forfeit"]
    _trf_reads_back(base, tid, view)
    assert time.monotonic() - started < WITHIN


def _trf_reads_back(base: str, tid: str, view: dict[str, Any]) -> None:
    """The Swiss's TRF file, read back by our own reader, holds the pairings and the scores the
    tournament shows: each table's opponents (seat 1 with white), and each entrant's points."""
    with urllib.request.urlopen(f"{base}/tournaments/{tid}/pairings?format=trf", timeout=10) as answer:
        read = read_trf(answer.read().decode("utf-8"))
    names = {e["id"]: e["name"] for e in view["entrants"]}
    by_name = {p.name: p for p in read.players}
    for table in view["tables"]:
        first, second = (by_name[names[e]] for e in table["seats"])
        mine, theirs = first.games[table["round"] - 1], second.games[table["round"] - 1]
        assert (mine.opponent, theirs.opponent) == (second.number, first.number)
        if table["result"]["how"] != "forfeit":
            assert (mine.colour, theirs.colour) == ("w", "b")
    for line in view["standings"]:
        assert by_name[names[line["entrant"]]].points == line["points"]
    assert read.rounds == 2 and score_mismatches(read) == []
