"""Random whole games for the replay tests: in the rules alone (sealed as the store would) or
through the GameService on the real Redis."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import redis

from domain.decider import Command, Event, fold
from domain.games import rules_for
from domain.islands import engine
from domain.islands import events as ev
from domain.turns import Score
from record.chain import ZERO_HASH, envelope_hash, seal
from record.commands import recorded, with_command
from record.envelope import Envelope, NewEvent
from service.games import GameService
from service.store import stream_key

NAMES = ("Ana", "Ben", "Cai", "Dee")
AT = "2026-11-22T10:00:00.000000Z"

# One setup per game and variant, small enough to keep the suite fast.
SETUPS: dict[str, dict[str, Any]] = {
    "kahuna": {"game": "kahuna", "seats": 2},
    "kahuna-later": {"game": "kahuna", "seats": 2, "options": {"edition": "thames-kosmos"}},
    "ikibiti": {"game": "arabana-ikibiti", "seats": 2},
    "ikibiti-ships": {"game": "arabana-ikibiti", "seats": 2, "options": {"seafarers": True}},
    "ikibiti-handicap": {
        "game": "arabana-ikibiti",
        "seats": 2,
        "options": {"handicap": {"seat": 1, "free_bridges": 2, "extra_cards": 1}},
    },
    "opodopo": {"game": "arabana-opodopo", "seats": 4},
    "opodopo-gods": {"game": "arabana-opodopo", "seats": 3, "options": {"gods": True}},
}


def setup_of(name: str, first_seat: int = 0, **more: Any) -> dict[str, Any]:
    """The POST /games body (and GameCreated data) of one of SETUPS."""
    spec = SETUPS[name]
    setup: dict[str, Any] = {
        "game": spec["game"],
        "seats": [{"name": n} for n in NAMES[: spec["seats"]]],
        "first_seat": first_seat,
        **more,
    }
    if "options" in spec:
        setup["options"] = spec["options"]
    return setup


def pick(rng: random.Random, state: Any, rules: Any = engine, seats: int | None = None) -> Command:
    """A random legal command for whoever must act, or the system's due command, by `rules` (the
    island engine, or a registered game's module with its number of `seats`)."""
    pending = rules.pending_system(state)
    if pending is None:
        every = range(state.seats if seats is None else seats)
        movers = [legal for seat in every if (legal := rules.legal_commands(state, seat))]
        legal = rng.choice(movers)
        kind = rng.choice(sorted({c.type for c in legal}))
        return rng.choice([c for c in legal if c.type == kind])
    return pending.answer(rng)


def sealed_game(
    rng: random.Random,
    setup: Mapping[str, Any],
    commands: bool = False,
    sign: Callable[[int, Command], str | None] | None = None,
) -> list[Envelope]:
    """A whole random game as the store would hold it: envelopes hash-chained, grouped by command;
    with `commands`, each command recorded on its first event as the service records it, and
    with `sign`, each seat's command with `sign(version it expects, command)` beside it."""
    state = engine.initial_state(setup)
    created: list[tuple[Command | None, list[Event]]] = [(None, [ev.game_created(dict(setup))])]
    batches: list[tuple[str, str, list[tuple[Command | None, list[Event]]], str | None]] = [
        ("organizer", "create-g", created, None)
    ]
    count = 1  # the events so far: the version a command expects
    while not engine.is_terminal(state):
        command = pick(rng, state)
        events = engine.decide(state, command)
        state = fold(engine, state, events)
        actor = "system" if command.seat is None else f"seat:{command.seat}"
        if command.type == "ScoreRound":
            actor = "worker"
        if command.type == "ShuffleDeck" and batches[-1][0] in ("organizer", "worker"):
            batches[-1][2].append((command, events))  # the service deals in the same append
            count += len(events)
            continue
        signature = None if sign is None or command.seat is None else sign(count, command)
        batches.append((actor, f"c{len(batches)}", [(command, events)], signature))
        count += len(events)
    envelopes: list[Envelope] = []
    for actor, command_id, steps, signature in batches:
        new: list[NewEvent] = []
        for step, events in steps:
            made = [NewEvent.recording(e, len(new) + i, actor, command_id) for i, e in enumerate(events)]
            if commands and step is not None:
                made = with_command(made, recorded(step, events, signature))
            new += made
        envelopes += seal(new, len(envelopes), AT, envelopes[-1].hash if envelopes else ZERO_HASH)
    return envelopes


def play_service(
    service: GameService, rng: random.Random, setup: Mapping[str, Any], *, until_version: int | None = None
) -> str:
    """A new game played with random legal commands through the GameService; its id."""
    game_id = service.create(setup).game_id
    play_on(service, game_id, rng, until_version=until_version)
    return game_id


def play_on(
    service: GameService, game_id: str, rng: random.Random, *, until_version: int | None = None
) -> None:
    """Random legal commands on the game to its end, or until it passed `until_version`.

    Scorings are run in place (as the worker would), whether or not the service queued them.
    Any registered game plays: its rules are the registry's.
    """
    for _ in range(5000):
        loaded = service.load(game_id)
        rules = rules_for(loaded.setup["game"])
        if rules.is_terminal(loaded.state) or (until_version and loaded.version >= until_version):
            return
        pending = rules.pending_system(loaded.state)
        if isinstance(pending, Score):
            service.score_round(game_id, pending.round)
            continue
        command = pick(rng, loaded.state, rules, len(loaded.setup["seats"]))
        assert command.seat is not None, command
        service.execute(game_id, command.seat, command.to_json())
    raise AssertionError("no end after 5000 commands")


def tampered(content: bytes, version: int, position: int, byte: int) -> bytes:
    """`content` with one byte of event `version`'s line (line version + 1) changed."""
    lines = content.split(b"\n")[:-1]
    line = bytearray(lines[version])
    line[position] = byte
    lines[version] = bytes(line)
    return b"\n".join(lines) + b"\n"


def rechained(envelopes: list[Envelope], version: int, **changes: Any) -> list[Envelope]:
    """The chain with event `version` changed and every hash from there on recomputed."""
    fixed: list[Envelope] = []
    for envelope in envelopes:
        if envelope.version == version:
            envelope = replace(envelope, **changes)
        if envelope.version >= version:
            envelope = replace(envelope, prev_hash=fixed[-1].hash if fixed else ZERO_HASH)
            envelope = replace(envelope, hash=envelope_hash(envelope))
        fixed.append(envelope)
    return fixed


# --- the bytes -----------------------------------------------------------------------------


def rewrite_stored_event(client: redis.Redis, game_id: str, version: int, data: bytes | None = None) -> None:
    """Change one byte of event `version`'s `data` straight in Redis, as someone with access
    to the server could: a stream entry cannot be edited, so the whole stream is deleted and
    written again with the same ids and fields, that one changed. The changed byte is the
    data's last digit, or else the last letter of a string, so the JSON stays valid and only
    the hash chain can tell. `data`, when given, replaces the whole data text instead."""
    key = stream_key(game_id)
    entries = client.xrange(key)
    client.delete(key)
    for entry_id, fields in entries:
        if entry_id == f"0-{version}".encode():
            fields = _with_data_changed(fields, data)
        client.xadd(key, fields, id=entry_id)


def _with_data_changed(fields: dict[bytes, bytes], data: bytes | None) -> dict[bytes, bytes]:
    """The entry's fields with its data's text changed, in its own field (events stored field
    by field) or inside the body (the canonical JSON of the hashed fields, keys sorted: `data`
    is the object between `"data":` and the last `,"event_id":`)."""
    if b"body" not in fields:
        return {**fields, b"data": _one_byte_changed(fields[b"data"]) if data is None else data}
    body = fields[b"body"]
    start = body.index(b',"data":') + len(b',"data":')
    end = body.rindex(b',"event_id":')
    changed = _one_byte_changed(body[start:end]) if data is None else data
    return {**fields, b"body": body[:start] + changed + body[end:]}


def _one_byte_changed(data: bytes) -> bytes:
    digits = [i for i, byte in enumerate(data) if chr(byte).isdigit()]
    if digits:
        at, changed = digits[-1], str((int(chr(data[digits[-1]])) + 1) % 10)
    else:
        at = max(i for i in range(len(data) - 1) if chr(data[i]).isalpha() and data[i + 1 : i + 2] == b'"')
        changed = "a" if chr(data[at]) == "z" else chr(data[at] + 1)
    return data[:at] + changed.encode() + data[at + 1 :]
