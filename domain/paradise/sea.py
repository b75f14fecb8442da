"""P-3.3 and P-3.7 carrying limits: what a player's canoes can carry, and pieces left at sea
without canoes able to carry them (none may be: a move, a retreat or a battle leaves no one
stranded)."""

from __future__ import annotations

from domain.paradise.empire import revealed_effect
from domain.paradise.state import Counts, State, counts
from domain.paradise.tables import Hex


def per_transport(state: State, seat: int) -> int:
    """A transport carries one band or colony, two with Double Hulled Canoes face up (Q-D6)."""
    return 2 if revealed_effect(state, seat, "double_hull") else 1


def aboard(state: State, seat: int, pieces: Counts) -> dict[str, int]:
    """The part of `pieces` its canoes carry: bands on war canoes first, then on transports,
    then colonies on the transports' places left (our ruling: bands board before colonies)."""
    slots = pieces["transport"] * per_transport(state, seat)
    on_war = min(pieces["band"], pieces["war_canoe"])
    on_transport = min(pieces["band"] - on_war, slots)
    colonies = min(pieces["colony"], slots - on_transport)
    return counts(
        transport=pieces["transport"],
        war_canoe=pieces["war_canoe"],
        band=on_war + on_transport,
        colony=colonies,
        rumor=pieces["rumor"],
    )


def capacity(state: State, seat: int, pieces: Counts) -> bool:
    """P-3.3: whether `pieces`' canoes carry every band and colony among them."""
    # aboard(...) == counts(**pieces), without building either: this is asked of every candidate move.
    slots = pieces["transport"] * per_transport(state, seat)
    bands = pieces["band"]
    on_war = min(bands, pieces["war_canoe"])
    on_transport = min(bands - on_war, slots)
    colonies = pieces["colony"]
    return on_war + on_transport == bands and min(colonies, slots - on_transport) == colonies


def at_sea(state: State, at: Hex) -> bool:
    """Open ocean: no island group where a piece could stand ashore."""
    return at not in state.islands


def stranded_at_sea(state: State) -> list[tuple[Hex, int]]:
    """The stacks at sea holding more bands or colonies than their own canoes carry (a battle
    being fought is judged when it ends: the loser's retreat and the winner's losses settle it)."""
    fighting = state.battle.hex if state.battle is not None else None
    return sorted(
        (at, seat)
        for (at, seat), stack in state.stacks.items()
        if at_sea(state, at) and at != fighting and not capacity(state, seat, stack.pieces)
    )
