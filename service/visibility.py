"""Redaction: each event and view is built for one viewer and shows only what it may see."""

from __future__ import annotations

from typing import Any

from service.events import Envelope

SPECTATOR = None


def may_read_secret(envelope: Envelope, viewer: int | None, revealed: bool) -> bool:
    """Whether `viewer` (a seat, or None for a spectator) may read the event's secret part."""
    if envelope.secret is None:
        return False
    return revealed or (viewer is not None and viewer in envelope.audience)


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
