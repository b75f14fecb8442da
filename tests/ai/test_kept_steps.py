"""A search that keeps its steps (ai/steps.py) plays exactly the iterations of one that does
not: the same visits from the same seed; a kept step answers the same state object again, and
a refused command is refused again."""

from __future__ import annotations

import dataclasses
import random

import pytest

from ai.ismcts import Budget, search
from ai.sim import mover
from ai.steps import Steps
from bench.ai import positions
from domain.decider import Command, IllegalMove
from domain.games import GAMES, rules_for
from tests.ai.collector import left_after_search


def _visits(keep: bool, monkeypatch: pytest.MonkeyPatch, n: int) -> dict[str, float]:
    game = rules_for("conquest-of-paradise")
    assert game.ai is not None
    hooks = dataclasses.replace(game.ai, search=dataclasses.replace(game.ai.search, keep_steps=keep))
    monkeypatch.setitem(GAMES, game.name, dataclasses.replace(game, ai=hooks))
    knowledge, legal = positions("conquest-of-paradise", 2, {}, 6, 3)[n]
    return search(knowledge, legal, random.Random(5), Budget(iterations=150)).visits


@pytest.mark.parametrize("n", [0, 5])
def test_kept_steps_change_no_visit(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    kept = _visits(True, monkeypatch, n)
    assert rules_for("conquest-of-paradise").ai.search.keep_steps  # type: ignore[union-attr]
    assert kept == _visits(False, monkeypatch, n)


def _visits_listed(shared: bool, monkeypatch: pytest.MonkeyPatch, n: int) -> dict[str, float]:
    game = rules_for("conquest-of-paradise")
    assert game.ai is not None and game.ai.listing_key is not None
    if not shared:
        monkeypatch.setitem(
            GAMES, game.name, dataclasses.replace(game, ai=dataclasses.replace(game.ai, listing_key=None))
        )
    knowledge, legal = positions("conquest-of-paradise", 2, {}, 6, 3)[n]
    return search(knowledge, legal, random.Random(5), Budget(iterations=150)).visits


@pytest.mark.parametrize("n", [0, 5])
def test_listings_shared_across_nodes_change_no_visit(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """A listing shared by `listing_key` is the very one the node would have made: its key
    names everything the legal commands depend on (`moves_key` alone does not)."""
    assert _visits_listed(True, monkeypatch, n) == _visits_listed(False, monkeypatch, n)


def test_a_kept_step_answers_the_same_state_and_a_refusal_again() -> None:
    game = rules_for("conquest-of-paradise")
    knowledge, legal = positions("conquest-of-paradise", 2, {}, 1, 3)[0]
    assert game.ai is not None
    world = game.ai.world(knowledge, random.Random(1))
    steps = Steps(game, keep=True)
    command = legal[0]
    after = steps.step(world, command, random.Random(2))
    assert steps.step(world, command, random.Random(2)) is after
    assert Steps(game, keep=False).step(world, command, random.Random(2)) == after
    refused = Command("EndMovement", 9)  # no such seat: never its turn
    for _ in range(2):
        with pytest.raises(IllegalMove) as caught:
            steps.step(world, refused, random.Random(2))
        assert caught.value.code == "not_your_turn"


def test_a_finished_search_with_refused_steps_leaves_nothing_for_the_cycle_collector() -> None:
    """A kept refusal held its exception, whose traceback held the frames of the search, its
    tree among them: the whole tree was cyclic garbage, walked by the next collection."""
    knowledge, legal = positions("conquest-of-paradise", 2, {}, 2, 1)[1]  # a search meets refusals
    left = left_after_search(knowledge, legal)
    assert left < 50, f"{left} objects of the finished search waited for the cycle collector"


def test_a_kept_state_names_its_mover_as_the_rules_do() -> None:
    """Whose move it is, kept per state, is the rules' answer for each state met: a state and
    the ones after it (other objects, often another seat) each get their own."""
    game = rules_for("conquest-of-paradise")
    knowledge, _ = positions("conquest-of-paradise", 2, {}, 1, 3)[0]
    assert game.ai is not None
    steps = Steps(game, keep=True)
    state = game.ai.world(knowledge, random.Random(1))
    seats = set()
    for _ in range(40):
        seat = steps.mover(state)
        assert seat == mover(game, state) == steps.mover(state)
        if seat is None:
            break
        seats.add(seat)
        state = steps.step(state, game.legal_commands(state, seat)[-1], random.Random(2))
    assert seats == {0, 1}  # the walk met both seats' moves
