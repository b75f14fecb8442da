"""Who controls what, transport-canoe chains, build pools and victory points (P-4, P-5, Q-D3)."""

from __future__ import annotations

from domain.paradise.hexes import neighbours, reachable
from domain.paradise.map_facts import controller as controller  # the rules ask it here too
from domain.paradise.map_facts import facts
from domain.paradise.state import State, kept, occupied
from domain.paradise.tables import HALVES, Hex, card_with


def controlled(state: State, seat: int) -> list[Hex]:
    """The groups `seat` controls (P-5.1: a group where it has a village), in order; worked
    out once per map of groups (domain.paradise.map_facts), so never to be changed by the caller."""
    return facts(state.islands).of(seat).groups


def is_known(state: State, at: Hex) -> bool:
    """Whether a canoe may enter `at`: ocean, a printed group or a face-up tile (P-3.2)."""
    if at in state.unknown:
        return False
    island = state.islands.get(at)
    return island is None or island.face_up or island.printed


def is_enemy(state: State, at: Hex, seat: int) -> bool:
    """An enemy hex for `seat`: a group another controls (independents too) or others' pieces."""
    island = state.islands.get(at)
    if island is not None and controller(island) not in (None, seat):
        return True
    # The seats there read where `occupants` reads them, without its list and a generator:
    # asked for every hex every candidate move enters.
    for other in occupied(state).get(at, ()):
        if other != seat:
            return True
    return False


def chain_hexes(state: State, seat: int) -> set[Hex]:
    """Hexes where `seat` has a face-up transport canoe."""
    return {at for (at, owner), stack in state.stacks.items() if owner == seat and stack.shown}


@kept
def components(state: State, seat: int) -> list[set[Hex]]:
    """`seat`'s transport-canoe chains: connected hexes each holding a face-up transport
    (worked out once per state and seat: never to be changed by the caller)."""
    hexes = chain_hexes(state, seat)
    left, found = set(hexes), []
    while left:
        part = reachable([left.pop()], hexes.__contains__)
        left -= part
        found.append(part)
    return found


def base_chain(state: State, seat: int) -> set[Hex]:
    """The chain linked to `seat`'s base (empty when the base holds no face-up transport)."""
    base = state.bases[seat]
    # Only a face-up transport at the base starts a chain: most states have none, and the
    # chains need a look at every stack.
    at_base = state.stacks.get((base, seat)) if base is not None else None
    if at_base is None or not at_base.shown:
        return set()
    return next((part for part in components(state, seat) if base in part), set())


@kept
def pools(state: State, seat: int) -> list[set[Hex]]:
    """Groups whose villages build together (P-4.2): those on one chain, else each alone
    (worked out once per state and seat: never to be changed by the caller)."""
    mine, found = set(controlled(state, seat)), []
    for part in components(state, seat):
        linked = mine & part
        if linked:
            found.append(linked)
            mine -= linked
    return found + [{at} for at in sorted(mine)]


def revealed_effect(state: State, seat: int, effect: str) -> bool:
    """Whether `seat` has the card with `effect` face up."""
    return card_with(effect) in state.revealed[seat]


def vp_halves(state: State, seat: int, hidden_too: bool = False) -> int:
    """`seat`'s victory points, in halves (Q-D3); hidden cards count only with `hidden_too`."""
    held = facts(state.islands).of(seat)
    got = held.villages * HALVES["village"]
    chain = base_chain(state, seat)
    if chain:
        islands = state.islands
        got += sum(1 for at in held.groups if at in chain) * HALVES["linked_group"]
        atoll = 2 if revealed_effect(state, seat, "atoll_full_point") else HALVES["linked_atoll"]
        got += sum(atoll for at in chain if at in islands and islands[at].atoll)
    cards = state.revealed[seat] + (state.hands[seat] if hidden_too else ())
    if cards:
        got += held.card_halves(cards)
    got += HALVES["kumara"] if state.kumara[seat] else 0
    return got - 2 * state.penalties[seat]


def nearest_friendly(state: State, seat: int, start: Hex, enemies_fighting: set[Hex]) -> list[Hex]:
    """The closest groups `seat` controls, by steps over the map, that hold no enemy fighters."""
    goals = {at for at in controlled(state, seat) if at not in enemies_fighting and at != start}
    frontier, seen = [start], {start}
    while frontier and goals:
        hits = sorted(at for at in frontier if at in goals)
        if hits:
            return hits
        nxt = []
        for at in frontier:
            for n in neighbours(at):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return []
