"""Stored-event envelopes: what a store accepts, what it returns, and its stream fields."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, NamedTuple, Protocol

import orjson

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
"""An envelope's recorded fields, in order: the fields of an exported event, and the stream
fields of an event stored before BODY held the hashed ones."""

HASHED_FIELDS = tuple(name for name in STORED_FIELDS if name not in ("secret", "salt", "hash"))
"""What the chained hash covers: the secret only through its salted digest, so the hash
of a redacted event can be recomputed by anyone and tests no guess of the secret."""

COMMAND_FIELDS = ("command", "command_audience", "command_digest")
"""What the chained hash covers of the command an envelope records (the first envelope of
each command's events carries it): its public part, who may read its hidden part, and that
hidden part's salted digest. Envelopes without a command hash without these keys, exactly as
every envelope did before commands were recorded, so older chains still hold."""

COMMAND_HIDDEN = "command_hidden"
"""The stream field holding a command's hidden part and its salt (canonical JSON), "" when
the envelope records no hidden part; outside the hash, as `secret` and `salt` are."""

BODY = "body"
"""The stream field holding the canonical JSON of the HASHED_FIELDS: the very bytes the hash
covers, so a read parses them once and the chain check hashes them as they are."""

STREAM_FIELDS = (BODY, "secret", "salt", COMMAND_HIDDEN, "hash")
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
    # On the first event of each command: the command (record.commands), public and hidden parts.
    command: Mapping[str, Any] | None = None
    command_secret: Mapping[str, Any] | None = None
    command_audience: tuple[int, ...] = ()

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
    """A stored event as `read` returns it; `position` is its place in the all-events stream its
    game points into (`events:$all` on one Redis, its bucket's stream on a cluster)."""

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
    # The command whose events start here (None on every other envelope, and on events stored
    # before commands were recorded): its public part, and its hidden part as a secret of its own.
    command: dict[str, Any] | None = None
    command_secret: dict[str, Any] | None = None
    command_salt: str = ""
    command_digest: str = ""
    command_audience: tuple[int, ...] = ()
    # The hashed bytes this envelope was sealed or read from, b"" when unknown. Not an init
    # field, so `dataclasses.replace` drops it: a changed copy is hashed from its fields.
    body: bytes = field(default=b"", init=False, repr=False, compare=False)


@dataclass(frozen=True)
class AppendResult:
    """Versions and all-events positions of a batch; `duplicate` means a retry wrote nothing."""

    versions: list[int]
    positions: list[int]
    duplicate: bool
    written: tuple[Envelope, ...] = field(default=(), compare=False)
    """The envelopes a first write stored, as a read would return them (none for a retry): the
    writer folds them without reading them back."""


class Pointer(NamedTuple):
    """One entry of an all-events stream: event `version` of `game_id` was appended at `at`."""

    stream: str
    position: int
    game_id: str
    version: int
    at: str


Checkpoint = Mapping[str, int]
"""How far a reader of the all-events streams got: the last position read in each stream
(a stream it does not name is read from its start)."""


class EventStorePort(Protocol):
    """What the service needs from an event store; Redis and in-memory both provide it."""

    def append(self, game_id: str, expected_version: int, events: Sequence[NewEvent]) -> AppendResult: ...

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]: ...

    def version(self, game_id: str) -> int: ...

    def exists(self, game_id: str) -> bool: ...

    def read_pointers(self, checkpoint: Checkpoint | None = None, count: int | None = None) -> list[Pointer]:
        """The entries after `checkpoint` of every all-events stream (at most `count` of each),
        stream by stream, oldest first within a stream."""
        ...

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


def hashed_body(envelope: Envelope) -> bytes:
    """The canonical JSON of the HASHED_FIELDS of `envelope`, UTF-8: what its hash covers."""
    if envelope.body:
        return envelope.body
    body = {name: getattr(envelope, name) for name in HASHED_FIELDS}
    body["audience"] = list(envelope.audience)
    if envelope.command is not None:
        body.update({name: getattr(envelope, name) for name in COMMAND_FIELDS})
        body["command_audience"] = list(envelope.command_audience)
    return canonical_json(body).encode("utf-8")


def with_body(envelope: Envelope, body: bytes) -> Envelope:
    """`envelope`, knowing `body` as the bytes its hashed fields were sealed or read from."""
    object.__setattr__(envelope, "body", body)
    return envelope


def stored_as(sealed: Sequence[Envelope], positions: Sequence[int]) -> tuple[Envelope, ...]:
    """`sealed` as a store holds them once written at `positions` (their bodies kept)."""
    return tuple(
        with_body(replace(envelope, position=position), envelope.body)
        for envelope, position in zip(sealed, positions, strict=True)
    )


def to_fields(envelope: Envelope) -> dict[str, str]:
    """The stream fields of `envelope` (all but `position`): its hashed body and the rest."""
    return {
        BODY: hashed_body(envelope).decode("utf-8"),
        "secret": canonical_json(envelope.secret),
        "salt": envelope.salt,
        COMMAND_HIDDEN: command_hidden(envelope),
        "hash": envelope.hash,
    }


def command_hidden(envelope: Envelope) -> str:
    """The COMMAND_HIDDEN stream field of `envelope`."""
    if envelope.command_secret is None:
        return ""
    return canonical_json({"secret": envelope.command_secret, "salt": envelope.command_salt})


def from_fields(raw: Mapping[Any, Any]) -> Envelope:
    """The envelope stored as `raw` stream fields (bytes or str, as the client returns them).

    Events stored before BODY existed hold each envelope field in its own stream field;
    they still read, and their hash is computed from their fields as it always was.
    """
    fields = {_text(key): value for key, value in raw.items()}
    if BODY not in fields:
        return _from_each_field(fields)
    body = _bytes(fields[BODY])
    hashed: dict[str, Any] = orjson.loads(body)
    # The old layout's int() gave numbers; a body written by hand could hold "2" or 2.0,
    # on which the chain check would raise or misjudge a link.
    for name in ("version", "schema"):
        if type(hashed[name]) is not int:
            raise ValueError(f"{name} must be an integer, got {hashed[name]!r}")
    hashed["audience"] = tuple(hashed["audience"])
    if "command_audience" in hashed:
        hashed["command_audience"] = tuple(hashed["command_audience"])
    # Absent from events stored before commands were recorded.
    hidden = _text(fields.get(COMMAND_HIDDEN, b""))
    command: dict[str, Any] = orjson.loads(hidden) if hidden else {"secret": None, "salt": ""}
    envelope = Envelope(
        **hashed,
        secret=orjson.loads(fields["secret"]),
        salt=_text(fields["salt"]),
        command_secret=command["secret"],
        command_salt=command["salt"],
        hash=_text(fields["hash"]),
        position=int(fields["position"]),
    )
    return with_body(envelope, body)


def _from_each_field(raw: Mapping[str, str | bytes]) -> Envelope:
    """The envelope of an event stored field by field (STORED_FIELDS and `position`)."""
    fields = {name: _text(value) for name, value in raw.items()}
    values: dict[str, Any] = dict(fields)
    for name in _JSON_FIELDS:
        values[name] = orjson.loads(fields[name])
    for name in _INT_FIELDS:
        values[name] = int(fields[name])
    values["audience"] = tuple(values["audience"])
    return Envelope(**values)


def _text(value: str | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _bytes(value: str | bytes) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else value
