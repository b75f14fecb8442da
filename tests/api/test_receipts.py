"""Signed receipts over HTTP: every command's answer carries one, the published key set verifies
them, the exports publish that key set, and the receipts a player kept catch a re-sealed rewrite
of the exported file (`replays verify --receipts`)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from record import receipts
from replays import archive
from replays.cli import main
from tests.api.helpers import bearer, create_game, play, post
from tests.api.tournament_helpers import create_tournament, organize, register
from tests.replays.play import rechained

KEYS_URL = "/.well-known/archipelago/keys"


def published(client: FlaskClient) -> dict[str, Any]:
    answer = client.get(KEYS_URL)
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def assert_signed(receipt: dict[str, Any], key_set: dict[str, Any], field: str, stream_id: str) -> None:
    assert receipts.form_fault(receipt) is None, receipt
    assert receipt[field] == stream_id
    assert receipts.signature_fault(receipt, receipts.public_keys(key_set)) is None


def test_the_key_set_is_one_ed25519_jwk_named_by_its_thumbprint(client: FlaskClient) -> None:
    key_set = published(client)
    [jwk] = key_set["keys"]
    assert (jwk["kty"], jwk["crv"], jwk["alg"], jwk["use"]) == ("OKP", "Ed25519", "EdDSA", "sig")
    assert jwk["kid"] == receipts.thumbprint(jwk)
    document = client.get("/openapi.json").json
    assert KEYS_URL in document["paths"]


def test_the_command_answers_declare_their_receipt_in_the_document(client: FlaskClient) -> None:
    schemas = client.get("/openapi.json").json["components"]["schemas"]
    for answer, receipt in [
        ("Executed", "Receipt"),
        ("TournamentExecuted", "TournamentReceipt"),
        ("Registered", "TournamentReceipt"),
    ]:
        assert schemas[answer]["properties"]["receipt"] == {"$ref": f"#/components/schemas/{receipt}"}
        assert "receipt" in schemas[answer]["required"]
    assert set(schemas["Receipt"]["required"]) == {"game_id", "version", "hash", "at", "kid", "sig"}


def test_a_whole_game_s_receipts_verify_and_catch_a_re_sealed_rewrite_of_its_export(
    client: FlaskClient,
    run_worker: Callable[[], None],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = create_game(client)
    game_id = game["game_id"]
    kept: list[dict[str, Any]] = []

    def keep(viewer: int | None, body: dict[str, Any]) -> None:
        if "receipt" in body:
            kept.append(body["receipt"])

    play(client, game, random.Random(3), run_worker, observe=keep)
    # The scoring that ended the game was the worker's: anyone may ask for the newest receipt.
    last = client.get(f"/games/{game_id}/receipt")
    assert last.status_code == 200, last.json
    kept.append(last.json)
    key_set = published(client)
    for receipt in kept:
        assert_signed(receipt, key_set, receipts.GAME, game_id)

    exported = client.get(f"/games/{game_id}/export").data
    read = archive.read(exported)
    assert read.header["keys"] == key_set
    assert kept[-1]["version"] == len(read.envelopes) and kept[-1]["hash"] == read.envelopes[-1].hash
    # An imported copy keeps the keys of the file it came from: its export is the same bytes.
    imported = client.post("/games/import", data=exported, content_type="application/x-ndjson")
    assert imported.status_code == 201, imported.json
    assert client.get(f"/games/{imported.json['game_id']}/export").data == exported
    held = tmp_path / "receipts.jsonl"
    held.write_text("".join(json.dumps(r) + "\n" for r in kept))
    sound = tmp_path / "game.jsonl"
    sound.write_bytes(exported)
    assert main(["verify", str(sound), "--receipts", str(held)]) == 0
    assert f"receipts: {len(kept)} checked" in capsys.readouterr().out

    ended = next(e for e in read.envelopes if e.type == "GameEnded")
    winner = 1 - (ended.data["winner"] or 0)
    forged = rechained(read.envelopes, ended.version, data={**ended.data, "winner": winner})
    rewritten = tmp_path / "forged.jsonl"
    rewritten.write_text(archive.export(forged, None, True, keys=read.header["keys"]))
    # Every hash re-sealed: the chain holds, but the rules' own end is another (the referee).
    assert main(["verify", str(rewritten)]) == 1
    assert "the referee replay" in capsys.readouterr().err
    # With its commands taken out too, it reads as a game stored before commands were
    # recorded, which verifies: only the receipts show the rewrite.
    uncommanded = [
        replace(e, command=None, command_secret=None, command_salt="", command_digest="") for e in forged
    ]
    rewritten.write_text(archive.export(rechained(uncommanded, 2), None, True, keys=read.header["keys"]))
    assert main(["verify", str(rewritten)]) == 0
    capsys.readouterr()
    assert main(["verify", str(rewritten), "--receipts", str(held)]) == 1
    err = capsys.readouterr().err
    assert f"(game {game_id}, event " in err and "): rewritten" in err


def test_a_retried_command_answers_the_same_receipt(client: FlaskClient) -> None:
    game = create_game(client)
    legal = client.get(f"/games/{game['game_id']}/legal", headers=bearer(game["tokens"][0])).json
    command = legal["commands"][0]
    first = post(client, game, 0, command, **{"Idempotency-Key": "k1"}).json
    again = post(client, game, 0, command, **{"Idempotency-Key": "k1"}).json
    assert again["duplicate"] is True
    assert again["receipt"] == first["receipt"]  # signed deterministically: the same bytes again


def test_every_change_to_a_tournament_answers_a_receipt_of_its_stream(client: FlaskClient) -> None:
    tournament = create_tournament(client, rounds=1)
    tournament_id = tournament["tournament_id"]
    key_set = published(client)
    answers = [register(client, tournament, name=name) for name in ("Ann", "Ben")]
    answers.append(organize(client, tournament, {"type": "StartTournament"}))
    for answer in answers:
        assert_signed(answer["receipt"], key_set, receipts.TOURNAMENT, tournament_id)
        assert answer["receipt"]["version"] == answer["version"]
    newest = client.get(f"/tournaments/{tournament_id}/receipt").json
    stream = client.get(f"/tournaments/{tournament_id}/events").json
    assert_signed(newest, key_set, receipts.TOURNAMENT, tournament_id)
    assert (newest["version"], newest["hash"]) == (stream["version"], stream["events"][-1]["hash"])
    bundle = client.get(f"/tournaments/{tournament_id}/export").data
    assert json.loads(bundle.split(b"\n", 1)[0])["keys"] == key_set
