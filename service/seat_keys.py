"""The service's answer to RegisterKey: record.seat_keys decides, refusals become problems."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.decider import Command, Event, IllegalMove
from record.envelope import Envelope
from record.seat_keys import INVALID_KEY, REGISTER_KEY, public_key
from record.seat_keys import key_events as decided
from service.errors import Unprocessable, record_refusal

__all__ = ["REGISTER_KEY", "checked_key", "key_events"]


def key_events(envelopes: Sequence[Envelope], ended: bool, command: Command) -> list[Event]:
    """SeatKeyRegistered for the command's seat; 422 for a key that is no P-256 or Ed25519
    public JWK, 409 for a game that is over or a seat that has a key already."""
    try:
        return decided(envelopes, ended, command)
    except IllegalMove as refusal:
        raise record_refusal(refusal, INVALID_KEY, "public_key") from None


def checked_key(value: Any) -> dict[str, str]:
    """The public key `value` in its recorded form (record.seat_keys.public_key); 422
    invalid_key when it is no P-256 or Ed25519 public JWK."""
    try:
        return public_key(value)
    except ValueError as error:
        raise Unprocessable(INVALID_KEY, str(error), errors={"public_key": [str(error)]}) from None
