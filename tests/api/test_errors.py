"""Every error is application/problem+json with a stable code, and never a traceback."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.app import create_app
from tests.api.helpers import bearer, create_game, post

SEATS = [{"name": "Ann"}, {"name": "Ben"}]
JSON = "application/json"


def assert_problem(response: TestResponse, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.data
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.json
    assert {"type", "title", "status", "code", "detail"} <= set(body)
    assert (body["status"], body["code"]) == (status, code)
    assert "Traceback" not in response.get_data(as_text=True)
    return body


def test_malformed_json_is_a_400_problem(client: FlaskClient) -> None:
    game = create_game(client)
    for path, headers in (
        ("/games", {}),
        (f"/games/{game['game_id']}/commands", bearer(game["tokens"][0])),
    ):
        answer = client.post(path, data='{"type": "DrawCard",', headers=headers, content_type=JSON)
        assert_problem(answer, 400, "malformed_json")


def test_a_body_that_is_not_json_is_a_415_problem(client: FlaskClient) -> None:
    answer = client.post("/games", data="game=kahuna")
    assert_problem(answer, 415, "unsupported_media_type")


@pytest.mark.parametrize(
    ("command", "field"),
    [
        ({"type": "DrawCard", "source": "stack", "colour": "red"}, "colour"),
        ({"type": "PlaceBridge", "card": 5, "line": ["ALOA", "BARI"]}, "card"),
        ({"type": "RemoveBridge", "cards": "ALOA", "line": ["ALOA", "BARI"]}, "cards"),
        ({"type": "PlaceBridge", "card": "ALOA", "line": ["ALOA"]}, "line"),
        ({"type": "DrawCard", "source": "sky"}, "source"),
        ({"source": "stack"}, "type"),
    ],
)
def test_unknown_fields_and_wrong_types_are_422_with_field_errors(
    client: FlaskClient, command: dict[str, Any], field: str
) -> None:
    game = create_game(client)
    body = assert_problem(post(client, game, 0, command), 422, "invalid_request")
    assert field in body["errors"]


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"type": "Fly"}, "unknown_command"),
        ({"type": "PlaceBridge", "card": "ALOA"}, "bad_command"),
        ({"type": "PlaceBridge", "card": "ATLANTIS", "line": ["ALOA", "BARI"]}, "unknown_island"),
        ({"type": "PlaceBridge", "card": "ALOA", "line": ["ALOA", "LALE"]}, "unknown_line"),
    ],
)
def test_malformed_commands_the_rules_refuse_are_422(
    client: FlaskClient, command: dict[str, Any], code: str
) -> None:
    game = create_game(client)
    assert_problem(post(client, game, 0, command), 422, code)


def test_a_refusal_of_the_rules_is_409_with_their_code(client: FlaskClient) -> None:
    game = create_game(client)
    hand = set(client.get(f"/games/{game['game_id']}", headers=bearer(game["tokens"][0])).json["hand"])
    card = next(c for c in ("ALOA", "BARI", "COCO", "DUDA", "ELAI", "FAAA") if c not in hand)
    line = {"ALOA": "BARI", "BARI": "ALOA", "COCO": "BARI", "DUDA": "ALOA", "ELAI": "DUDA", "FAAA": "COCO"}
    answer = post(client, game, 0, {"type": "PlaceBridge", "card": card, "line": [card, line[card]]})
    assert_problem(answer, 409, "card_not_in_hand")


def test_O11_a_placement_naming_a_bridge_to_take_back_reaches_the_rules(client: FlaskClient) -> None:
    game = create_game(client)
    command = {"type": "PlaceBridge", "card": "ALOA", "line": ["ALOA", "BARI"], "take_back": ["ALOA", "DUDA"]}
    assert_problem(post(client, game, 0, command), 409, "bridges_in_stock")


@pytest.mark.parametrize(
    ("setup", "code", "field", "hint"),
    [
        ({"seats": SEATS * 2}, "bad_seat_count", "seats", "played by 2 seats"),
        ({"options": {"edition": "deluxe"}}, "bad_option", "options.edition", "original"),
        ({"options": {"colour": "red"}}, "bad_option", "options", "colour"),
        ({"first_seat": 2}, "bad_first_seat", "first_seat", "0..1"),
    ],
)
def test_a_bad_setup_is_422_naming_the_field_and_what_is_allowed(
    client: FlaskClient, setup: dict[str, Any], code: str, field: str, hint: str
) -> None:
    answer = client.post("/games", json={"game": "kahuna", "seats": SEATS, **setup})
    body = assert_problem(answer, 422, code)
    assert hint in body["errors"][field][0]


@pytest.mark.parametrize(
    ("setup", "field", "hint", "code"),
    [
        ({"game": "chess"}, "game", "kahuna", "invalid_request"),
        ({"mode": "blitz"}, "mode", "tournament", "invalid_request"),
        # A seat may be open (no name yet): one that is not needs its name, which the service checks.
        ({"seats": [{}]}, "seats.0.name", "has a name", "name_required"),
        ({"reveal_after_end": "maybe"}, "reveal_after_end", "boolean", "invalid_request"),
        ({"first_seat": "0"}, "first_seat", "integer", "invalid_request"),
    ],
)
def test_a_setup_of_the_wrong_shape_is_422_naming_the_field(
    client: FlaskClient, setup: dict[str, Any], field: str, hint: str, code: str
) -> None:
    answer = client.post("/games", json={"game": "kahuna", "seats": SEATS, **setup})
    body = assert_problem(answer, 422, code)
    assert hint in str(body["errors"][field])


def test_an_unknown_game_is_404(client: FlaskClient) -> None:
    for path in ("/games/nope", "/games/nope/events", "/games/nope/stream"):
        assert_problem(client.get(path), 404, "game_not_found")
    assert_problem(client.get("/no/such/page"), 404, "not_found")


def test_a_method_not_allowed_is_a_405_problem(client: FlaskClient) -> None:
    answer = client.delete("/games")
    assert_problem(answer, 405, "method_not_allowed")
    assert "POST" in answer.headers["Allow"]


@pytest.mark.parametrize("after", ["-1", "abc", "1.5"])
def test_after_must_be_a_non_negative_integer(client: FlaskClient, after: str) -> None:
    game = create_game(client)
    answer = client.get(f"/games/{game['game_id']}/events?after={after}")
    body = assert_problem(answer, 422, "invalid_request")
    assert "after" in body["errors"]


def test_an_unexpected_error_is_a_generic_500_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Broken:
        def load(self, game_id: str) -> None:
            raise RuntimeError("the secret stack is ALOA, BARI")

    client = create_app({"GAME_SERVICE": Broken(), "TESTING": True}).test_client()
    with caplog.at_level(logging.ERROR, logger="archipelago.api"):
        answer = client.get("/games/g1")

    body = assert_problem(answer, 500, "internal_error")
    assert "ALOA" not in answer.get_data(as_text=True) and "RuntimeError" not in body["detail"]
    assert "the secret stack" in caplog.text


def test_unknown_command_lists_every_command_the_game_accepts_undo_commands_included(
    client: FlaskClient,
) -> None:
    game = create_game(client)
    detail = assert_problem(post(client, game, 0, {"type": "Fly"}), 422, "unknown_command")["detail"]
    for accepted in ("PlaceBridge", "RemoveBridge", "DiscardCards", "DrawCard"):
        assert repr(accepted) in detail
    for accepted in ("Undo", "RequestTakeback", "AnswerTakeback"):
        assert repr(accepted) in detail
