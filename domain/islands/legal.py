"""legal_commands(state, seat): every command the seat may send now, complete and ready to post."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from domain.core import Command
from domain.islands.state import PLAY, State


def legal_commands(state: State, seat: int) -> list[Command]:
    """All commands `decide` accepts from `seat` now; empty when it is not that seat's move."""
    if state.phase != PLAY or seat != state.active:
        return []
    return [*_places(state, seat), *_removals(state, seat), *_discards(state, seat), *_draws(state, seat)]


def _places(state: State, seat: int) -> Iterator[Command]:
    if state.stock[seat] == 0:
        return
    board = state.rules.board
    for card in sorted(set(state.hands[seat])):
        for n in board.lines_of(card):
            if state.owners[n] is None:
                yield Command("PlaceBridge", seat, {"card": card, "line": list(board.lines[n])})


def _removals(state: State, seat: int) -> Iterator[Command]:
    board = state.rules.board
    hand = state.hands[seat]
    pairs = {tuple(sorted(p)) for p in combinations(hand, 2)}
    for a, b in sorted(pairs):
        lines = board.lines_of(a) if a == b else [i for i in [board.line_index(a, b)] if i is not None]
        for n in lines:
            owner = state.owners[n]
            if owner is not None and owner != seat:
                yield Command("RemoveBridge", seat, {"cards": [a, b], "line": list(board.lines[n])})


def _discards(state: State, seat: int) -> Iterator[Command]:
    hand = state.hands[seat]
    if len(hand) < state.rules.hand_limit:
        return
    seen: set[tuple[str, ...]] = set()
    for size in range(1, len(hand) + 1):
        for cards in combinations(hand, size):
            if cards not in seen:
                seen.add(cards)
                yield Command("DiscardCards", seat, {"cards": list(cards)})


def _draws(state: State, seat: int) -> Iterator[Command]:
    if len(state.hands[seat]) >= state.rules.hand_limit:
        return
    for card in sorted(set(state.face_up)):
        yield Command("DrawCard", seat, {"source": "face_up", "card": card})
    if state.stack:
        yield Command("DrawCard", seat, {"source": "stack"})
