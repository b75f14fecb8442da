"""The one conversion from a stored event to the domain event the rules fold.

An event keeps the `schema` it was written with. When an event's shape changes, the rules
read only the newest shape, and an upcaster per (type, old schema) turns a stored event
into the next schema, one step at a time, before the rules see it (old games still fold).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from domain.decider import Event
from record.envelope import Envelope

Upcaster = Callable[[Event], Event]
"""An event of one (type, schema) in the shape of the next schema (its `schema` raised)."""

UPCASTERS: Mapping[tuple[str, int], Upcaster] = {}
"""Every event shape written so far is the current one: nothing to convert yet."""


def upcast(event: Event, upcasters: Mapping[tuple[str, int], Upcaster] = UPCASTERS) -> Event:
    """`event` converted step by step to the newest schema `upcasters` know."""
    while (step := upcasters.get((event.type, event.schema))) is not None:
        newer = step(event)
        if newer.schema <= event.schema:
            # a step that does not advance the schema would loop for ever
            raise ValueError(f"upcaster of {event.type} schema {event.schema} must raise the schema")
        event = newer
    return event


def to_event(envelope: Envelope, upcasters: Mapping[tuple[str, int], Upcaster] = UPCASTERS) -> Event:
    """The domain event `envelope` records, in the newest shape."""
    event = Event(envelope.type, envelope.data, envelope.secret, envelope.audience, envelope.schema)
    return upcast(event, upcasters) if upcasters else event
