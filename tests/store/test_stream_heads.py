"""The head every append writes (service/append.lua): a tail deleted from a stream outside the
service is refused as chain_truncated by a read to the end and by the next append, which writes
nothing; a stream cut before its head existed is read as it is."""

from __future__ import annotations

import pytest
import redis
from redis.cluster import RedisCluster

from service.errors import ChainTruncated
from service.keys import layout_of
from service.store import GAME, TOURNAMENT, EventStore, NewEvent, head_key, stream_key

STREAM = "cut-1"


def _events(command_id: str, count: int) -> list[NewEvent]:
    return [NewEvent(f"{command_id}:{i}", "Noted", {"i": i}, command_id=command_id) for i in range(count)]


@pytest.fixture(params=["redis", "cluster"])
def client(request: pytest.FixtureRequest) -> redis.Redis | RedisCluster:
    name = "redis_client" if request.param == "redis" else "cluster_client"
    return request.getfixturevalue(name)  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", [GAME, TOURNAMENT])
def test_a_cut_tail_is_chain_truncated_for_a_read_and_an_append(
    client: redis.Redis | RedisCluster, kind: str
) -> None:
    store = EventStore(client, kind=kind)
    store.append(STREAM, 0, _events("a", 3))
    store.append(STREAM, 3, _events("b", 2))
    key = stream_key(STREAM, kind, layout_of(client))
    assert client.hgetall(head_key(STREAM, kind, layout_of(client)))[b"version"] == b"5"

    client.xdel(key, "0-4", "0-5")

    for read in (
        lambda: store.read(STREAM),
        lambda: store.read(STREAM, after=3),
        lambda: store.read(STREAM, after=4),
    ):
        with pytest.raises(ChainTruncated) as cut:
            read()
        assert (cut.value.code, cut.value.stored_version, cut.value.vouched_version) == (
            "chain_truncated",
            3,
            5,
        )
    assert [e.version for e in store.read(STREAM, upto=3)] == [1, 2, 3], "a read up to a version is not cut"
    with pytest.raises(ChainTruncated):
        store.append(STREAM, 3, _events("c", 1))
    with pytest.raises(ChainTruncated):
        store.append(STREAM, 3, _events("b", 2))  # a retry of the lost batch is no retry either
    assert client.xlen(key) == 3, "nothing written after the cut"


def test_a_stream_without_a_head_reads_as_it_is(client: redis.Redis | RedisCluster) -> None:
    store = EventStore(client)
    store.append(STREAM, 0, _events("a", 3))
    client.delete(head_key(STREAM, GAME, layout_of(client)))  # as stored before heads existed
    client.xdel(stream_key(STREAM, GAME, layout_of(client)), "0-3")

    assert [e.version for e in store.read(STREAM)] == [1, 2]


def test_an_append_after_a_gap_in_the_all_events_stream_points_past_its_newest_entry(
    client: redis.Redis | RedisCluster,
) -> None:
    store = EventStore(client)
    store.append(STREAM, 0, _events("a", 2))
    all_events = layout_of(client).all_stream(GAME, STREAM)
    newest = int(client.xrevrange(all_events, count=1)[0][0].decode().partition("-")[2])
    client.xadd(all_events, {"game": "elsewhere", "version": "1", "at": ""}, id=f"0-{newest + 10}")

    appended = store.append(STREAM, 2, _events("b", 2))

    assert appended.positions == [newest + 11, newest + 12]
    assert [e.position for e in store.read(STREAM)][2:] == [newest + 11, newest + 12]
    pointers = client.xrange(all_events, f"0-{newest + 11}", "+")
    assert [(p[b"game"], p[b"version"]) for _, p in pointers] == [
        (STREAM.encode(), b"3"),
        (STREAM.encode(), b"4"),
    ]


def test_a_stream_without_a_head_that_lost_its_tail_takes_no_append_and_no_pointer(
    client: redis.Redis | RedisCluster,
) -> None:
    store = EventStore(client)
    store.append(STREAM, 0, _events("a", 3))
    layout = layout_of(client)
    client.delete(head_key(STREAM, GAME, layout))  # as stored before heads existed
    client.xdel(stream_key(STREAM, GAME, layout), "0-3")  # Redis still refuses ids up to 0-3
    all_events = layout.all_stream(GAME, STREAM)
    pointers = client.xlen(all_events)

    with pytest.raises(redis.ResponseError):
        store.append(STREAM, 2, _events("b", 1))

    assert client.xlen(all_events) == pointers, "no pointer to an event that was never written"
    assert [e.version for e in store.read(STREAM)] == [1, 2]
