"""Random legal games of 2, 3 and 4 players, with and without the advanced rules, to the end.

After every command: each player's pieces stay within Q-D1 (what is not on the map is
unbuilt), cards are neither made nor lost, villages fit their squares, no view shows a seat a
face-down tile it has not seen, another's stack or another's hidden cards. At the end: the
events refold to the live state, and the game has ended (Q-A6's `last_turn` bounds a game of
random players, who seldom reach the VP target).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from paradise_given import new

from domain.core import Command, Event, Seats
from domain.paradise.build import on_map
from domain.paradise.module import PARADISE
from domain.paradise.state import State
from domain.paradise.tables import DECK, PIECES

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SWITCHES = ("variable_start", "saved_resources", "malaria", "south_island", "kumara")
OPTIONS = st.fixed_dictionaries(
    {name: st.booleans() for name in SWITCHES}, optional={"end_shift": st.integers(-3, 3)}
)
LAST_TURN = 5
MAX_STEPS = 5000


def check_pieces(state: State) -> None:
    """Q-D1: no player has more of a kind on the map than it owns; the rest is unbuilt."""
    for seat in range(state.seats):
        placed = on_map(state, seat)
        assert all(0 <= placed[kind] <= PIECES[kind] for kind in PIECES), (seat, placed)
    for at, island in state.islands.items():
        assert 0 <= island.villages <= max(island.squares, island.villages if island.printed else 0), at
        assert island.agriculture <= island.brown
    cards = Counter(state.deck)
    for seat in range(state.seats):
        cards.update(state.hands[seat] + state.revealed[seat] + state.spent_cards[seat])
    assert cards == Counter(DECK)


def check_views(state: State) -> None:
    """Q-2: a view shows a seat only what it may see."""
    ended = state.result is not None
    for seat in range(state.seats):
        view = PARADISE.view(state, seat)
        text = json.dumps(view)
        for at, island in state.islands.items():
            if not island.face_up and not island.printed and seat not in island.discoverers and not ended:
                assert f'"{island.name}"' not in text, (seat, island.name)
                entry = next(i for i in view["islands"] if i["hex"] == list(at))
                assert "name" not in entry
        for stack in view["stacks"]:
            assert ("pieces" in stack) == (stack["seat"] == seat or ended)
        for player in view["players"]:
            assert (player["cards"] is None) == (player["seat"] != seat and not ended)
        if view["draft"] is not None:
            assert view["draft"]["items"] == [
                {"item": i, "hex": list(h) if h else None} for i, h in state.drafts[seat].items
            ]


def play(seats: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event], State]:
    rng = random.Random(seed)
    setup = {"game": PARADISE.name, "seats": [{"name": f"p{n}"} for n in range(seats)]}
    setup["options"] = {**options, "last_turn": LAST_TURN}
    first = state = PARADISE.initial_state(setup)
    events: list[Event] = []
    for _ in range(MAX_STEPS):
        if PARADISE.is_terminal(state):
            break
        request = PARADISE.pending_system(state)
        if request is not None:
            command = request.answer(rng)
        else:
            acting = PARADISE.to_act(state)
            assert isinstance(acting, Seats) and acting.seats
            seat = rng.choice(acting.seats)
            legal = list(PARADISE.legal_commands(state, seat))
            assert legal, (state.phase, state.choice)
            command = rng.choice(legal)
        batch, state = PARADISE.apply(state, command)
        events += batch
        check_pieces(state)
        check_views(state)
    return first, events, state


@given(seats=st.sampled_from([2, 3, 4]), options=OPTIONS, seed=SEEDS)
def test_random_games_keep_the_invariants_to_the_end(seats: int, options: dict[str, Any], seed: int) -> None:
    first, events, state = play(seats, options, seed)
    assert PARADISE.is_terminal(state) and state.result is not None
    folded = first
    for event in events:
        folded = PARADISE.evolve(folded, event)
    assert folded == state
    assert state.turn <= LAST_TURN


def test_legal_commands_are_given_only_to_the_seats_the_game_waits_for() -> None:
    state = new(2)
    assert PARADISE.legal_commands(state, 1) == []
    assert all(isinstance(c, Command) and c.seat == 0 for c in PARADISE.legal_commands(state, 0))
