"""Folding a game's whole history, where an undo makes the state again what it was earlier.

Undo never deletes: `Undone{to_version}` and `Corrected{to_version}` are appended like any
event, and folding them means "the state is again the state after `to_version`". So the
fold keeps the state after every version; the rules' own `evolve` never sees these two.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from domain.decider import Decider, Event

S = TypeVar("S")

REWINDS = frozenset({"Undone", "Corrected"})
"""Event types that restore the state after an earlier version."""


def rewind_target(event: Event) -> int | None:
    """The version whose state `event` restores; None when `event` is not a rewind."""
    if event.type not in REWINDS:
        return None
    target = event.data.get("to_version")
    return target if type(target) is int else None


def fold_history(
    decider: Decider[S], setup: Mapping[str, Any], events: Iterable[tuple[int, Event]]
) -> list[S]:
    """The state after each version: index v holds the state after version v.

    `setup` is the data of GameCreated (version 1); `events` are the (version, event)
    pairs from version 2 on, gapless. Index 0 holds the initial state too, so that
    index and version agree. A rewind naming no earlier version changes nothing, as
    `evolve` does with what it does not know: replaying history never raises.
    """
    initial = decider.initial_state(setup)
    return extend_history(decider, [initial, initial], events)


def extend_history(decider: Decider[S], states: Sequence[S], events: Iterable[tuple[int, Event]]) -> list[S]:
    """`states` (index v: the state after version v) followed by the states after `events`."""
    extended = list(states)
    for version, event in events:
        if version != len(extended):
            raise ValueError(f"version {version} does not follow version {len(extended) - 1}")
        target = rewind_target(event)
        if target is not None and 1 <= target < version:
            extended.append(extended[target])
        else:
            extended.append(decider.evolve(extended[-1], event))
    return extended


def numbered(events: Sequence[Event], first: int = 2) -> list[tuple[int, Event]]:
    """`events` paired with their versions, the first one being `first`."""
    return list(enumerate(events, start=first))
