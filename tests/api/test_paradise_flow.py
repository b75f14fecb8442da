"""Conquest of Paradise through HTTP only: a person and two computer seats play a 3-player game
to its end; refusals answer problem+json and write nothing."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from marshmallow import ValidationError

from service.api.schemas import CommandSchema
from tests.api.helpers import events, legal_commands, post, view

GAME = "conquest-of-paradise"


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")


def create(client: FlaskClient, seats: list[dict], options: dict | None = None) -> dict:
    body = {"game": GAME, "seats": seats, "options": options or {}}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.json
    game = dict(response.json)
    game["tokens"] = [s.get("token") for s in game["seats"]]
    return game


def test_a_person_and_two_computers_play_a_three_player_game_to_its_end(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    seats = [{"name": "Ann"}, {"name": "Bot", "ai": "greedy"}, {"name": "Cai", "ai": "ismcts", "level": 1}]
    game = create(client, seats, {"last_turn": 4})
    rng = random.Random(3)
    for _ in range(3000):
        run_jobs()
        current = view(client, game, 0)
        if current["phase"] == "ended":
            break
        commands = legal_commands(client, game, 0)["commands"]
        assert commands, f"the game waits for nobody: {current['phase']}, acting {current['acting']}"
        answer = post(client, game, 0, rng.choice(commands), **{"If-Match": f'"{current["version"]}"'})
        assert answer.status_code == 200, answer.json
    else:
        raise AssertionError("the game did not end")
    log = events(client, game)["events"]
    assert log[-1]["type"] == "GameEnded"
    assert {"seat:1", "seat:2"} <= {e["actor"] for e in log}


def test_paradise_command_bodies_load_hexes_paths_and_pieces() -> None:
    schema = CommandSchema()
    move = {"type": "Move", "path": [[5, 4], [4, 4]], "pieces": {"band": 2, "war_canoe": 1}}
    assert schema.load(move) == move
    ship = {"type": "MoveShip", "from": ["ALOA", "BARI", "COCO"], "to": ["BARI", "COCO", "DUDA"]}
    assert schema.load(ship) == ship
    assert schema.load({"type": "Fight", "hex": [4, 4], "defender": -1})["defender"] == -1
    for bad in (
        {"hex": [1]},
        {"hex": [1, "2"]},
        {"path": [[1, 1]]},
        {"pieces": {"band": -1}},
        {"defender": -2},
        {"use": "yes"},
        {"first": 9},
    ):
        with pytest.raises(ValidationError):
            schema.load({"type": "Move", **bad})


def test_a_malformed_or_illegal_paradise_command_is_refused_and_writes_nothing(client: FlaskClient) -> None:
    game = create(client, [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cai"}])
    version = view(client, game)["version"]
    seat = view(client, game)["acting"][0]
    malformed = post(client, game, seat, {"type": "Explore", "hex": [3]})
    assert (malformed.status_code, malformed.json["code"]) == (422, "invalid_request")
    assert malformed.mimetype == "application/problem+json" and "hex" in malformed.json["errors"]
    off_map = post(client, game, seat, {"type": "Move", "path": [[60, 60], [61, 60]], "pieces": {"band": 1}})
    assert off_map.status_code in (409, 422) and off_map.mimetype == "application/problem+json"
    assert view(client, game)["version"] == version


def test_a_chit_and_the_tile_it_finds_are_drawn_in_one_append(client: FlaskClient) -> None:
    """Q-3: the service answers every draw the rules ask for, one after another, so that no
    game ever waits on a draw nobody makes."""
    game = create(client, [{"name": "Ann"}, {"name": "Ben"}])
    rng = random.Random(5)
    found = False
    for _ in range(400):
        current = view(client, game)
        if current["phase"] == "ended" or found:
            break
        assert current["acting"], f"the game waits for nobody in {current['phase']}"
        seat = current["acting"][0]
        commands = legal_commands(client, game, seat)["commands"]
        explores = [c for c in commands if c["type"] == "Explore"]
        answer = post(client, game, seat, rng.choice(explores or commands))
        assert answer.status_code == 200, answer.json
        types = [e["type"] for e in events(client, game, after=current["version"])["events"]]
        found = "ChitDrawn" in types and "TileFound" in types
    assert found, "no exploration found a tile"
