"""Conquest of Paradise through HTTP: undo within the policy (never across a draw or a reveal),
replay, export and import, notation and annotations."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import bearer, events, legal_commands, post, view

GAME = "conquest-of-paradise"
NDJSON = "application/x-ndjson"


def create(client: FlaskClient, seats: int = 3, **options: Any) -> dict[str, Any]:
    body = {"game": GAME, "seats": [{"name": n} for n in ("Ann", "Ben", "Cai", "Dee")[:seats]]}
    response = client.post("/games", json={**body, "options": options})
    assert response.status_code == 201, response.json
    game = dict(response.json)
    game["tokens"] = [s["token"] for s in game["seats"]]
    return game


def step(client: FlaskClient, game: dict[str, Any], rng: random.Random, prefer: str = "") -> dict[str, Any]:
    """One random legal command of a seat the game waits for (a `prefer`red type when legal)."""
    seat = view(client, game)["acting"][0]
    commands = legal_commands(client, game, seat)["commands"]
    chosen = [c for c in commands if c["type"] == prefer] or commands
    answer = post(client, game, seat, rng.choice(chosen))
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def play_until(
    client: FlaskClient, game: dict[str, Any], rng: random.Random, done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    for _ in range(3000):
        current = view(client, game)
        if done(current) or current["phase"] == "ended":
            return current
        step(client, game, rng)
    raise AssertionError("the game neither ended nor came where it was asked to")


def undo(client: FlaskClient, game: dict[str, Any], seat: int, scope: str = "command") -> Any:
    return client.post(
        f"/games/{game['game_id']}/undo", json={"scope": scope}, headers=bearer(game["tokens"][seat])
    )


def test_P3_a_seat_undoes_its_own_move_in_the_movement_phase(client: FlaskClient) -> None:
    game = create(client)
    rng = random.Random(2)
    current = play_until(
        client,
        game,
        rng,
        lambda v: (
            v["phase"] == "move"
            and any(c["type"] == "Move" for c in legal_commands(client, game, v["acting"][0])["commands"])
        ),
    )
    seat = current["acting"][0]
    before = view(client, game, seat)
    move = next(c for c in legal_commands(client, game, seat)["commands"] if c["type"] == "Move")
    assert post(client, game, seat, move).status_code == 200
    assert view(client, game, seat)["stacks"] != before["stacks"]

    undone = undo(client, game, seat)

    assert undone.status_code == 200, undone.json
    after = view(client, game, seat)
    assert (after["stacks"], after["phase"], after["acting"]) == (
        before["stacks"],
        before["phase"],
        before["acting"],
    )


def test_P2_undo_never_goes_back_across_a_drawn_chit(client: FlaskClient) -> None:
    game = create(client)
    rng = random.Random(4)
    for _ in range(200):
        version = view(client, game)["version"]
        seat = view(client, game)["acting"][0]
        step(client, game, rng, prefer="Explore")
        drawn = [e["type"] for e in events(client, game, after=version)["events"]]
        if "ChitDrawn" in drawn:
            break
    else:
        raise AssertionError("no chit was drawn")
    after = view(client, game)["version"]

    refused = undo(client, game, seat, "turn")

    assert refused.status_code == 409 and refused.mimetype == "application/problem+json"
    assert refused.json["code"] == "undo_across_reveal"
    assert view(client, game)["version"] == after


def test_a_finished_game_exports_imports_and_exports_the_same_bytes(client: FlaskClient) -> None:
    game = create(client, 2, last_turn=3)
    final = play_until(client, game, random.Random(6), lambda v: False)
    assert final["phase"] == "ended"
    note = {"version": 5, "kind": "comment", "text": "A bold voyage", "author": "Kibitz"}
    assert client.post(f"/games/{game['game_id']}/annotations", json=note).status_code == 201
    exported = client.get(f"/games/{game['game_id']}/export")
    assert exported.status_code == 200 and exported.mimetype == NDJSON

    imported = client.post("/games/import", data=exported.get_data(), content_type=NDJSON)

    assert imported.status_code == 201, imported.json
    again = client.get(f"/games/{imported.json['game_id']}/export")
    assert again.get_data() == exported.get_data()
    replay = client.get(f"/games/{imported.json['game_id']}/replay")
    assert replay.status_code == 200, replay.json


def test_the_replay_and_notation_of_a_game_in_play_speak_for_the_viewer(client: FlaskClient) -> None:
    game = create(client, 3)
    play_until(client, game, random.Random(8), lambda v: v["version"] > 40)
    for seat in (None, 0, 1):
        headers = {} if seat is None else bearer(game["tokens"][seat])
        replay = client.get(f"/games/{game['game_id']}/replay", headers=headers)
        assert replay.status_code == 200, replay.json
        written = client.get(f"/games/{game['game_id']}/notation", headers=headers)
        assert written.status_code == 200 and written.mimetype == "text/plain", written.data[:300]
