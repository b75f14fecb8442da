"""The sims of the searches and the arena answer the system's requests for as long as the rules
make them in a row (a long battle's dice), and stop with an error only when they never end."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from ai.sim import MAX_SYSTEM_STEPS, settle, step
from domain.decider import Command
from domain.games import rules_for
from domain.paradise.state import INDEPENDENT, Battle, Due, Stack, counts, with_stack
from domain.turns import Draw

GAME = rules_for("conquest-of-paradise")
FIJI = (4, 5)
FRONT = 24
"""Fighters on each first line: every roll hits one of them, so the battle rolls at least this
many dice in a row, none of them waiting for a seat (one kind per line: no casualty to choose)."""


def long_battle() -> Any:
    """Seat 0's war canoes against Fiji's local warriors, the first die due."""
    created = {"game": GAME.name, "seats": [{"name": "a"}, {"name": "b"}], "options": {}}
    state = GAME.initial_state(created)
    fiji = replace(state.islands[FIJI], warriors=FRONT)
    state = replace(state, islands={**state.islands, FIJI: fiji}, due=None, phase="move", order=(0, 1))
    state = with_stack(state, FIJI, 0, Stack(counts(war_canoe=FRONT)))
    # Haka shown by seat 1: no roll asks seat 0 whether it plays it (Q-2 asks whoever may hold it).
    deck = list(state.deck)
    deck.remove("Haka")
    state = replace(state, deck=tuple(deck), revealed=((), ("Haka",)))
    none = {"war_canoe": 0, "band": 0, "local": 0}
    battle = Battle(
        FIJI,
        0,
        INDEPENDENT,
        ({**none, "war_canoe": FRONT}, {**none, "local": FRONT}),
        (none, none),
        (counts(), counts()),
        fiji.green,
    )
    return replace(state, battle=battle, due=Due("die", {"die": 6}))


def test_a_battle_rolling_more_dice_in_a_row_than_sixteen_is_played_to_its_end_in_one_settle() -> None:
    state = long_battle()
    rolls = 0
    while (pending := GAME.pending_system(state)) is not None:  # the battle as the service plays it
        _, state_after = GAME.apply(state, pending.answer(random.Random(rolls)))
        state, rolls = state_after, rolls + 1
    assert rolls >= FRONT > 16

    settled = settle(GAME, long_battle(), random.Random(3))
    assert GAME.pending_system(settled) is None
    assert settled.battle is None or settled.battle.winner is not None


class Endless:
    """A game whose system draws a die after every die, for ever (a rules bug)."""

    def pending_system(self, state: int) -> Draw:
        return Draw({"die": 6}, "Draw")

    def apply(self, state: int, command: Command) -> tuple[list[Any], int]:
        return [], state + 1


def test_a_system_that_never_stops_drawing_raises_after_the_bound_instead_of_looping() -> None:
    with pytest.raises(RuntimeError, match="does not end"):
        settle(Endless(), 0, random.Random(1))  # type: ignore[arg-type]
    assert MAX_SYSTEM_STEPS >= 100


def test_a_search_step_into_a_long_battle_comes_back_with_the_battle_decided() -> None:
    # `step` applies a command, then settles: here the first roll's answer, then every other.
    after = step(GAME, long_battle(), Command("Draw", None, {"draws": {"die": 3}}), random.Random(5))
    assert GAME.pending_system(after) is None
    assert after.battle is None or after.battle.winner is not None
