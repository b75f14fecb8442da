"""Options that fit some seat counts only (Nanuuk!'s two hunters, N-1) are refused over HTTP
before anything is written: a game with other seats, a tournament whose tables have others."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from tests.api.helpers import create_game, view
from tests.api.tournament_helpers import create_tournament
from tests.domain.nanuuk.game import LAYOUT_2


def _problem(answer: Any, field: str) -> str:
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json", answer.json
    assert answer.json["code"] == "bad_option" and field in answer.json["errors"], answer.json
    return str(answer.json["errors"][field][0])


@pytest.mark.parametrize(
    ("seats", "options", "field"),
    [
        (3, {"two_hunters": True}, "options.two_hunters"),
        (4, {"two_hunters": True}, "options.two_hunters"),
        (3, {"layout": LAYOUT_2}, "options.layout.fish"),
    ],
)
def test_N1_a_nanuuk_game_with_options_of_another_seat_count_is_422_and_writes_nothing(
    client: FlaskClient, redis_client: redis.Redis, seats: int, options: dict[str, Any], field: str
) -> None:
    body = {"game": "nanuuk", "seats": [{"name": f"P{n}"} for n in range(seats)], "options": options}
    _problem(client.post("/games", json=body), field)
    assert redis_client.keys("game*") == [] and redis_client.keys("events*") == []


def test_N1_two_hunters_with_two_seats_is_created(client: FlaskClient) -> None:
    game = create_game(client, 2, game="nanuuk", options={"two_hunters": True})
    assert view(client, game)["options"]["two_hunters"] is True


def test_N1_a_tournament_whose_tables_cannot_take_its_options_is_422_at_creation(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    body = {
        "name": "Ice Cup",
        "game": "nanuuk",
        "format": "tables",
        "rounds": 2,
        "options": {"two_hunters": True},
    }
    detail = _problem(client.post("/tournaments", json=body), "options.two_hunters")
    assert "tables of 4 seats" in detail
    bear_hunt = {**body, "game": "nanuuk-bear-hunt", "format": "swiss", "options": {"play_on": True}}
    _problem(client.post("/tournaments", json=bear_hunt), "options.play_on")
    assert redis_client.keys("tournament*") == []


@pytest.mark.parametrize(
    ("game", "fmt", "options"),
    [
        ("nanuuk", "swiss", {"two_hunters": True}),
        ("nanuuk", "tables", {"pre_cracks": 2}),
        ("nanuuk-bear-hunt", "tables", {"play_on": True}),
    ],
)
def test_a_tournament_whose_options_fit_its_tables_is_created(
    client: FlaskClient, game: str, fmt: str, options: dict[str, Any]
) -> None:
    tournament = create_tournament(client, game=game, format=fmt, rounds=2, options=options)
    shown = client.get(f"/tournaments/{tournament['tournament_id']}").json
    assert shown["options"] == options
