"""Hostile bodies (P5 B.5-B.8): every one is a 4xx problem+json answer and writes nothing."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from service.api.context import EXTENSION
from tests.api.helpers import bearer, create_game
from tests.api.test_errors import assert_problem

JSON = "application/json"
SETUP = '{"game": "kahuna", "seats": [{"name": %s}, {"name": "Ben"}], "first_seat": %s}'


def keys(client: redis.Redis) -> set[bytes]:
    return set(client.keys("*"))


def test_deeply_nested_json_is_a_400_malformed_json_on_every_json_endpoint(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = create_game(client)
    before = keys(redis_client)
    for path in ("/games", f"/games/{game['game_id']}/commands", "/games/import"):
        # Under the 64 KiB body limit, far deeper than the parser's recursion goes.
        answer = client.post(path, data="[" * 60_000, content_type=JSON, headers=bearer(game["tokens"][0]))
        assert_problem(answer, 400, "malformed_json")
    assert keys(redis_client) == before


def test_json_nested_deeper_than_the_limit_is_malformed_even_when_it_parses(client: FlaskClient) -> None:
    nested = "[" * 40 + "]" * 40
    body = '{"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}], "options": {"x": %s}}'
    assert_problem(client.post("/games", data=body % nested, content_type=JSON), 400, "malformed_json")


def test_nan_and_infinity_are_not_json(client: FlaskClient) -> None:
    for number in ("NaN", "Infinity", "-Infinity"):
        answer = client.post("/games", data=SETUP % ('"Ann"', number), content_type=JSON)
        assert_problem(answer, 400, "malformed_json")


def test_a_lone_surrogate_in_a_seat_name_is_422_and_writes_nothing(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    before = keys(redis_client)
    answer = client.post("/games", data=SETUP % ('"Ann\\ud800"', 0), content_type=JSON)
    body = assert_problem(answer, 422, "invalid_request")
    assert "seats.0.name" in body["errors"]
    assert keys(redis_client) == before


@pytest.mark.parametrize("digits", [5000, 101])
def test_a_first_seat_with_thousands_of_digits_is_422(
    client: FlaskClient, redis_client: redis.Redis, digits: int
) -> None:
    before = keys(redis_client)
    answer = client.post("/games", data=SETUP % ('"Ann"', "9" * digits), content_type=JSON)
    assert_problem(answer, 422, "invalid_request")
    assert keys(redis_client) == before


def test_a_failed_append_at_creation_leaves_no_key_behind(app: Any, redis_client: redis.Redis) -> None:
    service = app.extensions[EXTENSION]

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise redis.exceptions.ConnectionError("the store went away")

    service.store.append = refuse
    before = keys(redis_client)
    for mode in ("casual", "tournament"):
        setup = {"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}], "mode": mode}
        with pytest.raises(redis.exceptions.ConnectionError):
            service.create({**setup, "first_seat": 0, "options": {}, "reveal_after_end": True})
    assert keys(redis_client) == before


def test_an_import_whose_line_nests_without_end_is_refused_as_a_damaged_file(client: FlaskClient) -> None:
    for line in ("[" * 100_000, '{"a": ' + "9" * 5000 + "}", '{"a": "\\ud800"}'):
        answer = client.post("/games/import", data=line + "\n", content_type="application/x-ndjson")
        assert answer.status_code == 422, answer.data[:300]
        assert answer.mimetype == "application/problem+json"


def test_the_answer_to_thousands_of_unknown_keys_names_a_bounded_few(client: FlaskClient) -> None:
    setup: dict[str, Any] = {"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}]}
    setup.update({f"{'k' * 200}{i}": 1 for i in range(200)})
    answer = client.post("/games", json=setup)
    body = assert_problem(answer, 422, "invalid_request")
    assert len(body["errors"]) <= 21
    assert all(len(field) <= 64 for field in body["errors"])
    assert "more" in body["errors"]["_truncated"][0]
    assert len(answer.data) < 4096


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seats": [{"name": "   "}, {"name": "Ben"}]}, "seats"),
        ({"seats": [{"name": "Ann"}, {"name": "\t\n"}]}, "seats"),
        ({"mode": "tournament", "organizer": " "}, "organizer"),
        ({"reveal_after_end": "no"}, "reveal_after_end"),
        ({"reveal_after_end": 0}, "reveal_after_end"),
        ({"seats": [{"name": "Ann"}] * 100}, "seats"),
        ({"first_seat": -1}, "first_seat"),
        ({"options": {f"o{i}": 1 for i in range(100)}}, "options"),
    ],
)
def test_a_setup_that_used_to_be_quietly_accepted_is_422_and_writes_nothing(
    client: FlaskClient, redis_client: redis.Redis, change: dict[str, Any], field: str
) -> None:
    before = keys(redis_client)
    setup = {"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}], **change}
    answer = client.post("/games", json=setup)
    body = assert_problem(answer, 422, "invalid_request")
    assert field in body["errors"]
    assert keys(redis_client) == before


def test_a_command_flag_must_be_a_json_boolean(client: FlaskClient) -> None:
    game = create_game(client)
    path = f"/games/{game['game_id']}/takebacks/current"
    answer = client.post(path, json={"accept": "yes"}, headers=bearer(game["tokens"][1]))
    body = assert_problem(answer, 422, "invalid_request")
    assert "accept" in body["errors"]
