"""Conquest of Paradise through HTTP: undo within the policy (never across a draw or a reveal),
replay, export and import, notation and annotations."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
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


def test_a_seat_highlights_a_hex_of_the_map(client: FlaskClient) -> None:
    game = create(client, 2)
    note = {"version": 1, "kind": "highlight", "islands": ["5,6", "15,9"], "text": "Tonga and the far east"}

    answer = client.post(
        f"/games/{game['game_id']}/annotations", json=note, headers=bearer(game["tokens"][0])
    )

    assert answer.status_code == 201, answer.json
    listed = client.get(f"/games/{game['game_id']}/annotations", headers=bearer(game["tokens"][0]))
    assert [n["islands"] for n in listed.json["annotations"]] == [["5,6", "15,9"]]


@pytest.mark.parametrize(
    ("note", "code"),
    [
        ({"islands": ["16,0"]}, "unknown_island"),
        ({"islands": ["5,10"]}, "unknown_island"),
        ({"islands": ["5,-1"]}, "unknown_island"),
        ({"islands": ["Tonga"]}, "unknown_island"),
        ({"lines": [["5,6", "5,5"]]}, "unknown_line"),
    ],
)
def test_a_highlight_off_the_map_is_refused(client: FlaskClient, note: dict[str, Any], code: str) -> None:
    game = create(client, 2)
    body = {"version": 1, "kind": "highlight", **note}

    answer = client.post(
        f"/games/{game['game_id']}/annotations", json=body, headers=bearer(game["tokens"][0])
    )

    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert answer.json["code"] == code
    listed = client.get(f"/games/{game['game_id']}/annotations", headers=bearer(game["tokens"][0]))
    assert listed.json["annotations"] == []


def test_a_finished_game_with_a_hex_highlight_imports_with_its_highlight_checked(client: FlaskClient) -> None:
    game = create(client, 2, last_turn=2)
    assert play_until(client, game, random.Random(3), lambda v: False)["phase"] == "ended"
    note = {"version": 5, "kind": "highlight", "islands": ["5,6"], "author": "Kibitz"}
    assert client.post(f"/games/{game['game_id']}/annotations", json=note).status_code == 201
    exported = client.get(f"/games/{game['game_id']}/export").get_data()

    imported = client.post("/games/import", data=exported, content_type=NDJSON)
    # Only the note's hex goes off the map (a build's "placed" names hexes the same way).
    lines = [
        line.replace(b'"5,6"', b'"16,6"') if b'"highlight"' in line else line
        for line in exported.split(b"\n")
    ]
    off_the_map = client.post("/games/import", data=b"\n".join(lines), content_type=NDJSON)

    assert imported.status_code == 201, imported.json
    assert off_the_map.status_code == 422 and off_the_map.json["code"] == "unknown_island"
