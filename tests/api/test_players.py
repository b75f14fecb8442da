"""Players over HTTP: a token the person holds across tournaments, bound to its entrants, and
the ratings that follow the player and never a name."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from service.players import player_key
from tests.api.helpers import bearer
from tests.api.rating_helpers import rated_by_forfeit_and_correction
from tests.api.tournament_helpers import create_tournament, register, view


def _player(client: FlaskClient) -> dict[str, Any]:
    answer = client.post("/players")
    assert answer.status_code == 201, answer.json
    return dict(answer.json)


def _register(
    client: FlaskClient, tournament: dict, token: str | None, key: str | None = None, **entrant: Any
) -> Any:
    headers = {} if token is None else bearer(token)
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"/tournaments/{tournament['tournament_id']}/entrants", json=entrant, headers=headers)


def _events(client: FlaskClient, tournament: dict) -> list[dict]:
    return list(client.get(f"/tournaments/{tournament['tournament_id']}/events").json["events"])


def _ratings(client: FlaskClient, game: str) -> list[dict]:
    answer = client.get(f"/ratings/{game}")
    assert answer.status_code == 200, answer.json
    return list(answer.json["players"])


def test_a_new_player_has_an_id_and_a_token_kept_only_as_a_salted_hmac(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    first, second = _player(client), _player(client)
    assert first["player"] != second["player"] and first["token"] != second["token"]
    assert first["token"].startswith(first["player"] + ".")
    stored = redis_client.get(player_key(first["player"]))
    assert stored is not None
    secret = first["token"].partition(".")[2]
    assert secret.encode() not in stored and first["token"].encode() not in stored
    assert set(json.loads(stored)) == {"salt", "mac"}


def test_registering_with_a_player_token_binds_the_entrant_and_never_echoes_the_token(
    client: FlaskClient,
) -> None:
    ann = _player(client)
    tournament = create_tournament(client)
    answer = _register(client, tournament, ann["token"], "k1", name="Ann")
    assert answer.status_code == 201, answer.json
    assert answer.json["player"] == ann["player"]
    assert "token" in answer.json, "the entrant's own token, for /me and withdrawing"
    retried = _register(client, tournament, ann["token"], "k1", name="Ann")
    assert (retried.status_code, retried.json["entrant"], retried.json["player"]) == (
        201,
        "e1",
        ann["player"],
    )
    seen = [
        answer.get_data(as_text=True),
        retried.get_data(as_text=True),
        client.get(f"/tournaments/{tournament['tournament_id']}").get_data(as_text=True),
        client.get(f"/tournaments/{tournament['tournament_id']}/events").get_data(as_text=True),
        client.get(f"/tournaments/{tournament['tournament_id']}/export").get_data(as_text=True),
    ]
    secret = ann["token"].partition(".")[2]
    assert all(secret not in text for text in seen), "only POST /players shows a player token"
    (entrant,) = view(client, tournament)["entrants"]
    assert entrant["player"] == ann["player"]
    assert _events(client, tournament)[-1]["data"]["player"] == ann["player"]


def test_a_person_registered_without_a_player_token_is_a_one_off_player(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    answer = _register(client, tournament, None, name="Ann")
    assert answer.status_code == 201 and answer.json["player"] is None
    assert view(client, tournament)["entrants"][0]["player"] is None


@pytest.mark.parametrize(
    "token",
    [
        "p0123456789abcdef.not-the-secret",  # no such player
        "WRONG",  # the shape of a player token, the wrong secret: filled in below
        "p0123.x",  # no player id at all
    ],
)
def test_a_player_token_no_player_holds_is_refused_and_writes_nothing(
    client: FlaskClient, redis_client: redis.Redis, token: str
) -> None:
    real = _player(client)
    if token == "WRONG":
        token = real["player"] + ".not-the-secret"
    tournament = create_tournament(client)
    keys_before = sorted(redis_client.keys("tournament:*"))
    events_before = _events(client, tournament)

    answer = _register(client, tournament, token, name="Ann")

    assert (answer.status_code, answer.json["code"]) == (401, "invalid_token")
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert token not in answer.get_data(as_text=True)
    assert _events(client, tournament) == events_before
    assert sorted(redis_client.keys("tournament:*")) == keys_before, "not even an idempotency record"


def test_one_player_holds_one_entrant_of_a_tournament(client: FlaskClient) -> None:
    ann = _player(client)
    tournament = create_tournament(client)
    assert _register(client, tournament, ann["token"], name="Ann").status_code == 201
    again = _register(client, tournament, ann["token"], name="Ann's twin")
    assert (again.status_code, again.json["code"]) == (409, "player_registered")
    assert ann["token"].partition(".")[2] not in again.get_data(as_text=True)


def test_a_player_token_registers_no_computer_entrant(client: FlaskClient) -> None:
    ann = _player(client)
    tournament = create_tournament(client)
    answer = _register(client, tournament, ann["token"], kind="ai", level=1)
    assert (answer.status_code, answer.json["code"]) == (403, "organizer_only")


def test_the_same_player_in_two_tournaments_has_one_history_and_a_namesake_none_of_it(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    ann = _player(client)
    for name, rival in (("Ann", "Ben"), ("Ann M.", "Cy")):
        tournament = create_tournament(client, rounds=1)
        register(client, tournament, name=rival)
        entrant = _register(client, tournament, ann["token"], name=name).json["entrant"]
        rated_by_forfeit_and_correction(client, run_jobs, tournament, [entrant, "e1"])
    impostor_cup = create_tournament(client, rounds=1)
    register(client, impostor_cup, name="Dee")
    impostor_entrant = register(client, impostor_cup, name="Ann")["entrant"]  # no token: the name only
    rated_by_forfeit_and_correction(client, run_jobs, impostor_cup, [impostor_entrant, "e1"])

    players = {p["player"]: p for p in _ratings(client, "kahuna")}
    held = players[ann["player"]]
    assert (held["games"], held["name"], held["tournament"]) == (2, "Ann M.", None)
    assert [step["games"] for step in held["history"]] == [1, 2]
    impostor = next(p for p in players.values() if p["name"] == "Ann" and p["player"] != ann["player"])
    assert (impostor["games"], impostor["tournament"]) == (1, impostor_cup["tournament_id"])
    assert impostor["mu"] == pytest.approx(held["history"][0]["mu"]), "a namesake starts afresh"
    assert impostor["ordinal"] < held["ordinal"], "and inherits nothing of the player's rating"
    assert len(players) == 5, "Ann the player; Ben, Cy, Dee and the namesake, one-offs each"


def test_three_computer_seats_of_one_level_at_a_four_seat_table_are_three_players(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = create_tournament(client, game="arabana-opodopo", format="tables", rounds=1)
    ann = _player(client)
    assert _register(client, tournament, ann["token"], name="Ann").status_code == 201
    for _ in range(3):
        register(client, tournament, kind="ai", level=1)
    rated_by_forfeit_and_correction(client, run_jobs, tournament, ["e3", "e1", "e4", "e2"])

    players = {p["player"]: p for p in _ratings(client, "arabana-opodopo")}
    assert len(players) == 4 and all(p["games"] == 1 for p in players.values())
    assert players[ann["player"]]["kind"] == "person"
    computers = sorted((p for p in players.values() if p["kind"] == "ai"), key=lambda p: p["mu"])
    tid = tournament["tournament_id"]
    assert [p["player"] for p in computers] == [f"{tid}:e2", f"{tid}:e4", f"{tid}:e3"], "by place"
