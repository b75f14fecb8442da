"""The one conversion from a stored event to a domain event, and its upcaster hook."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.decider import Event
from record.chain import ZERO_HASH, seal
from record.convert import UPCASTERS, to_event, upcast
from record.envelope import NewEvent


def _stored(type_: str, data: dict[str, object], schema: int = 1) -> NewEvent:
    return NewEvent(event_id="c:0", type=type_, data=data, schema=schema, secret={"card": "x"}, audience=(1,))


def test_a_stored_event_becomes_the_domain_event_it_records() -> None:
    [envelope] = seal([_stored("CardDrawn", {"seat": 1})], 0, "2026-01-01T00:00:00Z", ZERO_HASH)
    assert to_event(envelope) == Event("CardDrawn", {"seat": 1}, {"card": "x"}, (1,), 1)


def test_no_upcaster_is_registered_while_every_stored_shape_is_current() -> None:
    assert dict(UPCASTERS) == {}


def test_upcasters_run_in_turn_from_the_stored_schema_to_the_newest() -> None:
    def renamed(event: Event) -> Event:  # schema 2 calls "who" what schema 1 called "seat"
        data = {("who" if k == "seat" else k): v for k, v in event.data.items()}
        return replace(event, data=data, schema=2)

    def counted(event: Event) -> Event:  # schema 3 adds a count
        return replace(event, data={**event.data, "count": 1}, schema=3)

    table = {("CardDrawn", 1): renamed, ("CardDrawn", 2): counted}
    [old, newer] = seal(
        [_stored("CardDrawn", {"seat": 1}), replace(_stored("CardDrawn", {"who": 2}, 2), event_id="c:1")],
        0,
        "2026-01-01T00:00:00Z",
        ZERO_HASH,
    )
    assert to_event(old, table).data == {"who": 1, "count": 1}
    assert to_event(old, table).schema == 3
    assert to_event(newer, table).data == {"who": 2, "count": 1}
    assert to_event(old).data == {"seat": 1}  # the default table converts nothing


def test_an_upcaster_that_keeps_the_schema_is_refused_rather_than_looping() -> None:
    table = {("CardDrawn", 1): lambda event: event}
    with pytest.raises(ValueError, match="must raise the schema"):
        upcast(Event("CardDrawn", {}, schema=1), table)
