"""Open seats: a game created with a seat nobody holds, which the first person to ask takes; the
game's commands wait until the table is full, and the record shows who sat where."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.admin import rebuild_listings
from service.api.context import game_service
from tests.api.helpers import bearer, events, legal_commands, play, post, view

DRAW = {"type": "DrawCard", "source": "stack"}


def open_game(client: FlaskClient, **setup: Any) -> dict[str, Any]:
    """A kahuna game: Ann at seat 0 (who starts), seat 1 open."""
    body = {"game": "kahuna", "seats": [{"name": "Ann"}, {"open": True}], "first_seat": 0, **setup}
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.json
    created: dict[str, Any] = answer.json
    created["tokens"] = [s.get("token") for s in created["seats"]]
    return created


def take(client: FlaskClient, game: dict[str, Any], seat: int, body: Any) -> Any:
    return client.post(f"/games/{game['game_id']}/seats/{seat}", json=body)


def stored(client: FlaskClient, game: dict[str, Any]) -> int:
    return int(events(client, game)["version"])


def test_an_open_seat_gets_no_token_and_the_game_is_listed_open(client: FlaskClient) -> None:
    game = open_game(client)

    assert game["seats"][1] == {"seat": 1, "open": True}
    assert game["tokens"][0] is not None
    listed = client.get("/games?status=open").json["games"]
    assert [g["game_id"] for g in listed] == [game["game_id"]]
    assert listed[0]["seats"][1] == {"name": "", "kind": "open"}
    assert client.get("/games?status=ongoing").json["games"] == []
    assert view(client, game)["seats"][1]["open"] is True


def test_taking_a_seat_answers_its_token_and_records_who_sat_there(client: FlaskClient) -> None:
    game = open_game(client)

    answer = take(client, game, 1, {"name": "Ben"})

    assert answer.status_code == 201, answer.json
    assert (answer.json["seat"], answer.json["name"], answer.json["open_seats"]) == (1, "Ben", [])
    game["tokens"][1] = answer.json["token"]
    last = events(client, game)["events"][-1]
    assert (last["type"], last["data"], last["actor"]) == ("SeatTaken", {"seat": 1, "name": "Ben"}, "seat:1")
    assert last["version"] == answer.json["version"]
    shown = view(client, game, 1)["seats"][1]
    assert (shown["name"], shown["open"]) == ("Ben", False)
    assert [g["game_id"] for g in client.get("/games?status=ongoing").json["games"]] == [game["game_id"]]
    assert client.get("/games?status=open").json["games"] == []
    assert client.get("/games?player=ben").json["games"][0]["game_id"] == game["game_id"]
    verified = client.get(f"/games/{game['game_id']}/verify").json
    assert verified["ok"] is True


def test_a_seat_is_taken_once(client: FlaskClient) -> None:
    game = open_game(client)
    first = take(client, game, 1, {"name": "Ben"})
    before = stored(client, game)

    second = take(client, game, 1, {"name": "Cai"})

    assert (second.status_code, second.json["code"]) == (409, "seat_not_open")
    assert second.mimetype == "application/problem+json"
    assert stored(client, game) == before
    # Ben's token still plays seat 1: the refused taker got no token of it.
    assert (
        client.get(f"/games/{game['game_id']}/legal", headers=bearer(first.json["token"])).status_code == 200
    )


@pytest.mark.parametrize(
    ("seats", "seat", "status", "code"),
    [
        ([{"open": True}, {"name": "Bot", "ai": "random"}], 1, 409, "seat_not_open"),
        ([{"name": "Ann"}, {"open": True}], 0, 409, "seat_not_open"),
        ([{"name": "Ann"}, {"open": True}], 2, 404, "seat_not_found"),
    ],
)
def test_only_an_open_seat_is_taken(
    client: FlaskClient, seats: list[dict[str, Any]], seat: int, status: int, code: str
) -> None:
    game = open_game(client, seats=seats)
    before = stored(client, game)

    answer = take(client, game, seat, {"name": "Ben"})

    assert (answer.status_code, answer.json["code"]) == (status, code)
    assert stored(client, game) == before


@pytest.mark.parametrize("body", [{"name": ""}, {"name": "   "}, {"name": "x" * 65}, {}, {"name": 7}, [1]])
def test_a_bad_name_is_refused_and_nothing_written(client: FlaskClient, body: Any) -> None:
    game = open_game(client)
    before = stored(client, game)

    answer = take(client, game, 1, body)

    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    assert stored(client, game) == before
    assert view(client, game)["seats"][1]["open"] is True


def test_the_games_commands_wait_until_the_table_is_full(client: FlaskClient) -> None:
    game = open_game(client)
    before = stored(client, game)

    refused = post(client, game, 0, DRAW)

    assert (refused.status_code, refused.json["code"]) == (409, "seats_open")
    assert stored(client, game) == before
    game["tokens"][1] = take(client, game, 1, {"name": "Ben"}).json["token"]
    assert post(client, game, 0, DRAW).status_code == 200


@pytest.mark.parametrize(
    "seat",
    [{"open": True, "name": "Ben"}, {"open": True, "ai": "random"}, {"open": "yes"}, {}],
)
def test_a_malformed_open_seat_is_refused_at_creation(client: FlaskClient, seat: dict[str, Any]) -> None:
    answer = client.post("/games", json={"game": "kahuna", "seats": [{"name": "Ann"}, seat]})

    assert answer.status_code == 422, answer.json
    assert client.get("/games").json["games"] == []


def test_a_computer_does_not_move_before_the_table_is_full(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    seats = [{"name": "Bot", "ai": "random"}, {"open": True}]
    game = open_game(client, seats=seats)
    run_jobs()
    assert stored(client, game) == game["version"]

    taken = take(client, game, 1, {"name": "Ben"})
    game["tokens"][1] = taken.json["token"]
    run_jobs()

    assert stored(client, game) > taken.json["version"]  # the computer, seat 0, started
    assert legal_commands(client, game, 1)["version"] == stored(client, game)


def test_a_rebuild_of_the_listing_keeps_each_games_open_status(app: Flask, client: FlaskClient) -> None:
    waiting, filled = open_game(client), open_game(client)
    take(client, filled, 1, {"name": "Ben"})
    kept = {status: client.get(f"/games?status={status}").json["games"] for status in ("open", "ongoing")}
    assert [g["game_id"] for g in kept["open"]] == [waiting["game_id"]]
    assert [g["game_id"] for g in kept["ongoing"]] == [filled["game_id"]]

    with app.app_context():
        rebuild_listings(game_service())

    assert {status: client.get(f"/games?status={status}").json["games"] for status in kept} == kept


def test_a_finished_game_shows_who_took_the_seat_in_its_export_replay_and_referee_replay(
    client: FlaskClient, run_worker: Callable[[], None]
) -> None:
    game = open_game(client)
    game["tokens"][1] = take(client, game, 1, {"name": "Ben"}).json["token"]
    play(client, game, random.Random(3), run_worker)

    verified = client.get(f"/games/{game['game_id']}/verify").json
    referee = verified["referee"]
    assert verified["ok"] is True and referee["first_fault"] is None
    assert referee["checked"] == referee["commands"], "TakeSeat was decided again, as every command"
    steps = client.get(f"/games/{game['game_id']}/replay").json["steps"]
    assert [step["actor"] for step in steps if step["types"] == ["SeatTaken"]] == ["seat:1"]
    exported = client.get(f"/games/{game['game_id']}/export").get_data()
    assert b'"SeatTaken"' in exported and b'"Ben"' in exported
    imported = client.post("/games/import", data=exported, content_type="application/x-ndjson")
    assert imported.status_code == 201, imported.json
    assert client.get(f"/games/{imported.json['game_id']}").json["seats"][1]["name"] == "Ben"


def test_a_rematch_seats_the_one_who_took_the_seat_by_name(
    client: FlaskClient, run_worker: Callable[[], None]
) -> None:
    game = open_game(client)
    game["tokens"][1] = take(client, game, 1, {"name": "Ben"}).json["token"]
    play(client, game, random.Random(4), run_worker)

    for seat in (0, 1):
        answer = client.post(f"/games/{game['game_id']}/rematch", headers=bearer(game["tokens"][seat]))
        assert answer.status_code in (200, 201), answer.json
    rematch = client.get(f"/games/{answer.json['rematch_id']}").json

    assert [(s["name"], s["open"]) for s in rematch["seats"]] == [("Ben", False), ("Ann", False)]


def test_a_tournament_game_has_no_open_seat(client: FlaskClient) -> None:
    body = {"game": "kahuna", "seats": [{"name": "Ann"}, {"open": True}], "mode": "tournament"}

    answer = client.post("/games", json=body)

    assert (answer.status_code, answer.json["code"]) == (422, "open_seat_in_tournament")
    assert client.get("/games").json["games"] == []
