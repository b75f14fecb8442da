"""Event envelopes: what a store accepts, what it returns, and the hash chain between them."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

ZERO_HASH = "0" * 64
"""The `prev_hash` of version 1."""

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

HASHED_FIELDS = tuple(name for name in STORED_FIELDS if name not in ("secret", "salt", "hash"))
"""What the chained hash covers: the secret only through its salted digest, so the hash
of a redacted event can be recomputed by anyone and tests no guess of the secret."""

SALT_BYTES = 32

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

    def append(
        self, game_id: str, expected_version: int, events: Sequence[NewEvent]
    ) -> AppendResult: ...

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]: ...

    def version(self, game_id: str) -> int: ...

    def exists(self, game_id: str) -> bool: ...

    def read_all(
        self, after_position: int = 0, count: int | None = None
    ) -> list[tuple[int, str, int]]: ...

    def wait(self, game_id: str, after: int, timeout_ms: int) -> list[Envelope]: ...


Clock = Callable[[], datetime]


def canonical_json(value: Any) -> str:
    """`value` as the one JSON text that is hashed and stored: sorted keys, no spaces."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def envelope_hash(envelope: Envelope) -> str:
    """The sha256 hex of the canonical JSON of the HASHED_FIELDS of `envelope`."""
    body = {name: getattr(envelope, name) for name in HASHED_FIELDS}
    body["audience"] = list(envelope.audience)
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def secret_digest(secret: Mapping[str, Any], salt: str) -> str:
    """sha256(salt bytes ‖ canonical JSON of `secret`) in hex: the secret's commitment."""
    payload = bytes.fromhex(salt) + canonical_json(secret).encode("utf-8")
    return hashlib.sha256(payload).hexdigest()


def digest_holds(envelope: Envelope) -> bool:
    """Whether the secret and salt an envelope carries are the ones its digest commits to.

    A withheld secret (None, with a digest) cannot be checked and does not fail here.
    """
    if envelope.secret is None:
        return envelope.salt == ""
    try:
        return envelope.secret_digest == secret_digest(envelope.secret, envelope.salt)
    except ValueError:  # a salt that is not hex
        return False


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


def random_salt() -> bytes:
    return secrets.token_bytes(SALT_BYTES)


def seal(
    events: Sequence[NewEvent],
    expected_version: int,
    at: str,
    prev_hash: str,
    salt: Callable[[], bytes] = random_salt,
) -> list[Envelope]:
    """The batch numbered after `expected_version` and hash-chained from `prev_hash`.

    Each secret gets a fresh `salt()`: without it a secret of a dozen possible cards
    would be read back from its digest by trying each. `position` is 0 here: only the
    store knows it once the batch is written.
    """
    sealed = []
    for version, event in enumerate(events, start=expected_version + 1):
        hidden = None if event.secret is None else _plain(event.secret)
        salted = "" if hidden is None else salt().hex()
        draft = Envelope(
            version=version,
            type=event.type,
            schema=event.schema,
            data=_plain(event.data),
            secret=hidden,
            salt=salted,
            secret_digest="" if hidden is None else secret_digest(hidden, salted),
            audience=tuple(int(seat) for seat in event.audience),
            actor=event.actor,
            command_id=event.command_id,
            event_id=event.event_id,
            at=at,
            prev_hash=prev_hash,
            hash="",
            position=0,
        )
        envelope = replace(draft, hash=envelope_hash(draft))
        sealed.append(envelope)
        prev_hash = envelope.hash
    return sealed


def _plain(value: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-native deep copy: exactly what a reader will get back from the store."""
    plain: dict[str, Any] = json.loads(canonical_json(dict(value)))
    return plain


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


def verify_chain(envelopes: Iterable[Envelope]) -> int | None:
    """The first version whose hash, link, number or secret digest is wrong; None when it holds.

    A chain may start after version 1 (e.g. `read(after=N)`); its first link is then trusted.
    """
    previous: Envelope | None = None
    for envelope in envelopes:
        if previous is None:
            linked = envelope.version > 1 or envelope.prev_hash == ZERO_HASH
        else:
            linked = (
                envelope.version == previous.version + 1 and envelope.prev_hash == previous.hash
            )
        if not linked or envelope.hash != envelope_hash(envelope) or not digest_holds(envelope):
            return envelope.version
        previous = envelope
    return None
