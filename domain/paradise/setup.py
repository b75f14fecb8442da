"""Game options (Q-A1..Q-A6) and the set-up of P-0: bases, historic tiles, starting pieces."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import IllegalMove
from domain.paradise.order import begin_turn
from domain.paradise.state import (
    HOME,
    INDEPENDENT,
    START,
    Draft,
    Due,
    Island,
    Options,
    Stack,
    State,
    counts,
)
from domain.paradise.tables import BOARD, CHITS, DECK, START_VILLAGES, TILES, VARIABLE_END_AT_MOST, Hex
from domain.paradise.tables import START as START_PIECES

BASES = {2: ("Tonga", "Samoa"), 3: ("Tonga", "Samoa", "Hiva"), 4: ("Tonga", "Samoa", "Hiva", "Raiatea")}
"""The starting base of each seat by player count (P-0.2)."""
HISTORIC = {2: (), 3: ("Hiva", "Flint Is.", "Niue"), 4: ("Hiva", "Flint Is.", "Niue", "Raiatea")}
SETUP_ISLAND_CHITS = {2: 0, 3: 3, 4: 4}
SWITCHES = ("variable_start", "saved_resources", "malaria", "south_island", "kumara")


def options_from(raw: Mapping[str, Any]) -> Options:
    """The options of a game; IllegalMove(bad_option) for anything the game does not know."""
    allowed = sorted((*SWITCHES, "end_shift", "last_turn"))
    for name in raw:
        if name not in allowed:
            raise IllegalMove("bad_option", f"unknown option {name!r}; allowed: {allowed}", field="options")
    for name in SWITCHES:
        if not isinstance(raw.get(name, False), bool):
            raise IllegalMove("bad_option", f"{name} is true or false", field=f"options.{name}")
    shift = raw.get("end_shift", 0)
    if not _whole(shift) or abs(shift) > VARIABLE_END_AT_MOST:
        limit = VARIABLE_END_AT_MOST
        raise IllegalMove(
            "bad_option", f"end_shift is a whole number from -{limit} to {limit}", "options.end_shift"
        )
    last = raw.get("last_turn")
    if last is not None and (not _whole(last) or last < 1):
        raise IllegalMove("bad_option", "last_turn is a turn number from 1", field="options.last_turn")
    return Options(**{name: raw.get(name, False) for name in SWITCHES}, end_shift=shift, last_turn=last)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_options(raw: Mapping[str, Any]) -> None:
    options_from(raw)


def _printed() -> dict[Hex, Island]:
    return {
        p.hex: Island(
            p.name,
            p.green,
            0,
            p.atoll,
            True,
            True,
            owner=None if p.base else INDEPENDENT,
            warriors=p.warriors,
            malaria=p.malaria,
        )
        for p in BOARD.printed
    }


def initial_state(setup: Mapping[str, Any]) -> State:
    """The game before its first turn; with 3-4 players it waits for the set-up chits (P-0.2)."""
    seats = tuple(str(s.get("name", f"seat {n}")) for n, s in enumerate(setup.get("seats", ())))
    if not 2 <= len(seats) <= 4:
        raise IllegalMove("bad_seat_count", f"Conquest of Paradise is played by 2-4 seats, not {len(seats)}")
    options = options_from(setup.get("options") or {})
    n = len(seats)
    islands = _printed()
    unknown = set(BOARD.unknown)
    for name in HISTORIC[n]:
        tile = TILES[name]
        at = BOARD.historic[name]
        islands[at] = Island(name, tile.green, tile.brown, tile.atoll, False, True)
        unknown.discard(at)
    names = {island.name: at for at, island in islands.items()}
    bases: list[Hex | None] = []
    stacks = {}
    for seat, name in enumerate(BASES[n]):
        at = names[name]
        islands[at] = _owned(islands[at], seat)
        bases.append(at)
        if not options.variable_start:
            stacks[(at, seat)] = Stack(counts(**START_PIECES))
    unknown -= set(BOARD.setup_ocean) if n > 2 else set()
    pool = tuple(t.name for t in TILES.values() if not t.set_aside and t.name not in HISTORIC[n])
    state = State(
        names=seats,
        options=options,
        bases=tuple(bases),
        islands=islands,
        ocean=frozenset(BOARD.known_ocean | BOARD.east_ocean | (set(BOARD.setup_ocean) if n > 2 else set())),
        unknown=frozenset(unknown),
        stacks=stacks,
        explorers=(HOME,) * n,
        chits=tuple(c.count for c in CHITS),
        tiles=pool,
        deck=DECK,
        hands=((),) * n,
        revealed=((),) * n,
        drafts=(Draft(),) * n,
        saved=(0,) * n,
        kumara=(False,) * n,
        galapagos=(False,) * n,
        penalties=(0,) * n,
        spent_cards=((),) * n,
    )
    if n > 2:
        return _with_setup_draw(state, n)
    return state if options.variable_start else begin_turn(state, 1)


def _owned(island: Island, seat: int) -> Island:
    from dataclasses import replace

    return replace(island, owner=seat, villages=START_VILLAGES)


def _with_setup_draw(state: State, n: int) -> State:
    from dataclasses import replace

    ocean = sum(c.count for c in CHITS if c.kind == "ocean")
    island = sum(c.count for c in CHITS if c.kind == "island")
    piles = {f"ocean_{i}": ocean - i for i in range(len(BOARD.setup_ocean))}
    piles |= {f"island_{i}": island - i for i in range(SETUP_ISLAND_CHITS[n])}
    return replace(state, phase=START, due=Due("setup", piles))
