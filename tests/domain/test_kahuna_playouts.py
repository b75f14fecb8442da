"""Random legal Kahuna games to the end, checking the rules' invariants after every command."""

from __future__ import annotations

import random

from given import KAHUNA, play_out
from hypothesis import given
from hypothesis import strategies as st
from invariants import check_end, invariants

from domain.decider import Command, Event
from domain.islands.state import State


def check_turns(before: State, command: Command, after: State) -> None:
    """K-5/K-6: only a draw ends a turn; the round ends on its last card; hands hold 5 at most."""
    assert all(len(hand) <= 5 for hand in after.hands)
    if command.seat is not None:
        drew = command.type == "DrawCard"
        assert after.active == (1 - command.seat if drew else command.seat)
        last_card = drew and not after.stack and not after.face_up
        assert after.phase == ("scoring" if last_card else "play")
    if after.phase == "play" and after.stack:
        assert len(after.face_up) == 3
    if command.type == "ShuffleDeck":
        assert (after.phase, after.round, after.active) == ("play", before.round + 1, before.active)


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_the_invariants(seed: int) -> None:
    rnd, peek = random.Random(seed), random.Random(seed + 1)
    every_game = invariants(KAHUNA, peek)  # K-1, F-1..F-5, K-7, the views

    def check(before: State, command: Command, events: list[Event], state: State) -> None:
        check_turns(before, command, state)
        every_game(before, command, events, state)

    history, end = play_out(rnd, KAHUNA, check)
    check_end(KAHUNA, history, end)
    assert [e.data["round"] for e in history if e.type == "RoundScored"] == [1, 2, 3]
