"""Helpers for the Conquest of Paradise rule tests: a game at a chosen point, pieces placed,
commands applied as the platform applies them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.decider import Command, Event
from domain.paradise.module import NAME, PARADISE
from domain.paradise.state import Island, Stack, State, counts, with_island, with_stack
from domain.paradise.tables import Hex

TONGA, SAMOA, FIJI, NIUE = (5, 6), (5, 4), (4, 5), (6, 6)


def new(seats: int = 2, **options: Any) -> State:
    setup = {"game": NAME, "seats": [{"name": f"p{n}"} for n in range(seats)], "options": options}
    return PARADISE.initial_state(setup)


REACTIONS = {"haka": ("Haka", "UseCard", {"use": False}), "arioi": ("Arioi", "UseCard", {"use": False})}
REACTIONS["deforest"] = ("Severe Deforestation", "Deforest", {})


def exact(state: State, type_: str, seat: int | None, **args: Any) -> tuple[list[Event], State]:
    """The events `seat`'s command causes and the state after them, as the platform applies it."""
    return PARADISE.apply(state, Command(type_, seat, args))


def act(state: State, type_: str, seat: int | None, **args: Any) -> tuple[list[Event], State]:
    """As `exact`, then every reaction offer (Haka, Arioi, Severe Deforestation) put to a seat
    without the card declined, as that seat's client would: the rules ask holders and others
    alike (Q-2), and a test of another rule need not answer for them."""
    events, state = exact(state, type_, seat, **args)
    more, state = declined(state)
    return events + more, state


def declined(state: State) -> tuple[list[Event], State]:
    """`state` after each reaction offer to a seat without the card is declined."""
    events: list[Event] = []
    while state.choice is not None and state.choice.kind in REACTIONS:
        card, answer, answer_args = REACTIONS[state.choice.kind]
        seat_asked = state.choice.seat
        if card in state.hands[seat_asked] + state.revealed[seat_asked]:
            break
        more, state = exact(state, answer, seat_asked, **answer_args)
        events += more
    return events, state


def draw(state: State, **draws: int) -> tuple[list[Event], State]:
    return act(state, "Draw", None, draws=draws)


def die(state: State, roll: int) -> tuple[list[Event], State]:
    return draw(state, die=roll - 1)


def started(seats: int = 2, first: int = 0, **options: Any) -> State:
    """A game whose turn order is chosen: seat `first` starts exploring, clockwise."""
    state = new(seats, **options)
    if seats > 2:
        _, state = draw(state, **{name: 0 for name in state.due.piles})  # type: ignore[union-attr]
    _, state = act(state, "ChooseOrder", state.marker, first=first, clockwise=True)
    return state


def moving(seats: int = 2, **options: Any) -> State:
    """Turn 1's movement phase, every explorer home without exploring."""
    state = started(seats, **options)
    while state.phase == "explore":
        _, state = act(state, "EndExploration", state.expedition.seat)  # type: ignore[union-attr]
    return state


def building(seats: int = 2, **options: Any) -> State:
    state = moving(seats, **options)
    while state.phase == "move":
        _, state = act(state, "EndMovement", state.seat)
    return state


def place(state: State, at: Hex, seat: int, shown: bool = False, **pieces: int) -> State:
    return with_stack(state, at, seat, Stack(counts(**pieces), shown=shown))


def tile(state: State, at: Hex, name: str, green: int, brown: int = 0, **fields: Any) -> State:
    island = Island(name, green, brown, False, False, True)
    state = replace(state, unknown=state.unknown - {at})
    return with_island(state, at, replace(island, **fields))


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def order(item: str, at: Hex | None = None) -> dict[str, Any]:
    """One build order of an EndBuild."""
    return {"item": item} if at is None else {"item": item, "hex": list(at)}


def commit(state: State, seat: int, *orders: dict[str, Any]) -> tuple[list[Event], State]:
    """`seat`'s build orders, all at once (Q-1)."""
    return act(state, "EndBuild", seat, orders=list(orders)) if orders else act(state, "EndBuild", seat)
