"""The move list's kept work (`terrain.Terrain`, handed on across a seat's own moves) gives the
lists a state worked out from nothing gives, in seeded random games of 2 and 4 seats, with and
without the advanced rules; and it is handed on only where nothing it reads changed."""

from __future__ import annotations

import pytest

from domain.decider import Command
from domain.paradise import legal
from domain.paradise.state import MOVE, State, replace
from domain.paradise.terrain import terrain
from tests.domain.paradise.random_games import ADVANCED, steps


def _fresh(state: State) -> State:
    """`state` without anything kept beside its fields (`replace` copies none of it)."""
    return replace(state)


def _written(commands: list[Command]) -> list[tuple[object, ...]]:
    return [(c.type, c.seat, repr(c.args)) for c in commands]


def _moving_states(seats: int, options: dict[str, object], seed: int) -> list[tuple[State, int, Command]]:
    """Every state of a seeded random game where a seat moves, with that seat and the command
    it gave, its lists asked in the order a game asks them (each state after the one before)."""
    return [
        (state, seat, command)
        for state, seat, command in steps(seats, options, seed)
        if seat is not None and state.phase == MOVE and state.choice is None
    ]


@pytest.mark.parametrize(
    ("seats", "options", "seed"),
    [(2, {"last_turn": 12}, 1), (4, {**ADVANCED, "last_turn": 8}, 2)],
)
def test_kept_move_lists_equal_the_lists_worked_out_anew(
    seats: int, options: dict[str, object], seed: int
) -> None:
    states = _moving_states(seats, options, seed)
    assert len(states) > 100
    for state, seat, _ in states:
        assert _written(legal.legal_commands(state, seat)) == _written(
            legal.legal_commands(_fresh(state), seat)
        )


@pytest.mark.parametrize(
    ("seats", "options", "seed"),
    [(2, {"last_turn": 12}, 1), (4, {**ADVANCED, "last_turn": 8}, 2)],
)
def test_P3_2_a_move_list_names_each_move_once(seats: int, options: dict[str, object], seed: int) -> None:
    # A stack of one canoe is both the whole stack's load and that canoe's own: one load, its
    # moves listed once (the list is what /legal answers).
    for state, seat, _ in _moving_states(seats, options, seed):
        written = _written(legal.legal_commands(state, seat))
        assert len(set(written)) == len(written)


OWN_MOVES = ("Move", "FlipTransport", "Transit")


def test_a_seats_own_move_hands_its_terrain_on_and_nothing_else_does() -> None:
    states = _moving_states(2, {"last_turn": 12}, 3)
    handed_on: dict[bool, int] = {True: 0, False: 0}
    for (before, seat, command), (after, _, _) in zip(states, states[1:], strict=False):
        own = command.type in OWN_MOVES
        assert (terrain(after, seat) is terrain(before, seat)) == own, command
        handed_on[own] += 1
    assert handed_on[True] > 50
    assert handed_on[False] > 10  # the next seat's moves, or a card or tile shown
