"""The event store on Redis Streams: one stream per game (or tournament) plus a global stream.

Games point into `events:$all`, tournaments into `tournaments:$all`: a reader of the global
stream takes each id it names for one kind of stream, so the two kinds never share one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from typing import Any

import redis

from record.chain import ZERO_HASH, seal, verify_chain
from record.envelope import (
    STREAM_FIELDS,
    AppendResult,
    Clock,
    Envelope,
    EventStorePort,
    NewEvent,
    from_fields,
    to_fields,
    validate_batch,
)
from service.clock import iso_utc, utc_now
from service.errors import ChainBroken, GameExists, PartialRetry, UnsupportedServer, VersionConflict
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
    "annotations_key",
    "archive_key",
    "check_server",
    "event_ids_key",
    "stream_key",
    "verify_chain",
]

GLOBAL_STREAM = "events:$all"
GAME, TOURNAMENT = "game", "tournament"
GLOBAL_STREAMS = {GAME: GLOBAL_STREAM, TOURNAMENT: "tournaments:$all"}
_HASH_CACHE_GAMES = 4096
MIN_REDIS = (6, 2)
_APPEND_LUA = resources.files("service").joinpath("append.lua").read_text(encoding="utf-8")
_IMPORT_LUA = resources.files("service").joinpath("import.lua").read_text(encoding="utf-8")


def stream_key(game_id: str, kind: str = GAME) -> str:
    """The game's (or tournament's) event stream; the braces make every key of one share a
    cluster slot."""
    return f"{kind}:{{{game_id}}}:events"


def event_ids_key(game_id: str, kind: str = GAME) -> str:
    """The hash event id -> version that recognises retried batches."""
    return f"{kind}:{{{game_id}}}:event_ids"


def archive_key(game_id: str) -> str:
    """The header of an imported game; its presence makes the game read-only."""
    return f"game:{{{game_id}}}:archive"


def annotations_key(game_id: str) -> str:
    """The game's annotations: their own stream, so annotating never touches the events."""
    return f"game:{{{game_id}}}:annotations"


def check_server(client: redis.Redis) -> tuple[int, ...]:
    """The server's version; raise UnsupportedServer when it is older than 6.2."""
    version = str(client.info("server")["redis_version"])
    number = tuple(int(part) for part in version.split(".") if part.isdigit())
    if number[:2] < MIN_REDIS:
        raise UnsupportedServer(version)
    return number


class EventStore:
    """Appends and reads the events of one kind of stream (games, or tournaments) in Redis;
    every append is one Lua script."""

    def __init__(self, client: redis.Redis, clock: Clock = utc_now, kind: str = GAME) -> None:
        self._client = client
        self._kind = kind
        self._global = GLOBAL_STREAMS[kind]
        self._clock = clock
        self._append = client.register_script(_APPEND_LUA)
        self._import = client.register_script(_IMPORT_LUA)
        # Hashes of the newest event seen per game; events never change, so a hit is exact
        # and saves the append a round trip.
        self._last_hash: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self._lock = threading.Lock()

    def append(self, game_id: str, expected_version: int, events: Sequence[NewEvent]) -> AppendResult:
        """Store `events` after `expected_version`, or recognise a retry of a stored batch.

        Raises VersionConflict or PartialRetry; in either case nothing was written.
        """
        validate_batch(game_id, expected_version, events)
        # The script refuses if the stream moved since this read, so the chain cannot fork.
        prev_hash = self._hash_at(game_id, expected_version)
        sealed = seal(events, expected_version, iso_utc(self._clock()), prev_hash)
        args: list[Any] = [game_id, expected_version, len(sealed), 1 + 2 * len(STREAM_FIELDS)]
        for envelope in sealed:
            args.append(envelope.event_id)
            for name, value in to_fields(envelope).items():
                args += [name, value]
        keys = [stream_key(game_id, self._kind), event_ids_key(game_id, self._kind), self._global]
        reply = self._append(keys=keys, args=args)
        result = _result(game_id, expected_version, reply)
        if not result.duplicate:
            self._remember(game_id, sealed[-1].version, sealed[-1].hash)
            observe_appended(self._kind, len(sealed))
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
            stream_key(game_id, self._kind),
            event_ids_key(game_id, self._kind),
            self._global,
            archive_key(game_id),
            annotations_key(game_id),
        ]
        reply = self._import(keys=keys, args=args)
        if _text(reply[0]) == "exists":
            raise GameExists(game_id)
        observe_appended(self._kind, len(envelopes))
        return _result(game_id, 0, reply)

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]:
        """The game's events with `after` < version <= `upto` (no upper bound when None)."""
        if upto is not None and upto <= after:
            return []
        high = "+" if upto is None else f"0-{upto}"
        entries = self._client.xrange(stream_key(game_id, self._kind), f"0-{after + 1}", high)
        envelopes = [_envelope(game_id, entry_id, fields) for entry_id, fields in entries]
        if envelopes:
            self._remember(game_id, envelopes[-1].version, envelopes[-1].hash)
        return envelopes

    def version(self, game_id: str) -> int:
        """The game's last version; 0 when it has no events."""
        newest = self._client.xrevrange(stream_key(game_id, self._kind), "+", "-", count=1)
        return _id_number(newest[0][0]) if newest else 0

    def exists(self, game_id: str) -> bool:
        """Whether the game has at least one event."""
        return bool(self._client.exists(stream_key(game_id, self._kind)))

    def stored(self) -> int:
        """How many events of this kind the store holds: the length of the global stream, which
        gets one pointer per event and is never trimmed (the metrics' count of appends)."""
        return int(self._client.xlen(self._global))

    def read_all(self, after_position: int = 0, count: int | None = None) -> list[tuple[int, str, int]]:
        """(position, game id, version) of every event after `after_position`, oldest first."""
        if count is not None and count <= 0:
            return []
        entries = self._client.xrange(self._global, f"0-{after_position + 1}", "+", count=count)
        pointers = [(_id_number(entry_id), _texts(fields)) for entry_id, fields in entries]
        return [(position, fields["game"], int(fields["version"])) for position, fields in pointers]

    def wait(self, game_id: str, after: int, timeout_ms: int) -> list[Envelope]:
        """Events after `after`, blocking up to `timeout_ms` for the first one; [] on timeout.

        Catches up with XRANGE, then XREAD BLOCK from that same id, never from `$`, so
        an event written between the two calls is not missed. `timeout_ms <= 0` does
        not block (Redis would read 0 as "forever"). The client's socket timeout, if
        any, must exceed `timeout_ms`.
        """
        caught_up = self.read(game_id, after)
        if caught_up or timeout_ms <= 0:
            return caught_up
        reply = self._client.xread({stream_key(game_id, self._kind): f"0-{after}"}, block=timeout_ms)
        return [_envelope(game_id, entry_id, fields) for entry_id, fields in _xread_entries(reply)]

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
        entries = self._client.xrange(stream_key(game_id, self._kind), entry_id, entry_id)
        return from_fields(entries[0][1]).hash if entries else ZERO_HASH

    def _remember(self, game_id: str, version: int, hash_: str) -> None:
        with self._lock:
            known = self._last_hash.get(game_id)
            if known is None or known[0] < version:
                self._last_hash[game_id] = (version, hash_)
            self._last_hash.move_to_end(game_id)
            while len(self._last_hash) > _HASH_CACHE_GAMES:
                self._last_hash.popitem(last=False)


def _result(game_id: str, expected_version: int, reply: list[Any]) -> AppendResult:
    """The script's reply as an AppendResult, or its refusal raised."""
    status = _text(reply[0])
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
