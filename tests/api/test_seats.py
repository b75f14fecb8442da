"""The token decides the seat: a seat acts only with its own token, and bad tokens are refused."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.api.helpers import bearer, create_game, events, post, view
from tests.backends import store_backend  # noqa: F401  (on one Redis and on a cluster)

DRAW = {"type": "DrawCard", "source": "stack"}


def assert_unauthorized(response: TestResponse, code: str) -> None:
    assert response.status_code == 401
    assert response.mimetype == "application/problem+json"
    assert response.json["code"] == code
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def version(client: FlaskClient, game: dict[str, Any]) -> int:
    return int(view(client, game)["version"])


def test_the_other_seats_token_plays_as_that_seat_and_is_refused_out_of_turn(
    client: FlaskClient,
) -> None:
    game = create_game(client, first_seat=0)
    before = version(client, game)

    answer = post(client, game, 1, DRAW)

    assert (answer.status_code, answer.json["code"]) == (409, "not_your_turn")
    assert answer.mimetype == "application/problem+json"
    assert version(client, game) == before
    assert post(client, game, 0, DRAW).status_code == 200


def test_a_command_without_a_token_is_refused(client: FlaskClient) -> None:
    game = create_game(client)
    answer = client.post(f"/games/{game['game_id']}/commands", json=DRAW)
    assert_unauthorized(answer, "token_required")
    assert version(client, game) == game["version"]


@pytest.mark.parametrize(
    "authorization",
    ["Bearer not-a-token", "Bearer ", "Basic QW5uOnNlY3JldA==", "garbage"],
)
def test_a_garbage_token_is_refused_everywhere(client: FlaskClient, authorization: str) -> None:
    game = create_game(client)
    game_id = game["game_id"]
    headers = {"Authorization": authorization}

    command = client.post(f"/games/{game_id}/commands", json=DRAW, headers=headers)
    assert_unauthorized(command, "invalid_token")
    # Never silently a spectator.
    assert_unauthorized(client.get(f"/games/{game_id}", headers=headers), "invalid_token")
    assert_unauthorized(client.get(f"/games/{game_id}/events", headers=headers), "invalid_token")
    assert_unauthorized(client.get(f"/games/{game_id}/legal", headers=headers), "invalid_token")
    assert_unauthorized(client.get(f"/games/{game_id}/stream", headers=headers), "invalid_token")
    assert version(client, game) == game["version"]


def test_a_token_of_another_game_is_refused(client: FlaskClient) -> None:
    game, other = create_game(client), create_game(client)
    headers = bearer(other["tokens"][0])

    answer = client.post(f"/games/{game['game_id']}/commands", json=DRAW, headers=headers)

    assert_unauthorized(answer, "invalid_token")
    assert_unauthorized(client.get(f"/games/{game['game_id']}", headers=headers), "invalid_token")
    assert version(client, game) == game["version"]


def test_legal_commands_need_a_token_and_are_empty_out_of_turn(client: FlaskClient) -> None:
    game = create_game(client, first_seat=1)
    path = f"/games/{game['game_id']}/legal"

    assert_unauthorized(client.get(path), "token_required")
    waiting = client.get(path, headers=bearer(game["tokens"][0])).json
    moving = client.get(path, headers=bearer(game["tokens"][1])).json

    assert waiting == {"version": game["version"], "commands": []}
    assert {"type": "DrawCard", "source": "stack"} in moving["commands"]
    assert all(set(c) <= {"type", "card", "cards", "line", "source"} for c in moving["commands"])


def test_an_unknown_game_is_not_found_whatever_the_token(client: FlaskClient) -> None:
    game = create_game(client)
    for headers in ({}, bearer(game["tokens"][0]), {"Authorization": "Bearer x"}):
        answer = client.get("/games/0123456789abcdef", headers=headers)
        assert (answer.status_code, answer.json["code"]) == (404, "game_not_found")
    answer = post(client, {**game, "game_id": "nope"}, 0, DRAW)
    assert (answer.status_code, answer.json["code"]) == (404, "game_not_found")


def test_the_view_names_its_viewer_and_version(client: FlaskClient) -> None:
    game = create_game(client)
    seat_view = view(client, game, 1)
    assert (seat_view["viewer"], seat_view["game_id"]) == (1, game["game_id"])
    assert seat_view["version"] == game["version"] == len(events(client, game)["events"])
