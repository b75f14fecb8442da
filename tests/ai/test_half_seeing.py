"""The half-seeing search of bench.where_it_loses draws worlds the seat cannot tell from the
real one, holding every hand as it is and the stack's order drawn anew."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ai.ismcts import Budget
from ai.policies import choose, commands
from ai.sim import as_command
from ai.table import Table
from bench.where_it_loses import knowing_hands
from domain.islands.worlds import consistent, truth


def decisions(seed: int) -> Iterator[tuple[Any, Any]]:
    """(true state, knowledge of the seat to move) along a greedy Kahuna game."""
    setup = {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0, "options": {}}
    table, rng = Table(setup, random.Random(seed)), random.Random(seed)
    while not table.ended:
        seat = table.mover()
        assert seat is not None
        legal, knowledge = commands(seat, table.legal(seat)), table.knowledge(seat)
        yield table.state, knowledge
        table.play(as_command(choose("greedy", knowledge, legal, rng, Budget(iterations=1)), seat))


def test_a_half_seeing_world_fits_the_view_holds_the_hands_and_draws_the_stack_anew() -> None:
    rng = random.Random(3)
    orders = 0
    for state, knowledge in decisions(301):
        real, world = truth(state), knowing_hands(state, knowledge)(rng)
        consistent(knowledge.seen, truth(world))
        assert world.hands == real.hands
        assert sorted(world.stack + world.hidden) == sorted(real.stack + real.hidden)
        assert world.hidden[: len(knowledge.own_hidden)] == knowledge.own_hidden
        orders += world.stack != real.stack
    assert orders, "the stack's order is drawn anew"
