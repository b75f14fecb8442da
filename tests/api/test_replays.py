"""Replays over HTTP: views at a version, the game in words, export/import, notation, annotations."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from replays import notation
from service.api.context import EXTENSION
from service.games import GameService
from tests.api.helpers import bearer, create_game, events, post
from tests.backends import store_backend  # noqa: F401  (on one Redis and on a cluster)
from tests.replays.play import play_on

NDJSON = "application/x-ndjson"
A, B = 0, 1


def service_of(app: Flask) -> GameService:
    service: GameService = app.extensions[EXTENSION]
    return service


def played(
    app: Flask, client: FlaskClient, seed: int, until_version: int | None = None, **setup: Any
) -> dict[str, Any]:
    """A game created over HTTP (so its seats hold tokens), played with random legal commands."""
    game = create_game(client, **setup)
    play_on(service_of(app), game["game_id"], random.Random(seed), until_version=until_version)
    return game


def export(client: FlaskClient, game_id: str, seat_token: str | None = None) -> bytes:
    headers = bearer(seat_token) if seat_token else {}
    answer = client.get(f"/games/{game_id}/export", headers=headers)
    assert answer.status_code == 200 and answer.mimetype == NDJSON
    return answer.get_data()


def annotate(client: FlaskClient, game_id: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = bearer(token) if token else {}
    return client.post(f"/games/{game_id}/annotations", json=body, headers=headers)


# --- views at a version --------------------------------------------------------------------


def test_a_seat_sees_only_its_own_hand_at_every_version(app: Flask, client: FlaskClient) -> None:
    game = played(app, client, seed=1, until_version=70)
    service = service_of(app)
    for at in range(1, service.load(game["game_id"]).version + 1):
        answer = client.get(f"/games/{game['game_id']}?at={at}", headers=bearer(game["tokens"][A]))

        body = answer.json
        assert answer.status_code == 200 and body["version"] == at
        assert "hands" not in body and all("hand" not in seat for seat in body["seats"])
        assert body["hand"] == list(service.load(game["game_id"], upto=at).state.hands[A])
        spectator = client.get(f"/games/{game['game_id']}?at={at}").json
        assert "hand" not in spectator and "hands" not in spectator


@pytest.mark.parametrize("at", ["0", "9999", "-1"])
def test_a_version_outside_the_game_is_refused(app: Flask, client: FlaskClient, at: str) -> None:
    game = played(app, client, seed=2, until_version=10)

    answer = client.get(f"/games/{game['game_id']}?at={at}")

    assert answer.status_code == 422
    assert answer.json["code"] == "at_out_of_range" and "at" in answer.json["errors"]


def test_after_the_end_a_replay_shows_every_hand_unless_the_game_keeps_them(
    app: Flask, client: FlaskClient
) -> None:
    open_game = played(app, client, seed=3)
    kept = played(app, client, seed=3, reveal_after_end=False)

    shown = client.get(f"/games/{open_game['game_id']}?at=20").json
    hidden = client.get(f"/games/{kept['game_id']}?at=20").json

    past = service_of(app).load(open_game["game_id"], upto=20).state
    assert shown["hands"] == [list(hand) for hand in past.hands]
    assert "hands" not in hidden


def draw_from_the_stack(service: GameService, game_id: str, turns: int) -> None:
    """Each seat in turn draws from the stack (at the start of a game: the stack is full)."""
    for _ in range(turns):
        seat = service.load(game_id).state.active
        service.execute(game_id, seat, {"type": "DrawCard", "source": "stack"})


# --- the game in words -----------------------------------------------------------------------


def test_the_replay_describes_each_command_as_the_viewer_may_know_it(app: Flask, client: FlaskClient) -> None:
    game = create_game(client)
    draw_from_the_stack(service_of(app), game["game_id"], turns=4)
    play_on(service_of(app), game["game_id"], random.Random(4), until_version=60)

    body = client.get(f"/games/{game['game_id']}/replay", headers=bearer(game["tokens"][A])).json

    steps = body["steps"]
    assert [s["version"] for s in steps] == sorted({s["version"] for s in steps})
    assert steps[-1]["version"] == body["version"]
    assert steps[0]["description"].startswith("New game of Kahuna for Ann and Ben")
    draws = [s for s in steps if s["types"][0] == "CardDrawn" and "from the stack" in s["description"]]
    assert draws
    for step in draws:
        if step["actor"] == f"seat:{B}":
            assert step["description"] == "Ben draws from the stack"
        else:
            assert (
                step["description"].startswith("Ann draws ")
                and step["description"] != "Ann draws from the stack"
            )
    dealt = steps[0]["description"]
    assert "Ben is dealt 3 cards" in dealt and "Ann is dealt 3 cards" not in dealt


def test_after_the_end_the_replay_names_the_cards_drawn(app: Flask, client: FlaskClient) -> None:
    game = played(app, client, seed=5)

    steps = client.get(f"/games/{game['game_id']}/replay").json["steps"]

    stack = [s["description"] for s in steps if s["types"][0] == "CardDrawn" and "stack" in s["description"]]
    assert stack and all(d != "Ann draws from the stack" and d != "Ben draws from the stack" for d in stack)


# --- export and import ---------------------------------------------------------------------


def test_export_import_export_over_http_gives_the_same_bytes(app: Flask, client: FlaskClient) -> None:
    game = played(app, client, seed=6, until_version=30)
    assert (
        annotate(
            client, game["game_id"], {"version": 12, "kind": "mark", "mark": "!"}, game["tokens"][A]
        ).status_code
        == 201
    )
    play_on(service_of(app), game["game_id"], random.Random(6))
    guest = {"version": 0, "kind": "comment", "text": "A fine game", "author": "Kibitz"}
    assert annotate(client, game["game_id"], guest).status_code == 201
    exported = export(client, game["game_id"])

    answer = client.post("/games/import", data=exported, content_type=NDJSON)

    assert answer.status_code == 201, answer.json
    imported = answer.json
    assert (
        imported["archived"] is True and imported["version"] == json.loads(exported.split(b"\n")[0])["events"]
    )
    assert answer.headers["Location"].endswith(f"/games/{imported['game_id']}")
    assert export(client, imported["game_id"]) == exported
    assert export(client, game["game_id"], game["tokens"][B]) == exported
    as_json = client.post("/games/import", json={"jsonl": exported.decode()})
    assert as_json.status_code == 201 and export(client, as_json.json["game_id"]) == exported


def test_an_archived_game_refuses_commands_whatever_the_token(app: Flask, client: FlaskClient) -> None:
    game = played(app, client, seed=7)
    imported = client.post("/games/import", data=export(client, game["game_id"]), content_type=NDJSON).json
    archived = {**game, "game_id": imported["game_id"]}

    answer = post(client, archived, A, {"type": "DrawCard", "source": "stack"})

    assert (answer.status_code, answer.json["code"]) == (409, "game_archived")
    assert client.get(f"/games/{imported['game_id']}?at=5").status_code == 200
    assert client.get(f"/games/{imported['game_id']}").json["phase"] == "ended"


def test_a_tampered_file_is_refused_naming_the_event(app: Flask, client: FlaskClient) -> None:
    game = played(app, client, seed=8)
    lines = export(client, game["game_id"]).split(b"\n")
    lines[17] = lines[17].replace(b'"hash":"', b'"hash":"f', 1)[:-2] + b'"}'

    answer = client.post("/games/import", data=b"\n".join(lines), content_type=NDJSON)

    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert (answer.json["code"], answer.json["version"]) == ("verify_failed", 17)
    assert "event 17" in answer.json["detail"]


def test_a_live_export_is_redacted_and_cannot_be_imported(app: Flask, client: FlaskClient) -> None:
    game = played(app, client, seed=9, until_version=40)
    exported = export(client, game["game_id"], game["tokens"][A])
    header = json.loads(exported.split(b"\n")[0])

    answer = client.post("/games/import", data=exported, content_type=NDJSON)

    assert header["complete"] is False and header["redacted_for"] == A
    assert (answer.status_code, answer.json["code"]) == (422, "incomplete_export")


@pytest.mark.parametrize(
    ("data", "content_type", "status", "code"),
    [
        (b"not a game\n", NDJSON, 422, "verify_failed"),
        (b"", NDJSON, 422, "verify_failed"),
        (b'{"jsonl": 3}', "application/json", 422, "invalid_request"),
        (b"<game/>", "application/xml", 415, "unsupported_media_type"),
    ],
)
def test_an_unreadable_import_is_refused(
    client: FlaskClient, data: bytes, content_type: str, status: int, code: str
) -> None:
    answer = client.post("/games/import", data=data, content_type=content_type)

    assert (answer.status_code, answer.json["code"]) == (status, code)


# --- notation --------------------------------------------------------------------------------


def test_the_notation_is_text_for_the_viewer_and_parses(app: Flask, client: FlaskClient) -> None:
    game = played(app, client, seed=10, until_version=60)

    answer = client.get(f"/games/{game['game_id']}/notation", headers=bearer(game["tokens"][B]))

    assert answer.status_code == 200 and answer.mimetype == "text/plain"
    record = notation.parse(answer.get_data(as_text=True))
    assert record.tag("Viewer") == "Ben" and record.tag("Result") == "*"
    deal = record.lines[0]
    assert isinstance(deal, notation.Note)
    assert {i.who: i.args for i in deal.items if i.key == "hand"}["Ann"] == ("?3",)


# --- annotations -----------------------------------------------------------------------------


def test_seats_annotate_their_game_in_play_and_keep_their_notes_to_themselves(
    app: Flask, client: FlaskClient
) -> None:
    game = played(app, client, seed=11, until_version=30)
    before = events(client, game)["events"]

    mine = annotate(
        client, game["game_id"], {"version": 30, "kind": "highlight", "islands": ["LALE"]}, game["tokens"][A]
    )
    guest = annotate(client, game["game_id"], {"version": 3, "kind": "comment", "text": "x", "author": "Zoe"})

    assert mine.status_code == 201
    shown = {k: mine.json[k] for k in ("layer", "author_kind", "seat", "version", "kind", "islands")}
    assert shown == {
        "layer": "Ann",
        "author_kind": "seat",
        "seat": A,
        "version": 30,
        "kind": "highlight",
        "islands": ["LALE"],
    }
    assert (guest.status_code, guest.json["code"]) == (401, "token_required")

    def listed(token: str | None) -> list[dict[str, Any]]:
        headers = bearer(token) if token else {}
        notes: list[dict[str, Any]] = client.get(
            f"/games/{game['game_id']}/annotations", headers=headers
        ).json["annotations"]
        return notes

    assert [n["layer"] for n in listed(game["tokens"][A])] == ["Ann"]
    assert listed(game["tokens"][B]) == [] and listed(None) == []
    assert events(client, game)["events"] == before


def test_anyone_named_annotates_a_finished_game(app: Flask, client: FlaskClient) -> None:
    game = played(app, client, seed=12)
    game_id = game["game_id"]
    version = client.get(f"/games/{game_id}").json["version"]

    nameless = annotate(client, game_id, {"version": 3, "kind": "comment", "text": "x"})
    named = annotate(client, game_id, {"version": version, "kind": "mark", "mark": "??", "author": "Zoe"})
    program = {"author": "bot", "author_kind": "analysis"}
    engine = annotate(
        client, game_id, {"version": 5, "kind": "highlight", "lines": [["BARI", "ALOA"]], **program}
    )
    late = annotate(
        client, game_id, {"version": version + 1, "kind": "comment", "text": "x", "author": "Zoe"}
    )
    seat = annotate(client, game_id, {"version": 1, "kind": "comment", "text": "gg"}, game["tokens"][B])

    assert (nameless.status_code, nameless.json["code"]) == (422, "author_required")
    assert named.status_code == 201 and named.json["layer"] == "Zoe" and named.json["author_kind"] == "guest"
    assert engine.status_code == 201 and engine.json["lines"] == [["ALOA", "BARI"]]
    assert (late.status_code, late.json["code"]) == (422, "version_out_of_range")
    assert seat.status_code == 201
    zoe = client.get(f"/games/{game_id}/annotations?layer=Zoe").json["annotations"]
    assert [n["mark"] for n in zoe] == ["??"]
    replay = client.get(f"/games/{game_id}/replay").json
    assert [n["layer"] for n in replay["annotations"]] == ["Zoe", "bot", "Ben"]


@pytest.mark.parametrize(
    "body",
    [
        {"version": 1, "kind": "mark", "mark": "!!!", "author": "Zoe"},
        {"version": 1, "kind": "remark", "text": "x", "author": "Zoe"},
        {"version": -1, "kind": "comment", "text": "x", "author": "Zoe"},
        {"version": 1, "kind": "comment", "text": "x", "author": "Z" * 61},
    ],
)
def test_malformed_annotations_are_refused(app: Flask, client: FlaskClient, body: dict[str, Any]) -> None:
    game = played(app, client, seed=13, until_version=5)

    answer = annotate(client, game["game_id"], body)

    assert (answer.status_code, answer.json["code"]) == (422, "invalid_request")


def test_the_openapi_document_lists_the_replay_endpoints(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").json["paths"]

    assert {
        "/games/{game_id}/replay",
        "/games/{game_id}/export",
        "/games/{game_id}/notation",
        "/games/import",
        "/games/{game_id}/annotations",
    } <= set(paths)
    assert {"application/x-ndjson", "application/json"} <= set(
        paths["/games/import"]["post"]["requestBody"]["content"]
    )
