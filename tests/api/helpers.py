"""Playing through HTTP only: create a game, ask /legal, post one of the commands."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

Observer = Callable[[int | None, dict[str, Any]], None]
"""Called with (viewer, body) for each answer a viewer (a seat, None = spectator) received."""

NAMES = ("Ann", "Ben", "Cai", "Dee")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_game(client: FlaskClient, seats: int = 2, **setup: Any) -> dict[str, Any]:
    """A new kahuna game, seat 0 to start, unless `setup` says otherwise."""
    names = [{"name": n} for n in NAMES[:seats]]
    body = {"game": "kahuna", "seats": names, "first_seat": 0, **setup}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    created["tokens"] = [s["token"] for s in created["seats"]]
    return created


def view(client: FlaskClient, game: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    headers = {} if seat is None else bearer(game["tokens"][seat])
    response = client.get(f"/games/{game['game_id']}", headers=headers)
    assert response.status_code == 200, response.json
    return dict(response.json)


def events(
    client: FlaskClient, game: dict[str, Any], seat: int | None = None, after: int = 0
) -> dict[str, Any]:
    headers = {} if seat is None else bearer(game["tokens"][seat])
    response = client.get(f"/games/{game['game_id']}/events?after={after}", headers=headers)
    assert response.status_code == 200, response.json
    return dict(response.json)


def post(
    client: FlaskClient, game: dict[str, Any], seat: int, command: dict[str, Any], **headers: str
) -> TestResponse:
    return client.post(
        f"/games/{game['game_id']}/commands",
        json=command,
        headers={**bearer(game["tokens"][seat]), **headers},
    )


def choose(rng: random.Random, commands: list[dict[str, Any]]) -> dict[str, Any]:
    """A random legal command; half the time a draw when one is legal, to keep games short."""
    draws = [c for c in commands if c["type"] == "DrawCard"]
    if draws and rng.random() < 0.5:
        return rng.choice(draws)
    return rng.choice(commands)


def play(
    client: FlaskClient,
    game: dict[str, Any],
    rng: random.Random,
    run_worker: Callable[[], None],
    *,
    until: Callable[[dict[str, Any]], bool] = lambda v: v["phase"] == "ended",
    observe: Observer | None = None,
    max_commands: int = 3000,
) -> dict[str, Any]:
    """Play random legal commands (and score rounds on the worker) until `until(view)`.

    Asks every seat for its legal commands (some choices are made out of turn) and plays
    one of the active seat's, or of another seat that has some.
    """
    for _ in range(max_commands):
        current = view(client, game)
        if until(current):
            return current
        if current["phase"] == "scoring":
            run_worker()
            continue
        legal = {seat: legal_commands(client, game, seat) for seat in range(len(game["tokens"]))}
        movers = [seat for seat, body in legal.items() if body["commands"]]
        assert movers, f"no seat may move in {current}"
        seat = current["active"] if current["active"] in movers else rng.choice(movers)
        answer = post(client, game, seat, choose(rng, legal[seat]["commands"]))
        assert answer.status_code == 200, answer.json
        if observe is not None:
            observe(None, current)
            for who, body in legal.items():
                observe(who, body)
            observe(seat, answer.json)
    raise AssertionError(f"no end after {max_commands} commands")


def legal_commands(client: FlaskClient, game: dict[str, Any], seat: int) -> dict[str, Any]:
    response = client.get(f"/games/{game['game_id']}/legal", headers=bearer(game["tokens"][seat]))
    assert response.status_code == 200, response.json
    return dict(response.json)


def sse_events(response: TestResponse) -> list[dict[str, Any]]:
    """The events of a finished text/event-stream answer."""
    return parse_sse(response.get_data(as_text=True))


def parse_sse(text: str) -> list[dict[str, Any]]:
    """The events of SSE frames; each frame's id must be its event's version."""
    found = []
    for block in text.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        if "data" in lines:
            event = json.loads(lines["data"])
            assert int(lines["id"]) == event["version"]
            found.append(event)
    return found
