"""An event store in process memory with the Redis store's semantics, for fast tests."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from record.chain import ZERO_HASH, seal
from record.envelope import (
    AppendResult,
    Checkpoint,
    Clock,
    Envelope,
    NewEvent,
    Pointer,
    from_fields,
    stored_as,
    to_fields,
    validate_batch,
)
from service.clock import iso_utc, utc_now
from service.errors import PartialRetry, VersionConflict
from service.keys import GAME, GLOBAL_STREAMS

STREAM = GLOBAL_STREAMS[GAME]


class InMemoryEventStore:
    """Keeps events as the same string fields Redis would, so reads decode identically."""

    def __init__(self, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._streams: dict[str, list[dict[str, str]]] = {}
        self._event_ids: dict[str, dict[str, int]] = {}
        self._pointers: list[tuple[str, int, str]] = []
        self._changed = threading.Condition()

    def append(self, game_id: str, expected_version: int, events: Sequence[NewEvent]) -> AppendResult:
        """Store `events` after `expected_version`, or recognise a retry of a stored batch."""
        validate_batch(game_id, expected_version, events)
        with self._changed:
            stream = self._streams.get(game_id, [])
            known = self._event_ids.get(game_id, {})
            recorded = [event.event_id for event in events if event.event_id in known]
            if len(recorded) == len(events):
                versions = [known[event_id] for event_id in recorded]
                positions = [int(stream[v - 1]["position"]) for v in versions]
                return AppendResult(versions, positions, duplicate=True)
            if recorded:
                raise PartialRetry(game_id, recorded)
            if len(stream) != expected_version:
                raise VersionConflict(game_id, expected_version, len(stream))
            prev_hash = stream[-1]["hash"] if stream else ZERO_HASH
            sealed = seal(events, expected_version, iso_utc(self._clock()), prev_hash)
            positions = [self._write(game_id, envelope) for envelope in sealed]
            self._changed.notify_all()
        written = stored_as(sealed, positions)
        return AppendResult([e.version for e in sealed], positions, duplicate=False, written=written)

    def _write(self, game_id: str, envelope: Envelope) -> int:
        """Record one sealed envelope; its global position."""
        self._pointers.append((game_id, envelope.version, envelope.at))
        position = len(self._pointers)
        fields = {**to_fields(envelope), "position": str(position)}
        self._streams.setdefault(game_id, []).append(fields)
        self._event_ids.setdefault(game_id, {})[envelope.event_id] = envelope.version
        return position

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]:
        """The game's events with `after` < version <= `upto` (no upper bound when None)."""
        with self._changed:
            stream = list(self._streams.get(game_id, ()))
        return [from_fields(fields) for fields in stream[max(after, 0) : upto]]

    def version(self, game_id: str) -> int:
        """The game's last version; 0 when it has no events."""
        with self._changed:
            return len(self._streams.get(game_id, ()))

    def exists(self, game_id: str) -> bool:
        """Whether the game has at least one event."""
        return self.version(game_id) > 0

    def read_all(self, after_position: int = 0, count: int | None = None) -> list[tuple[int, str, int]]:
        """(position, game id, version) of every event after `after_position`, oldest first."""
        with self._changed:
            start = max(after_position, 0)
            pointers = self._pointers[start:]
        numbered = [(start + i, g, v) for i, (g, v, _) in enumerate(pointers, start=1)]
        return numbered if count is None else numbered[: max(count, 0)]

    def read_pointers(self, checkpoint: Checkpoint | None = None, count: int | None = None) -> list[Pointer]:
        """The entries after `checkpoint` of its one all-events stream, at most `count`."""
        with self._changed:
            start = max((checkpoint or {}).get(STREAM, 0), 0)
            pointers = self._pointers[start:]
        numbered = [Pointer(STREAM, start + i, *p) for i, p in enumerate(pointers, start=1)]
        return numbered if count is None else numbered[: max(count, 0)]

    def wait(self, game_id: str, after: int, timeout_ms: int) -> list[Envelope]:
        """Events after `after`, blocking up to `timeout_ms` for the first one; [] on timeout."""
        if timeout_ms > 0:
            with self._changed:
                self._changed.wait_for(lambda: self.version(game_id) > after, timeout_ms / 1000)
        return self.read(game_id, after)
