"""Signed moves in Chromium: a person registers in a signed_moves tournament by the page's form
(or opts in on a casual game's play page), plays by clicks, and the record holds each command
with a signature that the referee replay and record.seat_keys accept; the browser's private key
cannot be exported; another browser on the same seat link is told it cannot move; and the
page's canonical JSON is record/canonical.py's and the audit page's."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import redis
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from record.canonical import canonical_json
from record.commands import command_of, signature_of
from record.seat_keys import seat_keys, signature_fault, signed_text
from service.store import EventStore
from tests.browser import axe, pages
from tests.browser.conftest import LiveService
from tests.browser.test_audit_page import CASES

#: Long enough for a few computer replies on a busy 2-core machine.
MOVES_WITHIN = 120.0
KEY_MEMBERS = ("kty", "crv", "x", "y")


def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"{base}{path}", json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        answered: dict[str, Any] = json.load(answer)
        return answered


def _page_key(driver: WebDriver) -> dict[str, Any]:
    """This browser's public JWK, as signing.js exports it."""
    key: dict[str, Any] = driver.execute_script("return window.ArchipelagoSigning.publicJwk();")
    return key


def _private_key_export(driver: WebDriver) -> str:
    """What exportKey of the kept private key answers: it must refuse."""
    return str(
        driver.execute_async_script(
            """
            const done = arguments[arguments.length - 1];
            window.ArchipelagoSigning.keyPair(false).then(function (pair) {
              return crypto.subtle.exportKey("jwk", pair.privateKey).then(
                function () { done("exported"); },
                function (error) {
                  done("refused " + error.name + " extractable=" + pair.privateKey.extractable);
                });
            }).catch(function (error) { done("failed " + error); });
            """
        )
    )


def _signing_state(driver: WebDriver) -> str:
    box = pages.find(driver, "#signing")
    return "" if box is None or not box.is_displayed() else str(box.get_attribute("data-state") or "")


def _play_signed_moves(driver: WebDriver, wanted: int) -> int:
    """Click offered commands (the computer answers in between) until `wanted` were played."""
    rng = random.Random(5)
    played = 0
    deadline = time.monotonic() + MOVES_WITHIN
    while played < wanted and not pages.ended(driver):
        assert time.monotonic() < deadline, f"{played} moves played in {MOVES_WITHIN:.0f} s"
        if pages.play_one(driver, rng) is None:
            time.sleep(pages.POLL)
        else:
            played += 1
    assert not pages.text(driver, "#message"), pages.text(driver, "#message")
    return played


def _check_the_record(live: LiveService, game_id: str, seat: int, key: dict[str, Any]) -> int:
    """Every command of `seat` after its key is signed by it, and the referee agrees; how many."""
    referee = pages.api_get(live.url, f"/games/{game_id}/verify")["referee"]
    assert referee["ok"] is True, referee
    client = redis.Redis.from_url(live.redis_url)
    try:
        envelopes = EventStore(client).read(game_id)
    finally:
        client.close()
    recorded = seat_keys(envelopes)[seat]
    assert recorded == {name: key[name] for name in KEY_MEMBERS}
    keyed_at = next(
        (e.version for e in envelopes if e.type == "SeatKeyRegistered"), 1
    )  # a tournament's setup holds the key from version 1
    signed = 0
    for envelope in envelopes:
        command = command_of(envelope)
        if command is None or command.seat != seat or envelope.version <= keyed_at:
            continue
        text = signed_text(game_id, envelope.version - 1, command)
        assert signature_fault(recorded, text, signature_of(envelope)) is None, envelope.version
        signed += 1
    return signed


def _register(driver: WebDriver, name: str) -> None:
    field = pages.find_or_fail(driver, "#register-name")
    field.clear()
    field.send_keys(name)
    pages.find_or_fail(driver, "#register").find_element(By.CSS_SELECTOR, "[type=submit]").click()


def test_a_person_registers_in_a_signed_tournament_and_plays_signed_moves_by_clicks(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    base = live_service.url
    created = _post(
        base,
        "/tournaments",
        {"name": "Signed Cup", "game": "kahuna", "format": "swiss", "rounds": 1, "signed_moves": True},
    )
    tid, organizer = created["tournament_id"], created["organizer_token"]
    driver = open_browser()
    driver.get(f"{base}/t/{tid}")
    assert "played from this browser" in pages.text(driver, "#register-signing")
    assert axe.barred(axe.violations(driver)) == []

    _register(driver, "Ann")
    pages.wait_until(driver, lambda d: pages.shown(d, "#you"), what="the entrant the page registered")
    key = _page_key(driver)
    entrant = pages.api_get(base, f"/tournaments/{tid}")["entrants"][0]
    assert entrant["public_key"] == {name: key[name] for name in KEY_MEMBERS}

    _post(base, f"/tournaments/{tid}/entrants", {"kind": "ai", "level": 1}, organizer)
    _post(base, f"/tournaments/{tid}/commands", {"type": "StartTournament"}, organizer)
    _post(base, f"/tournaments/{tid}/commands", {"type": "PairRound"}, organizer)
    link = pages.wait_until(
        driver, lambda d: pages.find(d, "#your-game a"), what="the entrant's game, live"
    ).get_attribute("href")
    driver.get(str(link))
    pages.wait_until(driver, lambda d: _signing_state(d) == "signing", what="the page to say it signs")
    game_id = pages.game_id_of(driver.current_url)

    played = _play_signed_moves(driver, 2)

    assert played == 2
    assert _check_the_record(live_service, game_id, _seat(driver), key) >= played
    assert _private_key_export(driver) == "refused InvalidAccessError extractable=false"


def _seat(driver: WebDriver) -> int:
    return int(str(pages.attribute(driver, "#panel .panel", "data-seat")))


def _place_then_undo(driver: WebDriver) -> None:
    """A bridge placed by its button, then taken back by #undo: two signed commands of the seat."""
    offered = pages.wait_until(driver, pages.offered, what="the seat's first moves")
    button = next(b for b, c in offered if c["type"] == "PlaceBridge")
    before = pages.version(driver)
    button.click()
    pages.wait_until(driver, lambda d: pages.version(d) > before, what="the bridge placed")
    undo = pages.wait_until(driver, lambda d: pages.find(d, "#undo"), what="the undo button")
    assert undo.is_enabled(), pages.text(driver, "#undo-reason")
    placed = pages.version(driver)
    undo.click()
    pages.wait_until(driver, lambda d: pages.version(d) > placed, what="the undo")
    assert not pages.text(driver, "#message")


def test_a_casual_seat_opts_in_and_another_browser_on_its_link_is_told_it_cannot_move(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    base = live_service.url
    driver = open_browser()
    created = pages.create_game(driver, base, [pages.human("Ann"), pages.random_computer()])
    offer = pages.wait_until(driver, lambda d: pages.shown(d, "#sign-moves"), what="the offer to sign")
    assert offer
    assert "must then be made from this browser" in pages.text(driver, "#signing-status")
    assert axe.barred(axe.violations(driver)) == []  # the offer shown

    pages.click(driver, "#sign-moves")
    pages.wait_until(driver, lambda d: _signing_state(d) == "signing", what="the key registered")
    assert not pages.shown(driver, "#sign-moves")
    _place_then_undo(driver)
    played = _play_signed_moves(driver, 1) + 2
    view = pages.api_get(base, f"/games/{created.game_id}")
    assert [s["signs"] for s in view["seats"]] == [True, False]

    elsewhere = open_browser()  # a browser profile of its own: it holds another key, or none
    elsewhere.get(created.mine)
    said = pages.wait_until(
        elsewhere, lambda d: _signing_state(d) == "elsewhere", what="the other browser told so"
    )
    assert said
    assert "key kept in another browser" in pages.text(elsewhere, "#signing-status")
    assert axe.barred(axe.violations(elsewhere)) == []
    before = pages.version(elsewhere)
    move = pages.wait_until(elsewhere, lambda d: pages.offered(d), what="the seat's turn again")
    move[0][0].click()
    refused = pages.wait_until(elsewhere, lambda d: pages.text(d, "#message"), what="the refusal")
    assert "another browser" in refused
    assert pages.api_get(base, f"/games/{created.game_id}")["version"] == before

    pages.click(driver, "#resign")  # a command of its own endpoint, signed as the moves are
    pages.click(driver, "#resign-yes")
    pages.wait_until(driver, pages.ended, what="the end after resigning")
    ending = pages.api_get(base, f"/games/{created.game_id}")["ending"]
    assert (ending["how"], ending["seat"]) == ("resigned", 0)
    assert _check_the_record(live_service, created.game_id, 0, _page_key(driver)) >= played + 1
    assert _private_key_export(driver) == "refused InvalidAccessError extractable=false"


def test_the_page_s_canonical_json_is_record_canonical_s_and_the_audit_page_s(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    driver.get(f"{live_service.url}/audit")
    pages.wait_until(driver, lambda d: d.execute_script("return !!window.ArchipelagoAudit"), what="audit.js")
    driver.execute_script(
        "const s = document.createElement('script');"
        "s.src = '/web/static/signing.js'; document.head.append(s);"
    )
    pages.wait_until(
        driver, lambda d: d.execute_script("return !!window.ArchipelagoSigning"), what="signing.js"
    )
    cases = [*CASES, '{"b":[1e21,1e-7,-1.5e-7,0.00001,123456789.125,-0.0],"a":"\\u2028\\u0007"}']
    for text in cases:
        # What the page would send (JSON.stringify) is what the service reads, and so signs over.
        sent, page, audit = driver.execute_script(
            """
            const value = JSON.parse(arguments[0]);
            const sent = JSON.stringify(value);
            const page = window.ArchipelagoSigning.canonical(value);
            return [sent, page, window.ArchipelagoAudit.canonicalOf(sent)];
            """,
            text,
        )
        assert page == canonical_json(json.loads(sent)) == audit, text
