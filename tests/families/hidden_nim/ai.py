"""Hidden Nim for the computer players (AIHooks): a world is the game folded from the seat's
events with the pile's size, which no seat knows, drawn among those still possible."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.decider import Event
from domain.game_module import AIHooks
from tests.families.hidden_nim.rules import LEAST, SIZES, Nim, evolve, initial_state, legal_commands


def world(knowledge: Any, rng: Any) -> Nim:
    """The game as the seat knows it, the pile drawn among the sizes the takes leave possible."""
    events = list(knowledge.events)
    state = initial_state(events[0][1])
    for kind, data in events[1:]:
        state = evolve(state, Event(kind, data))
    if state.winner is not None:
        return state
    possible = [size for size in range(LEAST, LEAST + SIZES) if size > sum(state.taken)]
    return replace(state, pile=possible[rng.randrange(len(possible))])


def evaluate(state: Nim, viewer: int | None) -> list[float]:
    """Each seat's chance to win: known at the end, even before."""
    if state.winner is None:
        return [0.5, 0.5]
    return [1.0 if seat == state.winner else 0.0 for seat in range(2)]


HOOKS: AIHooks[Nim] = AIHooks(
    world=world,
    evaluate=evaluate,
    priors=lambda state, commands: [0.0 for _ in commands],
    moves=legal_commands,
    moves_key=lambda state, seat: (state.active, state.taken),
    turn=lambda state: sum(state.taken),
)
