"""Conquest of Paradise through the store and the HTTP API: a 3-player game with two random
computer seats plays to its end; each seat's view and event feed hide the others' secrets;
a refused command is a 409 problem with the rules' code; the game exports and imports."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import events, legal_commands, post, view

NDJSON = "application/x-ndjson"
NAME = "conquest-of-paradise"


def create(client: FlaskClient, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    body = {"game": NAME, "seats": seats, "first_seat": 0, "options": {"last_turn": 2, **options}}
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.json
    game: dict[str, Any] = answer.json
    game["tokens"] = [s.get("token") for s in game["seats"]]
    return game


def test_a_three_player_game_with_two_computer_seats_plays_to_its_end_over_http(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    seats = [{"name": "Ann"}, {"name": "Bot1", "ai": "random"}, {"name": "Bot2", "ai": "random"}]
    game = create(client, seats)
    rng = random.Random(11)
    for _ in range(1500):
        run_jobs()
        current = view(client, game, 0)
        if current["phase"] == "ended":
            break
        if 0 not in current["acting"]:
            continue
        command = rng.choice(legal_commands(client, game, 0)["commands"])
        answer = post(client, game, 0, command)
        assert answer.status_code == 200, (command, answer.json)
    else:
        raise AssertionError("the game did not end")
    assert current["result"] is not None and len(current["result"]["vp"]) == 3
    log = events(client, game, 0)["events"]
    assert {e["actor"] for e in log} >= {"seat:0", "seat:1", "seat:2"}


def test_views_and_feeds_hide_other_seats_stacks_tiles_and_drafts(client: FlaskClient) -> None:
    game = create(client, [{"name": "Ann"}, {"name": "Ben"}])
    assert post(client, game, 0, {"type": "ChooseOrder", "first": 0, "clockwise": True}).status_code == 200
    assert post(client, game, 0, {"type": "EndExploration"}).status_code == 200
    assert post(client, game, 1, {"type": "EndExploration"}).status_code == 200
    moved = post(client, game, 0, {"type": "Move", "path": [[5, 6], [4, 6]], "pieces": {"band": 1}})
    assert moved.status_code == 409 and moved.mimetype == "application/problem+json"
    assert moved.json["code"] == "no_canoe"
    assert post(client, game, 0, {"type": "EndMovement"}).status_code == 200
    assert post(client, game, 1, {"type": "EndMovement"}).status_code == 200
    built = post(client, game, 0, {"type": "EndBuild", "orders": [{"item": "war_canoe", "hex": [5, 6]}]})
    assert built.status_code == 200, built.json
    theirs = events(client, game, 1)["events"]
    ordered = [e for e in theirs if e["type"] == "BuildCommitted"]
    assert ordered and all("war_canoe" not in json.dumps(e) for e in ordered)
    mine = [e for e in events(client, game, 0)["events"] if e["type"] == "BuildCommitted"]
    assert "war_canoe" in json.dumps(mine)
    assert view(client, game, 1)["draft"]["items"] == []
    assert view(client, game, 0)["draft"]["items"] == [{"item": "war_canoe", "hex": [5, 6]}]
    for stack in view(client, game, 1)["stacks"]:
        assert ("pieces" in stack) == (stack["seat"] == 1)
    # The commit ends the seat's part of the phase: nothing of it is left to undo on one's own.
    assert post(client, game, 0, {"type": "Undo"}).json["code"] == "nothing_to_undo"


def test_a_game_exports_and_imports(client: FlaskClient, run_jobs: Callable[[], None]) -> None:
    game = create(client, [{"name": "Ann"}, {"name": "Bot", "ai": "random"}], last_turn=1)
    rng = random.Random(3)
    for _ in range(800):
        run_jobs()
        current = view(client, game, 0)
        if current["phase"] == "ended":
            break
        if 0 in current["acting"]:
            command = rng.choice(legal_commands(client, game, 0)["commands"])
            assert post(client, game, 0, command).status_code == 200
    assert current["phase"] == "ended"
    exported = client.get(f"/games/{game['game_id']}/export")
    assert exported.status_code == 200, exported.json
    imported = client.post("/games/import", data=exported.data, content_type=NDJSON)
    assert imported.status_code == 201, imported.json
    again = client.get(f"/games/{imported.json['game_id']}")
    assert again.status_code == 200 and again.json["result"] == current["result"]


def test_Q3_undo_never_goes_back_across_a_chit_drawn(client: FlaskClient) -> None:
    game = create(client, [{"name": "Ann"}, {"name": "Ben"}])
    assert post(client, game, 0, {"type": "ChooseOrder", "first": 0, "clockwise": True}).status_code == 200
    explored = post(client, game, 0, {"type": "Explore", "hex": [6, 6]})
    assert explored.status_code == 200, explored.json
    assert any(e["type"] == "ChitDrawn" for e in events(client, game, 0)["events"])
    undone = post(client, game, 0, {"type": "Undo"})
    assert undone.status_code == 409 and undone.json["code"] == "undo_across_reveal"


def _until_moving(client: FlaskClient, game: dict[str, Any]) -> None:
    """Through turn 2's order and exploration: seat 0 first, nobody exploring."""
    choice = view(client, game, 0)["choice"]
    assert choice["kind"] == "order", choice
    assert post(client, game, choice["seat"], {"type": "ChooseOrder", "first": 0}).status_code == 200
    for seat in (0, 1):
        assert post(client, game, seat, {"type": "EndExploration"}).status_code == 200


def test_P3_3_a_move_puts_a_band_ashore_halfway_and_the_others_see_counts_only(client: FlaskClient) -> None:
    game = create(client, [{"name": "Ann"}, {"name": "Ben"}], last_turn=3)
    assert post(client, game, 0, {"type": "ChooseOrder", "first": 0, "clockwise": True}).status_code == 200
    for seat in (0, 1):
        assert post(client, game, seat, {"type": "EndExploration"}).status_code == 200
    for seat in (0, 1):
        assert post(client, game, seat, {"type": "EndMovement"}).status_code == 200
    transports = [{"item": "transport", "hex": [5, 6]}] * 2
    assert post(client, game, 0, {"type": "EndBuild", "orders": transports}).status_code == 200
    assert post(client, game, 1, {"type": "EndBuild"}).status_code == 200
    _until_moving(client, game)
    ahead = {"type": "Move", "path": [[5, 6], [4, 6]], "pieces": {"transport": 1}}
    assert post(client, game, 0, ahead).status_code == 200
    way = [[5, 6], [4, 6], [4, 7]]
    malformed = post(
        client, game, 0, {"type": "Move", "path": way, "pieces": {"transport": 1}, "stops": [{}]}
    )
    assert malformed.status_code == 422 and malformed.mimetype == "application/problem+json"
    assert malformed.json["code"] == "invalid_request" and "stops" in malformed.json["errors"], malformed.json
    canoe = [{"at": 1, "drop": {"transport": 1}}]
    refused = post(client, game, 0, {"type": "Move", "path": way, "pieces": {"transport": 1}, "stops": canoe})
    assert refused.status_code == 422 and refused.json["code"] == "stop_kind", refused.json
    assert refused.json["errors"] == {"stops": [refused.json["detail"]]}
    before = len(events(client, game, 0)["events"])
    stops = [{"at": 1, "drop": {"band": 1}}]
    moved = post(
        client, game, 0, {"type": "Move", "path": way, "pieces": {"transport": 1, "band": 1}, "stops": stops}
    )
    assert moved.status_code == 200, moved.json
    mine = events(client, game, 0)["events"]
    assert len(mine) == before + 1 and mine[-1]["secret"]["stops"] == [
        {"at": 1, "drop": {"band": 1}, "take": {}}
    ]
    theirs = events(client, game, 1)["events"][-1]
    assert theirs["data"]["stops"] == [{"at": 1, "drop": 1, "take": 0}] and theirs["secret"] is None
    stacks = {tuple(s["hex"]): s for s in view(client, game, 1)["stacks"] if s["seat"] == 0}
    assert stacks[(4, 6)]["count"] == 2 and stacks[(4, 7)]["count"] == 1 and "pieces" not in stacks[(4, 6)]
