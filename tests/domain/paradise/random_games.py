"""Seeded random games of Conquest of Paradise, step by step, for the tests that compare what
the rules keep between states with what a state alone gives."""

from __future__ import annotations

import random
from collections.abc import Iterator

from domain.decider import Command
from domain.paradise.module import PARADISE
from domain.paradise.state import State

ADVANCED = {"variable_start": True, "saved_resources": True, "malaria": True, "south_island": True}

STEPS = 20_000
"""Commands a game may take at most: a seeded game that has not ended by then is a failure."""


def setup(seats: int, options: dict[str, object]) -> dict[str, object]:
    return {
        "game": PARADISE.name,
        "seats": [{"name": f"P{n + 1}"} for n in range(seats)],
        "first_seat": 0,
        "options": options,
    }


def steps(seats: int, options: dict[str, object], seed: int) -> Iterator[tuple[State, int | None, Command]]:
    """Each state of a seeded random game before its last, with who gave the command that
    follows it (None: the system's draw) and that command; the states the rules ask in the
    order a game asks them (each after the one before)."""
    rng = random.Random(seed)
    state = PARADISE.initial_state(setup(seats, options))
    for _ in range(STEPS):
        if PARADISE.is_terminal(state):
            return
        pending = PARADISE.pending_system(state)
        seat: int | None = None
        if pending is not None:
            command = pending.answer(rng)
        else:
            seat = next(s for s in range(seats) if PARADISE.legal_commands(state, s))
            command = rng.choice(PARADISE.legal_commands(state, seat))
        yield state, seat, command
        state = PARADISE.apply(state, command)[1]
    raise AssertionError(f"the game did not end within {STEPS} commands")


def states(seats: int, options: dict[str, object], seed: int) -> list[State]:
    """Every state of a seeded random game, its first and its last among them."""
    found = []
    last = None
    for state, _, command in steps(seats, options, seed):
        found.append(state)
        last = (state, command)
    assert last is not None
    found.append(PARADISE.apply(*last)[1])
    return found
