"""Stored-event envelopes: what a store accepts, what it returns, and its stream fields."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from record.canonical import canonical_json

STORED_FIELDS = (
    "version",
    "type",
    "schema",
    "data",
    "secret",
    "salt",
    "secret_digest",
    "audience",
    "actor",
    "command_id",
    "event_id",
    "at",
    "prev_hash",
    "hash",
)
"""Stream fields written from Python, in order; the append script adds `position`."""

_JSON_FIELDS = ("data", "secret", "audience")
_INT_FIELDS = ("version", "schema", "position")


@dataclass(frozen=True)
class NewEvent:
    """An event the service hands to `append`; `event_id` is deterministic per command."""

    event_id: str
    type: str
    data: Mapping[str, Any]
    schema: int = 1
    secret: Mapping[str, Any] | None = None
    audience: tuple[int, ...] = ()
    actor: str = "system"
    command_id: str = ""

    @classmethod
    def recording(cls, event: Any, index: int, actor: str, command_id: str) -> NewEvent:
        """The record of a domain Event, the `index`th one its command caused."""
        return cls(
            event_id=f"{command_id}:{index}",
            type=event.type,
            data=dict(event.data),
            schema=event.schema,
            secret=None if event.secret is None else dict(event.secret),
            audience=tuple(event.audience),
            actor=actor,
            command_id=command_id,
        )


@dataclass(frozen=True)
class Envelope:
    """A stored event as `read` returns it; `position` is its place in `events:$all`."""

    version: int
    type: str
    schema: int
    data: dict[str, Any]
    secret: dict[str, Any] | None
    audience: tuple[int, ...]
    actor: str
    command_id: str
    event_id: str
    at: str
    prev_hash: str
    hash: str
    position: int
    salt: str = ""  # hex; "" without a secret, or when the secret is withheld
    secret_digest: str = ""  # sha256(salt ‖ canonical JSON of the secret) in hex; "" without a secret


@dataclass(frozen=True)
class AppendResult:
    """Versions and global positions of a batch; `duplicate` means a retry wrote nothing."""

    versions: list[int]
    positions: list[int]
    duplicate: bool


class EventStorePort(Protocol):
    """What the service needs from an event store; Redis and in-memory both provide it."""

    def append(self, game_id: str, expected_version: int, events: Sequence[NewEvent]) -> AppendResult: ...

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]: ...

    def version(self, game_id: str) -> int: ...

    def exists(self, game_id: str) -> bool: ...

    def read_all(self, after_position: int = 0, count: int | None = None) -> list[tuple[int, str, int]]: ...

    def wait(self, game_id: str, after: int, timeout_ms: int) -> list[Envelope]: ...


Clock = Callable[[], datetime]


def validate_batch(game_id: str, expected_version: int, events: Sequence[NewEvent]) -> None:
    """Raise ValueError for a call no store could honour (a caller's bug, not a conflict)."""
    if not game_id or "{" in game_id or "}" in game_id:
        raise ValueError(f"game id {game_id!r} must be non-empty and free of braces")
    if isinstance(expected_version, bool) or expected_version < 0:
        raise ValueError(f"expected_version must be >= 0, got {expected_version!r}")
    if not events:
        raise ValueError("an append needs at least one event")
    ids = [event.event_id for event in events]
    if not all(ids) or len(set(ids)) != len(ids):
        raise ValueError(f"event ids of a batch must be non-empty and distinct: {ids}")


def to_fields(envelope: Envelope) -> dict[str, str]:
    """The stream fields of `envelope` (all but `position`), JSON-encoding the structured ones."""
    fields = {}
    for name in STORED_FIELDS:
        value = getattr(envelope, name)
        if name == "audience":
            value = list(value)
        fields[name] = canonical_json(value) if name in _JSON_FIELDS else str(value)
    return fields


def from_fields(raw: Mapping[Any, Any]) -> Envelope:
    """The envelope stored as `raw` stream fields (bytes or str, as the client returns them)."""
    fields = {_text(key): _text(value) for key, value in raw.items()}
    values: dict[str, Any] = dict(fields)
    for name in _JSON_FIELDS:
        values[name] = json.loads(fields[name])
    for name in _INT_FIELDS:
        values[name] = int(fields[name])
    values["audience"] = tuple(values["audience"])
    return Envelope(**values)


def _text(value: str | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value
