"""State.held, each seat's bridges as bits of line indexes, always says what `owners` says."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from given import IKIBITI, KAHUNA, OPODOPO, Table, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.islands import engine
from domain.islands.state import State
from tests.hypothesis_profiles import examples

TABLES = {
    "kahuna": KAHUNA,
    "ikibiti-seafarers": IKIBITI.with_options(seafarers=True),
    "opodopo-4-gods": OPODOPO.with_options(gods=True),
}


def _counted(state: State, island: str, seat: int) -> int:
    return sum(1 for n in state.rules.board.lines_of(island) if state.owners[n] == seat)


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
@settings(max_examples=examples(share=4))
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_held_follows_every_bridge_placed_and_removed(table: Table, seed: int) -> None:
    for _, _, state in random_game(random.Random(seed), table):
        for seat in range(state.seats):
            lines = {n for n, owner in enumerate(state.owners) if owner == seat}
            assert state.held[seat] == sum(1 << n for n in lines)
            assert state.bridges_of(seat) == len(lines)
            for island in state.rules.board.names:
                assert state.bridges_on(island, seat) == _counted(state, island, seat)


def test_a_state_built_from_owners_derives_held() -> None:
    start = engine.initial_state(KAHUNA.created().data)
    owners = list(start.owners)
    owners[0], owners[3], owners[5] = 1, 0, 1
    built = replace(start, owners=tuple(owners))
    assert built.held == (1 << 3, 1 << 0 | 1 << 5)
    assert built == replace(start, owners=tuple(owners))
