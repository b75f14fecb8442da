"""Nanuuk! through HTTP only: created with a drawn or a given layout, played to the end,
refused with problem+json, and undone within a turn."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import bearer, create_game, events, legal_commands, play, post, view
from tests.domain.nanuuk.game import LAYOUT_2


def test_a_drawn_nanuuk_game_is_played_to_its_end(
    client: FlaskClient, run_worker: Callable[[], None]
) -> None:
    game = create_game(client, 3, game="nanuuk", options={"pre_cracks": 3})
    log = events(client, game)["events"]
    assert [e["type"] for e in log] == ["GameCreated", "IceLaidOut"] and len(log[1]["data"]["cracks"]) == 3

    final = play(client, game, random.Random(4), run_worker)

    ended = events(client, game)["events"][-1]
    assert ended["type"] == "GameEnded" and final["result"] == ended["data"]
    assert final["scores"] == ended["data"]["totals"]


def test_a_learning_game_is_played_to_its_end(client: FlaskClient, run_worker: Callable[[], None]) -> None:
    game = create_game(client, 4, game="nanuuk-partners", options={"aim": "left"})
    final = play(client, game, random.Random(2), run_worker)
    assert final["phase"] == "ended" and final["result"]["reason"] == "partner_shut_in"


def test_a_bad_layout_is_refused_and_writes_nothing(client: FlaskClient) -> None:
    layout: dict[str, Any] = {**LAYOUT_2, "fish": LAYOUT_2["fish"][:2]}
    body = {"game": "nanuuk", "seats": [{"name": "A"}, {"name": "B"}], "options": {"layout": layout}}
    answer = client.post("/games", json=body)
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert answer.json["code"] == "bad_option" and "options.layout.fish" in answer.json["errors"]
    assert client.get("/games").json.get("games", []) == []


def test_malformed_and_illegal_hex_commands_are_refused(client: FlaskClient) -> None:
    game = create_game(client, 2, game="nanuuk", options={"layout": LAYOUT_2})
    version = view(client, game)["version"]
    malformed = post(client, game, 0, {"type": "PlacePiece", "piece": 0, "cell": [0, -2, 1]})
    assert (malformed.status_code, malformed.json["code"]) == (422, "invalid_request")
    assert "cell" in malformed.json["errors"]
    illegal = post(client, game, 0, {"type": "PlacePiece", "piece": 0, "cell": [1, -2]})
    assert (illegal.status_code, illegal.json["code"]) == (409, "cannot_place")
    assert view(client, game)["version"] == version


def test_a_seat_undoes_its_own_move_before_its_crack(client: FlaskClient) -> None:
    game = create_game(client, 2, game="nanuuk-learning")
    for cell in ([1, 0], [3, -2], [-2, 0], [-3, 2]):
        seat = view(client, game)["active"]
        piece = next(c for c in legal_commands(client, game, seat)["commands"])["piece"]
        assert (
            post(client, game, seat, {"type": "PlacePiece", "piece": piece, "cell": cell}).status_code == 200
        )
    before = view(client, game)
    assert post(client, game, 0, {"type": "Move", "piece": 0, "cell": [0, 0]}).status_code == 200
    assert view(client, game)["awaiting"]["stage"] == "crack"
    undone = client.post(f"/games/{game['game_id']}/undo", json={}, headers=bearer(game["tokens"][0]))
    assert undone.status_code == 200, undone.json
    after = view(client, game)
    assert after["pieces"] == before["pieces"] and after["awaiting"] == before["awaiting"]
