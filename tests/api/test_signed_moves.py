"""Signed moves over HTTP: a seat registers its public key (or its setup gives one), and from then
on the service takes its commands only with If-Match and its signature of them — refusing
(and writing nothing) a command unsigned, signed by another key, or signed for another version."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from record.seat_keys import KEY_EVENT, SIGNATURE_HEADER
from tests.api.helpers import NAMES, bearer, create_game, legal_commands, post, view
from tests.api.tournament_helpers import create_tournament, me, organize
from tests.api.tournament_helpers import register as register_entrant
from tests.api.tournament_helpers import view as tournament_view
from tests.seat_signing import SeatKey


def register(client: FlaskClient, game: dict[str, Any], seat: int, key: SeatKey, **headers: str) -> Any:
    return client.post(
        f"/games/{game['game_id']}/key",
        json={"public_key": key.jwk},
        headers={**bearer(game["tokens"][seat]), **headers},
    )


def first_move(client: FlaskClient, game: dict[str, Any], seat: int = 0) -> tuple[int, dict[str, Any]]:
    legal = legal_commands(client, game, seat)
    return legal["version"], legal["commands"][0]


def stored_version(client: FlaskClient, game: dict[str, Any]) -> int:
    return int(view(client, game)["version"])


@pytest.mark.parametrize("curve", ["P-256", "Ed25519"])
def test_a_seat_that_registered_its_key_plays_with_signed_commands(client: FlaskClient, curve: str) -> None:
    game = create_game(client)
    key = SeatKey(curve)
    registered = register(client, game, 0, key)
    assert registered.status_code == 201, registered.json
    assert [e["type"] for e in registered.json["events"]] == [KEY_EVENT]
    assert set(registered.json["events"][0]["data"]["key"]) <= {"kty", "crv", "x", "y"}

    version, move = first_move(client, game)
    answer = post(client, game, 0, move, **key.headers(game["game_id"], version, 0, move))

    assert answer.status_code == 200, answer.json
    assert answer.json["version"] > version


def test_an_unsigned_command_of_a_seat_with_a_key_is_refused_and_writes_nothing(client: FlaskClient) -> None:
    game = create_game(client)
    key = SeatKey()
    assert register(client, game, 0, key).status_code == 201
    version, move = first_move(client, game)

    unsigned = post(client, game, 0, move, **{"If-Match": f'"{version}"'})
    no_version = post(
        client, game, 0, move, **{SIGNATURE_HEADER: key.sign(game["game_id"], version, 0, move)}
    )
    other_key = post(client, game, 0, move, **SeatKey().headers(game["game_id"], version, 0, move))
    other_version = post(
        client,
        game,
        0,
        move,
        **{"If-Match": f'"{version}"', SIGNATURE_HEADER: key.sign(game["game_id"], version - 1, 0, move)},
    )
    malformed = post(client, game, 0, move, **{"If-Match": f'"{version}"', SIGNATURE_HEADER: "not base64!"})

    assert (unsigned.status_code, unsigned.json["code"]) == (403, "signature_required")
    assert (no_version.status_code, no_version.json["code"]) == (428, "if_match_required")
    assert (other_key.status_code, other_key.json["code"]) == (403, "signature_invalid")
    assert (other_version.status_code, other_version.json["code"]) == (403, "signature_invalid")
    assert (malformed.status_code, malformed.json["code"]) == (400, "bad_signature_header")
    for refused in (unsigned, no_version, other_key, other_version, malformed):
        assert refused.headers["Content-Type"] == "application/problem+json"
    assert stored_version(client, game) == version


def test_the_other_seat_without_a_key_plays_unsigned(client: FlaskClient) -> None:
    game = create_game(client)
    assert register(client, game, 1, SeatKey()).status_code == 201
    version, move = first_move(client, game)

    assert post(client, game, 0, move).status_code == 200


def test_a_key_is_registered_once_and_never_replaced(client: FlaskClient) -> None:
    game = create_game(client)
    assert register(client, game, 0, SeatKey()).status_code == 201

    again = register(client, game, 0, SeatKey())

    assert (again.status_code, again.json["code"]) == (409, "key_registered")


@pytest.mark.parametrize(
    "jwk",
    [
        {"kty": "EC", "crv": "P-256", "x": "A" * 43, "y": "A" * 43},  # not a point of the curve
        {"kty": "OKP", "crv": "P-256", "x": "A" * 43},
        {"kty": "EC", "crv": "P-256", "x": "A" * 43},
    ],
)
def test_a_key_that_is_no_p256_or_ed25519_public_key_is_422_and_writes_nothing(
    client: FlaskClient, jwk: dict[str, Any]
) -> None:
    game = create_game(client)
    version = stored_version(client, game)

    answer = client.post(
        f"/games/{game['game_id']}/key", json={"public_key": jwk}, headers=bearer(game["tokens"][0])
    )

    assert answer.status_code == 422 and answer.json["code"] in ("invalid_key", "invalid_request")
    assert stored_version(client, game) == version


def test_a_seat_given_its_key_in_the_setup_signs_from_its_first_command(client: FlaskClient) -> None:
    key = SeatKey("Ed25519")
    seats = [{"name": NAMES[0], "public_key": key.jwk}, {"name": NAMES[1]}]
    answer = client.post("/games", json={"game": "kahuna", "seats": seats, "first_seat": 0})
    assert answer.status_code == 201, answer.json
    game = {**answer.json, "tokens": [s["token"] for s in answer.json["seats"]]}
    created = client.get(f"/games/{game['game_id']}/events").json["events"][0]
    assert set(created["data"]["seats"][0]["public_key"]) == {"kty", "crv", "x"}
    version, move = first_move(client, game)

    assert post(client, game, 0, move).status_code == 428
    assert post(client, game, 0, move, **{"If-Match": f'"{version}"'}).status_code == 403
    assert post(client, game, 0, move, **key.headers(game["game_id"], version, 0, move)).status_code == 200


def test_a_computer_seat_takes_no_key(client: FlaskClient) -> None:
    seats = [{"name": "Ann"}, {"name": "Bot", "ai": "random", "public_key": SeatKey().jwk}]

    answer = client.post("/games", json={"game": "kahuna", "seats": seats, "first_seat": 0})

    assert (answer.status_code, answer.json["code"]) == (422, "key_for_computer")


def test_verify_referees_every_signature_of_a_signed_game(client: FlaskClient) -> None:
    game = create_game(client)
    key = SeatKey()
    assert register(client, game, 0, key).status_code == 201
    played = 0
    while played < 3:
        legal = legal_commands(client, game, 0)
        if not legal["commands"]:
            break
        move = legal["commands"][0]
        headers = key.headers(game["game_id"], legal["version"], 0, move)
        assert post(client, game, 0, move, **headers).status_code == 200
        played += 1

    referee = client.get(f"/games/{game['game_id']}/verify").json["referee"]

    assert played >= 1
    assert referee["ok"] is True and referee["checked"] == referee["commands"] >= played + 1


def test_a_tournament_with_signed_moves_takes_person_entrants_with_keys_and_seats_them_with_them(
    client: FlaskClient,
) -> None:
    tournament = create_tournament(client, rounds=1, signed_moves=True)
    url = f"/tournaments/{tournament['tournament_id']}/entrants"
    keyless = client.post(url, json={"name": "Cai"})
    assert (keyless.status_code, keyless.json["code"]) == (422, "key_required")
    bad = client.post(
        url, json={"name": "Cai", "public_key": {"kty": "EC", "crv": "P-256", "x": "A" * 43, "y": "A" * 43}}
    )
    assert (bad.status_code, bad.json["code"]) == (422, "invalid_key")
    keys = {"Ann": SeatKey(), "Ben": SeatKey("Ed25519")}
    tokens = {
        name: register_entrant(client, tournament, name=name, public_key=key.jwk)["token"]
        for name, key in keys.items()
    }
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})

    shown = tournament_view(client, tournament)
    assert shown["signed_moves"] is True
    assert {e["name"]: set(e["public_key"]) for e in shown["entrants"]} == {
        "Ann": {"kty", "crv", "x", "y"},
        "Ben": {"kty", "crv", "x"},
    }
    for name, key in keys.items():
        mine = me(client, tournament, tokens[name])["game"]
        seat, game = mine["seat"], {"game_id": mine["game_id"], "tokens": {mine["seat"]: mine["seat_token"]}}
        created = client.get(f"/games/{mine['game_id']}/events").json["events"][0]
        assert created["data"]["seats"][seat]["public_key"]["x"] == key.jwk["x"]
        legal = client.get(f"/games/{mine['game_id']}/legal", headers=bearer(mine["seat_token"])).json
        if legal["commands"]:
            move = legal["commands"][0]
            unsigned = post(client, game, seat, move, **{"If-Match": f'"{legal["version"]}"'})
            assert (unsigned.status_code, unsigned.json["code"]) == (403, "signature_required")
            signed = post(
                client, game, seat, move, **key.headers(mine["game_id"], legal["version"], seat, move)
            )
            assert signed.status_code == 200, signed.json


def test_the_game_view_says_which_seats_sign(client: FlaskClient) -> None:
    game = create_game(client)
    assert [s["signs"] for s in view(client, game)["seats"]] == [False, False]
    assert register(client, game, 1, SeatKey()).status_code == 201

    assert [s["signs"] for s in view(client, game, 0)["seats"]] == [False, True]
