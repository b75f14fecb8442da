"""F-1..F-4: gains and cascade losses after a bridge changes, as events."""

from __future__ import annotations

from collections.abc import Iterable

from domain.core import Event
from domain.islands import events as ev
from domain.islands.evolve import evolve
from domain.islands.state import State


class Outcome:
    """The events a command produces so far, and the state they lead to."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def settle(out: Outcome, islands: Iterable[str]) -> None:
    """F-1/F-3: every gain on `islands` first, then the bridges it removes, then the losses."""
    board = out.state.rules.board
    gains = [
        (island, seat)
        for island in _ordered(out.state, islands)
        for seat in range(out.state.seats)
        if out.state.holds_majority(island, seat) and out.state.controller(island) != seat
    ]
    for island, seat in gains:
        out.emit(ev.island_taken(seat, island))
    touched: set[str] = set()
    for island, seat in gains:
        for n in board.lines_of(island):
            owner = out.state.owners[n]
            if owner is not None and owner != seat:
                out.emit(ev.bridge_removed(owner, board.lines[n], by=seat, cause="majority"))
                touched.update(board.lines[n])
    settle_losses(out, touched)


def settle_losses(out: Outcome, islands: Iterable[str]) -> None:
    """F-2: a controller without absolute majority any more removes the marker; bridges stay."""
    for island in _ordered(out.state, islands):
        seat = out.state.controller(island)
        if seat is not None and not out.state.holds_majority(island, seat):
            out.emit(ev.island_lost(seat, island))


def _ordered(state: State, islands: Iterable[str]) -> list[str]:
    wanted = set(islands)
    return [name for name in state.rules.board.names if name in wanted]
