"""Whole games of every family played through the GameService with random legal commands, and
forgeries of their records that keep the hash chain whole, for the referee replay's tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import redis

from domain.core import Score, Seats
from record.chain import ZERO_HASH, envelope_hash
from record.envelope import Envelope, to_fields
from service.games import GameService
from service.store import head_key, stream_key

NAMES = ("Ana", "Ben", "Cai")
SETUPS: dict[str, dict[str, Any]] = {
    "kahuna": {"game": "kahuna", "seats": 2},
    "nanuuk": {"game": "nanuuk", "seats": 2},
    "paradise": {"game": "conquest-of-paradise", "seats": 2, "options": {"last_turn": 2}},
}
"""One short game per family (the islands, Nanuuk!, Conquest of Paradise)."""


def setup_of(name: str, **more: Any) -> dict[str, Any]:
    spec = SETUPS[name]
    setup = {"game": spec["game"], "seats": [{"name": n} for n in NAMES[: spec["seats"]]], "first_seat": 0}
    if "options" in spec:
        setup["options"] = spec["options"]
    return {**setup, **more}


def play(service: GameService, setup: Mapping[str, Any], rng: random.Random, until: int | None = None) -> str:
    """A new game played to its end (or past version `until`) with random legal commands; its id.
    Scorings run in place, as the worker would."""
    game_id = service.create(setup).game_id
    for _ in range(5000):
        loaded = service.load(game_id)
        rules, state = loaded.rules, loaded.state
        if rules.is_terminal(state) or (until is not None and loaded.version >= until):
            return game_id
        pending = rules.pending_system(state)
        if isinstance(pending, Score):
            service.score_round(game_id, pending.round)
            continue
        waiting = rules.to_act(state)
        assert isinstance(waiting, Seats), waiting
        seat = rng.choice(waiting.seats)
        command = rng.choice(list(rules.legal_commands(state, seat)))
        service.execute(game_id, seat, command.to_json())
    raise AssertionError("no end after 5000 commands")


def rechained(
    envelopes: list[Envelope], version: int, change: Callable[[Envelope], Envelope]
) -> list[Envelope]:
    """The chain with event `version` changed by `change` and every hash from there on
    recomputed: a forgery the hash chain alone cannot tell."""
    fixed: list[Envelope] = []
    for envelope in envelopes:
        if envelope.version == version:
            envelope = change(envelope)
        if envelope.version >= version:
            envelope = replace(envelope, prev_hash=fixed[-1].hash if fixed else ZERO_HASH)
            envelope = replace(envelope, hash=envelope_hash(envelope))
        fixed.append(envelope)
    return fixed


def turns_of(envelopes: list[Envelope], seat: int) -> list[Envelope]:
    """The first envelopes of `seat`'s commands that the rules decide (not undos)."""
    return [
        e
        for e in envelopes
        if e.command is not None and e.command.get("seat") == seat and e.actor == f"seat:{seat}"
    ]


def out_of_turn(envelopes: list[Envelope]) -> tuple[list[Envelope], int]:
    """The record with one of seat 0's commands credited to seat 1 (its command, every event it
    caused, and every seat number those events name), re-hashed; and that command's version."""
    head = next(e for e in turns_of(envelopes, 0) if e.command_secret is None)
    batch = [e for e in envelopes if e.command_id == head.command_id]
    forged = envelopes
    for envelope in batch:

        def credit(e: Envelope) -> Envelope:
            data = {k: (1 if k == "seat" and v == 0 else v) for k, v in e.data.items()}
            command = None if e.command is None else {**e.command, "seat": 1}
            return replace(e, actor="seat:1", data=data, command=command)

        forged = rechained(forged, envelope.version, credit)
    return forged, head.version


def stored_as(client: redis.Redis, game_id: str, envelopes: list[Envelope]) -> None:
    """Write `envelopes` over the game's stream, and the head that vouches for its newest event,
    as someone with access to Redis could."""
    key = stream_key(game_id)
    positions = {int(i.decode().split("-")[1]): f[b"position"] for i, f in client.xrange(key)}
    client.delete(key)
    for envelope in envelopes:
        fields = {**to_fields(envelope), "position": positions[envelope.version]}
        client.xadd(key, fields, id=f"0-{envelope.version}")
    client.hset(head_key(game_id), mapping={"version": envelopes[-1].version, "hash": envelopes[-1].hash})
