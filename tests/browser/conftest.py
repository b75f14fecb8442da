"""Browser fixtures: the whole service as `make run` starts it (gunicorn and a forking RQ worker,
by service.launcher) on the session's real Redis, and headless Debian Chromium driven by Selenium.

The service lives for this package only: its worker would otherwise take the jobs that other
test packages queue and run in-process. Screenshots go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

import http.client
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver

from service.chance import SEED_VARIABLE
from service.embedded_redis import EmbeddedRedis, free_port
from service.game_plugins import VARIABLE
from tests.browser import pages

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
READY_WITHIN = 60.0
#: A whole game by clicks against the random computer takes well under a minute.
GAME_WITHIN = 240.0
INSTALL_HINT = "apt-get install -y chromium chromium-driver (.ci/run does it on a fresh machine)"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is a browser test: `make test-browser` selects them with -m browser."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    """Keep each phase's report on the item, so the browser fixture knows whether its test failed."""
    report: pytest.TestReport = yield
    setattr(item, f"report_{report.when}", report)
    return report


@dataclass(frozen=True)
class LiveService:
    """The running service: its address and the Redis it keeps its games in."""

    url: str
    redis_url: str


def _answers(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("HEAD", "/openapi.json")
        conn.getresponse().read()
        return True
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM: the launcher stops the web app and the worker, then exits."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def launched(redis_url: str, log_name: str, **more: str) -> Iterator[LiveService]:
    """`archipelago-run` on a free port with REDIS_URL set (and the variables in `more`): gunicorn
    plus one forking RQ worker, so computer seats move and rounds are scored as in production.
    Its output goes to test-artifacts/<log_name>."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = free_port()
    env = dict(
        os.environ,
        REDIS_URL=redis_url,
        RQ_REDIS_URL=redis_url,
        PORT=str(port),
        # One gunicorn worker is enough for a few browsers and leaves the 2 cores to Chromium.
        WEB_CONCURRENCY="1",
        GUNICORN_ACCESS_LOG="",
        # Tests click faster than people, all from one address, and leave games against the
        # computer unfinished: neither the rate limits nor the cap on a client's open games
        # with computer seats (4, service/ai_games.py) may refuse a later test's game.
        ARCHIPELAGO_RATE_LIMITS="off",
        ARCHIPELAGO_AI_GAMES_PER_CLIENT="1000",
        ARCHIPELAGO_AI_GAMES_OVERALL="1000",
        # The same deals every run: a failure can be replayed.
        **{SEED_VARIABLE: "20261123"},
        PYTHONUNBUFFERED="1",
        **more,
    )
    log = (ARTIFACTS / log_name).open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "service.launcher"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + READY_WITHIN
        while not _answers(port):
            if process.poll() is not None:
                pytest.fail(f"the service exited with {process.returncode}: see {log.name}")
            if time.monotonic() > deadline:
                pytest.fail(f"the service did not answer within {READY_WITHIN:.0f} s: see {log.name}")
            time.sleep(0.1)
        yield LiveService(url=f"http://127.0.0.1:{port}", redis_url=redis_url)
    finally:
        _stop(process)
        log.close()


@pytest.fixture(scope="package")
def live_service(redis_server: EmbeddedRedis) -> Iterator[LiveService]:
    """The service of this package's tests (`launched`), on the session's Redis database 0 emptied
    around it (only database 0: families_service may already run on its own)."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    try:
        with launched(redis_server.url, "live-service.log") as service:
            yield service
    finally:
        client.flushdb()
        client.close()


FAMILIES_DATABASE = 3
"""The Redis database of the test families' service (live_service keeps database 0)."""


@pytest.fixture(scope="package")
def families_service(redis_server: EmbeddedRedis) -> Iterator[LiveService]:
    """A service whose web app and worker load the families that live in the tests at start
    (ARCHIPELAGO_GAME_PLUGINS, service/game_plugins.py), their games in a database of its own, so
    that live_service never sees them: the families' browser test and the accessibility sweep."""
    url = f"{redis_server.url.rsplit('/', 1)[0]}/{FAMILIES_DATABASE}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        with launched(
            url, "families-service.log", **{VARIABLE: "tests.families.registered:register"}
        ) as live:
            yield live
    finally:
        client.flushdb()
        client.close()


def _chromium() -> WebDriver:
    for binary in (CHROMIUM, CHROMEDRIVER):
        if shutil.which(binary) is None:
            pytest.fail(f"{binary} is missing: {INSTALL_HINT}")
    options = webdriver.ChromeOptions()
    # Naming both binaries keeps Selenium Manager from looking for (or downloading) a browser.
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
        "--disable-dev-shm-usage",
        "--window-size=1280,960",
        "--lang=en",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def artifact_name(item: pytest.Item, label: str) -> Path:
    """test-artifacts/<test name>-<label>.png, safe as a file name."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in item.name)
    return ARTIFACTS / f"{safe}-{label}.png"


@pytest.fixture
def open_browser(request: pytest.FixtureRequest) -> Iterator[Callable[[], WebDriver]]:
    """Opens headless Chromium windows (one per seat a test plays); on a failure each leaves
    a screenshot in test-artifacts/ before it closes."""
    opened: list[WebDriver] = []

    def open_one() -> WebDriver:
        driver = _chromium()
        driver.implicitly_wait(0)
        opened.append(driver)
        return driver

    yield open_one
    failed = getattr(request.node, "report_call", None)
    for n, driver in enumerate(opened):
        if failed is not None and failed.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            driver.save_screenshot(str(artifact_name(request.node, f"failed-{n}")))
        driver.quit()


@dataclass(frozen=True)
class FinishedGame:
    """A Kahuna game played to its end by clicks, seat 0 against the random computer."""

    game_id: str
    url: str  # the player's own link: the board page with the seat's token in its fragment
    played: int  # commands the page played by clicks
    result_text: str  # what the end screen said
    seconds: float


@pytest.fixture(scope="package")
def finished_game(live_service: LiveService) -> Iterator[FinishedGame]:
    """Plays the whole game once for the package: the end-screen, replay and accessibility tests
    look at the same finished game."""
    ARTIFACTS.mkdir(exist_ok=True)
    driver = _chromium()
    try:
        started = time.monotonic()
        created = pages.create_game(driver, live_service.url, [pages.human("Ann"), pages.random_computer()])
        driver.save_screenshot(str(ARTIFACTS / "board-start.png"))
        played = pages.play_to_the_end(driver, random.Random(8), deadline=started + GAME_WITHIN)
        # Tall enough for the end screen and the whole board at once (docs/img/kahuna-end.png).
        driver.set_window_size(1280, 1400)
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(ARTIFACTS / "board-end.png"))
        result = pages.text(driver, "#result")
        yield FinishedGame(created.game_id, created.mine, played, result, time.monotonic() - started)
    except BaseException:
        driver.save_screenshot(str(ARTIFACTS / "finished_game-failed.png"))
        raise
    finally:
        driver.quit()
