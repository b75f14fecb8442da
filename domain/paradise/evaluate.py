"""How a position of Conquest of Paradise stands for each seat (AIHooks.evaluate and priors).

A seat's standing, in victory points, is what it scores now plus what its position promises:
villages it has ordered, the build points its villages give each turn still to come, its
pieces, colonies ready to settle, room to grow and groups it has found. A softmax of the
standings over the target gives each seat's chance to win; a finished game gives 1 to its
winners. The promises are worth less than the points they lead to, so a sure point always
beats a hope of one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from domain.decider import Command
from domain.paradise.empire import vp_halves
from domain.paradise.map_facts import MapFacts, facts
from domain.paradise.state import BUILD, EXPLORE, MOVE, ORDER, State, total
from domain.paradise.tables import CARDS, COSTS, DECK, Hex
from domain.paradise.victory import target

SHARPNESS = 6.0
"""How steeply a lead in standing (as a share of the target) turns into a chance to win."""
ORDERED_VILLAGE = 0.9
"""A village in a seat's build orders: built at the reveal, unless a battle takes it first."""
CARD_VP = sum(CARDS[name].vp for name in DECK) / len(DECK)
"""What an Arts & Culture card nobody has seen is worth, on average over the deck (Q-D6)."""
GROUP = 0.25
"""Each group held: more villages to build on, a base to fall back to, the tie-break (P-5)."""
INCOME = 0.15
"""Each build point still to spend, this turn's and those of the turns to come: two points buy
a village (1 VP), and some points go to pieces, so a point is worth less than half a VP."""
INCOME_TURNS = 3
"""At most this many turns after this one count: further ones are too uncertain to weigh."""
PIECE = {"transport": 0.2, "war_canoe": 0.3, "band": 0.12, "colony": 0.25, "rumor": 0.0}
"""Each piece on the map or ordered: about half of what its build points buy as villages, so a
free village square is filled first, and points that cannot buy one still buy something."""
SETTLE_READY = 0.6
"""Colonies on a face-up group nobody holds, with a free square: a village at the next build,
for no build point (P-4.3); less for colonies on their way to one."""
ROOM = 0.1
"""Each free village square on a group the seat holds (improved agriculture adds one)."""
FOUND = 0.15
"""Each group nobody holds, with a free square, that the seat knows of: face up, or a face-down
tile it found (a place to settle that others may not know)."""

BUILD_PRIORS = {"village": 3.0, "settle": 3.0, "agriculture": 1.5, "war_canoe": 1.0, "band": 1.0}
PRIORS = {
    "Fight": 2.5,
    "Explore": 2.0,
    "Move": 1.5,
    "Transit": 1.0,
    "RevealTile": 1.0,
    "ChooseOrder": 1.0,
    "SeekKumara": 0.5,
    "EndExploration": 0.2,
    "EndMovement": 0.1,
}
ORDER_PRIOR = 0.5
"""An order BUILD_PRIORS does not name: a commit is worth the sum of its orders'."""


def win_chances(state: State, viewer: int | None) -> list[float]:
    """Each seat's chance to win: 1 for a winner once the game is over, else a softmax of the
    seats' standings over the target (hidden cards count at their face for the viewer's own
    seat and in a sampled world, viewer None; at the deck's average for others)."""
    if state.result is not None:
        winners = list(state.result.get("winners") or [])
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(state.seats)]
    goal = max(1, target(state))
    prospects = _all_prospects(state)
    scores = [
        SHARPNESS * _standing(state, seat, viewer, prospects[seat]) / goal for seat in range(state.seats)
    ]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    whole = sum(weights)
    return [w / whole for w in weights]


def standing(state: State, seat: int, viewer: int | None) -> float:
    """`seat`'s victory points now plus what its position promises, in victory points."""
    return _standing(state, seat, viewer, _prospects(state, seat))


def _standing(state: State, seat: int, viewer: int | None, prospects: float) -> float:
    seen = viewer is None or viewer == seat
    vp = vp_halves(state, seat, hidden_too=seen) / 2
    if not seen:
        vp += CARD_VP * len(state.hands[seat])
    return vp + _orders(state, seat) + prospects


def _orders(state: State, seat: int) -> float:
    """Build orders not yet revealed: villages almost built, cards at the deck's average, pieces."""
    got = 0.0
    for item, _ in state.drafts[seat].items:
        if item in ("village", "settle"):
            got += ORDERED_VILLAGE
        elif item == "card":
            got += CARD_VP
        elif item == "agriculture":
            got += ROOM
        else:
            got += PIECE.get(item, 0.0)
    return got


def turns_left(state: State) -> int:
    """Build phases after this turn's whose points the seat's villages give (at most
    INCOME_TURNS); none after the last turn's."""
    if state.options.last_turn is None:
        return INCOME_TURNS
    return max(0, min(INCOME_TURNS, state.options.last_turn - state.turn))


def points_to_spend(state: State, seat: int, income: int) -> int:
    """This turn's build points not yet ordered: all of them until the seat commits its orders
    (all at once; in games stored before, what the orders given so far leave), none after
    (unspent points are lost)."""
    if state.phase in (ORDER, EXPLORE, MOVE):
        return income
    draft = state.drafts[seat]
    if state.phase != BUILD or draft.committed:
        return 0
    return max(0, income - sum(COSTS.get(item, 0) for item, _ in draft.items if item != "settle"))


def _prospects(state: State, seat: int) -> float:
    return _all_prospects(state)[seat]


def _all_prospects(state: State) -> list[float]:
    """Each seat's promises: its groups, build points to come, room, pieces, colonies and the
    groups it found; the stacks read in one pass for all seats, each seat's sum added up in
    the stacks' order as a pass per seat did (the same sums to the last bit)."""
    the_map = facts(state.islands)
    seats = state.seats
    held = [the_map.of(seat) for seat in range(seats)]
    later = turns_left(state)
    got = []
    for seat in range(seats):
        mine = held[seat]
        income = mine.villages
        # This turn's points count until they are ordered (the orders count then) and later
        # turns' as they come: the standing does not fall when a phase passes, only when
        # points go unspent.
        points = points_to_spend(state, seat, income) + income * later
        got.append(GROUP * len(mine.groups) + INCOME * points + ROOM * mine.room)
    for (at, owner), stack in state.stacks.items():
        if not 0 <= owner < seats:
            continue
        # The pieces' worth summed as `sum` would, from 0 in the stack's order, without a
        # generator per stack of every leaf.
        pieces, worth = stack.pieces, 0.0
        for kind, n in pieces.items():
            if n > 0:
                worth += PIECE[kind] * n
        got[owner] += worth
        if pieces["colony"] > 0:
            got[owner] += _colony_prospect(the_map, at)
    for seat in range(seats):
        # Added one by one, as the groups were once counted: the same sum to the last bit.
        for _ in range(held[seat].found):
            got[seat] += FOUND
    return got


def _colony_prospect(the_map: MapFacts, at: Hex) -> float:
    """Colonies at `at`: SETTLE_READY on a group they may settle, less the farther the nearest
    such group lies (a canoe takes them two hexes a turn)."""
    steps = the_map.nearest_free(at)
    return 0.0 if steps is None else SETTLE_READY / (1 + steps)


def quick(state: State, command: Command) -> float:
    """A cheap order of commands for rollouts: build, fight and explore before ending a phase."""
    if command.type == "EndBuild":
        orders = command.args.get("orders") or ()
        return sum(BUILD_PRIORS.get(str(order.get("item")), ORDER_PRIOR) for order in orders)
    if command.type == "Move":
        return PRIORS["Move"] + 0.1 * total(command.args.get("pieces") or {})
    return PRIORS.get(command.type, 0.5)


def priors(state: State, commands: Sequence[Command]) -> list[float]:
    """The rollout order of a whole listing: each command's own quick value (`quick`'s, its
    usual answer looked up here: every new node of a search asks it of all its commands)."""
    found = []
    get, move = PRIORS.get, PRIORS["Move"]
    for command in commands:
        kind = command.type
        if kind == "Move":  # the commonest: `quick`'s sum worked out here
            found.append(move + 0.1 * sum((command.args.get("pieces") or {}).values()))
        else:
            found.append(quick(state, command) if kind == "EndBuild" else get(kind, 0.5))
    return found
