"""The hash chain: sealing a batch after the last stored event, and checking a chain."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from record.canonical import canonical_json, plain
from record.envelope import Envelope, NewEvent, hashed_body, with_body

ZERO_HASH = "0" * 64
"""The `prev_hash` of version 1."""

SALT_BYTES = 32


def envelope_hash(envelope: Envelope) -> str:
    """The sha256 hex of the canonical JSON of the HASHED_FIELDS of `envelope`.

    An envelope read from a stored body hashes those bytes as they are, with no new JSON:
    its fields were parsed from them, so the bytes vouch for the fields.
    """
    return hashlib.sha256(hashed_body(envelope)).hexdigest()


def secret_digest(secret: Mapping[str, Any], salt: str) -> str:
    """sha256(salt bytes ‖ canonical JSON of `secret`) in hex: the secret's commitment."""
    payload = bytes.fromhex(salt) + canonical_json(secret).encode("utf-8")
    return hashlib.sha256(payload).hexdigest()


def digest_holds(envelope: Envelope) -> bool:
    """Whether the secret and salt an envelope carries are the ones its digest commits to.

    A withheld secret (None, with a digest) cannot be checked and does not fail here. The
    hidden part of a recorded command is a secret of its own, checked the same way.
    """
    return _opens(envelope.secret, envelope.salt, envelope.secret_digest) and _opens(
        envelope.command_secret, envelope.command_salt, envelope.command_digest
    )


def _opens(secret: Mapping[str, Any] | None, salt: str, digest: str) -> bool:
    if secret is None:
        return salt == ""
    try:
        return digest == secret_digest(secret, salt)
    except ValueError:  # a salt that is not hex
        return False


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
        hidden = None if event.secret is None else plain(event.secret)
        salted = "" if hidden is None else salt().hex()
        command = None if event.command is None else plain(event.command)
        command_hidden = None if event.command_secret is None else plain(event.command_secret)
        command_salt = "" if command_hidden is None else salt().hex()
        draft = Envelope(
            version=version,
            type=event.type,
            schema=event.schema,
            data=plain(event.data),
            secret=hidden,
            salt=salted,
            secret_digest="" if hidden is None else secret_digest(hidden, salted),
            command=command,
            command_secret=command_hidden,
            command_salt=command_salt,
            command_digest="" if command_hidden is None else secret_digest(command_hidden, command_salt),
            command_audience=tuple(int(seat) for seat in event.command_audience) if command else (),
            audience=tuple(int(seat) for seat in event.audience),
            actor=event.actor,
            command_id=event.command_id,
            event_id=event.event_id,
            at=at,
            prev_hash=prev_hash,
            hash="",
            position=0,
        )
        # The body is serialised once: hashed here, then written as it is by the store.
        body = hashed_body(draft)
        envelope = with_body(replace(draft, hash=hashlib.sha256(body).hexdigest()), body)
        sealed.append(envelope)
        prev_hash = envelope.hash
    return sealed


def verify_chain(envelopes: Iterable[Envelope]) -> int | None:
    """The first version whose hash, link, number or secret digest is wrong; None when it holds.

    A chain may start after version 1 (e.g. `read(after=N)`); its first link is then trusted.
    """
    previous: Envelope | None = None
    for envelope in envelopes:
        if previous is None:
            linked = envelope.version > 1 or envelope.prev_hash == ZERO_HASH
        else:
            linked = envelope.version == previous.version + 1 and envelope.prev_hash == previous.hash
        if not linked or envelope.hash != envelope_hash(envelope) or not digest_holds(envelope):
            return envelope.version
        previous = envelope
    return None
