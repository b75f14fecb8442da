"""A casual game's time per move: the setup's move_time, the view's running clock, and the
worker's sweep that forfeits the seat that let it run out (service/move_clock.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from freezegun import freeze_time

from service import sweeper
from service.api.context import game_service
from service.move_clock import TIMED, MoveClock
from tests.api.helpers import create_game, events, legal_commands, post, view

START = "2026-11-28 10:00:00"


def sweep(app: Flask) -> int:
    with app.app_context():
        return sweeper.sweep(game_service())


def forfeits(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in events(client, game)["events"] if e["type"] == "GameForfeited"]


def move(client: FlaskClient, game: dict[str, Any], seat: int) -> None:
    command = legal_commands(client, game, seat)["commands"][0]
    answer = post(client, game, seat, command)
    assert answer.status_code == 200, answer.json


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ({"move_time": 29}, "invalid_request"),
        ({"move_time": 7 * 24 * 3600 + 1}, "invalid_request"),
        ({"move_time": "60"}, "invalid_request"),
        ({"move_time": 60.5}, "invalid_request"),
        ({"move_time": True}, "invalid_request"),
        ({"move_time": 60, "mode": "tournament"}, "move_time_in_tournament"),
    ],
)
def test_a_bad_time_per_move_is_refused_and_nothing_is_written(
    client: FlaskClient, setup: dict[str, Any], code: str
) -> None:
    body = {"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}], **setup}

    answer = client.post("/games", json=body)

    assert (answer.status_code, answer.json["code"]) == (422, code), answer.json
    assert "move_time" in str(answer.json)
    assert client.get("/games").json["games"] == []


def test_the_seat_that_runs_out_of_time_is_forfeited_once(app: Flask, client: FlaskClient) -> None:
    with freeze_time(START) as clock:
        game = create_game(client, move_time=60)
        assert game_timed(app, game)
        shown = view(client, game)["move_clock"]
        assert shown == {"move_time": 60, "seats": [0], "deadline": "2026-11-28T10:01:00.000000Z"}
        listed = client.get("/games").json["games"][0]
        assert listed["move_time"] == 60
        clock.tick(59)
        assert sweep(app) == 0, "within its minute"
        assert forfeits(client, game) == []
        clock.tick(2)
        assert sweep(app) == 1
        assert sweep(app) == 0, "a second pass writes nothing"

    forfeit = forfeits(client, game)
    assert len(forfeit) == 1
    assert forfeit[0]["data"] == {"seat": 0, "reason": "timeout", "move_time": 60}
    assert forfeit[0]["at"] == "2026-11-28T10:01:01.000000Z"
    shown = view(client, game)
    assert shown["ending"]["how"] == "forfeited" and shown["ending"]["seat"] == 0
    assert shown["move_clock"] is None
    assert not game_timed(app, game), "an ended game is no longer watched"
    refused = post(client, game, 0, {"type": "DrawCard", "source": "stack"})
    assert refused.status_code == 409
    assert client.get(f"/games/{game['game_id']}/verify").json["ok"] is True


def test_a_move_before_the_deadline_starts_the_clock_again(app: Flask, client: FlaskClient) -> None:
    with freeze_time(START) as clock:
        game = create_game(client, move_time=60)
        clock.tick(50)
        while view(client, game)["active"] == 0:
            move(client, game, 0)
        clock.tick(50)
        assert sweep(app) == 0, "seat 1 has waited 50 s of its 60"
        shown = view(client, game)["move_clock"]
        assert shown["seats"] == [1] and shown["deadline"] == "2026-11-28T10:01:50.000000Z"
        clock.tick(11)
        assert sweep(app) == 1

    assert [f["data"]["seat"] for f in forfeits(client, game)] == [1]


def test_a_game_without_a_time_per_move_is_never_forfeited(app: Flask, client: FlaskClient) -> None:
    with freeze_time(START) as clock:
        game = create_game(client)
        clock.tick(30 * 24 * 3600)
        assert sweep(app) == 0

    assert forfeits(client, game) == []
    assert view(client, game)["move_clock"] is None
    assert client.get("/games").json["games"][0]["move_time"] is None
    assert not game_timed(app, game)


def test_the_clock_waits_for_the_open_seat_then_starts_when_the_table_is_full(
    app: Flask, client: FlaskClient
) -> None:
    with freeze_time(START) as clock:
        body = {
            "game": "kahuna",
            "seats": [{"name": "Ann"}, {"open": True}],
            "first_seat": 0,
            "move_time": 60,
        }
        answer = client.post("/games", json=body)
        assert answer.status_code == 201, answer.json
        game = {**answer.json, "tokens": [s.get("token") for s in answer.json["seats"]]}
        assert view(client, game)["move_clock"] is None
        assert client.get("/games?status=open").json["games"][0]["move_time"] == 60
        clock.tick(3600)
        assert sweep(app) == 0, "nobody's clock runs before the table is full"
        taken = client.post(f"/games/{game['game_id']}/seats/1", json={"name": "Ben"})
        assert taken.status_code == 201, taken.json
        assert view(client, game)["move_clock"]["deadline"] == "2026-11-28T11:01:00.000000Z"
        clock.tick(61)
        assert sweep(app) == 1

    assert [f["data"]["seat"] for f in forfeits(client, game)] == [0]


def game_timed(app: Flask, game: dict[str, Any]) -> bool:
    with app.app_context():
        return bool(game_service().redis.sismember(TIMED, game["game_id"]))


def test_the_referee_faults_a_forfeit_for_time_the_log_does_not_bear_out(
    app: Flask, client: FlaskClient
) -> None:
    with freeze_time(START) as clock:
        game = create_game(client, move_time=60)
        clock.tick(10)
        with app.app_context():
            # A clock that runs ahead of the store's: it forfeits a seat that waited 10 s of 60.
            early = MoveClock(game_service(), clock=lambda: datetime(2026, 11, 28, 11, tzinfo=UTC))
            assert early.enforce(game["game_id"]) == 1

    assert forfeits(client, game)[0]["at"] == "2026-11-28T10:00:10.000000Z"
    verified = client.get(f"/games/{game['game_id']}/verify").json
    assert verified["ok"] is False
    assert "10 s of a 60 s move" in str(verified)
