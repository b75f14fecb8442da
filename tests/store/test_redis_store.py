"""What only the Redis store promises: its key layout, durability and server check."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path

import pytest
import redis

from service.embedded_redis import EmbeddedRedis, start_redis
from service.errors import UnsupportedServer, VersionConflict
from service.store import (
    GLOBAL_STREAM,
    EventStore,
    NewEvent,
    check_server,
    event_ids_key,
    stream_key,
    verify_chain,
)

GAME = "g-1"


def test_keys_share_the_game_hash_tag() -> None:
    assert (stream_key("42"), event_ids_key("42")) == ("game:{42}:events", "game:{42}:event_ids")


def test_stream_ids_are_versions_and_fields_are_json(
    event_store: EventStore, redis_client: redis.Redis
) -> None:
    event_store.append(
        GAME,
        0,
        [
            NewEvent("c1:0", "A", {"x": [1, 2]}),
            NewEvent("c1:1", "B", {}, secret={"s": 1}, audience=(0, 2)),
        ],
    )
    entries = redis_client.xrange(stream_key(GAME))
    assert [entry_id for entry_id, _ in entries] == [b"0-1", b"0-2"]
    fields = entries[1][1]
    assert list(fields) == [b"body", b"secret", b"salt", b"command_hidden", b"hash", b"position"]
    assert fields[b"position"] == b"2"
    body = json.loads(fields[b"body"])
    assert (body["version"], body["data"], body["audience"]) == (2, {}, [0, 2])
    assert json.loads(fields[b"secret"]) == {"s": 1}
    assert hashlib.sha256(fields[b"body"]).hexdigest() == fields[b"hash"].decode()
    ids = redis_client.hgetall(event_ids_key(GAME))
    assert {field: version for field, version in ids.items() if field} == {b"c1:0": b"1", b"c1:1": b"2"}
    # Its field '' keeps the hash a table, so the next append looks its ids up without a scan.
    assert redis_client.object("encoding", event_ids_key(GAME)) == b"hashtable"


def test_global_stream_ids_are_positions_and_entries_carry_the_append_time(
    event_store: EventStore, redis_client: redis.Redis
) -> None:
    event_store.append("g-a", 0, [NewEvent("a:0", "A", {}), NewEvent("a:1", "B", {})])
    event_store.append("g-b", 0, [NewEvent("b:0", "A", {})])
    at = {(e.event_id): e.at.encode() for game in ("g-a", "g-b") for e in event_store.read(game)}
    assert redis_client.xrange(GLOBAL_STREAM) == [
        (b"0-1", {b"game": b"g-a", b"version": b"1", b"at": at["a:0"]}),
        (b"0-2", {b"game": b"g-a", b"version": b"2", b"at": at["a:1"]}),
        (b"0-3", {b"game": b"g-b", b"version": b"1", b"at": at["b:0"]}),
    ]


def test_pointers_written_before_they_carried_the_time_still_read(
    event_store: EventStore, redis_client: redis.Redis
) -> None:
    redis_client.xadd(GLOBAL_STREAM, {"game": "old", "version": "1"}, id="0-1")
    event_store.append("new", 0, [NewEvent("n:0", "A", {})])
    old, new = event_store.read_pointers()
    assert (old.game_id, old.position, old.at) == ("old", 1, "")
    assert (new.game_id, new.position, new.at) == ("new", 2, event_store.read("new")[0].at)


def test_conflict_touches_no_key(event_store: EventStore, redis_client: redis.Redis) -> None:
    event_store.append(GAME, 0, [NewEvent("c1:0", "A", {})])
    keys = sorted(redis_client.keys())
    sizes = (
        redis_client.xlen(stream_key(GAME)),
        redis_client.hlen(event_ids_key(GAME)),
        redis_client.xlen(GLOBAL_STREAM),
    )
    with pytest.raises(VersionConflict):
        event_store.append(GAME, 0, [NewEvent("c2:0", "B", {})])
    assert sorted(redis_client.keys()) == keys
    assert (
        redis_client.xlen(stream_key(GAME)),
        redis_client.hlen(event_ids_key(GAME)),
        redis_client.xlen(GLOBAL_STREAM),
    ) == sizes


def test_a_client_decoding_responses_works_too(
    redis_server: EmbeddedRedis, redis_client: redis.Redis
) -> None:
    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    store = EventStore(client)
    store.append(GAME, 0, [NewEvent("c1:0", "A", {"ü": 1})])
    assert store.append(GAME, 0, [NewEvent("c1:0", "A", {"ü": 1})]).duplicate
    assert store.read_all() == [(1, GAME, 1)]
    assert [e.data for e in store.wait(GAME, 0, 100)] == [{"ü": 1}]
    client.close()


def test_acknowledged_append_survives_kill_9(tmp_path: Path) -> None:
    server = start_redis(tmp_path, appendfsync="always")
    try:
        client = redis.Redis.from_url(server.url)
        result = EventStore(client).append(GAME, 0, [NewEvent("c1:0", "BridgePlaced", {"a": 1})])
        client.close()
        assert result.versions == [1]
        server.stop(kill=True)
        assert server.process.returncode == -9
        server = start_redis(tmp_path, appendfsync="always")
        client = redis.Redis.from_url(server.url)
        stored = EventStore(client).read(GAME)
        client.close()
        assert [(e.version, e.type, e.data) for e in stored] == [(1, "BridgePlaced", {"a": 1})]
        assert verify_chain(stored) is None
    finally:
        server.stop()


def test_check_server_accepts_redis_6_2(redis_client: redis.Redis) -> None:
    assert check_server(redis_client)[:2] >= (6, 2)


class OldServer:
    """Answers INFO like a Redis 6.0 would; the store must refuse it before any command."""

    def info(self, section: str) -> dict[str, str]:
        return {"redis_version": "6.0.16"}


def test_check_server_refuses_redis_older_than_6_2() -> None:
    with pytest.raises(UnsupportedServer) as raised:
        check_server(OldServer())  # type: ignore[arg-type]
    assert raised.value.code == "unsupported_redis"


def test_wait_blocks_for_the_timeout(event_store: EventStore) -> None:
    started = time.monotonic()
    assert event_store.wait(GAME, 0, 200) == []
    assert time.monotonic() - started >= 0.19


def test_a_wait_longer_than_the_socket_timeout_blocks_in_turns_and_wakes_on_an_append(
    redis_server: EmbeddedRedis, event_store: EventStore
) -> None:
    # The service's clients give up after a socket timeout (service.redis_clients); a live
    # event stream still waits longer than that for the next event.
    short = EventStore(redis.Redis.from_url(redis_server.url, socket_timeout=0.4))
    started = time.monotonic()
    assert short.wait(GAME, 0, 1000) == []
    assert time.monotonic() - started >= 0.99

    timer = threading.Timer(0.6, lambda: event_store.append(GAME, 0, [NewEvent("c:0", "A", {})]))
    timer.start()
    try:
        woken = short.wait(GAME, 0, 2000)
    finally:
        timer.join()
    assert [e.event_id for e in woken] == ["c:0"]
