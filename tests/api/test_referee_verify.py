"""GET /games/{id}/verify referees the stored commands: a forgery re-hashed in Redis, whose chain
holds, is named by the version of the command at fault; an older game says it recorded none."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.api.context import EXTENSION
from service.games import GameService
from tests.replays.referee_play import SETUPS, out_of_turn, play, rechained, setup_of, stored_as

GOLDEN = Path(__file__).parents[1] / "golden"
NDJSON = "application/x-ndjson"


def service_of(app: Flask) -> GameService:
    service: GameService = app.extensions[EXTENSION]
    return service


def verify(client: FlaskClient, game_id: str) -> dict[str, object]:
    answer = client.get(f"/games/{game_id}/verify")
    assert answer.status_code == 200
    body: dict[str, object] = answer.json
    return body


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_a_finished_game_of_each_family_verifies_with_every_command_refereed(
    app: Flask, client: FlaskClient, name: str
) -> None:
    game_id = play(service_of(app), setup_of(name), random.Random(5))

    answer = verify(client, game_id)

    referee = answer["referee"]
    assert answer["ok"] is True and isinstance(referee, dict)
    assert referee["status"] == "refereed" and referee["checked"] == referee["commands"] > 5
    assert (referee["first_fault"], referee["unchecked_from"]) == (None, None)


def test_a_move_credited_to_the_seat_not_to_act_is_named_by_verify(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    service = service_of(app)
    game_id = play(service, setup_of("kahuna"), random.Random(6), until=40)
    forged, version = out_of_turn(service.store.read(game_id))
    stored_as(redis_client, game_id, forged)

    answer = verify(client, game_id)

    referee = answer["referee"]
    assert (answer["ok"], answer["first_bad_version"]) == (False, None)  # the chain holds
    assert isinstance(referee, dict) and (referee["status"], referee["first_fault"]) == ("fault", version)
    assert "seat 1 may not act here" in str(referee["fault"])


def test_an_event_changed_and_rehashed_in_the_store_is_named_by_verify(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    service = service_of(app)
    game_id = play(service, setup_of("nanuuk"), random.Random(8), until=30)
    envelopes = service.store.read(game_id)
    head = [e for e in envelopes if e.command is not None and e.actor.startswith("seat:")][-2]
    stored_as(
        redis_client,
        game_id,
        rechained(envelopes, head.version, lambda e: replace(e, data={**e.data, "seat": 9})),
    )

    referee = verify(client, game_id)["referee"]

    assert isinstance(referee, dict) and referee["first_fault"] == head.version
    assert "is not what the rules decide" in str(referee["fault"])


def test_a_game_stored_before_commands_were_recorded_verifies_and_says_so(client: FlaskClient) -> None:
    imported = client.post("/games/import", data=(GOLDEN / "kahuna.jsonl").read_bytes(), content_type=NDJSON)
    assert imported.status_code == 201

    answer = verify(client, imported.json["game_id"])

    referee = answer["referee"]
    assert answer["ok"] is True and isinstance(referee, dict)
    assert (referee["status"], referee["commands"], referee["recorded_from"]) == ("not_recorded", 0, None)
    assert "stored before commands were recorded" in str(referee["unchecked"])
