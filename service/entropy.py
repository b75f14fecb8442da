"""The service's answer to AddEntropy: record.entropy decides, refusals become problems."""

from __future__ import annotations

from collections.abc import Sequence

from domain.decider import Command, Event, IllegalMove
from record.entropy import ADD_ENTROPY, INVALID
from record.entropy import entropy_events as decided
from record.envelope import Envelope
from service.errors import record_refusal

__all__ = ["ADD_ENTROPY", "entropy_events"]


def entropy_events(envelopes: Sequence[Envelope], ended: bool, command: Command) -> list[Event]:
    """EntropyAdded for the command's seat; 422 for malformed entropy, 409 for a game with no
    deal, one that is over, or a seat that added its entropy already."""
    try:
        return decided(envelopes, ended, command)
    except IllegalMove as refusal:
        raise record_refusal(refusal, INVALID, "entropy") from None
