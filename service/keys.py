"""Where the keys of a game (or tournament) live: on one Redis, or in a bucket of a Redis Cluster.

A cluster script may touch keys of one slot only, and the append script writes both the game's
stream and an all-events stream. On one Redis the hash tag is the game id and every game points
into one all-events stream (`events:$all`). On a cluster the games are grouped into BUCKETS
buckets: the hash tag is the bucket (`game:{b0417}:<id>:events`) and each bucket has its own
all-events stream (`events:{b0417}:$all`) in the same slot, so an append is still one script on
one slot, and moving a slot to another primary moves whole buckets, streams and games together.

BUCKETS is fixed: another count would file the same game under other keys. The layout follows
the client: a RedisCluster gets the buckets, a plain Redis the single layout, so existing data on
one Redis keeps its keys.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import redis
from redis.cluster import RedisCluster

GAME, TOURNAMENT = "game", "tournament"
PLAYER = "player"  # a player's keys (service.players): no stream, but a bucket on a cluster like the others
GLOBAL_STREAMS = {GAME: "events:$all", TOURNAMENT: "tournaments:$all"}
BUCKET_STREAMS = {GAME: "events:{{{tag}}}:$all", TOURNAMENT: "tournaments:{{{tag}}}:$all"}
BUCKETS = 1024


@dataclass(frozen=True)
class Layout:
    """The key names of one layout; `buckets` 0 is the single Redis."""

    buckets: int = 0

    @property
    def clustered(self) -> bool:
        return self.buckets > 0

    def bucket(self, stream_id: str) -> int:
        """The bucket of a game or tournament id: a checksum, stable across processes and releases."""
        return zlib.crc32(stream_id.encode("utf-8")) % self.buckets

    def key(self, kind: str, stream_id: str, part: str) -> str:
        """The key `part` (events, event_ids, seats, ...) of the game or tournament `stream_id`."""
        if not self.clustered:
            return f"{kind}:{{{stream_id}}}:{part}"
        return f"{kind}:{{{_tag(self.bucket(stream_id))}}}:{stream_id}:{part}"

    def all_stream(self, kind: str, stream_id: str) -> str:
        """The all-events stream the appends of `stream_id` point into."""
        if not self.clustered:
            return GLOBAL_STREAMS[kind]
        return _bucket_stream(kind, self.bucket(stream_id))

    def all_streams(self, kind: str) -> list[str]:
        """Every all-events stream of `kind`, in bucket order."""
        if not self.clustered:
            return [GLOBAL_STREAMS[kind]]
        return [_bucket_stream(kind, bucket) for bucket in range(self.buckets)]


SINGLE = Layout()
CLUSTER = Layout(BUCKETS)


def layout_of(client: redis.Redis | RedisCluster) -> Layout:
    """The layout of the data `client` reaches."""
    return CLUSTER if isinstance(client, RedisCluster) else SINGLE


def _tag(bucket: int) -> str:
    return f"b{bucket:04d}"


def _bucket_stream(kind: str, bucket: int) -> str:
    return BUCKET_STREAMS[kind].format(tag=_tag(bucket))
