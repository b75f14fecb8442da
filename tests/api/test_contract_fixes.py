"""What the contract tests found in the service, each fixed and pinned here."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.text import NOT_BLANK, is_blank, trimmed
from tests.api.helpers import create_game


def test_a_last_event_id_of_non_ascii_digits_is_refused_as_bad_not_a_500(client: FlaskClient) -> None:
    game = create_game(client)

    answer = client.get(f"/games/{game['game_id']}/stream", headers={"Last-Event-ID": "\u00b2"})

    assert (answer.status_code, answer.json["code"]) == (400, "bad_last_event_id")


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"organizer": "Olga"}, "organizer_needs_tournament", "organizer"),
        ({"seats": [{"name": "Ann"}, {"name": "Ben", "level": 3}]}, "level_needs_ai", "seats"),
    ],
)
def test_a_setup_the_document_calls_valid_is_refused_by_a_rule_with_its_own_code_not_as_invalid(
    client: FlaskClient, change: dict[str, Any], code: str, field: str
) -> None:
    # JSON Schema, as the client generators read it, cannot say "only with": such a rule is
    # refused with a code of its own, as the game rules' refusals are; invalid_request means
    # the request breaks the document.
    setup = {"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}], **change}

    answer = client.post("/games", json=setup)

    assert (answer.status_code, answer.json["code"]) == (422, code)
    assert field in answer.json["errors"]


def test_a_person_name_of_blanks_is_refused_and_the_document_says_so(client: FlaskClient) -> None:
    schemas = client.get("/openapi.json").json["components"]["schemas"]
    assert schemas["SeatRequest"]["properties"]["name"]["pattern"] == NOT_BLANK

    answer = client.post("/games", json={"game": "kahuna", "seats": [{"name": " "}, {"name": "Ben"}]})

    assert (answer.status_code, answer.json["code"]) == (422, "invalid_request")


@pytest.mark.parametrize(("name", "status"), [("\x1c", 201), ("\x85", 201), ("\ufeff", 422), ("\u3000", 422)])
def test_a_name_is_blank_as_the_document_s_ecma_pattern_says_not_as_python_strips(
    client: FlaskClient, name: str, status: int
) -> None:
    # The fuzzer sent a name of U+001C: text to ECMA-262 (the document's regular expressions),
    # whitespace to Python's str.strip, so the service refused what the document allowed.
    answer = client.post("/games", json={"game": "kahuna", "seats": [{"name": name}, {"name": "Ben"}]})

    assert answer.status_code == status


def test_the_not_blank_pattern_and_the_service_s_blank_test_agree_on_every_character() -> None:
    disagree = [
        hex(code) for code in range(0x110000) if bool(re.search(NOT_BLANK, chr(code))) == is_blank(chr(code))
    ]

    assert disagree == []
    assert is_blank(" \t\u00a0\u2028\ufeff") and not is_blank("\x1c") and trimmed(" Ann\u3000") == "Ann"


def test_the_tournament_bounds_the_server_enforces_are_in_the_document(client: FlaskClient) -> None:
    schemas = client.get("/openapi.json").json["components"]["schemas"]
    assert schemas["TournamentCommand"]["properties"]["result"]["maxProperties"] == 8
    points = schemas["CreateTournament"]["properties"]["placement_points"]
    assert set(points["properties"]) == {"2", "3", "4"} and points["additionalProperties"] is False
    assert points["maxProperties"] == 2

    answer = client.post(
        "/tournaments", json={"game": "arabana-opodopo", "format": "tables", "placement_points": {"5": [1]}}
    )

    assert (answer.status_code, answer.json["code"]) == (422, "invalid_request")
