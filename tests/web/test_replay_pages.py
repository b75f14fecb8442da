"""The replay viewer's pages: /replay/<game_id> and the log and frame fragments its script loads.

Whole random games are played through the GameService on the real Redis; the pages are read
as a spectator and as a seat, and every step's board and words are checked against what
that viewer may know.
"""

from __future__ import annotations

import html
import random
import re
import shutil
import subprocess
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from service.annotations import Annotations, Author
from service.api.context import EXTENSION
from service.app import create_app
from service.chance import SEED_VARIABLE
from service.embedded_redis import EmbeddedRedis
from service.games import GameService
from service.store import annotations_key
from tests.replays.play import play_on, setup_of


@pytest.fixture
def app(
    redis_server: EmbeddedRedis, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Flask]:
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv(SEED_VARIABLE, "20261122")
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True, "RATE_LIMITS_ENABLED": False})
    yield app
    app.extensions[EXTENSION].redis.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def service_of(app: Flask) -> GameService:
    service: GameService = app.extensions[EXTENSION]
    return service


def new_game(
    app: Flask, name: str = "kahuna", seed: int = 5, until: int | None = None, **more: Any
) -> tuple[str, list[str]]:
    """A game played with random legal moves (to its end, or past version `until`); id and tokens."""
    created = service_of(app).create(setup_of(name, **more))
    play_on(service_of(app), created.game_id, random.Random(seed), until_version=until)
    return created.game_id, [str(t) for t in created.tokens]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def steps_of(
    client: FlaskClient, game_id: str, headers: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    answer = client.get(f"/games/{game_id}/replay", headers=headers or {})
    assert answer.status_code == 200
    steps: list[dict[str, Any]] = answer.get_json()["steps"]
    return steps


def svg_of(html: str) -> ET.Element:
    found = re.search(r"<svg .*?</svg>", html, flags=re.S)
    assert found is not None
    return ET.fromstring(found.group(0))


def svg_words(html: str) -> str:
    root = svg_of(html)
    return " ".join(t.text or "" for t in root.iter() if t.tag in ("text", "title", "desc"))


def log_words(html: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", w).strip() for w in re.findall(r'<span class="words">(.*?)</span>', html, re.S)
    ]


# --- the page --------------------------------------------------------------------------------


def test_a_finished_game_opens_at_its_first_step_with_the_controls_the_log_and_the_form(
    app: Flask, client: FlaskClient
) -> None:
    game_id, _ = new_game(app)
    steps = steps_of(client, game_id)

    page = client.get(f"/replay/{game_id}").get_data(as_text=True)

    assert 'id="replay"' in page and f'data-version="{steps[0]["version"]}"' in page
    assert re.search(rf'<input type="range" id="step" min="0" max="{len(steps) - 1}"\s+value="0"', page)
    assert f'<div class="frame" data-version="{steps[0]["version"]}" data-step="0"' in page
    for control in (
        'id="prev"',
        'id="next"',
        'id="first"',
        'id="last"',
        '<form id="annotate"',
        'name="text"',
    ):
        assert control in page
    assert page.count("<li data-step=") == len(steps)
    assert [html.unescape(w) for w in log_words(page)] == [step["description"] for step in steps]
    root = svg_of(page)
    assert (
        root.get("role") == "group"
        and root.findall(".//*[@data-island]")
        and root.findall(".//*[@data-line]")
    )
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)


@pytest.mark.parametrize("asset", ["replay.js", "replay.css"])
def test_the_viewer_s_script_and_style_are_served_from_the_package(client: FlaskClient, asset: str) -> None:
    with client.get(f"/web/static/{asset}") as answer:
        body = answer.get_data()

    assert answer.status_code == 200 and len(body) > 500
    assert b"http://" not in body and b"https://" not in body


def test_each_step_s_frame_shows_the_board_at_that_version(app: Flask, client: FlaskClient) -> None:
    game_id, _ = new_game(app)
    steps = steps_of(client, game_id)

    for n, step in list(enumerate(steps))[:: max(1, len(steps) // 10)]:
        version = step["version"]
        frame = client.get(f"/replay/{game_id}/frame?version={version}").get_data(as_text=True)

        view = client.get(f"/games/{game_id}?at={version}").get_json()
        assert f'data-version="{version}" data-step="{n}"' in frame
        root = svg_of(frame)
        bridged = {e.get("data-line") for e in root.iter() if "bridge" in (e.get("class") or "").split()}
        assert bridged == {"-".join(sorted(b["line"])) for b in view["bridges"]}
        assert f"Step {n + 1} of {len(steps)}" in frame


# --- who may replay, and what they see ------------------------------------------------------------


def public_words(app: Flask, game_id: str) -> list[str]:
    """Each step in words from the public part of its events alone, every secret dropped."""
    loaded = service_of(app).load(game_id)
    names = [seat["name"] for seat in loaded.setup["seats"]]
    groups: list[list[dict[str, Any]]] = []
    previous = None
    for envelope in loaded.envelopes:
        event = {"version": envelope.version, "type": envelope.type, "data": dict(envelope.data)}
        if envelope.secret is not None:
            event.update(secret=None, redacted=True)
        if groups and envelope.command_id == previous:
            groups[-1].append(event)
        else:
            groups.append([event])
        previous = envelope.command_id
    return [str(loaded.rules.describe(group, names)) for group in groups]


def leaks(app: Flask, client: FlaskClient, game_id: str, headers: dict[str, str]) -> list[str]:
    """Each step whose words tell more than its public events, and each hand in a step's board."""
    steps = steps_of(client, game_id)
    log = client.get(f"/replay/{game_id}/log", headers=headers).get_data(as_text=True)
    words = [html.unescape(w) for w in log_words(log)]
    found = []
    for step, said, public in zip(steps, words, public_words(app, game_id), strict=True):
        if said != public:
            found.append(f"step {step['version']} says {said!r}")
        frame = client.get(f"/replay/{game_id}/frame?version={step['version']}", headers=headers)
        board = svg_words(frame.get_data(as_text=True))
        found += [f"board {step['version']}: {m}" for m in re.findall(r"(?:Hand|'s hand): [^.]*", board)]
    return found


def test_a_spectator_never_sees_a_hidden_card_in_any_step_s_board_or_log(
    app: Flask, client: FlaskClient
) -> None:
    game_id, tokens = new_game(app, reveal_after_end=False)

    assert leaks(app, client, game_id, {}) == []
    # The same reading finds the cards where they may be read: the seat's own.
    assert leaks(app, client, game_id, bearer(tokens[0])) != []


def test_a_game_still_on_is_replayed_by_its_seat_as_that_seat_saw_it(app: Flask, client: FlaskClient) -> None:
    game_id, tokens = new_game(app, until=30)
    loaded = service_of(app).load(game_id)
    assert not loaded.rules.is_terminal(loaded.state)

    frame = client.get(f"/replay/{game_id}/frame?version=20", headers=bearer(tokens[1])).get_data(
        as_text=True
    )

    seen = client.get(f"/games/{game_id}?at=20", headers=bearer(tokens[1])).get_json()
    assert f"Hand: {', '.join(seen['hand']) or 'empty'}" in svg_words(frame)
    assert "'s hand" not in svg_words(frame)
    assert 'data-seat="1"' in frame


@pytest.mark.parametrize("fragment", ["frame", "log"])
def test_a_spectator_is_refused_the_replay_of_a_game_still_on(
    app: Flask, client: FlaskClient, fragment: str
) -> None:
    game_id, _ = new_game(app, until=30)

    answer = client.get(f"/replay/{game_id}/{fragment}")
    page = client.get(f"/replay/{game_id}").get_data(as_text=True)

    assert answer.status_code == 403 and answer.mimetype == "application/problem+json"
    assert answer.get_json()["code"] == "replay_after_end"
    assert "<svg" not in page and "<li data-step=" not in page and "still being played" in page


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("version=abc", 422, "bad_version"),
        ("version=-3", 422, "bad_version"),
        ("version=100000", 422, "at_out_of_range"),
    ],
)
def test_a_bad_version_is_a_problem_and_writes_nothing(
    app: Flask, client: FlaskClient, redis_client: redis.Redis, query: str, status: int, code: str
) -> None:
    game_id, _ = new_game(app)
    keys = sorted(redis_client.keys())

    answer = client.get(f"/replay/{game_id}/frame?{query}")

    assert answer.status_code == status and answer.mimetype == "application/problem+json"
    assert answer.get_json()["code"] == code
    assert sorted(redis_client.keys()) == keys


def test_an_unknown_game_or_token_is_a_problem(app: Flask, client: FlaskClient) -> None:
    game_id, _ = new_game(app)

    unknown = client.get("/replay/no-such-game/frame")
    stranger = client.get(f"/replay/{game_id}/frame", headers=bearer("not-a-token"))

    assert unknown.status_code == 404 and unknown.mimetype == "application/problem+json"
    assert client.get("/replay/no-such-game").status_code == 404
    assert stranger.status_code == 401 and stranger.get_json()["code"] == "invalid_token"


# --- annotation layers and the computer's analysis ------------------------------------------------


def test_a_note_added_through_the_api_shows_on_its_step_with_its_highlight(
    app: Flask, client: FlaskClient
) -> None:
    game_id, _ = new_game(app)
    step = steps_of(client, game_id)[7]
    note = {
        "author": "Kim",
        "version": step["version"],
        "kind": "highlight",
        "text": "Look here",
        "islands": ["GOLA"],
        "lines": [["KAHU", "COCO"]],
    }
    assert client.post(f"/games/{game_id}/annotations", json=note).status_code == 201

    frame = client.get(f"/replay/{game_id}/frame?version={step['version']}").get_data(as_text=True)
    hidden = client.get(f"/replay/{game_id}/frame?version={step['version']}&hide=Kim").get_data(as_text=True)
    elsewhere = client.get(f"/replay/{game_id}/frame?version={step['version'] + 30}").get_data(as_text=True)

    assert 'data-layer="Kim"' in frame and "Look here" in frame and "highlights GOLA, COCO–KAHU" in frame
    root = svg_of(frame)
    lit = [
        e.get("data-island") or e.get("data-line")
        for e in root.iter()
        if "lit" in (e.get("class") or "").split()
    ]
    assert sorted(lit) == ["COCO-KAHU", "GOLA"]
    assert '<input type="checkbox" name="layer" value="Kim" checked>' in frame
    assert 'data-layer="Kim"' not in hidden and 'class="highlight"' not in hidden
    assert '<input type="checkbox" name="layer" value="Kim">' in hidden
    assert 'data-layer="Kim"' not in elsewhere


def test_the_computer_s_analysis_marks_show_in_the_log_and_on_their_step(
    app: Flask, client: FlaskClient
) -> None:
    game_id, _ = new_game(app)
    step = steps_of(client, game_id)[5]
    loaded = service_of(app).load(game_id)
    mark = {"version": step["version"], "kind": "mark", "mark": "?!", "text": "Ana lost 12% of win chance"}
    Annotations(service_of(app).redis).add(loaded, Author("analysis", "analysis"), mark)

    log = client.get(f"/replay/{game_id}/log").get_data(as_text=True)
    frame = client.get(f"/replay/{game_id}/frame?version={step['version']}").get_data(as_text=True)

    (item,) = [li for li in re.findall(r"<li data-step=.*?</li>", log, re.S) if 'class="mark analysis"' in li]
    assert f'data-step="5" data-version="{step["version"]}"' in item and "?!" in item
    assert (
        'class="note analysis"' in frame
        and "(computer analysis)" in frame
        and "Ana lost 12% of win chance" in frame
    )


def test_a_seat_s_note_on_a_game_still_on_stays_with_that_seat(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game_id, tokens = new_game(app, until=30)
    note = {"version": 12, "kind": "comment", "text": "my plan"}
    assert (
        client.post(f"/games/{game_id}/annotations", json=note, headers=bearer(tokens[0])).status_code == 201
    )

    own = client.get(f"/replay/{game_id}/frame?version=12", headers=bearer(tokens[0])).get_data(as_text=True)
    other = client.get(f"/replay/{game_id}/frame?version=12", headers=bearer(tokens[1])).get_data(
        as_text=True
    )

    assert "my plan" in own and "my plan" not in other
    assert redis_client.xlen(annotations_key(game_id)) == 1


BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(BROWSER is None, reason="no headless Chromium on this machine")
def test_in_a_browser_the_script_opens_the_step_named_in_the_address(app: Flask) -> None:
    game_id, _ = new_game(app)
    http = make_server("127.0.0.1", 0, app, threaded=True)
    serving = threading.Thread(target=http.serve_forever, daemon=True)
    serving.start()
    url = f"http://127.0.0.1:{http.server_port}/replay/{game_id}#version=40"
    command = [str(BROWSER), "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=8000"]
    try:
        dom = subprocess.run(
            [*command, "--dump-dom", url], capture_output=True, text=True, timeout=120
        ).stdout
    finally:
        http.shutdown()
        serving.join()

    step = next(s for s in steps_of(app.test_client(), game_id) if s["version"] >= 40)
    assert re.search(rf'<div id="replay" data-game-id="{game_id}" data-version="{step["version"]}"', dom)
    assert re.search(rf'<li data-step="\d+" data-version="{step["version"]}" aria-current="step">', dom)
    assert re.search(rf'<div class="frame" data-version="{step["version"]}"', dom)
