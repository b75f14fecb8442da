"""Whole games of every family played through the GameService with random legal commands, and
forgeries of their records that keep the hash chain whole, for the referee replay's tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import redis

from domain.games import rules_for
from domain.turns import Score, Seats
from record.chain import ZERO_HASH, envelope_hash, seal
from record.commands import command_of, recorded, signature_of, with_command
from record.convert import to_event
from record.envelope import Envelope, NewEvent, to_fields
from service.games import GameService
from service.store import head_key, stream_key
from tests.families.registered import EVERY_MODULE, TEST_GAMES
from tests.seat_signing import SeatKey

NAMES = ("Ana", "Ben", "Cai")
SETUPS: dict[str, dict[str, Any]] = {
    "kahuna": {"game": "kahuna", "seats": 2},
    "nanuuk": {"game": "nanuuk", "seats": 2},
    "paradise": {"game": "conquest-of-paradise", "seats": 2, "options": {"last_turn": 2}},
}
"""One short game per family (the islands, Nanuuk!, Conquest of Paradise)."""
TEST_FAMILY_SETUPS: dict[str, dict[str, Any]] = {
    name: {"game": name, "seats": EVERY_MODULE[name].min_seats} for name in TEST_GAMES
}
"""One game of each family that lives in the tests (registered by the test that plays it)."""


def setup_of(name: str, **more: Any) -> dict[str, Any]:
    spec = {**SETUPS, **TEST_FAMILY_SETUPS}[name]
    setup = {"game": spec["game"], "seats": [{"name": n} for n in NAMES[: spec["seats"]]], "first_seat": 0}
    if "options" in spec:
        setup["options"] = spec["options"]
    return {**setup, **more}


def play(
    service: GameService,
    setup: Mapping[str, Any],
    rng: random.Random,
    until: int | None = None,
    keys: Mapping[int, SeatKey] | None = None,
) -> str:
    """A new game played to its end (or past version `until`) with random legal commands; its id.
    Scorings run in place, as the worker would. With `keys`, those seats hold them in the setup and
    sign every command at the version it expects, as a browser holding each seat's key sends them."""
    keys = keys or {}
    seats = [
        {**seat, **({"public_key": keys[n].jwk} if n in keys else {})}
        for n, seat in enumerate(setup["seats"])
    ]
    game_id = service.create({**setup, "seats": seats}).game_id
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
        body = rng.choice(list(rules.legal_commands(state, seat))).to_json()
        signature = keys[seat].sign(game_id, loaded.version, seat, body) if seat in keys else None
        service.execute(game_id, seat, body, expected_version=loaded.version, signature=signature)
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


def forged_move(envelopes: list[Envelope], seat: int) -> tuple[list[Envelope], int]:
    """The record as a forger without `seat`'s key makes it: cut before one of the seat's commands
    that had another legal choice, with that other command in its place — its events decided by
    the rules, the seat's signature copied from the command it replaces, the chain sealed again
    (a record the hash chain and the rules alike find whole). The forged command's version too."""
    rules = rules_for(envelopes[0].data["game"])
    state = rules.initial_state(envelopes[0].data)
    for n, envelope in enumerate(envelopes[1:], start=1):
        head = envelope
        record = head.command or {}
        if record.get("seat") == seat and head.command_secret is None and head.actor == f"seat:{seat}":
            original = command_of(head)
            assert original is not None
            others = [
                c
                for c in rules.legal_commands(state, seat)
                if c.to_json() != {"type": original.type, **original.args}
            ]
            if others and original.type not in ("Undo", "RegisterKey"):
                forged = others[0]
                events = rules.decide(state, forged)
                new = [NewEvent.recording(e, i, head.actor, head.command_id) for i, e in enumerate(events)]
                new = with_command(new, recorded(forged, events, signature_of(head)))
                return [*envelopes[:n], *seal(new, n, head.at, envelopes[n - 1].hash)], head.version
        state = rules.evolve(state, to_event(envelope))
    raise AssertionError(f"seat {seat} never had a choice")
