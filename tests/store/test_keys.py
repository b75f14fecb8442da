"""The key layouts: one Redis keeps the keys it always had; on a cluster every key of a game and
the all-events stream of its bucket share one slot, and the buckets spread over the primaries."""

from __future__ import annotations

import redis
from redis.cluster import RedisCluster, key_slot

from service.embedded_cluster import SLOTS, EmbeddedCluster
from service.keys import BUCKETS, CLUSTER, GAME, SINGLE, TOURNAMENT, layout_of
from service.seats import SeatTokens
from service.store import EventStore, NewEvent, stream_key

PARTS = ("events", "event_ids", "archive", "annotations", "seats", "organizer", "idempotency", "entrants")


def test_on_one_redis_a_game_keeps_the_keys_it_always_had() -> None:
    assert SINGLE.key(GAME, "g1", "events") == "game:{g1}:events"
    assert SINGLE.key(TOURNAMENT, "t1", "entrants") == "tournament:{t1}:entrants"
    assert SINGLE.all_streams(GAME) == ["events:$all"] == [SINGLE.all_stream(GAME, "g1")]
    assert SINGLE.all_streams(TOURNAMENT) == ["tournaments:$all"]


def test_on_a_cluster_every_key_of_a_game_shares_the_slot_of_its_bucket_stream() -> None:
    for index in range(500):
        for kind in (GAME, TOURNAMENT):
            game_id = f"game-{index}"
            slots = {key_slot(CLUSTER.key(kind, game_id, part).encode()) for part in PARTS}
            assert slots == {key_slot(CLUSTER.all_stream(kind, game_id).encode())}


def test_a_cluster_key_names_the_bucket_and_the_game() -> None:
    bucket = CLUSTER.bucket("g1")
    assert CLUSTER.key(GAME, "g1", "events") == f"game:{{b{bucket:04d}}}:g1:events"
    assert CLUSTER.all_stream(GAME, "g1") == f"events:{{b{bucket:04d}}}:$all"
    assert CLUSTER.all_stream(TOURNAMENT, "g1") == f"tournaments:{{b{bucket:04d}}}:$all"


def test_the_buckets_are_fixed_and_spread_over_three_primaries() -> None:
    assert BUCKETS == 1024 and len(set(CLUSTER.all_streams(GAME))) == BUCKETS
    thirds = [0, 0, 0]
    for stream in CLUSTER.all_streams(GAME):
        thirds[key_slot(stream.encode()) * 3 // SLOTS] += 1
    assert all(BUCKETS * 0.28 < count < BUCKETS * 0.39 for count in thirds), thirds
    # A checksum, not Python's salted hash: every process files a game in the same bucket.
    assert [CLUSTER.bucket(f"g{i}") for i in range(3)] == [819, 933, 543]


def test_the_layout_follows_the_client(redis_client: redis.Redis, cluster_client: RedisCluster) -> None:
    assert layout_of(redis_client) is SINGLE
    assert layout_of(cluster_client) is CLUSTER


def test_games_on_a_cluster_land_on_every_primary_with_their_bucket_streams(
    redis_cluster: EmbeddedCluster, cluster_client: RedisCluster
) -> None:
    store, seats = EventStore(cluster_client), SeatTokens(cluster_client)
    for index in range(30):
        store.append(f"g{index}", 0, [NewEvent(f"c{index}:0", "A", {})])
        seats.issue(f"g{index}", 2)
    held = [set(redis_cluster.admin(node).keys()) for node in redis_cluster.nodes]
    assert all(held), "every primary holds some games"
    for index in range(30):
        game_keys = {
            stream_key(f"g{index}", layout=CLUSTER).encode(),
            CLUSTER.key(GAME, f"g{index}", "seats").encode(),
            CLUSTER.all_stream(GAME, f"g{index}").encode(),
        }
        assert sum(game_keys <= keys for keys in held) == 1, "a game's keys and its bucket stream on one node"
