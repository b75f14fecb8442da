"""Command and Event stay frozen values whatever builds them: equal by content, never altered."""

from __future__ import annotations

import dataclasses

import pytest

from domain.decider import SERVER, Command, Event


def test_a_command_is_a_frozen_value_with_its_own_empty_args() -> None:
    first, second = Command("EndTurn", 0), Command("EndTurn", 0)
    assert first == second == Command("EndTurn", 0, {})
    assert first.args == {} and first.args is not second.args  # no shared default to mutate
    assert first != Command("EndTurn", 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.seat = 1  # type: ignore[misc]
    assert dataclasses.replace(first, seat=1) == Command("EndTurn", 1)
    assert repr(first) == "Command(type='EndTurn', seat=0, args={})"


def test_an_event_is_a_frozen_value_with_the_declared_defaults() -> None:
    event = Event("TurnEnded", {"seat": 0, "next": 1})
    assert (event.secret, event.audience, event.schema) == (None, SERVER, 1)
    assert event == Event("TurnEnded", {"seat": 0, "next": 1}, None, SERVER, 1)
    assert event != Event("TurnEnded", {"seat": 0, "next": 1}, schema=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.data = {}  # type: ignore[misc]
    assert dataclasses.asdict(event) == {
        "type": "TurnEnded",
        "data": {"seat": 0, "next": 1},
        "secret": None,
        "audience": SERVER,
        "schema": 1,
    }
    assert [f.name for f in dataclasses.fields(Event)] == ["type", "data", "secret", "audience", "schema"]
