"""The redaction rule: every event is shown to one viewer, its secret only to its audience.

Envelopes (the store's, an export's) and domain events (a computer player's game held in
memory) are both redacted here, by the one rule `may_read`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.decider import Event
from record.envelope import Envelope

SPECTATOR = None


def may_read(audience: Iterable[int], viewer: int | None, revealed: bool) -> bool:
    """Whether `viewer` (a seat, or None for a spectator) may read a secret for `audience`."""
    return revealed or (viewer is not None and viewer in audience)


def may_read_secret(envelope: Envelope, viewer: int | None, revealed: bool) -> bool:
    """Whether `viewer` may read the event's secret part (False when it has none)."""
    return envelope.secret is not None and may_read(envelope.audience, viewer, revealed)


def redact(envelope: Envelope, viewer: int | None, revealed: bool = False) -> dict[str, Any]:
    """The event as `viewer` sees it; the secret part is dropped unless the viewer may read it.

    Every field the hash covers is shown, so any viewer can recompute the whole chain; a
    withheld secret shows only its salted digest, never the salt (with it, each guess of
    the card could be tested against the digest).
    """
    shown: dict[str, Any] = {
        "version": envelope.version,
        "type": envelope.type,
        "schema": envelope.schema,
        "data": envelope.data,
        "audience": list(envelope.audience),
        "actor": envelope.actor,
        "command_id": envelope.command_id,
        "event_id": envelope.event_id,
        "at": envelope.at,
        "prev_hash": envelope.prev_hash,
        "hash": envelope.hash,
    }
    if envelope.command is not None:
        shown.update(command_shown(envelope, viewer, revealed))
    if envelope.secret is None:
        return shown
    shown["secret_digest"] = envelope.secret_digest
    if may_read_secret(envelope, viewer, revealed):
        shown["secret"] = envelope.secret
        shown["salt"] = envelope.salt
    else:
        shown["secret"] = None
        shown["redacted"] = True
    return shown


def command_shown(envelope: Envelope, viewer: int | None, revealed: bool) -> dict[str, Any]:
    """The command `envelope` records as `viewer` may see it: its public part, the audience
    and digest of its hidden part, and that hidden part with its salt only for its audience."""
    shown: dict[str, Any] = {
        "command": envelope.command,
        "command_audience": list(envelope.command_audience),
        "command_digest": envelope.command_digest,
    }
    if envelope.command_secret is None:
        return shown
    if may_read(envelope.command_audience, viewer, revealed):
        shown["command_secret"] = envelope.command_secret
        shown["command_salt"] = envelope.command_salt
    else:
        shown["command_secret"] = None
        shown["command_redacted"] = True
    return shown


def redact_event(event: Event, version: int, viewer: int | None, revealed: bool = False) -> dict[str, Any]:
    """A domain event not stored yet, as `viewer` may read it, in the shape of `redact`."""
    shown: dict[str, Any] = {"version": version, "type": event.type, "data": dict(event.data)}
    if event.secret is not None:
        readable = may_read(event.audience, viewer, revealed)
        shown["secret"] = dict(event.secret) if readable else None
        if not readable:
            shown["redacted"] = True
    return shown
