"""`update`, the copy of a State or Turn with some fields changed, refuses names that are not fields."""

from __future__ import annotations

import pytest
from given import KAHUNA

from domain.islands import engine
from domain.islands.state import NEW_TURN, update


def test_update_changes_the_named_fields_and_leaves_the_value_itself_alone() -> None:
    start = engine.initial_state(KAHUNA.created().data)
    moved = update(start, active=1, round=2)
    assert (moved.active, moved.round) == (1, 2)
    assert (start.active, start.round) == (0, 0)
    assert moved.held == start.held and moved.hands == start.hands


def test_update_refuses_a_name_that_is_not_a_field_of_a_state() -> None:
    start = engine.initial_state(KAHUNA.created().data)
    with pytest.raises(TypeError, match=r"State has no field\(s\) \['activ'\]"):
        update(start, active=1, activ=1)


def test_update_refuses_a_name_that_is_not_a_field_of_a_turn() -> None:
    with pytest.raises(TypeError, match=r"Turn has no field\(s\) \['drawn'\]"):
        update(NEW_TURN, drawn=True)
