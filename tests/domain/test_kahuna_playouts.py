"""Random legal Kahuna games to the end, checking the rules' invariants after every command."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

from given import BLACK, DECK, ISLANDS, LINES, PLACES, WHITE, cards_in_play, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core import Command, Event, fold
from domain.islands import engine
from domain.islands.state import State


def stored(event: Event) -> Event:
    """The event as a store gives it back: through JSON, secret and audience included."""
    raw = json.loads(
        json.dumps(
            {
                "type": event.type,
                "data": event.data,
                "secret": event.secret,
                "audience": event.audience,
                "schema": event.schema,
            }
        )
    )
    return Event(raw["type"], raw["data"], raw["secret"], tuple(raw["audience"]), raw["schema"])


def refold(history: list[Event]) -> State:
    """The state rebuilt from the stored history alone, from the GameCreated that opens it."""
    return fold(engine, engine.initial_state(history[0].data), history[1:])


def check_bridges(state: State) -> None:
    """K-1/F-4: each seat's bridges on the board plus those in stock are its 25."""
    for seat in (BLACK, WHITE):
        assert state.owners.count(seat) + state.stock[seat] == 25


def check_markers(state: State) -> None:
    """F-1/F-2/F-5: a marker stands exactly where its seat holds absolute majority."""
    for island in ISLANDS:
        counts = Counter(owner for (a, b), owner in zip(LINES, state.owners, strict=True) if island in (a, b))
        holder = next((s for s in (BLACK, WHITE) if 2 * counts[s] > PLACES[island]), None)
        assert state.control[ISLANDS.index(island)] == holder, island


def check_cards(state: State) -> None:
    """K-1: the 24 cards, two per island, lie somewhere: hands, face-up row, stack, discards."""
    assert cards_in_play(state) == Counter(DECK)


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


def k7_points(round_: int, islands: list[int]) -> list[int]:
    """K-7 once more: 1, then 2, then the difference to the seat with more islands."""
    lead = islands[BLACK] - islands[WHITE]
    won = {1: 1, 2: 2, 3: abs(lead)}[round_] if lead else 0
    return [won, 0] if lead > 0 else [0, won]


def check_scoring(before: State, events: list[Event]) -> None:
    """K-7: each RoundScored counts the markers; GameEnded names the seat with most points."""
    for event in events:
        if event.type == "RoundScored":
            islands = [before.control.count(seat) for seat in (BLACK, WHITE)]
            points = k7_points(event.data["round"], islands)
            totals = [t + p for t, p in zip(before.scores, points, strict=True)]
            assert event.data == {
                "round": before.round,
                "islands": islands,
                "points": points,
                "totals": totals,
            }
        if event.type == "GameEnded":
            black, white = totals = event.data["totals"]
            winner = None if black == white else (BLACK if black > white else WHITE)
            reason = "draw" if winner is None else "points"
            assert event.data == {"winner": winner, "totals": totals, "reason": reason}


def reshuffled_secrets(rnd: random.Random, state: State, viewer: int | None) -> State:
    """`state` with what `viewer` may not know dealt afresh: other hands, stack, hidden discards."""
    others = [s for s in (BLACK, WHITE) if s != viewer]
    secret = [c for s in others for c in state.hands[s]] + list(state.stack) + list(state.hidden)
    rnd.shuffle(secret)
    hands = list(state.hands)
    for s in others:
        hands[s], secret = tuple(sorted(secret[: len(hands[s])])), secret[len(hands[s]) :]
    stack, hidden = tuple(secret[: len(state.stack)]), tuple(secret[len(state.stack) :])
    return replace(state, hands=tuple(hands), stack=stack, hidden=hidden)


def lists_in(value: Any) -> list[list[Any]]:
    """Every list nested anywhere in a view."""
    if isinstance(value, dict):
        return [x for v in value.values() for x in lists_in(v)]
    if isinstance(value, list):
        return [value, *(x for v in value for x in lists_in(v))]
    return []


def check_views(rnd: random.Random, state: State) -> None:
    """No view tells another seat's hand, the stack order or hidden discards; all are JSON."""
    for viewer in (BLACK, WHITE, None):
        seen = engine.view(state, viewer)
        json.dumps(seen)
        assert seen == engine.view(reshuffled_secrets(rnd, state, viewer), viewer)
        assert not {"hands", "stack", "hidden"} & set(seen)
        if viewer is None:
            assert "hand" not in seen
        else:
            assert seen["hand"] == list(state.hands[viewer])
        if len(state.stack) > 5:  # shorter lists could be a hand or a line by chance
            assert list(state.stack) not in lists_in(seen)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_the_invariants(seed: int) -> None:
    rnd, peek = random.Random(seed), random.Random(seed + 1)
    steps = random_game(rnd)
    _none, created, before = next(steps)
    history = [stored(e) for e in created]
    replica = refold(history)
    for command, events, state in steps:
        assert command is not None
        check_turns(before, command, state)
        check_scoring(before, events)
        new = [stored(e) for e in events]
        history += new
        # fold(stored history so far) from initial_state, one step further each time:
        # the same value as a refold from scratch, without its quadratic cost.
        replica = fold(engine, replica, new)
        assert replica == state
        check_bridges(state)
        check_markers(state)
        check_cards(state)
        check_views(peek, state)
        before = state
    assert engine.is_terminal(before)
    assert refold(history) == before
    assert history[-1].type == "GameEnded"
    assert [e.data["round"] for e in history if e.type == "RoundScored"] == [1, 2, 3]
    assert engine.legal_commands(before, BLACK) == engine.legal_commands(before, WHITE) == []
