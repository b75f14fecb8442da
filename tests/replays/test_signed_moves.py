"""Moves signed by the players who made them (record.seat_keys): a forger who holds the store but
not a seat's key can make a record that every hash and every rule finds whole — and the referee
replay names the forged command by its version, from the service and from the file alike."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import redis

from record.chain import verify_chain
from record.envelope import Envelope
from record.referee import REFEREED, referee
from replays import archive
from replays.cli import main
from service.chance import Dice
from service.embedded_redis import EmbeddedRedis
from service.games import GameService
from service.store import EventStore
from tests.replays.referee_play import SETUPS, forged_move, play, rechained, setup_of
from tests.seat_signing import SeatKey

CURVES = {"kahuna": "P-256", "nanuuk": "Ed25519", "paradise": "P-256"}


@pytest.fixture(scope="module")
def signed(redis_server: EmbeddedRedis) -> Iterator[dict[str, list[Envelope]]]:
    """One finished game of each family with both seats' moves signed, as the store holds it."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    service = GameService(EventStore(client), client, dice=Dice(20261128))
    games = {}
    for name in SETUPS:
        keys = {0: SeatKey(CURVES[name]), 1: SeatKey()}
        game_id = play(service, setup_of(name), random.Random(11), keys=keys)
        games[name] = service.store.read(game_id)
    client.flushall()
    client.close()
    yield games


def file_of(tmp_path: Path, envelopes: list[Envelope]) -> str:
    path = tmp_path / "game.jsonl"
    path.write_text(archive.export(envelopes, None, True), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_every_signed_command_of_a_finished_game_is_refereed_with_its_signature(
    signed: dict[str, list[Envelope]], name: str
) -> None:
    envelopes = signed[name]
    heads = [e for e in envelopes if e.command is not None and e.command.get("seat") is not None]
    assert heads and all((e.command_secret or e.command or {}).get("signature") for e in heads)

    found = referee(envelopes)

    assert (found.ok, found.status) == (True, REFEREED), found


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_another_legal_move_in_a_seats_place_rehashed_is_caught_by_its_signature(
    signed: dict[str, list[Envelope]], name: str
) -> None:
    forged, version = forged_move(signed[name], seat=0)
    assert verify_chain(forged) is None
    # Without the keys, the rules find nothing wrong with it: the move was legal.
    unkeyed = rechained(
        forged,
        1,
        lambda e: replace(e, data={**e.data, "seats": [{"name": s["name"]} for s in e.data["seats"]]}),
    )
    unsigned = [
        replace(e, command={k: v for k, v in e.command.items() if k != "signature"}) if e.command else e
        for e in unkeyed
    ]
    assert referee(rechained(unsigned, 2, lambda e: e)).ok

    found = referee(forged)

    assert found.first_fault == version
    assert "signature does not verify" in found.fault


def test_a_forged_move_with_its_signature_left_out_is_caught_as_unsigned(
    signed: dict[str, list[Envelope]],
) -> None:
    forged, version = forged_move(signed["kahuna"], seat=1)
    stripped = rechained(
        forged,
        version,
        lambda e: replace(e, command={k: v for k, v in (e.command or {}).items() if k != "signature"}),
    )

    found = referee(stripped)

    assert (found.first_fault, found.fault) == (version, "seat:1: the command carries no signature")


def test_replays_verify_names_the_forged_move_of_a_signed_game_file(
    signed: dict[str, list[Envelope]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", file_of(tmp_path, signed["nanuuk"])]) == 0
    assert "the rules referee" in capsys.readouterr().out
    forged, version = forged_move(signed["nanuuk"], seat=0)

    code = main(["verify", file_of(tmp_path, forged)])

    assert code == 1
    said = capsys.readouterr().err
    assert f"event {version}: the referee replay finds the command there at fault" in said
    assert "seat:0: the signature does not verify under the seat's key" in said
