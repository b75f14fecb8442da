"""The play page: the board, the cards, the moves /legal lists and no other, undo, the log, the end."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain import undo as undo_policy
from service.web import play as play_page
from tests.api.helpers import bearer, choose, create_game, legal_commands, post, view
from tests.api.test_contract_client import SHORT
from tests.families.registered import EVERY_GAME, EVERY_MODULE
from tests.web.pages import by_id, cards_in, elements, offered, panel

ISLAND_VARIANTS = [
    ("kahuna", 2, {}, 60),
    ("arabana-ikibiti", 2, {"seafarers": True}, 60),
    ("arabana-opodopo", 3, {"gods": True}, 60),
]
OFFERED = ISLAND_VARIANTS + [
    (name, EVERY_MODULE[name].min_seats, SHORT.get(name, {}), 8)
    for name in EVERY_GAME
    if name not in {game for game, *_ in ISLAND_VARIANTS}
]
"""Every game (the test families' too) for some steps, the island games longer, with the variants
that offer more (each page's own tests go further)."""


def canonical(commands: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(c, sort_keys=True) for c in commands)


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("game,seats,options,steps", OFFERED)
def test_the_panel_offers_exactly_the_commands_legal_lists_at_every_step(
    client: FlaskClient,
    run_worker: Callable[[], None],
    game: str,
    seats: int,
    options: dict[str, Any],
    steps: int,
) -> None:
    created = create_game(client, seats, game=game, options=options)
    rng = random.Random(7)
    checked = 0
    for _ in range(steps):
        current = view(client, created)
        if current["phase"] == "ended":
            break
        if current["phase"] == "scoring":
            run_worker()
            continue
        legal = {seat: legal_commands(client, created, seat)["commands"] for seat in range(seats)}
        for seat, commands in legal.items():
            assert canonical(
                offered(panel(client, created["game_id"], created["tokens"][seat]))
            ) == canonical(commands)
            checked += 1
        movers = [seat for seat, commands in legal.items() if commands]
        seat = current["active"] if current["active"] in movers else rng.choice(movers)
        assert post(client, created, seat, choose(rng, legal[seat])).status_code == 200
    assert checked >= steps or current["phase"] == "ended"  # a short game is checked to its end


def test_a_spectator_sees_the_board_and_the_row_but_no_hand_and_no_move(client: FlaskClient) -> None:
    created = create_game(client)
    page = client.get(f"/play/{created['game_id']}")
    html = page.get_data(as_text=True)
    spectator = view(client, created)

    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert re.search(r'<div id="board"[^>]*>\s*<svg', html)
    assert {
        a["data-line"]
        for _, a, _ in elements(html)
        if "data-line" in a and a.get("class", "").startswith("line")
    }
    assert cards_in(html, "row") == spectator["face_up"]
    assert cards_in(html, "hand") == [] and offered(html) == []
    assert by_id(html, "stack") is not None and by_id(html, "status") is not None


def test_a_seat_sees_its_own_hand_as_buttons_and_a_spectator_none(client: FlaskClient) -> None:
    created = create_game(client)
    for seat in (0, 1):
        html = panel(client, created["game_id"], created["tokens"][seat])
        assert cards_in(html, "hand") == view(client, created, seat)["hand"]
    assert by_id(panel(client, created["game_id"]), "hand") is None


def test_status_says_whose_turn_it_is_for_each_viewer(client: FlaskClient) -> None:
    created = create_game(client)  # seat 0 starts
    first = panel(client, created["game_id"], created["tokens"][0])
    other = panel(client, created["game_id"], created["tokens"][1])
    watching = panel(client, created["game_id"])
    assert "Your turn." in first and "Waiting for Ann." in other and "Waiting for Ann." in watching


def test_a_token_of_no_seat_is_refused_and_an_unknown_game_is_not_found(client: FlaskClient) -> None:
    created = create_game(client)
    wrong = client.get(f"/play/{created['game_id']}/panel", headers=bearer("not-a-token"))
    missing = client.get("/play/0123456789abcdef")
    assert (wrong.status_code, wrong.json["code"]) == (401, "invalid_token")
    assert (missing.status_code, missing.json["code"]) == (404, "game_not_found")


def _undo_controls(html: str) -> tuple[dict[str, str], dict[str, str]]:
    undo, takeback = by_id(html, "undo"), by_id(html, "takeback")
    assert undo is not None and takeback is not None
    return undo, takeback


def test_undo_is_offered_after_ones_own_move_and_refused_with_the_reason_before(client: FlaskClient) -> None:
    created = create_game(client)
    before = panel(client, created["game_id"], created["tokens"][0])
    undo, _ = _undo_controls(before)
    assert "disabled" in undo and by_id(before, "undo-reason")["data-code"] == undo_policy.NOTHING_TO_UNDO

    place = next(c for c in legal_commands(client, created, 0)["commands"] if c["type"] == "PlaceBridge")
    assert post(client, created, 0, place).status_code == 200
    after = panel(client, created["game_id"], created["tokens"][0])
    other = panel(client, created["game_id"], created["tokens"][1])

    assert "disabled" not in _undo_controls(after)[0]
    assert by_id(other, "undo-reason")["data-code"] == undo_policy.NOT_YOURS
    assert "this turn holds no command of yours" in other


def test_a_tournament_game_offers_no_undo_nor_takeback_and_says_why(client: FlaskClient) -> None:
    created = create_game(client, mode="tournament", organizer="Oda")
    html = panel(client, created["game_id"], created["tokens"][0])
    undo, takeback = _undo_controls(html)
    assert "disabled" in undo and "disabled" in takeback
    assert by_id(html, "undo-reason")["data-code"] == undo_policy.IN_TOURNAMENT


def test_the_takeback_button_asks_for_the_version_before_ones_last_move_and_the_other_seat_answers(
    client: FlaskClient,
) -> None:
    created = create_game(client)
    start = view(client, created)["version"]
    place = next(c for c in legal_commands(client, created, 0)["commands"] if c["type"] == "PlaceBridge")
    assert post(client, created, 0, place).status_code == 200
    takeback = _undo_controls(panel(client, created["game_id"], created["tokens"][0]))[1]
    assert "disabled" not in takeback and takeback["data-to-version"] == str(start)

    asked = client.post(
        f"/games/{created['game_id']}/takebacks",
        json={"to_version": int(takeback["data-to-version"])},
        headers=bearer(created["tokens"][0]),
    )
    assert asked.status_code == 201, asked.json
    other = panel(client, created["game_id"], created["tokens"][1])
    answers = offered(other)
    assert {"type": "AnswerTakeback", "accept": True} in answers
    assert {"type": "AnswerTakeback", "accept": False} in answers
    assert "Ann asks to take the game back" in other and by_id(other, "takeback-pending") is not None
    again = panel(client, created["game_id"], created["tokens"][0])
    assert by_id(again, "takeback-reason")["data-code"] == undo_policy.TAKEBACK_PENDING


def test_the_log_tells_each_step_in_the_game_modules_words(client: FlaskClient) -> None:
    created = create_game(client)
    place = next(c for c in legal_commands(client, created, 0)["commands"] if c["type"] == "PlaceBridge")
    post(client, created, 0, place)
    steps = client.get(f"/games/{created['game_id']}/replay").json["steps"]
    html = panel(client, created["game_id"])
    items = re.findall(r'<li data-version="(\d+)">([^<]*)</li>', html)
    assert [(int(v), text) for v, text in items] == [
        (s["version"], s["description"].replace("'", "&#39;")) for s in reversed(steps)
    ]
    assert "bridge" in items[0][1]


def test_a_long_games_log_shows_its_newest_steps_numbered_and_leaves_the_rest_to_the_replay(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play_page, "LOG_STEPS", 3)
    created = create_game(client)
    assert by_id(panel(client, created["game_id"]), "log-earlier") is None, "one step: all shown"
    rng = random.Random(3)
    for _ in range(6):
        seat = view(client, created)["active"]
        post(client, created, seat, choose(rng, legal_commands(client, created, seat)["commands"]))
    steps = client.get(f"/games/{created['game_id']}/replay").json["steps"]
    html = panel(client, created["game_id"])
    items = re.findall(r'<li data-version="(\d+)">', html)
    assert [int(v) for v in items] == [s["version"] for s in reversed(steps[-3:])]
    assert by_id(html, "log")["start"] == str(len(steps)), "numbered as the game's steps"
    earlier = re.search(r'<p id="log-earlier">(.*?)</p>', html)
    assert earlier is not None and earlier.group(1).startswith(f"{len(steps) - 3} earlier steps are in")
    assert f'href="/replay/{created["game_id"]}"' in earlier.group(1)


def test_the_end_screen_shows_the_winner_and_the_points(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    computers = [{"name": "R1", "ai": "random", "level": 1}, {"name": "R2", "ai": "random", "level": 1}]
    done = client.post("/games", json={"game": "kahuna", "seats": computers}).json
    for _ in range(20):
        run_jobs()
        if view(client, {**done, "tokens": []})["phase"] == "ended":
            break
    final = view(client, {**done, "tokens": []})
    html = client.get(f"/play/{done['game_id']}").get_data(as_text=True)
    result = re.search(r'<section id="result".*?</section>', html, re.S)
    assert final["phase"] == "ended" and result is not None
    winner = final["result"]["winner"]
    said = "A draw" if winner is None else f"{final['seats'][winner]['name']} wins"
    assert said in result.group(0)
    assert [int(p) for p in re.findall(r"<td>(-?\d+)</td>", result.group(0))] == final["result"]["totals"]
    assert 'data-finished="true"' in html
    scorings = re.search(r'<details id="scorings".*?</details>', html, re.S)
    assert scorings is not None and final["scorings"]
    rows = re.findall(r"<tr><td>(\d+)</td>((?:<td>-?\d+</td>)+)</tr>", scorings.group(0))
    assert [[int(p) for p in re.findall(r"-?\d+", cells)] for _, cells in rows] == final["scorings"]


def test_the_pages_load_only_files_served_by_the_service(client: FlaskClient) -> None:
    created = create_game(client)
    for path in ("/", "/games/new", f"/play/{created['game_id']}"):
        html = client.get(path).get_data(as_text=True)
        assets = [a.get("src") or a.get("href") for tag, a, _ in elements(html) if tag in ("script", "link")]
        assert assets and all(asset.startswith("/web/static/") for asset in assets)
        for asset in assets:
            with client.get(asset) as served:
                assert served.status_code == 200 and served.get_data()


def test_the_scrolling_log_is_reachable_by_keyboard_and_named(client: FlaskClient) -> None:
    created = create_game(client)
    log = by_id(panel(client, created["game_id"]), "log")
    assert log is not None and log.get("tabindex") == "0" and log.get("aria-labelledby") == "log-title"


def test_a_players_name_is_shown_as_text_never_as_markup(client: FlaskClient) -> None:
    name = '<img src=x onerror="alert(1)">'
    created = client.post("/games", json={"game": "kahuna", "seats": [{"name": name}, {"name": "Ben"}]}).json
    for html in (
        client.get(f"/play/{created['game_id']}").get_data(as_text=True),
        panel(client, created["game_id"], created["seats"][0]["token"]),
        client.get("/").get_data(as_text=True),
    ):
        assert "<img" not in html and "&lt;img src=x" in html
