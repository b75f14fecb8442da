"""Accounts over HTTP: a name unique ignoring case, a password kept only as an argon2id hash, a
session in an HttpOnly cookie that signing out ends on the server, sign-in attempts limited per
name, and seats kept with the account so that another browser gets them back."""

from __future__ import annotations

import re

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.accounts import store
from service.accounts.names import normalized
from service.accounts.sessions import COOKIE
from service.accounts.store import record_key
from tests.api.helpers import create_game
from tests.api.tournament_helpers import create_tournament

PASSWORD = "correct horse battery"


def _sign_up(client: FlaskClient, name: str = "Ada", password: str = PASSWORD) -> dict:
    answer = client.post("/accounts", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.json
    return dict(answer.json)


def _cookie_header(client: FlaskClient, path: str = "/accounts", **body: str) -> str:
    answer = client.post(path, json=body)
    assert answer.status_code in (200, 201), answer.json
    return str(answer.headers["Set-Cookie"])


def test_signing_up_opens_a_session_in_an_http_only_same_site_cookie(client: FlaskClient) -> None:
    header = _cookie_header(client, name="Ada", password=PASSWORD)
    assert header.startswith(f"{COOKIE}=") and "HttpOnly" in header and "SameSite=Lax" in header
    assert "Secure" not in header, "plain http to localhost: a Secure cookie would never come back"
    me = client.get("/account")
    assert me.status_code == 200 and me.json["name"] == "Ada" and me.json["passkeys"] == 0
    assert me.json["player"].startswith("p") and me.json["page"] == "/players/Ada"


def test_the_cookie_is_secure_on_any_host_but_this_machine(app: Flask) -> None:
    client = app.test_client()
    answer = client.post(
        "/accounts", json={"name": "Ada", "password": PASSWORD}, base_url="http://example.org"
    )
    assert answer.status_code == 201
    assert "Secure" in answer.headers["Set-Cookie"]


def test_the_password_is_kept_only_as_an_argon2id_hash(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    _sign_up(client)
    stored = redis_client.get(record_key(normalized("Ada")))
    assert stored is not None and PASSWORD.encode() not in stored
    assert re.search(rb'"password": "\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$', stored)


def test_a_name_is_one_account_whatever_its_case_or_width(client: FlaskClient, app: Flask) -> None:
    _sign_up(client, "Ada")
    for taken in ("ada", "ADA", " Ａｄａ "):
        answer = app.test_client().post("/accounts", json={"name": taken, "password": PASSWORD})
        assert answer.status_code == 409 and answer.json["code"] == "name_taken", taken


def test_bad_names_and_short_passwords_are_refused_and_nothing_is_written(
    app: Flask, redis_client: redis.Redis
) -> None:
    client = app.test_client()
    for body, code in (
        ({"name": "   ", "password": PASSWORD}, "bad_name"),
        ({"name": "<script>", "password": PASSWORD}, "bad_name"),
        ({"name": "x" * 33, "password": PASSWORD}, "bad_name"),
        ({"name": "Ada", "password": "short"}, "bad_password"),
    ):
        answer = client.post("/accounts", json=body)
        assert answer.status_code == 422 and answer.json["code"] == code, body
    assert not redis_client.keys("account:*")
    assert client.post("/accounts", json={"name": "Ada"}).status_code == 422


def test_signing_out_ends_the_session_on_the_server(client: FlaskClient, app: Flask) -> None:
    header = _cookie_header(client, name="Ada", password=PASSWORD)
    session_id = header.split(";")[0].split("=", 1)[1]
    assert client.delete("/session").status_code == 204
    assert client.get("/account").status_code == 401
    # The old cookie, kept by a thief or a careless client, opens nothing any more.
    replay = app.test_client()
    replay.set_cookie(COOKIE, session_id)
    answer = replay.get("/account")
    assert answer.status_code == 401 and answer.json["code"] == "not_signed_in"


def test_signing_in_by_password(app: Flask) -> None:
    _sign_up(app.test_client())
    client = app.test_client()
    wrong = client.post("/session", json={"name": "Ada", "password": "not the one"})
    unknown = client.post("/session", json={"name": "Nobody", "password": PASSWORD})
    for answer in (wrong, unknown):
        assert answer.status_code == 401 and answer.json["code"] == "wrong_credentials"
    assert wrong.json["detail"] == unknown.json["detail"], "the answer tells nothing about which names exist"
    right = client.post("/session", json={"name": "ADA", "password": PASSWORD})
    assert right.status_code == 200 and right.json["name"] == "Ada"
    assert client.get("/account").json["name"] == "Ada"


def test_too_many_wrong_passwords_for_a_name_stop_sign_in_for_a_while(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fewer than the 10 of the service: each wrong password costs an argon2id hash.
    monkeypatch.setattr(store, "MAX_FAILURES", 3)
    _sign_up(app.test_client())
    client = app.test_client()
    for _ in range(store.MAX_FAILURES):
        assert client.post("/session", json={"name": "Ada", "password": "guess"}).status_code == 401
    answer = client.post("/session", json={"name": "Ada", "password": PASSWORD})
    assert answer.status_code == 429 and answer.json["code"] == "too_many_attempts"
    assert int(answer.headers["Retry-After"]) >= 1


def test_another_site_cannot_sign_in_or_out(client: FlaskClient) -> None:
    _sign_up(client)
    answer = client.delete("/session", headers={"Sec-Fetch-Site": "cross-site"})
    assert answer.status_code == 403 and answer.json["code"] == "cross_site_request"
    assert client.get("/account").status_code == 200


def test_a_seat_kept_with_the_account_comes_back_in_another_browser(app: Flask) -> None:
    first = app.test_client()
    _sign_up(first)
    game = create_game(first)
    token = game["tokens"][1]
    kept = first.post("/account/seats", json={"game_id": game["game_id"], "token": token})
    assert kept.status_code == 200 and kept.json["seat"] == 1
    refused = first.post("/account/seats", json={"game_id": game["game_id"], "token": "x" * 40})
    assert refused.status_code == 422 and refused.json["code"] == "invalid_token"

    second = app.test_client()
    assert second.get(f"/account/seats/{game['game_id']}").status_code == 401
    second.post("/session", json={"name": "Ada", "password": PASSWORD})
    held = second.get(f"/account/seats/{game['game_id']}")
    assert held.status_code == 200 and held.json["seats"] == [{"seat": 1, "token": token}]

    page = second.get("/players/Ada")
    assert page.status_code == 200 and f'data-game-id="{game["game_id"]}"' in page.get_data(as_text=True)
    assert second.get("/players/Nobody").status_code == 404


def test_a_passkey_ceremony_needs_a_session_and_a_live_challenge(client: FlaskClient) -> None:
    assert client.post("/account/passkeys/options").status_code == 401
    _sign_up(client)
    started = client.post("/account/passkeys/options")
    assert started.status_code == 200
    options = started.json["options"]
    assert (
        options["rp"]["id"] == "localhost" and options["authenticatorSelection"]["residentKey"] == "required"
    )
    stale = client.post("/account/passkeys", json={"ceremony": "no-such-one", "credential": {}})
    assert stale.status_code == 422 and stale.json["code"] == "ceremony_unknown"
    bad = client.post(
        "/account/passkeys", json={"ceremony": started.json["ceremony"], "credential": {"id": "x"}}
    )
    assert bad.status_code == 422 and bad.json["code"] == "passkey_invalid"
    used = client.post("/account/passkeys", json={"ceremony": started.json["ceremony"], "credential": {}})
    assert used.status_code == 422 and used.json["code"] == "ceremony_unknown", "a challenge serves once"
    sign_in = client.post("/session/passkey/options")
    assert sign_in.status_code == 200 and sign_in.json["options"]["rpId"] == "localhost"
    unknown = client.post(
        "/session/passkey", json={"ceremony": sign_in.json["ceremony"], "credential": {"id": "AAAA"}}
    )
    assert unknown.status_code == 401 and unknown.json["code"] == "passkey_invalid"


def test_a_person_registering_with_a_session_is_the_account_s_player(client: FlaskClient) -> None:
    player = _sign_up(client)["player"]
    tournament = create_tournament(client)
    answer = client.post(f"/tournaments/{tournament['tournament_id']}/entrants", json={"name": "Ada"})
    assert answer.status_code == 201 and answer.json["player"] == player
    guest = client.application.test_client()
    alone = guest.post(f"/tournaments/{tournament['tournament_id']}/entrants", json={"name": "Bo"})
    assert alone.status_code == 201 and alone.json["player"] is None, "a guest is a one-off player"


MALFORMED = [
    {},
    {"id": 5},
    {"id": "AAAA", "response": 3},
    {"id": "AAAA", "response": None},
    {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {"clientDataJSON": 1}},
    {
        "id": "AAAA",
        "rawId": "AAAA",
        "type": "public-key",
        "response": {"clientDataJSON": "!!!", "attestationObject": "oA", "authenticatorData": "AA"},
    },
    {
        "id": "AAAA",
        "rawId": "AAAA",
        "type": "public-key",
        "response": {"clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0", "attestationObject": "oA"},
    },
]


def test_a_malformed_passkey_answer_is_refused_never_an_error(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    _sign_up(client)
    for credential in MALFORMED:
        started = client.post("/account/passkeys/options").json["ceremony"]
        added = client.post("/account/passkeys", json={"ceremony": started, "credential": credential})
        assert added.status_code == 422 and added.json["code"] == "passkey_invalid", credential
        started = client.post("/session/passkey/options").json["ceremony"]
        signed = client.post("/session/passkey", json={"ceremony": started, "credential": credential})
        assert signed.status_code == 401 and signed.json["code"] == "passkey_invalid", credential
    assert not redis_client.keys("passkey:*")
