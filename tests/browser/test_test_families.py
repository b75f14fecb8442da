"""A family that lives in the tests, in the browser: two people make a game of it with the lobby's
form, play it to its end by clicking the buttons its words name, and open its replay; its board
page and its replay have no serious or critical axe-core violation. Then one person plays it
against the searching computer (its AI hooks), by clicks, to its end.

The service here (families_service, tests/browser/conftest.py) has its web app and its worker load
the test families at start (ARCHIPELAGO_GAME_PLUGINS, service/game_plugins.py) and keeps its games
in a Redis database of its own, so this package's other service never sees them."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from domain.games import rules_for
from tests.browser import axe, pages
from tests.browser.conftest import LiveService
from tests.families.registered import TEST_GAMES

PLAYED_WITHIN = 60.0


@pytest.mark.usefixtures("test_families")  # in this process too, for their words
@pytest.mark.parametrize("name", TEST_GAMES)
def test_two_people_play_a_test_family_by_clicks_to_its_end_and_open_its_replay(
    families_service: LiveService, open_browser: Callable[[], WebDriver], name: str
) -> None:
    ann, ben = open_browser(), open_browser()
    created = pages.create_game(
        ann, families_service.url, [pages.human("Ann"), pages.human("Ben")], game=name
    )
    ben.get(created.invites[1])
    pages.wait_until(ben, lambda d: pages.status(d).get("seat") == "1", what="Ben's page")
    title = rules_for(name).words.title
    assert title in ann.title or title in pages.text(ann, "body")
    assert axe.barred(axe.violations(ann)) == []

    rng, played = random.Random(name), 0
    deadline = time.monotonic() + PLAYED_WITHIN
    while not pages.ended(ann):
        assert time.monotonic() < deadline, f"no end screen after {played} commands"
        mover = ann if pages.status(ann).get("active") == "0" else ben
        if pages.play_one(mover, rng) is None:
            time.sleep(pages.POLL)  # the other page has not yet shown the last move
        else:
            played += 1

    pages.wait_until(ben, lambda d: pages.ended(d), what="the end on Ben's page, live")
    game = pages.api_get(families_service.url, f"/games/{created.game_id}")
    assert game["phase"] == "ended" and game["ending"]["how"] == "rules" and played >= 2
    replay = pages.attribute(ann, "#end-replay", "href") or ""
    assert replay.endswith(f"/replay/{created.game_id}")
    ann.get(replay)
    pages.wait_until(ann, lambda d: pages.find(d, "#replay #board svg"), what="the replay's board")
    assert title in pages.text(ann, "body")
    assert axe.barred(axe.violations(ann)) == []


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", TEST_GAMES)
def test_a_person_plays_a_test_family_against_the_computer_by_clicks_to_its_end(
    families_service: LiveService, open_browser: Callable[[], WebDriver], name: str
) -> None:
    ann = open_browser()
    # ismcts, the computer that searches the game through the family's own AI hooks.
    computer = pages.Seat("ismcts", "Robo")
    created = pages.create_game(ann, families_service.url, [pages.human("Ann"), computer], game=name)
    played = pages.play_to_the_end(ann, random.Random(name), deadline=time.monotonic() + PLAYED_WITHIN)

    game = pages.api_get(families_service.url, f"/games/{created.game_id}")
    assert game["phase"] == "ended" and game["ending"]["how"] == "rules" and played >= 1
    moved = pages.api_get(families_service.url, f"/games/{created.game_id}/events")["events"]
    commands = [e["command"] for e in moved if e.get("command")]
    assert {c["seat"] for c in commands if c["type"] in rules_for(name).schemas.commands} == {0, 1}
    assert moved[-1]["type"] == rules_for(name).end_event
    assert rules_for(name).words.title in pages.text(ann, "body")
