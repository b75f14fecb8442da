"""A game module's `apply`: the events `decide` gives and exactly the state folding them gives.

The island games hand back the state their rules computed while deciding; these random games
of every island game and option compare it, command by command, with decide then evolve.
"""

from __future__ import annotations

import random

import pytest
from given import IKIBITI, KAHUNA, OPODOPO, Table, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.decider import Command, IllegalMove
from domain.games import GAMES
from domain.islands import engine
from domain.islands.evolve import evolve_all
from tests.hypothesis_profiles import examples
from tests.platform.example_game import RACE

HANDICAP = {"seat": 0, "free_bridges": 3, "extra_cards": 2, "hand_limit": 6}
TABLES = {
    "kahuna": KAHUNA,
    "kahuna-thames-kosmos": KAHUNA.with_options(edition="thames-kosmos"),
    "ikibiti": IKIBITI,
    "ikibiti-seafarers-handicap": IKIBITI.with_options(seafarers=True, handicap=HANDICAP),
    "opodopo-3": OPODOPO.with_options(seats=3),
    "opodopo-4": OPODOPO,
    "opodopo-3-gods": OPODOPO.with_options(seats=3, gods=True),
    "opodopo-4-gods": OPODOPO.with_options(gods=True),
}


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
@settings(max_examples=examples(share=4))
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_apply_gives_decides_events_and_the_state_evolve_folds_them_to(table: Table, seed: int) -> None:
    module = GAMES[table.game]
    steps = random_game(random.Random(seed), table)
    _, _, state = next(steps)
    for command, events, after in steps:
        assert command is not None
        applied_events, applied_state = module.apply(state, command)
        assert applied_events == events
        assert vars(applied_state) == vars(after)  # the derived fields (held, fleets) too
        state = after


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
def test_evolving_a_run_of_events_at_once_gives_every_field_evolving_each_in_turn_gives(table: Table) -> None:
    runs = 0
    for seed in range(3):
        steps = random_game(random.Random(seed), table)
        _, _, state = next(steps)
        for _, events, after in steps:
            untouched = dict(vars(state))
            assert vars(evolve_all(state, events)) == vars(after)
            assert vars(state) == untouched  # the run fills a new State, never the one it starts from
            runs += len(events) > 1
            state = after
    assert runs > 0


def test_apply_refuses_what_decide_refuses() -> None:
    state = engine.initial_state(KAHUNA.created().data)
    with pytest.raises(IllegalMove) as refused:
        GAMES["kahuna"].apply(state, Command("DrawCard", 0, {"source": "stack"}))
    assert refused.value.code == "waiting_for_shuffle"


def test_apply_without_decide_with_state_decides_then_folds() -> None:
    assert RACE.decide_with_state is None
    state = RACE.initial_state({"seats": [{"name": "A"}, {"name": "B"}]})
    events, after = RACE.apply(state, Command("Step", 0))
    assert events == RACE.decide(state, Command("Step", 0))
    assert after == RACE.evolve(state, events[0]) and after.total == 1
