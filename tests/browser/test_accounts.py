"""Accounts by clicks: a person signs up, opens a seat that a second browser takes, they play,
one resigns and they rematch, and the account gets its seat back in a third browser; a passkey
added on the account page signs the person in again after signing out (Chromium's virtual
authenticator stands for the fingerprint reader)."""

from __future__ import annotations

import random
from collections.abc import Callable

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import pages
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
    assert pages.find_or_fail(driver, "#account-name").text == name


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
    assert pages.find_or_fail(ann, "#nav-account").text == "Ann Account"
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
    assert "Ann Account wins" in pages.find_or_fail(ann, "#result").text

    pages.click(ann, "#rematch-ask")
    pages.wait_until(
        ben, lambda d: "offers" in pages.find_or_fail(d, "#rematch-status").text, what="the offer"
    )
    pages.click(ben, "#rematch-ask")
    for driver, seat in ((ann, "1"), (ben, "0")):
        pages.wait_until(
            driver,
            lambda d, s=seat: (
                pages.game_id_of(d.current_url) != created.game_id and pages.status(d).get("seat") == s
            ),
            what=f"the rematch at seat {seat}",
        )
    rematch = pages.game_id_of(ann.current_url)
    ann.save_screenshot(str(ARTIFACTS / "account-rematch.png"))

    # The account's seats live with the account, not in one browser's storage.
    elsewhere = open_browser()
    _sign_in(elsewhere, base, "ann account", f"/play/{rematch}")
    pages.wait_until(elsewhere, lambda d: pages.status(d).get("seat") == "1", what="Ann's seat, elsewhere")
    elsewhere.get(base + "/players/Ann Account")
    games = pages.find_or_fail(elsewhere, "#player-games").text
    assert created.game_id in (elsewhere.page_source or "") and "won" in games and "Ben" in games


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
    _sign_up(driver, base, "Pia Passkey")
    pages.click(driver, "#passkey-add")
    pages.wait_until(
        driver,
        lambda d: (
            pages.find_or_fail(d, "#passkey-count").text == "1 passkey" or pages.shown(d, "#passkey-problem")
        ),
        what="the passkey added",
    )
    assert pages.find_or_fail(driver, "#passkey-count").text == "1 passkey", pages.find_or_fail(
        driver, "#passkey-problem"
    ).text

    pages.click(driver, "#sign-out button")
    pages.wait_until(driver, lambda d: pages.find(d, "#nav-sign-in"), what="signed out")
    driver.get(base + "/signin")
    pages.click(driver, "#passkey-sign-in")
    pages.wait_until(
        driver,
        lambda d: pages.find(d, "#account-name") or pages.shown(d, "#passkey-problem"),
        what="signed in",
    )
    assert pages.find(driver, "#account-name") is not None, pages.find_or_fail(
        driver, "#passkey-problem"
    ).text
    assert pages.find_or_fail(driver, "#account-name").text == "Pia Passkey"
