"""Signed moves on the pages, without a browser: the registration form takes the public key its
script puts in the hidden field (required when the tournament's moves are signed, checked as the
API checks it, a refusal writing nothing), /t/new sets signed_moves, and the play panel tells its
script whether the seat signs, with which key, and whether it may still opt in."""

from __future__ import annotations

import html as html_module
import json
import re
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from service.store import TOURNAMENT, stream_key
from tests.api.helpers import bearer, create_game
from tests.api.tournament_helpers import create_tournament, view
from tests.seat_signing import SeatKey
from tests.web.pages import by_id, panel


def _length(redis_client: redis.Redis, tournament: dict[str, Any]) -> int:
    return int(redis_client.xlen(stream_key(TOURNAMENT, tournament["tournament_id"])))


def _text_of(html: str, element_id: str) -> str:
    found = re.search(rf'<(\w+) id="{element_id}"[^>]*>(.*?)</\1>', html, re.S)
    assert found is not None, element_id
    return re.sub(r"\s+", " ", html_module.unescape(re.sub(r"<[^>]+>", "", found.group(2)))).strip()


def _register(client: FlaskClient, tournament: dict[str, Any], name: str, key: str | None) -> Any:
    form = {"name": name} if key is None else {"name": name, "public_key": key}
    return client.post(f"/t/{tournament['tournament_id']}/entrants", data=form)


def test_the_new_tournament_form_sets_signed_moves(client: FlaskClient) -> None:
    form = by_id(client.get("/t/new").get_data(as_text=True), "signed_moves")
    assert form is not None and form["type"] == "checkbox" and form["name"] == "signed_moves"
    settings = {"name": "Reef Open", "game": "kahuna", "format": "swiss", "rounds": "2"}
    for ticked, expected in (({"signed_moves": "on"}, True), ({}, False)):
        answer = client.post("/t/new", data={**settings, **ticked})
        assert answer.status_code == 303, answer.get_data(as_text=True)
        found = re.fullmatch(r"/t/([^/#]+)/organize#organizer=\S+", answer.headers["Location"])
        assert found is not None
        assert view(client, {"tournament_id": found.group(1)})["signed_moves"] is expected


def test_a_signed_tournament_s_form_says_so_and_carries_the_hidden_key_field(client: FlaskClient) -> None:
    signed = create_tournament(client, signed_moves=True)
    page = client.get(f"/t/{signed['tournament_id']}").get_data(as_text=True)
    hidden = by_id(page, "register-key")
    assert hidden is not None and hidden["type"] == "hidden" and hidden["name"] == "public_key"
    assert by_id(page, "register-signing")["data-signed-moves"] == "true"  # type: ignore[index]
    assert "must be played from this browser" in _text_of(page, "register-signing")
    plain = client.get(f"/t/{create_tournament(client)['tournament_id']}").get_data(as_text=True)
    choice = by_id(plain, "register-sign")
    assert choice is not None and choice["type"] == "checkbox"  # an opt-in, never ticked for one
    assert "checked" not in choice


def test_a_signed_tournament_refuses_a_form_without_a_key_in_words_and_writes_nothing(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    tournament = create_tournament(client, signed_moves=True)
    before = _length(redis_client, tournament)

    for missing in (None, "", "  "):
        answer = _register(client, tournament, "Ann", missing)
        assert answer.status_code == 422
        page = answer.get_data(as_text=True)
        assert by_id(page, "register-error")["data-code"] == "key_required"  # type: ignore[index]
        said = _text_of(page, "register-key-error")
        assert said.startswith("Your signing key: ") and "WebCrypto" in said, said
    problem = client.post(
        f"/t/{tournament['tournament_id']}/entrants",
        data={"name": "Ann"},
        headers={"Accept": "application/json"},
    )
    assert problem.status_code == 422 and problem.json["code"] == "key_required"
    assert _length(redis_client, tournament) == before


BAD_KEYS = [
    "not json",
    json.dumps({"kty": "EC", "crv": "P-256", "x": "AAAA", "y": "AAAA"}),  # coordinates too short
    json.dumps({**SeatKey().jwk, "d": "c2VjcmV0"}),  # a private key: never recorded
    json.dumps({"kty": "RSA", "n": "AQAB", "e": "AQAB"}),
    json.dumps(["a", "list"]),
    "[" * 5000 + "]" * 5000,  # deeper than json.loads could go
]


@pytest.mark.parametrize("signed_moves", [True, False])
def test_a_bad_key_in_the_form_is_refused_next_to_its_field_and_writes_nothing(
    client: FlaskClient, redis_client: redis.Redis, signed_moves: bool
) -> None:
    tournament = create_tournament(client, signed_moves=signed_moves)
    before = _length(redis_client, tournament)

    for bad in BAD_KEYS:
        answer = _register(client, tournament, "Ann", bad)
        assert answer.status_code == 422, bad
        page = answer.get_data(as_text=True)
        assert by_id(page, "register-error")["data-code"] == "invalid_key", bad  # type: ignore[index]
        assert _text_of(page, "register-key-error").startswith("Your signing key: "), bad
    assert _length(redis_client, tournament) == before


@pytest.mark.parametrize("signed_moves", [True, False])
def test_the_form_s_key_is_the_entrant_s_key(client: FlaskClient, signed_moves: bool) -> None:
    tournament = create_tournament(client, signed_moves=signed_moves)
    key = SeatKey()

    answer = _register(client, tournament, "Ann", json.dumps(key.jwk))

    assert answer.status_code == 303, answer.get_data(as_text=True)
    entrant = view(client, tournament)["entrants"][0]
    assert entrant["public_key"] == {name: key.jwk[name] for name in ("kty", "crv", "x", "y")}


def test_without_signed_moves_the_key_is_optional(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    assert _register(client, tournament, "Ann", "").status_code == 303
    assert view(client, tournament)["entrants"][0].get("public_key") is None


def _signing(client: FlaskClient, game: dict[str, Any], seat: int | None) -> Any:
    html = panel(client, game["game_id"], None if seat is None else game["tokens"][seat])
    shown = by_id(html, "status")
    assert shown is not None
    found = re.search(r'class="panel"[^>]*data-signing="([^"]*)"', html)
    assert found is not None
    return json.loads(html_module.unescape(found.group(1)))


def test_the_panel_tells_the_page_whether_its_seat_signs_and_with_which_key(client: FlaskClient) -> None:
    game = create_game(client)
    assert _signing(client, game, None) is None
    assert _signing(client, game, 0) == {"signs": False, "key": None, "offer": True}
    key = SeatKey()
    registered = client.post(
        f"/games/{game['game_id']}/key", json={"public_key": key.jwk}, headers=bearer(game["tokens"][0])
    )
    assert registered.status_code == 201, registered.json

    mine = _signing(client, game, 0)
    assert mine["signs"] is True and mine["offer"] is False
    assert mine["key"] == {name: key.jwk[name] for name in ("kty", "crv", "x", "y")}
    assert _signing(client, game, 1) == {"signs": False, "key": None, "offer": True}


def test_a_tournament_game_s_seat_is_not_offered_to_opt_in(client: FlaskClient) -> None:
    game = create_game(client, mode="tournament")
    assert _signing(client, game, 0)["offer"] is False
