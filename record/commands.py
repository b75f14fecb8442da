"""How an accepted command is recorded beside the events it caused, and read back.

The first envelope of each command's events carries the command: `{"type", "seat"}` in the
clear, and its arguments either in the clear too or, when they would tell what a viewer may
not know, as a hidden part with its own salted digest and audience (record.chain.seal).

Which arguments give something away is read from the events the command caused, not
declared per game: when any of them holds a secret, the arguments are hidden from all but
the seats that may read every one of those secrets, and the acting seat (it sent them). A
face-down discard, a build order and every shuffle and draw of the system are hidden this
way; a draw from the stack too (its arguments say only "stack", which its event shows
anyway) — erring towards hiding costs a spectator a check during play, never a card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.decider import Command, Event
from record.envelope import Envelope, NewEvent


@dataclass(frozen=True)
class RecordedCommand:
    """A command as the log keeps it: `public` for everyone, `hidden` for `audience` only."""

    public: dict[str, Any]
    hidden: dict[str, Any] | None
    audience: tuple[int, ...]


def recorded(command: Command, events: Sequence[Event], signature: str | None = None) -> RecordedCommand:
    """The record of `command`, which caused `events`, with its seat's `signature` of it
    (record.seat_keys) beside its arguments: a signature of hidden arguments is hidden with them,
    since whoever holds the key could test every guess of them against it."""
    public: dict[str, Any] = {"type": command.type, "seat": command.seat}
    part: dict[str, Any] = {"args": dict(command.args)}
    if signature is not None:
        part["signature"] = signature
    audiences = [set(event.audience) for event in events if event.secret is not None]
    if not audiences:
        return RecordedCommand({**public, **part}, None, ())
    readers = set.intersection(*audiences)
    if command.seat is not None:
        readers.add(command.seat)
    return RecordedCommand(public, part, tuple(sorted(readers)))


def with_command(events: Sequence[NewEvent], command: RecordedCommand) -> list[NewEvent]:
    """`events` (one command's, in order) with the command on the first of them."""
    if not events:
        return []
    first = NewEvent(
        **{name: getattr(events[0], name) for name in _NEW_EVENT_FIELDS},
        command=command.public,
        command_secret=command.hidden,
        command_audience=command.audience,
    )
    return [first, *events[1:]]


_NEW_EVENT_FIELDS = ("event_id", "type", "data", "schema", "secret", "audience", "actor", "command_id")


def withheld(envelope: Envelope) -> bool:
    """Whether the hidden part of the command `envelope` records is withheld from its reader."""
    return envelope.command is not None and envelope.command_secret is None and bool(envelope.command_digest)


def command_of(envelope: Envelope) -> Command | None:
    """The command `envelope` records, whole; None when it records none or its hidden part
    is withheld. ValueError when the record is not a command's shape."""
    record = envelope.command
    if record is None or withheld(envelope):
        return None
    args = record.get("args") if envelope.command_secret is None else envelope.command_secret.get("args")
    kind, seat = record.get("type"), record.get("seat")
    if not isinstance(kind, str) or not (seat is None or type(seat) is int) or not isinstance(args, Mapping):
        raise ValueError("the recorded command is not {type, seat, args}")
    hidden = envelope.command_secret
    if set(record) - {"type", "seat", "args", "signature"} or (
        hidden is not None and ({"args", "signature"} & set(record) or set(hidden) - {"args", "signature"})
    ):
        raise ValueError("the recorded command holds fields a command does not")
    return Command(kind, seat, dict(args))


def signature_of(envelope: Envelope) -> Any:
    """The seat's signature the command `envelope` records (record.seat_keys), None when it
    records none; read from the hidden part when the arguments are hidden."""
    part = envelope.command_secret if envelope.command_secret is not None else envelope.command
    return None if part is None else part.get("signature")
