"""axe-core on the lobby, the board (in play and at the end) and the replay; then on every page
of every game family at a desktop's and a phone's size, where no page may scroll sideways
either: no serious or critical violation. The families that live in the tests (tests/families)
are swept too, their play and replay pages on the service that loads them (families_service)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import axe, pages, screens
from tests.browser.conftest import ARTIFACTS, FinishedGame, LiveService
from tests.families.registered import EVERY_MODULE, TEST_GAMES


def test_axe_finds_a_serious_violation_on_a_page_made_to_have_one(
    open_browser: Callable[[], WebDriver],
) -> None:
    """The injected engine really runs: an image without a text alternative is caught."""
    driver = open_browser()
    driver.get("data:text/html,<html lang=en><title>t</title><main><img src=x.png></main></html>")
    assert any(line.startswith("image-alt (critical)") for line in axe.barred(axe.violations(driver)))


@pytest.mark.parametrize(
    ("path", "mark"),
    [
        ("/", "#start"),
        ("/games/new", "#new-game"),
        ("/rules", "#rules-games"),
        ("/rules/kahuna", "#rules-board svg"),
        ("/rules/nanuuk", "#rules-board svg"),
        ("/rules/conquest-of-paradise", "#rules-board svg"),
        ("/rules/no-such-game", "#missing"),
    ],
)
def test_the_lobby_its_new_game_form_and_the_rules_pages_have_no_serious_axe_violation(
    live_service: LiveService, open_browser: Callable[[], WebDriver], path: str, mark: str
) -> None:
    driver = open_browser()
    driver.get(f"{live_service.url}{path}")
    pages.wait_until(driver, lambda d: pages.find(d, mark), what=f"{mark} on {path}")
    if not path.startswith("/rules"):
        driver.save_screenshot(str(ARTIFACTS / f"lobby{path.replace('/', '-').rstrip('-')}.png"))
    assert axe.barred(axe.violations(driver)) == []


def test_the_board_in_play_has_no_serious_axe_violation(
    live_service: LiveService, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    pages.create_game(driver, live_service.url, [pages.human("Ann"), pages.random_computer()])
    # The board with its hand, row and the commands on offer: the most controls it ever shows.
    pages.wait_until(driver, lambda d: pages.offered(d), what="seat 0's commands")
    assert axe.barred(axe.violations(driver)) == []


def test_the_board_at_the_end_screen_has_no_serious_axe_violation(
    finished_game: FinishedGame, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    driver.get(finished_game.url)
    pages.wait_until(driver, lambda d: pages.shown(d, "#result"), what="the end screen")
    assert axe.barred(axe.violations(driver)) == []


def test_the_replay_has_no_serious_axe_violation(
    live_service: LiveService, finished_game: FinishedGame, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    driver.get(f"{live_service.url}/replay/{finished_game.game_id}")
    pages.wait_until(driver, lambda d: pages.find(d, "#replay #board svg"), what="the replay's board")
    assert axe.barred(axe.violations(driver)) == []


# --- every page of every family, at a desktop's and a phone's size ---------------------------

#: Each family's play page with the options that show the most: Opodopo's gods, every Nanuuk!
#: mode, Conquest of Paradise (its fog of war is always on: unexplored hexes until found).
FAMILIES: dict[str, tuple[int, dict[str, Any]]] = {
    "kahuna": (2, {}),
    "arabana-ikibiti": (2, {}),
    "arabana-opodopo": (3, {"gods": True}),
    "nanuuk": (2, {}),
    "nanuuk-learning": (2, {}),
    "nanuuk-bear-hunt": (2, {}),
    "nanuuk-bear-flight": (2, {}),
    "nanuuk-partners": (4, {}),
    "nanuuk-helper": (2, {}),
    "conquest-of-paradise": (3, {}),
}
NAMES = ("Ann", "Ben", "Cai", "Dee")
#: What `make test` sweeps; the rest of PAGES is `make test-browser-long`'s.
SHORT = (
    "lobby",
    "play kahuna",
    "replay kahuna",
    "tournament",
    "play arabana-opodopo",
    "play conquest-of-paradise",
    "rules kahuna",
    "sign up",
)
COUNTS = ARTIFACTS / "axe-counts.json"


@pytest.fixture(scope="module")
def every_page(live_service: LiveService) -> dict[str, tuple[str, str, str | None]]:
    """Page name -> (address, a CSS selector shown once the page has drawn itself): one game per
    family made through the API (the play page of its first seat, then its replay) and a
    tournament with a round paired (its page, its organizer's page, its audit); and the page to
    open first, if any."""
    base = live_service.url
    found = {
        "lobby": (f"{base}/", "#start"),
        "new game": (f"{base}/games/new", "#new-game"),
        "tournaments": (f"{base}/t", "main h1"),
        "new tournament": (f"{base}/t/new", "main form"),
        "rules": (f"{base}/rules", "#rules-games"),
        **{f"rules {game}": (f"{base}/rules/{game}", "#rules-board svg") for game in FAMILIES},
    }
    primers: dict[str, str] = {}
    for game, (seats, options) in FAMILIES.items():
        _game_pages(base, game, seats, options, found, primers)
    cup = screens.post(
        base, "/tournaments", {"name": "Screen Cup", "game": "kahuna", "format": "swiss", "rounds": 1}
    )
    tid, organizer = cup["tournament_id"], cup["organizer_token"]
    for name in ("Ann", "Ben", "Cai"):
        screens.post(base, f"/tournaments/{tid}/entrants", {"name": name})
    screens.post(base, f"/tournaments/{tid}/commands", {"type": "StartTournament"}, organizer)
    screens.post(base, f"/tournaments/{tid}/commands", {"type": "PairRound"}, organizer)
    found["tournament"] = (f"{base}/t/{tid}", "#round-1")
    found["organizer"] = (f"{base}/t/{tid}/organize#organizer={organizer}", "#organizer")
    found["tournament audit"] = (f"{base}/t/{tid}/audit", "main h1")
    found["sign up"] = (f"{base}/signup", "#sign-up")
    found["sign in"] = (f"{base}/signin", "#sign-in")
    screens.post(base, "/accounts", {"name": "Screen Ann", "password": "a long enough secret"})
    found["player"] = (f"{base}/players/Screen%20Ann", "#player-name")
    return {name: (*where, primers.get(name)) for name, where in found.items()}


def _game_pages(
    base: str,
    game: str,
    seats: int,
    options: dict[str, Any],
    found: dict[str, tuple[str, str]],
    primers: dict[str, str],
) -> None:
    """A new game of `game` made through the API: its first seat's play page and its replay."""
    body = {"game": game, "seats": [{"name": n} for n in NAMES[:seats]], "first_seat": 0, "options": options}
    created = screens.post(base, "/games", body)
    token = created["seats"][0]["token"]
    found[f"play {game}"] = (f"{base}/play/{created['game_id']}#token={token}", "#commands [data-command]")
    # Only a seat replays a game still being played: the play page keeps its token first.
    found[f"replay {game}"] = (f"{base}/replay/{created['game_id']}", "#replay #board svg")
    primers[f"replay {game}"] = found[f"play {game}"][0]


@pytest.fixture(scope="module")
def test_family_pages(families_service: LiveService) -> dict[str, tuple[str, str, str | None]]:
    """The same for each family that lives in the tests, on the service that loads them."""
    found: dict[str, tuple[str, str]] = {}
    primers: dict[str, str] = {}
    for game in TEST_GAMES:
        _game_pages(families_service.url, game, EVERY_MODULE[game].min_seats, {}, found, primers)
    return {name: (*where, primers.get(name)) for name, where in found.items()}


PAGES = [
    "lobby",
    "new game",
    "tournaments",
    "new tournament",
    "tournament",
    "organizer",
    "tournament audit",
    *(f"{kind} {game}" for game in FAMILIES for kind in ("play", "replay")),
    "rules",
    *(f"rules {game}" for game in FAMILIES),
    "sign up",
    "sign in",
    "player",
]


#: The elements that reach past the viewport's right edge, innermost first: what to fix.
_WIDEST = """
const edge = document.documentElement.clientWidth;
const past = e => e.getBoundingClientRect().right > edge + 1;
return [...document.querySelectorAll("body *")]
  .filter(e => past(e) && ![...e.children].some(past))
  .slice(0, 5)
  .map(e => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
"""


def _sweep(driver: WebDriver, address: str, mark: str, primer: str | None, name: str) -> dict[str, Any]:
    """axe's serious and critical violations and the sideways overflow at each size; the count
    of elements they hit, per size, goes to test-artifacts/axe-counts.json."""
    seen: dict[str, Any] = {}
    if primer is not None:
        driver.get(primer)
        pages.wait_until(driver, lambda d: pages.status(d).get("seat"), what=f"the seat's page before {name}")
    for size, set_up in (("desktop", screens.as_desktop), ("phone", screens.as_phone)):
        set_up(driver)
        driver.get("about:blank")
        driver.get(address)
        pages.wait_until(driver, lambda d: pages.find(d, mark), what=f"{mark} on {name} ({size})")
        driver.save_screenshot(str(ARTIFACTS / f"screen-{size}-{name.replace(' ', '-')}.png"))
        found = axe.violations(driver)
        hit = sum(len(v["nodes"]) for v in found if v.get("impact") in axe.BARRED)
        seen[size] = {"barred": axe.barred(found), "hit": hit, "sideways": screens.sideways(driver)}
        seen[size]["wide"] = driver.execute_script(_WIDEST) if seen[size]["sideways"] else []
    counts = json.loads(COUNTS.read_text()) if COUNTS.exists() else {}
    counts[name] = {size: {"axe": s["hit"], "sideways": s["sideways"]} for size, s in seen.items()}
    COUNTS.write_text(json.dumps(counts, indent=1, sort_keys=True))
    return seen


@pytest.mark.parametrize(
    "name", [pytest.param(p, marks=() if p in SHORT else pytest.mark.browser_long) for p in PAGES]
)
def test_every_page_at_desktop_and_phone_size_has_no_serious_axe_violation_nor_sideways_scroll(
    every_page: dict[str, tuple[str, str, str | None]], open_browser: Callable[[], WebDriver], name: str
) -> None:
    _assert_clean(_sweep(open_browser(), *every_page[name], name))


@pytest.mark.parametrize("name", [f"{kind} {game}" for game in TEST_GAMES for kind in ("play", "replay")])
def test_the_play_and_replay_pages_of_a_test_family_have_no_serious_axe_violation_nor_sideways_scroll(
    test_family_pages: dict[str, tuple[str, str, str | None]],
    open_browser: Callable[[], WebDriver],
    name: str,
) -> None:
    _assert_clean(_sweep(open_browser(), *test_family_pages[name], name))


def _assert_clean(seen: dict[str, Any]) -> None:
    assert {size: s["barred"] for size, s in seen.items()} == {"desktop": [], "phone": []}
    assert {size: (s["sideways"], s["wide"]) for size, s in seen.items()} == {
        "desktop": (0, []),
        "phone": (0, []),
    }
