"""The event store on Redis Streams: one stream per game (or tournament) plus all-events streams.

Games point into `events:$all`, tournaments into `tournaments:$all`: a reader of the global
stream takes each id it names for one kind of stream, so the two kinds never share one. On a
Redis Cluster each bucket of games has its own all-events stream (service/keys.py).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from importlib import resources
from typing import Any, cast

import redis
from redis.cluster import RedisCluster

from record.chain import ZERO_HASH, seal, verify_chain
from record.envelope import (
    STREAM_FIELDS,
    AppendResult,
    Checkpoint,
    Clock,
    Envelope,
    EventStorePort,
    NewEvent,
    Pointer,
    from_fields,
    stored_as,
    to_fields,
    validate_batch,
)
from service import read_ahead
from service.clock import iso_utc, utc_now
from service.errors import (
    ChainBroken,
    ChainTruncated,
    GameExists,
    OutcomeUnknown,
    PartialRetry,
    UnsupportedServer,
    VersionConflict,
)
from service.keys import GAME, GLOBAL_STREAMS, SINGLE, TOURNAMENT, Layout, layout_of
from service.memory_store import InMemoryEventStore
from service.metrics import observe_appended

__all__ = [
    "GAME",
    "GLOBAL_STREAM",
    "GLOBAL_STREAMS",
    "TOURNAMENT",
    "AppendResult",
    "Envelope",
    "EventStore",
    "EventStorePort",
    "InMemoryEventStore",
    "NewEvent",
    "Pointer",
    "annotations_key",
    "archive_key",
    "check_server",
    "event_ids_key",
    "head_key",
    "stream_key",
    "verify_chain",
]

GLOBAL_STREAM = GLOBAL_STREAMS[GAME]
_HASH_CACHE_GAMES = 4096
BLOCK_SHARE = 0.5
"""A blocking read waits at most this share of the client's socket timeout in one turn: Redis
answers a block that timed out on its next tick, up to 100 ms late at its default hz of 10."""
MIN_REDIS = (6, 2)
_APPEND_LUA = resources.files("service").joinpath("append.lua").read_text(encoding="utf-8")
_APPEND_FIELDS = ("body", "secret", "salt", "command_hidden", "hash")
"""STREAM_FIELDS in the order the append script takes them: naming them in the script spares it
a table per event."""
_IMPORT_LUA = resources.files("service").joinpath("import.lua").read_text(encoding="utf-8")


def stream_key(game_id: str, kind: str = GAME, layout: Layout = SINGLE) -> str:
    """The game's (or tournament's) event stream; every key of one shares its hash tag, so
    they share a cluster slot."""
    return layout.key(kind, game_id, "events")


def event_ids_key(game_id: str, kind: str = GAME, layout: Layout = SINGLE) -> str:
    """The hash event id -> version that recognises retried batches."""
    return layout.key(kind, game_id, "event_ids")


def head_key(game_id: str, kind: str = GAME, layout: Layout = SINGLE) -> str:
    """The hash (version, hash) of the newest event the append script wrote: what the store
    vouches for, so a tail deleted from the stream is told from a stream that ends there."""
    return layout.key(kind, game_id, "head")


def archive_key(game_id: str, layout: Layout = SINGLE) -> str:
    """The header of an imported game; its presence makes the game read-only."""
    return layout.key(GAME, game_id, "archive")


def annotations_key(game_id: str, layout: Layout = SINGLE) -> str:
    """The game's annotations: their own stream, so annotating never touches the events."""
    return layout.key(GAME, game_id, "annotations")


def check_server(client: redis.Redis | RedisCluster) -> tuple[int, ...]:
    """The oldest server's version (every primary's on a cluster); raise UnsupportedServer when
    it is older than 6.2."""
    if isinstance(client, RedisCluster):
        replies = client.info("server", target_nodes=RedisCluster.PRIMARIES)
        versions = [str(reply["redis_version"]) for reply in replies.values()]
    else:
        versions = [str(client.info("server")["redis_version"])]
    oldest = min(versions, key=_version_number)
    if _version_number(oldest)[:2] < MIN_REDIS:
        raise UnsupportedServer(oldest)
    return _version_number(oldest)


def _version_number(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".") if part.isdigit())


class EventStore:
    """Appends and reads the events of one kind of stream (games, or tournaments) in Redis or a
    Redis Cluster; every append is one Lua script on one slot."""

    def __init__(self, client: redis.Redis | RedisCluster, clock: Clock = utc_now, kind: str = GAME) -> None:
        self._client = client
        self._kind = kind
        self.layout = layout_of(client)
        self._clock = clock
        self._append = client.register_script(_APPEND_LUA)
        self._import = client.register_script(_IMPORT_LUA)
        # Hashes of the newest event seen per game; events never change, so a hit is exact
        # and saves the append a round trip.
        self._last_hash: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self._lock = threading.Lock()

    def append(self, game_id: str, expected_version: int, events: Sequence[NewEvent]) -> AppendResult:
        """Store `events` after `expected_version`, or recognise a retry of a stored batch.

        Raises VersionConflict, PartialRetry or ChainTruncated (the stream lost its tail); in
        each case nothing was written. A write Redis refuses (full, read-only, loading:
        service.refusals) writes nothing either; OutcomeUnknown when the script was sent and
        its answer lost.
        """
        validate_batch(game_id, expected_version, events)
        # The script refuses if the stream moved since this read, so the chain cannot fork.
        prev_hash = self._hash_at(game_id, expected_version)
        sealed = seal(events, expected_version, iso_utc(self._clock()), prev_hash)
        # One `at` for the batch: seal stamps every event of it with the same.
        args: list[Any] = [game_id, expected_version, sealed[0].at]
        args += [envelope.event_id for envelope in sealed]
        for envelope in sealed:
            fields = to_fields(envelope)
            args += [fields[name] for name in _APPEND_FIELDS]
        keys = [
            self._stream(game_id),
            self._event_ids(game_id),
            self.layout.all_stream(self._kind, game_id),
            self._head(game_id),
        ]
        try:
            reply = self._append(keys=keys, args=args)
        except redis.exceptions.BusyLoadingError:
            raise  # refused before it ran
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
            # Sent, perhaps run, its answer lost: only a retry with the same event ids can tell.
            raise OutcomeUnknown(game_id) from error
        result = _result(game_id, expected_version, reply, len(sealed))
        if not result.duplicate:
            self._remember(game_id, sealed[-1].version, sealed[-1].hash)
            observe_appended(self._kind, len(sealed))
            result = replace(result, written=stored_as(sealed, result.positions))
        return result

    def import_verbatim(
        self,
        game_id: str,
        envelopes: Sequence[Envelope],
        archive: str,
        annotations: Sequence[str] = (),
    ) -> AppendResult:
        """Write an already sealed chain as it is (same hashes, same `at`) into a new game.

        One script, all checks before the first write: only when no key of `game_id`
        exists yet (else GameExists, nothing written). The game is marked archived with
        the `archive` header and gets its `annotations` (JSON records) in the same step.
        The chain must hold (versions 1..n, every hash and link): ValueError otherwise.
        """
        if not game_id or "{" in game_id or "}" in game_id:
            raise ValueError(f"game id {game_id!r} must be non-empty and free of braces")
        if not envelopes or [e.version for e in envelopes] != list(range(1, len(envelopes) + 1)):
            raise ValueError("an import needs events numbered 1, 2, ... without gaps")
        broken = verify_chain(envelopes)
        if broken is not None:
            raise ValueError(f"the chain to import breaks at version {broken}")
        args: list[Any] = [game_id, len(envelopes), 1 + 2 * len(STREAM_FIELDS), archive]
        args.append(len(annotations))
        for envelope in envelopes:
            args.append(envelope.event_id)
            for name, value in to_fields(envelope).items():
                args += [name, value]
        args += list(annotations)
        keys = [
            self._stream(game_id),
            self._event_ids(game_id),
            self.layout.all_stream(self._kind, game_id),
            archive_key(game_id, self.layout),
            annotations_key(game_id, self.layout),
            self._head(game_id),
        ]
        reply = self._import(keys=keys, args=args)
        if _text(reply[0]) == "exists":
            raise GameExists(game_id)
        observe_appended(self._kind, len(envelopes))
        return _result(game_id, 0, reply, len(envelopes))

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]:
        """The game's events with `after` < version <= `upto` (no upper bound when None).

        A read to the end is checked against the head the appends wrote, in the same round
        trip: ChainTruncated when the stream ends before the version the head vouches for,
        ChainBroken when its newest event is not the one the head names (a stream written
        before heads existed has none, and is read as it is).
        """
        if upto is not None and upto <= after:
            return []
        replies = None if upto is not None else read_ahead.take(self, game_id, after)
        if replies is None:
            pipe = self._client.pipeline(transaction=False)
            self.queue_read(pipe, game_id, after, upto)
            replies = pipe.execute()
        return self.read_from(game_id, after, replies)

    def queue_read(self, pipe: Any, game_id: str, after: int = 0, upto: int | None = None) -> None:
        """Queue on `pipe` (of this store's client) the commands of `read`; `read_from` reads
        their replies. Another lookup of the same game may share the round trip."""
        high = "+" if upto is None else f"0-{upto}"
        pipe.xrange(self._stream(game_id), f"0-{after + 1}", high)
        if upto is None:
            pipe.hmget(self._head(game_id), ["version", "hash"])

    def read_from(self, game_id: str, after: int, replies: Sequence[Any]) -> list[Envelope]:
        """The envelopes of the replies to `queue_read`'s commands, checked as `read` checks them."""
        entries, *head = replies
        envelopes = [_envelope(game_id, entry_id, fields) for entry_id, fields in entries]
        if head:
            self._check_head(game_id, envelopes[-1] if envelopes else None, after, head[0])
        if envelopes:
            self._remember(game_id, envelopes[-1].version, envelopes[-1].hash)
        return envelopes

    def version(self, game_id: str) -> int:
        """The game's last version; 0 when it has no events."""
        newest = self._client.xrevrange(self._stream(game_id), "+", "-", count=1)
        return _id_number(cast(bytes, newest[0][0])) if newest else 0

    def exists(self, game_id: str) -> bool:
        """Whether the game has at least one event."""
        return bool(self._client.exists(self._stream(game_id)))

    def stored(self) -> int:
        """How many events of this kind the store holds: the summed length of the all-events
        streams (one on a single Redis, one per bucket on a cluster), which get one pointer per
        event and are never trimmed (the metrics' count of appends)."""
        pipe = self._client.pipeline(transaction=False)
        for stream in self.layout.all_streams(self._kind):
            pipe.xlen(stream)
        return sum(int(length) for length in pipe.execute())

    def read_all(self, after_position: int = 0, count: int | None = None) -> list[tuple[int, str, int]]:
        """(position, game id, version) of every event after `after_position`, oldest first.

        One sequence exists only on one Redis; a cluster has one per bucket (read_pointers).
        """
        if self.layout.clustered:
            raise TypeError("a cluster has one all-events stream per bucket: use read_pointers")
        (stream,) = self.layout.all_streams(self._kind)
        pointers = self.read_pointers({stream: after_position}, count)
        return [(p.position, p.game_id, p.version) for p in pointers]

    def read_pointers(self, checkpoint: Checkpoint | None = None, count: int | None = None) -> list[Pointer]:
        """The entries after `checkpoint` of every all-events stream (at most `count` of each),
        stream by stream, oldest first within a stream: one round trip per node."""
        if count is not None and count <= 0:
            return []
        after = checkpoint or {}
        streams = self.layout.all_streams(self._kind)
        pipe = self._client.pipeline(transaction=False)
        for stream in streams:
            pipe.xrange(stream, f"0-{after.get(stream, 0) + 1}", "+", count=count)
        return [
            pointer
            for stream, entries in zip(streams, pipe.execute(), strict=True)
            for pointer in _pointers(stream, entries)
        ]

    def wait(self, game_id: str, after: int, timeout_ms: int) -> list[Envelope]:
        """Events after `after`, blocking up to `timeout_ms` for the first one; [] on timeout.

        Catches up with XRANGE, then XREAD BLOCK from that same id, never from `$`, so
        an event written between the two calls is not missed. `timeout_ms <= 0` does
        not block (Redis would read 0 as "forever"). A wait longer than the client's
        socket timeout blocks in shorter turns, each answered before the socket gives up.
        """
        caught_up = self.read(game_id, after)
        if caught_up or timeout_ms <= 0:
            return caught_up
        limit = _socket_timeout(self._client)
        turn_ms = timeout_ms if limit is None else max(1, int(limit * 1000 * BLOCK_SHARE))
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            left_ms = int((deadline - time.monotonic()) * 1000)
            block = max(1, min(turn_ms, left_ms))
            reply = self._client.xread({self._stream(game_id): f"0-{after}"}, block=block)
            if reply or left_ms <= block:
                return [_envelope(game_id, e, fields) for e, fields in _xread_entries(reply)]

    def _stream(self, game_id: str) -> str:
        return stream_key(game_id, self._kind, self.layout)

    def _event_ids(self, game_id: str) -> str:
        return event_ids_key(game_id, self._kind, self.layout)

    def _head(self, game_id: str) -> str:
        return head_key(game_id, self._kind, self.layout)

    def _check_head(self, game_id: str, newest: Envelope | None, after: int, head: list[Any]) -> None:
        """Raise when the stream, read to its end after `after` (`newest` its last event read,
        None when none came), lacks events its head vouches for, or ends in another event than
        the head names."""
        if head[0] is None or (newest is None and int(head[0]) <= after):
            return
        vouched, vouched_hash = int(head[0]), _text(head[1] or "")
        if newest is not None and newest.version >= vouched:
            if newest.version == vouched and newest.hash != vouched_hash:
                raise ChainBroken(game_id, vouched)
            return
        # Rare: only a cut stream (or a read past its end) gets here, so a second look is cheap.
        stored = self.version(game_id)
        if vouched > stored:
            raise ChainTruncated(game_id, stored, vouched)

    def _hash_at(self, game_id: str, version: int) -> str:
        """The hash of the game's event `version`; zeros before version 1 or if it is missing.

        A missing event means the append will be refused, so the placeholder is never stored.
        """
        if version == 0:
            return ZERO_HASH
        with self._lock:
            known = self._last_hash.get(game_id)
        if known is not None and known[0] == version:
            return known[1]
        entry_id = f"0-{version}"
        entries = self._client.xrange(self._stream(game_id), entry_id, entry_id)
        return from_fields(cast(Mapping[bytes, bytes], entries[0][1])).hash if entries else ZERO_HASH

    def _remember(self, game_id: str, version: int, hash_: str) -> None:
        with self._lock:
            known = self._last_hash.get(game_id)
            if known is None or known[0] < version:
                self._last_hash[game_id] = (version, hash_)
            self._last_hash.move_to_end(game_id)
            while len(self._last_hash) > _HASH_CACHE_GAMES:
                self._last_hash.popitem(last=False)


def _result(game_id: str, expected_version: int, reply: int | list[Any], count: int) -> AppendResult:
    """The script's reply to a batch of `count` events as an AppendResult, or its refusal raised."""
    if isinstance(reply, int):
        # The append's answer when it wrote: the first position; versions and positions run on.
        versions = list(range(expected_version + 1, expected_version + count + 1))
        return AppendResult(versions, list(range(reply, reply + count)), duplicate=False)
    status = _text(reply[0])
    if status == "chain_truncated":
        raise ChainTruncated(game_id, int(reply[1]), int(reply[2]))
    if status == "version_conflict":
        raise VersionConflict(game_id, expected_version, int(reply[1]))
    if status == "partial_retry":
        raise PartialRetry(game_id, [_text(event_id) for event_id in reply[1]])
    versions = [int(v) for v in reply[1]]
    positions = [int(p) for p in reply[2]]
    return AppendResult(versions, positions, duplicate=status == "duplicate")


def _envelope(game_id: str, entry_id: str | bytes, fields: dict[Any, Any]) -> Envelope:
    """The stored entry as an envelope; ChainBroken when it does not even read as one: only a
    hand outside the service writes such an entry, and no hash can vouch for it."""
    try:
        return from_fields(fields)
    except (KeyError, ValueError, TypeError):
        raise ChainBroken(game_id, _id_number(entry_id)) from None


def _pointers(stream: str, entries: Iterable[Any]) -> list[Pointer]:
    """The XRANGE entries of an all-events stream as pointers (`at` is "" on entries written
    before pointers carried it)."""
    pointers = []
    for entry_id, raw in entries:
        fields = _texts(raw)
        at = fields.get("at", "")
        pointers.append(Pointer(stream, _id_number(entry_id), fields["game"], int(fields["version"]), at))
    return pointers


def _xread_entries(reply: Any) -> list[Any]:
    """The entries of a one-stream XREAD reply, under RESP2 (list) or RESP3 (dict)."""
    if not reply:
        return []
    if isinstance(reply, dict):
        return [entry for entries in reply.values() for entry in entries[0]]
    return list(reply[0][1])


def _id_number(entry_id: str | bytes) -> int:
    """N from a stream entry id "0-N"."""
    return int(_text(entry_id).partition("-")[2])


def _texts(fields: dict[Any, Any]) -> dict[str, str]:
    return {_text(key): _text(value) for key, value in fields.items()}


def _text(value: str | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _socket_timeout(client: Any) -> float | None:
    """The socket timeout of a client: its pool's, or the one every node of a cluster gets."""
    pool = getattr(client, "connection_pool", None)
    if pool is not None:
        return pool.connection_kwargs.get("socket_timeout")  # type: ignore[no-any-return]
    nodes = getattr(client, "nodes_manager", None)
    return None if nodes is None else nodes.connection_kwargs.get("socket_timeout")
