"""Accounts by clicks: a person signs up, opens a seat that a second browser takes, they play,
one resigns and they rematch, and the account gets its seat back in a third browser; a passkey
added on the account page signs the person in again after signing out (Chromium's virtual
authenticator stands for the fingerprint reader)."""

from __future__ import annotations

import json
import random
import urllib.request
from collections.abc import Callable

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import axe, pages
from tests.browser.conftest import ARTIFACTS, LiveService
from tests.browser.test_open_seats import OPEN, _play_a_turn

PASSWORD = "a long pass phrase"


def _sign_up(driver: WebDriver, base: str, name: str) -> None:
    driver.get(base + "/signup")
    form = pages.wait_until(driver, lambda d: pages.find(d, "#sign-up"), what="the sign-up form")
    form.find_element(By.CSS_SELECTOR, "input[name=name]").send_keys(name)
    form.find_element(By.CSS_SELECTOR, "input[name=password]").send_keys(PASSWORD)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    pages.wait_until(driver, lambda d: pages.find(d, "#account-name"), what="the account page")
    assert pages.text(driver, "#account-name") == name


def _sign_in(driver: WebDriver, base: str, name: str, then: str) -> None:
    driver.get(f"{base}/signin?next={then}")
    form = pages.wait_until(driver, lambda d: pages.find(d, "#sign-in"), what="the sign-in form")
    form.find_element(By.CSS_SELECTOR, "input[name=name]").send_keys(name)
    form.find_element(By.CSS_SELECTOR, "input[name=password]").send_keys(PASSWORD)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def test_a_person_signs_up_opens_a_seat_plays_the_taker_resigns_and_they_rematch(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    base = live_service.url
    ann, ben = open_browser(), open_browser()
    _sign_up(ann, base, "Ann Account")
    assert pages.text(ann, "#nav-account") == "Ann Account"
    created = pages.create_game(ann, base, [pages.human("Ann Account"), OPEN])

    ben.get(base + "/")
    entry = f'#open li[data-game-id="{created.game_id}"]'
    form = pages.find_or_fail(ben, f"{entry} form.take-seat")
    form.find_element(By.CSS_SELECTOR, "input[name=name]").send_keys("Ben")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    pages.wait_until(ben, lambda d: pages.status(d).get("seat") == "1", what="Ben's seat page")

    rng = random.Random(5)
    assert _play_a_turn(ann, "0", rng) > 0
    assert _play_a_turn(ben, "1", rng) > 0
    pages.click(ben, "#resign")
    pages.click(ben, "#resign-yes")
    pages.wait_until(ann, lambda d: pages.shown(d, "#result"), what="the end on Ann's page, live")
    assert "Ann Account wins" in pages.text(ann, "#result")

    pages.click(ann, "#rematch-ask")
    pages.wait_until(ben, lambda d: "offers" in pages.text(d, "#rematch-status"), what="the offer")
    pages.click(ben, "#rematch-ask")
    for driver, seat in ((ann, "1"), (ben, "0")):
        pages.wait_until(
            driver,
            lambda d, s=seat: (
                pages.game_id_of(d.current_url) != created.game_id and pages.status(d).get("seat") == s
            ),
            what=f"the rematch at seat {seat}",
        )
    ann.save_screenshot(str(ARTIFACTS / "account-rematch.png"))
    rematch = pages.game_id_of(ann.current_url)
    held = ann.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/account/seats/' + arguments[0]).then(function (a) { return a.json(); }).then(done);",
        rematch,
    )
    assert [s["seat"] for s in held["seats"]] == [1], "the rematch's seat is kept with Ann's account"


def test_an_account_gets_its_seat_back_in_another_browser(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    base = live_service.url
    cy, elsewhere = open_browser(), open_browser()
    _sign_up(cy, base, "Cy Account")
    created = pages.create_game(cy, base, [pages.human("Cy Account"), pages.human("Dee")])
    _sign_in(elsewhere, base, "cy account", f"/play/{created.game_id}")
    pages.wait_until(elsewhere, lambda d: pages.status(d).get("seat") == "0", what="Cy's seat, elsewhere")
    elsewhere.get(base + "/players/Cy Account")
    assert pages.find(elsewhere, f'#player-games tr[data-game-id="{created.game_id}"]') is not None
    assert axe.barred(axe.violations(elsewhere)) == [], "the player's page"


def test_a_passkey_added_on_the_account_page_signs_the_person_in_again(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    # A passkey belongs to a domain name, never an address: the page is opened as localhost.
    base = live_service.url.replace("127.0.0.1", "localhost")
    driver = open_browser()
    driver.execute_cdp_cmd("WebAuthn.enable", {})
    driver.execute_cdp_cmd(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    driver.get(base + "/signup")
    assert axe.barred(axe.violations(driver)) == [], "the sign-up page"
    _sign_up(driver, base, "Pia Passkey")
    assert axe.barred(axe.violations(driver)) == [], "the account page"
    pages.click(driver, "#passkey-add")
    pages.wait_until(
        driver,
        lambda d: pages.text(d, "#passkey-count") == "1 passkey" or pages.shown(d, "#passkey-problem"),
        what="the passkey added",
    )
    assert pages.text(driver, "#passkey-count") == "1 passkey", pages.text(driver, "#passkey-problem")

    board = f"{base}/play/{_new_game(base)}"
    pias_key = _signing_key(driver, board)

    driver.get(base + "/me")
    pages.click(driver, "#sign-out button")
    pages.wait_until(driver, lambda d: pages.find(d, "#nav-sign-in"), what="signed out")
    assert _signing_key(driver, board) != pias_key, "a guest on this browser signs with a key of its own"
    driver.get(base + "/signin")
    assert axe.barred(axe.violations(driver)) == [], "the sign-in page"
    pages.click(driver, "#passkey-sign-in")
    pages.wait_until(
        driver,
        lambda d: pages.find(d, "#account-name") or pages.shown(d, "#passkey-problem"),
        what="signed in",
    )
    problem = pages.find(driver, "#passkey-problem")
    assert pages.find(driver, "#account-name") is not None, problem.text if problem else ""
    assert pages.text(driver, "#account-name") == "Pia Passkey"
    assert _signing_key(driver, board) == pias_key, "the account's key on this browser, kept"


def _new_game(base: str) -> str:
    body = json.dumps({"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}]}).encode()
    sent = urllib.request.Request(f"{base}/games", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(sent, timeout=10) as answer:
        return str(json.load(answer)["game_id"])


def _signing_key(driver: WebDriver, board: str) -> str:
    """The public key (its x) this browser signs with on the board page, as the page now is."""
    driver.get(board)
    pages.wait_until(
        driver, lambda d: d.execute_script("return Boolean(window.ArchipelagoSigning);"), what="signing.js"
    )
    key = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.ArchipelagoSigning.publicJwk().then(function (k) { done(k.x); })"
        ".catch(function (e) { done('error: ' + e.message); });"
    )
    assert isinstance(key, str) and not key.startswith("error"), key
    return key
