"""What a search that keeps its steps (ai/steps.py) also keeps per state: the evaluation, worked
out once per state and viewer, and the moves key, answered as a number equal exactly for equal
keys."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from ai import steps as steps_module
from ai.steps import Steps
from domain.games import rules_for


class _State:
    """A state the hooks below read nothing of: kept steps name states by identity."""


def _counted(calls: list[tuple[Any, int | None]]) -> Any:
    game = rules_for("conquest-of-paradise")
    assert game.ai is not None

    def evaluate(state: Any, viewer: int | None) -> list[float]:
        calls.append((state, viewer))
        return [0.25, 0.75]

    return dataclasses.replace(game.ai, evaluate=evaluate)


@pytest.mark.parametrize("keep", [True, False])
def test_a_kept_state_is_evaluated_once_per_viewer(keep: bool) -> None:
    calls: list[tuple[Any, int | None]] = []
    hooks = _counted(calls)
    steps = Steps(rules_for("conquest-of-paradise"), keep)
    first, second = _State(), _State()
    for _ in range(3):
        assert steps.evaluate(hooks, first, None) == [0.25, 0.75]
        steps.evaluate(hooks, first, 1)
        steps.evaluate(hooks, second, None)
    assert len(calls) == (3 if keep else 9)


def _keys(answers: dict[int, Any]) -> Any:
    return lambda state, seat: answers[id(state)]


def test_kept_moves_keys_are_numbers_equal_exactly_for_equal_keys() -> None:
    states = [_State() for _ in range(4)]
    answers = {
        id(states[0]): ("a", 1),
        id(states[1]): ("b", 2),
        id(states[2]): ("a", 1),
        id(states[3]): ("c",),
    }
    steps = Steps(rules_for("conquest-of-paradise"), keep=True)
    named = [steps.moves_key(_keys(answers), state, 0) for state in states]
    assert all(isinstance(name, int) for name in named)
    assert named[0] == named[2]
    assert len({named[0], named[1], named[3]}) == 3
    assert Steps(rules_for("conquest-of-paradise"), keep=False).moves_key(_keys(answers), states[1], 0) == (
        "b",
        2,
    )


def test_past_the_kept_count_a_named_key_keeps_its_number_and_a_new_one_is_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(steps_module, "MAX_KEPT", 2)
    states = [_State() for _ in range(4)]
    answers = {id(states[0]): "a", id(states[1]): "b", id(states[2]): "a", id(states[3]): "c"}
    steps = Steps(rules_for("conquest-of-paradise"), keep=True)
    named = [steps.moves_key(_keys(answers), state, 0) for state in states]
    assert named[0] == named[2] != named[1]
    assert isinstance(named[2], int)
    assert named[3] == "c"
