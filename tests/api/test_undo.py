"""Undo, takebacks and organizer corrections over HTTP, on the real Redis.

Games are thames-kosmos Kahuna (K-9: a turn may end without drawing, so earlier turns can
be taken back without crossing a card someone saw); seat 0 starts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from domain import undo
from record.chain import verify_chain
from service.api.context import EXTENSION
from service.app import create_app
from service.store import EventStore
from tests.api.helpers import bearer, create_game, legal_commands, post, view
from tests.api.helpers import play as play_randomly

LATER = {"game": "kahuna", "options": {"edition": "thames-kosmos"}}


def new_game(client: FlaskClient, **setup: Any) -> dict[str, Any]:
    return create_game(client, **{**LATER, **setup})


def board(client: FlaskClient, game: dict[str, Any], seat: int | None = 0) -> dict[str, Any]:
    """The game as `seat` sees it, without the version (which only grows)."""
    seen = view(client, game, seat)
    del seen["version"]
    return seen


def play(client: FlaskClient, game: dict[str, Any], seat: int, kind: str) -> TestResponse:
    """Post `seat`'s first legal command of this type."""
    command = next(c for c in legal_commands(client, game, seat)["commands"] if c["type"] == kind)
    answer = post(client, game, seat, command)
    assert answer.status_code == 200, answer.json
    return answer


def send(
    client: FlaskClient, game: dict[str, Any], path: str, seat: int | None, body: Any = None, **headers: str
) -> TestResponse:
    """POST /games/{id}/{path} with `seat`'s token (the organizer's for seat None)."""
    token = game["organizer_token"] if seat is None else game["tokens"][seat]
    return client.post(f"/games/{game['game_id']}/{path}", json=body, headers={**bearer(token), **headers})


def refused(answer: TestResponse, status: int, code: str) -> None:
    assert (answer.status_code, answer.json["code"]) == (status, code), answer.json
    assert answer.mimetype == "application/problem+json"


def types(answer: TestResponse) -> list[str]:
    return [e["type"] for e in answer.json["events"]]


def two_turns(client: FlaskClient, game: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Seat 0 places and passes (K-9), seat 1 places: the version and board before it all."""
    start, before = view(client, game)["version"], board(client, game)
    play(client, game, 0, "PlaceBridge")
    play(client, game, 0, "SkipDraw")
    play(client, game, 1, "PlaceBridge")
    return start, before


# --- one's own turn ------------------------------------------------------------------------


def test_own_actions_are_undone_step_by_step(client: FlaskClient) -> None:
    game = new_game(client)
    start = board(client, game)
    play(client, game, 0, "PlaceBridge")
    one = board(client, game)
    play(client, game, 0, "PlaceBridge")

    first = send(client, game, "undo", 0)
    assert first.status_code == 200, first.json
    assert types(first) == ["Undone"]
    assert first.json["events"][0]["data"]["requested_by"] == 0
    assert first.json["events"][0]["data"]["approved_by"] == []
    assert first.json["events"][0]["actor"] == "seat:0"
    assert first.headers["ETag"] == f'"{first.json["version"]}"'
    assert board(client, game) == one
    assert send(client, game, "undo", 0, {"scope": "command"}).status_code == 200
    assert board(client, game) == start
    refused(send(client, game, "undo", 0), 409, "nothing_to_undo")


def test_own_actions_are_undone_back_to_the_start_of_the_turn(client: FlaskClient) -> None:
    game = new_game(client)
    start = {seat: board(client, game, seat) for seat in (0, 1, None)}
    for _ in range(3):
        play(client, game, 0, "PlaceBridge")

    answer = send(client, game, "undo", 0, {"scope": "turn"})

    assert answer.status_code == 200, answer.json
    assert {seat: board(client, game, seat) for seat in (0, 1, None)} == start
    refused(send(client, game, "undo", 0, {"scope": "everything"}), 422, "invalid_request")


def test_undo_is_a_command_like_the_others(client: FlaskClient) -> None:
    game = new_game(client)
    start = board(client, game)
    play(client, game, 0, "PlaceBridge")
    version = view(client, game)["version"]

    refused(send(client, game, "undo", 1), 409, "not_your_actions")
    refused(send(client, game, "undo", 0, **{"If-Match": f'"{version - 1}"'}), 412, "version_mismatch")
    key = {"Idempotency-Key": "undo-1"}
    first = send(client, game, "undo", 0, **key)
    again = send(client, game, "undo", 0, **key)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json == {**first.json, "duplicate": True}
    assert board(client, game) == start
    # The same command through /commands.
    play(client, game, 0, "PlaceBridge")
    assert post(client, game, 0, {"type": "Undo", "scope": "turn"}).status_code == 200
    assert board(client, game) == start


def test_a_cached_game_folds_an_undo_appended_elsewhere(client: FlaskClient, app: Flask) -> None:
    second = create_app({"REDIS_URL": app.config["REDIS_URL"], "TESTING": True})
    other = second.test_client()
    game = new_game(client)
    start = board(client, game)
    play(client, game, 0, "PlaceBridge")
    assert board(other, game) != start  # the other app has the game in its cache now

    assert send(client, game, "undo", 0).status_code == 200

    assert board(other, game) == board(client, game) == start
    second.extensions[EXTENSION].redis.close()


# --- takebacks of earlier turns -------------------------------------------------------------


def test_a_takeback_the_other_seat_accepts_takes_the_game_back(client: FlaskClient) -> None:
    game = new_game(client)
    to_version, before = two_turns(client, game)
    refused(send(client, game, "undo", 0), 409, "not_your_actions")  # seat 1 has played since

    asked = send(client, game, "takebacks", 0, {"to_version": to_version})

    assert asked.status_code == 201, asked.json
    assert types(asked) == ["TakebackRequested"]
    assert asked.headers["Location"].endswith(f"/games/{game['game_id']}/takebacks/current")
    pending = {
        "requested_by": 0,
        "to_version": to_version,
        "version": asked.json["version"],
        "accepted_by": [],
        "waiting_for": [1],
    }
    assert view(client, game)["takeback"] == pending
    current = client.get(f"/games/{game['game_id']}/takebacks/current")
    assert current.json == {"version": asked.json["version"], "takeback": pending}
    answers = [c for c in legal_commands(client, game, 1)["commands"] if c["type"] == "AnswerTakeback"]
    assert answers == [
        {"type": "AnswerTakeback", "accept": True},
        {"type": "AnswerTakeback", "accept": False},
    ]
    assert not [c for c in legal_commands(client, game, 0)["commands"] if c["type"] == "AnswerTakeback"]
    refused(send(client, game, "takebacks/current", 0, {"accept": True}), 409, "own_takeback")

    accepted = send(client, game, "takebacks/current", 1, {"accept": True})

    assert accepted.status_code == 200, accepted.json
    assert types(accepted) == ["TakebackAnswered", "Undone"]
    assert accepted.json["events"][1]["data"] == {
        "to_version": to_version,
        "requested_by": 0,
        "approved_by": [1],
    }
    assert board(client, game) == {**before, "takeback": None}


def test_a_declined_takeback_changes_nothing(client: FlaskClient) -> None:
    game = new_game(client)
    to_version, _ = two_turns(client, game)
    now = board(client, game)
    send(client, game, "takebacks", 0, {"to_version": to_version})

    declined = send(client, game, "takebacks/current", 1, {"accept": False})

    assert declined.status_code == 200, declined.json
    assert types(declined) == ["TakebackAnswered", "TakebackDeclined"]
    assert board(client, game) == now
    refused(send(client, game, "takebacks/current", 1, {"accept": True}), 409, "no_takeback_pending")


def test_a_takeback_lapses_when_the_game_moves_on(client: FlaskClient) -> None:
    game = new_game(client)
    to_version, _ = two_turns(client, game)
    send(client, game, "takebacks", 0, {"to_version": to_version})
    refused(send(client, game, "takebacks", 1, {"to_version": to_version}), 409, "takeback_pending")

    play(client, game, 1, "PlaceBridge")

    assert view(client, game)["takeback"] is None
    assert client.get(f"/games/{game['game_id']}/takebacks/current").json["takeback"] is None
    refused(send(client, game, "takebacks/current", 1, {"accept": True}), 409, "no_takeback_pending")


def test_a_seat_declined_twice_in_a_round_may_not_ask_again_that_round(client: FlaskClient) -> None:
    game = new_game(client)
    to_version, _ = two_turns(client, game)
    for _ in range(2):
        assert send(client, game, "takebacks", 0, {"to_version": to_version}).status_code == 201
        assert send(client, game, "takebacks/current", 1, {"accept": False}).status_code == 200

    refused(send(client, game, "takebacks", 0, {"to_version": to_version}), 409, "takeback_rate_limited")
    assert send(client, game, "takebacks", 1, {"to_version": to_version}).status_code == 201


def test_takebacks_never_go_across_a_card_the_requester_saw_nor_to_a_bad_version(
    client: FlaskClient,
) -> None:
    game = new_game(client)
    start = view(client, game)["version"]
    play(client, game, 0, "PlaceBridge")
    drew = post(client, game, 0, {"type": "DrawCard", "source": "stack"})
    assert drew.status_code == 200

    refused(send(client, game, "takebacks", 0, {"to_version": start}), 409, "undo_across_reveal")
    refused(send(client, game, "takebacks", 0, {"to_version": start + 1}), 422, "bad_undo_target")
    refused(send(client, game, "takebacks", 0, {"to_version": 0}), 422, "invalid_request")
    refused(send(client, game, "takebacks", 0, {}), 422, "invalid_request")


def test_a_round_is_scored_even_when_a_takeback_was_asked_while_the_job_ran(
    client: FlaskClient, app: Flask, run_worker: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create_game(client)  # original Kahuna: the round ends on a face-up draw, no refill
    play_randomly(client, game, random.Random(5), run_worker, until=lambda v: v["phase"] == "scoring")
    service = app.extensions[EXTENSION]
    stale = service.load(game["game_id"])  # what the scoring job read
    target = undo.undo_points(undo.live(stale.envelopes))[-1]
    asked = send(client, game, "takebacks", 1, {"to_version": target})
    assert asked.status_code == 201, asked.json
    reads = iter([stale])
    fresh = service.load
    monkeypatch.setattr(service, "load", lambda game_id, upto=None: next(reads, None) or fresh(game_id))

    assert service.score_round(game["game_id"], 1) is True

    now = view(client, game)
    assert (now["phase"], now["round"], now["takeback"]) == ("play", 2, None)  # the request lapsed
    log = EventStore(service.redis).read(game["game_id"])
    assert [e.type for e in log].count("RoundScored") == 1


# --- tournaments ---------------------------------------------------------------------------------


def test_tournament_games_refuse_undo_and_takebacks(client: FlaskClient) -> None:
    game = new_game(client, mode="tournament")
    version = view(client, game)["version"]
    play_with = {"If-Match": f'"{version}"'}
    command = next(c for c in legal_commands(client, game, 0)["commands"] if c["type"] == "PlaceBridge")
    assert post(client, game, 0, command, **play_with).status_code == 200

    refused(send(client, game, "undo", 0), 409, "undo_not_allowed_in_tournament")
    refused(
        send(client, game, "takebacks", 1, {"to_version": version}), 409, "undo_not_allowed_in_tournament"
    )
    refused(
        send(client, game, "takebacks/current", 1, {"accept": True}), 409, "undo_not_allowed_in_tournament"
    )


def test_the_organizer_corrects_a_tournament_game_with_a_reason(client: FlaskClient) -> None:
    game = new_game(client, mode="tournament", organizer="Ada")
    assert game["organizer_token"] not in game["tokens"]
    start, before = view(client, game)["version"], board(client, game)
    for kind in ("PlaceBridge", "SkipDraw"):
        version = view(client, game)["version"]
        command = next(c for c in legal_commands(client, game, 0)["commands"] if c["type"] == kind)
        assert post(client, game, 0, command, **{"If-Match": f'"{version}"'}).status_code == 200
    now = view(client, game)["version"]
    body = {"to_version": start, "reason": "seat 0 misplaced a bridge"}

    refused(send(client, game, "corrections", None, {"to_version": start}), 422, "invalid_request")
    refused(send(client, game, "corrections", None, {**body, "reason": "  "}), 422, "invalid_request")
    refused(send(client, game, "corrections", None, body), 428, "if_match_required")
    refused(send(client, game, "corrections", 0, body, **{"If-Match": f'"{now}"'}), 403, "organizer_only")
    anonymous = client.post(f"/games/{game['game_id']}/corrections", json=body)
    refused(anonymous, 401, "token_required")
    corrected = send(client, game, "corrections", None, body, **{"If-Match": f'"{now}"'})

    assert corrected.status_code == 200, corrected.json
    [event] = corrected.json["events"]
    assert (event["type"], event["actor"]) == ("Corrected", "organizer")
    assert event["data"] == {"to_version": start, "reason": "seat 0 misplaced a bridge", "organizer": "Ada"}
    assert board(client, game) == before


def test_the_view_says_whether_takebacks_go_across_reveals_only_in_practice_against_the_computer(
    client: FlaskClient,
) -> None:
    computer = {"name": "Bot", "ai": "greedy"}
    for seats, mode, across in (
        ([{"name": "Ann"}, computer], "casual", True),
        ([{"name": "Ann"}, {"name": "Ben"}], "casual", False),
        ([{"name": "Ann"}, computer], "tournament", False),
    ):
        created = client.post("/games", json={**LATER, "seats": seats, "mode": mode})
        assert created.status_code == 201, created.json
        game = {**created.json, "tokens": [s.get("token") for s in created.json["seats"]]}
        for seat in (0, None):
            assert view(client, game, seat)["undo"] == {"takeback_across_reveal": across}, (seats, mode)


def test_the_organizer_reads_the_game_as_a_spectator_does(client: FlaskClient) -> None:
    game = new_game(client, mode="tournament", organizer="Ada")
    organizer = bearer(game["organizer_token"])
    path = f"/games/{game['game_id']}"

    seen = client.get(path, headers=organizer)
    assert seen.status_code == 200, seen.json
    assert "hand" not in seen.json and seen.json["viewer"] is None
    assert board(client, game, None) == {k: v for k, v in seen.json.items() if k != "version"}
    feed = client.get(f"{path}/events", headers=organizer)
    assert feed.status_code == 200, feed.json
    assert feed.json == client.get(f"{path}/events").json
    exported = client.get(f"{path}/export", headers=organizer)
    assert exported.status_code == 200
    assert exported.data == client.get(f"{path}/export").data
    # The organizer holds no seat: what only a seat may do stays refused, as forbidden.
    refused(client.get(f"{path}/legal", headers=organizer), 403, "not_a_seat")
    refused(send(client, game, "commands", None, {"type": "SkipDraw"}), 403, "not_a_seat")


def test_casual_games_have_no_organizer(client: FlaskClient) -> None:
    game = new_game(client)
    assert "organizer_token" not in game
    answer = send(client, game, "corrections", 0, {"to_version": 1, "reason": "why not"})
    refused(answer, 403, "organizer_only")


# --- nothing is ever deleted -----------------------------------------------------------------


def test_undo_only_appends_the_stream_grows_and_the_hashes_chain(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = new_game(client)
    store = EventStore(redis_client)
    to_version, _ = two_turns(client, game)
    before = store.read(game["game_id"])
    send(client, game, "takebacks", 0, {"to_version": to_version})
    send(client, game, "takebacks/current", 1, {"accept": False})
    send(client, game, "takebacks", 0, {"to_version": to_version})
    send(client, game, "takebacks/current", 1, {"accept": True})
    play(client, game, 0, "PlaceBridge")
    send(client, game, "undo", 0)

    after = store.read(game["game_id"])

    assert after[: len(before)] == before
    assert [e.version for e in after] == list(range(1, len(after) + 1))
    assert verify_chain(after) is None
    assert [e.type for e in after[len(before) :]] == [
        "TakebackRequested",
        "TakebackAnswered",
        "TakebackDeclined",
        "TakebackRequested",
        "TakebackAnswered",
        "Undone",
        "CardsPlayed",
        "BridgePlaced",
        "Undone",
    ]


def test_the_openapi_document_lists_the_undo_endpoints(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").json["paths"]
    assert {
        "/games/{game_id}/undo",
        "/games/{game_id}/takebacks",
        "/games/{game_id}/takebacks/current",
        "/games/{game_id}/corrections",
    } <= set(paths)
    assert set(paths["/games/{game_id}/takebacks/current"]) >= {"get", "post"}
