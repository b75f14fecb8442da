"""A new game needs no platform change: the race of tests/platform/example_game.py, registered
here only, runs through the store, the API, undo, export/import and the random computer player."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.games import register_game, unregister_game
from tests.api.helpers import bearer, events, legal_commands, post, view
from tests.api.tournament_helpers import create_tournament
from tests.platform.example_game import RACE, TARGET

NDJSON = "application/x-ndjson"


@pytest.fixture(autouse=True)
def race() -> Iterator[None]:
    register_game(RACE)
    yield
    unregister_game(RACE.name)


def create(client: FlaskClient, seats: list[dict[str, Any]]) -> dict[str, Any]:
    answer = client.post("/games", json={"game": "race", "seats": seats, "first_seat": 0})
    assert answer.status_code == 201, answer.json
    game: dict[str, Any] = answer.json
    game["tokens"] = [s.get("token") for s in game["seats"]]
    return game


def play_to_the_end(client: FlaskClient, game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    for _ in range(200):
        current = view(client, game)
        if current["phase"] == "ended":
            return current
        seat = current["active"]
        command = rng.choice(legal_commands(client, game, seat)["commands"])
        answer = post(client, game, seat, command)
        assert answer.status_code == 200, answer.json
    raise AssertionError("the race did not end")


def test_the_example_game_plays_through_the_api_to_its_end(client: FlaskClient) -> None:
    game = create(client, [{"name": "Ann"}, {"name": "Ben"}])
    assert legal_commands(client, game, 0)["commands"] == [{"type": "Step"}]
    assert legal_commands(client, game, 1)["commands"] == []

    ended = play_to_the_end(client, game, random.Random(4))

    assert ended["total"] == TARGET and ended["result"]["winner"] in (0, 1)
    log = events(client, game)["events"]
    assert [e["type"] for e in log][0] == "GameCreated" and log[-1]["type"] == "RaceWon"
    wrong = post(client, game, 0, {"type": "Jump"})
    assert wrong.status_code == 422 and wrong.mimetype == "application/problem+json"


def test_the_example_game_takes_back_a_step_of_the_current_turn(client: FlaskClient) -> None:
    game = create(client, [{"name": "Ann"}, {"name": "Ben"}])
    assert post(client, game, 0, {"type": "Step"}).status_code == 200
    assert view(client, game)["total"] == 1

    undone = post(client, game, 0, {"type": "Undo"})

    assert undone.status_code == 200, undone.json
    assert view(client, game)["total"] == 0
    assert legal_commands(client, game, 0)["commands"] == [{"type": "Step"}]


def test_the_example_game_exports_and_imports(client: FlaskClient) -> None:
    game = create(client, [{"name": "Ann"}, {"name": "Ben"}])
    ended = play_to_the_end(client, game, random.Random(5))
    exported = client.get(f"/games/{game['game_id']}/export")
    assert exported.status_code == 200, exported.json

    imported = client.post("/games/import", data=exported.data, content_type=NDJSON)

    assert imported.status_code == 201, imported.json
    again = client.get(f"/games/{imported.json['game_id']}")
    assert again.status_code == 200
    assert (again.json["total"], again.json["result"]) == (ended["total"], ended["result"])


def test_the_random_computer_player_plays_the_example_game(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    game = create(client, [{"name": "Ann"}, {"name": "Bot", "ai": "random"}])
    rng = random.Random(8)
    for _ in range(200):
        run_jobs()
        current = view(client, game, 0)
        if current["phase"] == "ended":
            break
        assert current["active"] == 0, "the computer seat did not move"
        command = rng.choice(legal_commands(client, game, 0)["commands"])
        assert post(client, game, 0, command).status_code == 200
    else:
        raise AssertionError("the race did not end")
    moved_by_bot = [e for e in events(client, game, 0)["events"] if e["actor"] == "seat:1"]
    assert moved_by_bot and view(client, game, 0)["result"] is not None


def test_a_computer_that_needs_ai_hooks_is_refused_for_a_game_without_them(client: FlaskClient) -> None:
    seats = [{"name": "Ann"}, {"name": "Max", "ai": "greedy"}]
    answer = client.post("/games", json={"game": "race", "seats": seats, "first_seat": 0})
    assert answer.status_code == 422 and answer.json["code"] == "computer_not_available"
    assert "seats.1.ai" in answer.json["errors"]
    assert client.get("/games").json.get("games", []) == []


def test_a_tournament_of_a_game_without_ai_hooks_refuses_computer_entrants(client: FlaskClient) -> None:
    tournament = create_tournament(client, game="race", format="round_robin", rounds=None)
    url = f"/tournaments/{tournament['tournament_id']}/entrants"
    written = client.get(f"/tournaments/{tournament['tournament_id']}").json["version"]

    bot = client.post(url, json={"kind": "ai", "level": 1}, headers=bearer(tournament["organizer_token"]))

    assert (bot.status_code, bot.json["code"]) == (422, "no_computer_player")
    assert client.get(f"/tournaments/{tournament['tournament_id']}").json["version"] == written
