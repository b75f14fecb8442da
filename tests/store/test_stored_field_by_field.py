"""Games stored before one body held an event's hashed fields still read, verify, fold and grow.

stored_field_by_field.json holds the first 24 events of a Kahuna game exactly as the stream
held them then (each envelope field in its own stream field, four of them with a secret).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import redis

from record.envelope import NewEvent
from service.games import GameService
from service.store import GLOBAL_STREAM, EventStore, event_ids_key, stream_key, verify_chain

STORED = Path(__file__).with_name("stored_field_by_field.json")
BEFORE, AFTER = "stored-before", "stored-after"


def stored_entries() -> list[dict[str, str]]:
    entries: list[dict[str, str]] = json.loads(STORED.read_text(encoding="utf-8"))
    return entries


def write_as_stored(client: redis.Redis, game_id: str, entries: list[dict[str, str]]) -> None:
    """The entries written verbatim, with the event ids and global pointers an append wrote."""
    for fields in entries:
        client.xadd(stream_key(game_id), fields, id=f"0-{fields['version']}")
        client.hset(event_ids_key(game_id), fields["event_id"], fields["version"])
        pointer = {"game": game_id, "version": fields["version"]}
        client.xadd(GLOBAL_STREAM, pointer, id=f"0-{fields['position']}")


def without_position(envelopes: list[Any]) -> list[Any]:
    return [replace(e, position=0) for e in envelopes]


def test_a_game_stored_field_by_field_reads_and_folds_as_the_same_game_stored_with_bodies(
    event_store: EventStore, redis_client: redis.Redis
) -> None:
    write_as_stored(redis_client, BEFORE, stored_entries())
    before = event_store.read(BEFORE)
    assert verify_chain(before) is None

    event_store.import_verbatim(AFTER, before, archive="{}")

    (_, rewritten), *_ = redis_client.xrange(stream_key(AFTER), count=1)
    assert b"body" in rewritten and b"data" not in rewritten
    after = event_store.read(AFTER)
    assert without_position(after) == without_position(before)
    assert [e.hash for e in after] == [entry["hash"] for entry in stored_entries()]
    service = GameService(event_store, redis_client)
    loaded_before, loaded_after = service.load(BEFORE), service.load(AFTER)
    assert (loaded_before.broken, loaded_after.broken) == (None, None)
    assert loaded_before.version == loaded_after.version == 24
    assert loaded_before.state == loaded_after.state


def test_a_game_stored_field_by_field_takes_new_events_onto_its_chain(
    event_store: EventStore, redis_client: redis.Redis
) -> None:
    write_as_stored(redis_client, BEFORE, stored_entries())
    service = GameService(event_store, redis_client)
    loaded = service.load(BEFORE)
    command = next(c for seat in (0, 1) for c in loaded.rules.legal_commands(loaded.state, seat))
    decided = loaded.rules.decide(loaded.state, command)
    batch = [NewEvent.recording(e, i, f"seat:{command.seat}", "late") for i, e in enumerate(decided)]

    event_store.append(BEFORE, 24, batch)

    entries = redis_client.xrange(stream_key(BEFORE))
    assert [set(fields) >= {b"version", b"data"} for _, fields in entries[:24]] == [True] * 24
    assert all(b"body" in fields for _, fields in entries[24:])
    assert service.verify(BEFORE).first_bad is None
    service.forget(BEFORE)
    grown = service.load(BEFORE)
    assert grown.broken is None and grown.version == 24 + len(decided)


def test_a_changed_event_of_a_game_stored_field_by_field_breaks_its_chain_there(
    event_store: EventStore, redis_client: redis.Redis
) -> None:
    entries = stored_entries()
    assert entries[7]["data"].count('"seat":0') == 1
    entries[7] = {**entries[7], "data": entries[7]["data"].replace('"seat":0', '"seat":1')}
    write_as_stored(redis_client, BEFORE, entries)

    assert verify_chain(event_store.read(BEFORE)) == 8
    assert GameService(event_store, redis_client).load(BEFORE).broken == 8
