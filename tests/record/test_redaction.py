"""One redaction rule for stored envelopes and for events held in memory."""

from __future__ import annotations

import pytest

from domain.decider import Event
from record.chain import ZERO_HASH, seal
from record.envelope import NewEvent
from record.redaction import redact, redact_event

EVENT = Event("CardDrawn", {"seat": 1}, {"card": "palm"}, (1,))


@pytest.mark.parametrize(("viewer", "revealed"), [(None, False), (0, False), (1, False), (0, True)])
def test_an_envelope_and_its_event_show_a_viewer_the_same_secret(viewer: int | None, revealed: bool) -> None:
    [envelope] = seal([NewEvent.recording(EVENT, 0, "seat:1", "c")], 0, "2026-01-01T00:00:00Z", ZERO_HASH)
    stored = redact(envelope, viewer, revealed)
    held = redact_event(EVENT, 1, viewer, revealed)
    assert held == {k: stored[k] for k in held}
    assert ("salt" in stored) == (stored["secret"] is not None)
