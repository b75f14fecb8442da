"""The one-time move of a single Redis's events onto an empty Redis Cluster (deploy/CLUSTER.md).

`python -m service.migrate_to_cluster --source redis://old:6379/0 --target redis://node1:6379/0`
with the service stopped. Every game and tournament keeps its id, events, hashes, seat tokens,
idempotency keys, archive header and annotations, and every player (service.players) its
secret; their keys take their bucket's hash tag, and each event gets a position in its
bucket's all-events stream, in the order of the one stream it came from (a position is not
hashed, so every chain still holds). The ratings are not copied: the projection reads every
bucket stream again at its next update. Every other key (RQ's queues, the sweeper's lists,
the rate limits) stays where it is: the old Redis can go on as RQ's Redis
(`RQ_REDIS_URL`).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import redis
from redis.cluster import RedisCluster

from record.envelope import from_fields
from service.games import GameService
from service.keys import CLUSTER, GLOBAL_STREAMS, SINGLE, TOURNAMENT
from service.store import EventStore
from service.tournaments import TournamentService

BATCH = 500
_GAME_KEY = re.compile(rb"^(game|tournament|player):\{([^{}]+)\}:(.+)$")


class MigrationRefused(RuntimeError):
    """The target is not an empty cluster."""


@dataclass
class Moved:
    """What a migration copied."""

    events: dict[str, int] = field(default_factory=dict)  # kind -> events
    streams: dict[str, int] = field(default_factory=dict)  # kind -> games (or tournaments)
    keys: int = 0  # other keys of games and tournaments (tokens, idempotency, archive, annotations)
    left: int = 0  # keys of the source that are not a game's or a tournament's (RQ's, the ratings)
    listed: int = 0  # games and tournaments listed on the cluster


def migrate(source: redis.Redis, target: RedisCluster, batch: int = BATCH) -> Moved:
    """Copy every game and tournament of `source` (single layout) into the empty `target`."""
    if target.dbsize(target_nodes=RedisCluster.PRIMARIES):  # summed over the primaries
        raise MigrationRefused("the target cluster holds keys already: a migration needs an empty one")
    others, left = _other_keys(source)
    moved = Moved(left=left)
    for kind in GLOBAL_STREAMS:
        moved.events[kind], moved.streams[kind] = _move_events(source, target, kind, batch)
    for start in range(0, len(others), batch):
        chunk = others[start : start + batch]
        reads = source.pipeline(transaction=False)
        for kind, stream_id, part in chunk:
            reads.dump(SINGLE.key(kind, stream_id, part))
        writes = _pipeline(target)
        for (kind, stream_id, part), payload in zip(chunk, reads.execute(), strict=True):
            if payload is not None:
                writes.restore(CLUSTER.key(kind, stream_id, part), 0, payload)
        moved.keys += len(writes.execute())
    moved.listed = _listed_afresh(target)
    return moved


def _listed_afresh(target: RedisCluster) -> int:
    """Make the listings on the cluster from its events; how many games and tournaments."""
    games = GameService(EventStore(target), target)
    tournaments = TournamentService(EventStore(target, kind=TOURNAMENT), target, games)
    games.listings.rebuild(games)
    tournaments.listings.rebuild(tournaments)
    return games.listings.listing.count() + tournaments.listings.listing.count()


def _other_keys(source: redis.Redis) -> tuple[list[tuple[str, str, str]], int]:
    """(kind, id, part) of every key of a game or tournament but its events, from one SCAN; and
    how many keys are no game's or tournament's (nor an all-events stream)."""
    found, left = [], 0
    streams = {name.encode() for name in GLOBAL_STREAMS.values()}
    for key in source.scan_iter(count=1000):
        matched = _GAME_KEY.match(key)
        if matched is None:
            left += key not in streams
            continue
        kind, stream_id, part = (value.decode() for value in matched.groups())
        if part != "events":
            found.append((kind, stream_id, part))
    return sorted(found), left


def _move_events(source: redis.Redis, target: RedisCluster, kind: str, batch: int) -> tuple[int, int]:
    """Copy the events of one kind in the order of its one all-events stream; (events, streams)."""
    positions: dict[str, int] = {}
    streams: set[str] = set()
    after, events = 0, 0
    while pointers := _entries(source.xrange(GLOBAL_STREAMS[kind], f"0-{after + 1}", "+", count=batch)):
        reads = source.pipeline(transaction=False)
        for _, pointer in pointers:
            entry = f"0-{int(pointer[b'version'])}"
            reads.xrange(SINGLE.key(kind, pointer[b"game"].decode(), "events"), entry, entry)
        writes = _pipeline(target)
        for (_, pointer), entries in zip(pointers, reads.execute(), strict=True):
            stream_id, version = pointer[b"game"].decode(), int(pointer[b"version"])
            (entry_id, fields), *_ = entries
            bucket = CLUSTER.all_stream(kind, stream_id)
            positions[bucket] = positions.get(bucket, 0) + 1
            _write(writes, kind, stream_id, version, fields, bucket, positions[bucket])
            streams.add(stream_id)
        writes.execute()
        events += len(pointers)
        after = int(pointers[-1][0].decode().partition("-")[2])
    return events, len(streams)


def _write(
    writes: Any,
    kind: str,
    stream_id: str,
    version: int,
    fields: dict[bytes, bytes],
    bucket: str,
    position: int,
) -> None:
    """One event into its cluster stream, renumbered in its bucket, and its pointer."""
    at = from_fields(fields).at
    writes.xadd(
        CLUSTER.key(kind, stream_id, "events"), {**fields, b"position": str(position)}, id=f"0-{version}"
    )
    writes.xadd(bucket, {"game": stream_id, "version": str(version), "at": at}, id=f"0-{position}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m service.migrate_to_cluster",
        description="Copy the games and tournaments of one Redis onto an empty Redis Cluster, once.",
    )
    parser.add_argument("--source", required=True, help="URL of the single Redis (REDIS_URL until now)")
    parser.add_argument(
        "--target", required=True, help="URL of a node of the empty cluster (REDIS_CLUSTER_URL)"
    )
    args = parser.parse_args(argv)
    source, target = redis.Redis.from_url(args.source), RedisCluster.from_url(args.target)
    try:
        moved = migrate(source, target)
    except MigrationRefused as refused:
        print(f"refused: {refused}", file=sys.stderr)
        return 1
    finally:
        source.close()
        target.close()
    print(
        f"moved {moved.events} events of {moved.streams} streams and {moved.keys} other keys; "
        f"listed {moved.listed} games and tournaments afresh; "
        f"left {moved.left} keys (RQ's, the ratings, the listings) on the source"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def _entries(reply: Any) -> list[tuple[bytes, dict[bytes, bytes]]]:
    """A stream range as a client without decode_responses reads it."""
    return cast(list[tuple[bytes, dict[bytes, bytes]]], reply)


def _pipeline(cluster: RedisCluster) -> Any:
    """The cluster's pipeline (redis-py leaves RedisCluster.pipeline without annotations)."""
    return cluster.pipeline(transaction=False)  # type: ignore[no-untyped-call]
