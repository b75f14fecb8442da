"""Swiss pairing of a 2-player round by the FIDE Dutch system (C.04.3, the 2017 rules).

Entrants are ordered by points, then pairing number (the lots' order). Entrants with equal
points form a score group; the round is paired from the top group down, each group's upper
half against its lower half by pairing number.

The round is one maximum-weight matching over every pair the absolute criteria allow (C.1
no rematch, C.3 a seat order that keeps both within a first-seat difference of two and off a
third same seat running; for every entrant, the last round's topscorers included), plus a
bye node when the count is odd, joined to those without a pairing-allocated bye (C.2).
Among the largest matchings (C.4: the round is always completed when it can be), networkx
takes the one of least cost, where a pair's cost is a number whose digits are the Dutch
quality criteria, bracket by bracket from the top:

1. C.5/C.6: the entrants a bracket leaves unpaired (each downfloater counts in every
   bracket it passes), then the pairing score differences (PSD: a difference of d score
   groups outweighs any number of smaller ones; an unpaired entrant counts one group more
   than the bracket it leaves); C.7: the same two for the next bracket;
2. C.10: the entrants who do not get their colour preference; C.11 the strong ones;
3. C.12-C.15: a downfloat repeating the previous round's or the one before, and upfloats;
4. the order of the Dutch system's candidates: in a bracket of residents, S1 (the upper
   half) against S2 in pairing-number order, the first transposition of S2 before any
   later one (S1's first entrant's partner decides first), any exchange between S1 and S2
   after every transposition; moved-down entrants (MDPs) meet the best residents, the
   remainder then splits into its own halves. Exchanges go in the order of D.2: the fewest,
   the least difference of the moved sequence numbers' sums, the highest moved from S1, the
   lowest moved from S2. The halves are known only once the floats
   are, so a first matching finds the floats and a second one orders by the halves they give.

Seats follow C.04.3 E (dutch_colours.first_of). Not implemented: C.8/C.9 (the final round's
topscorers: here the absolute colour rules hold for them too), the score-difference float
criteria C.16-C.19, and the exact bracket structure where the PSD is weighed by score groups
rather than by points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from domain.decider import IllegalMove
from domain.tournament.dutch_colours import STRONG, compatible, first_of, preference
from domain.tournament.pairing import Pairing, Standing

BYE = -1
# The fields of a bracket's block of cost, most significant first. From MDP on they are the
# Dutch order of candidates: the MDPs' partners, then exchanges (how many, the difference of
# the moved entrants' sequence numbers, which of S1 and S2 move), then the transposition.
(
    FLOATERS,
    PSD,
    NEXT_FLOATERS,
    NEXT_PSD,
    COLOUR,
    STRONG_COLOUR,
    DOWN_1,
    UP_1,
    DOWN_2,
    UP_2,
    MDP,
    EXCHANGES,
    DIFFERENCE,
    MOVED_DOWN,
    MOVED_UP,
    TRANSPOSITION,
) = range(16)


@dataclass(frozen=True)
class Seat:
    """An entrant as the engine reads it: its place in the pairing order and its score group."""

    standing: Standing
    index: int  # 0 = first by points, then pairing number
    group: int  # 0 = the most points
    place: int  # its place in its score group by pairing number


def pair_dutch(standings: Sequence[Standing]) -> Pairing:
    """The next round's tables, top board first, and the bye; IllegalMove("no_pairing") when
    the absolute criteria leave no complete pairing."""
    if len({s.id for s in standings}) != len(standings):
        raise ValueError("an entrant appears twice in the standings")
    seats = _seats(standings)
    if not seats:
        return Pairing(())
    edges = _legal_edges(seats)
    matching = _match(seats, edges, _Layout(seats))
    if matching is None:
        raise IllegalMove("no_pairing", "no pairing of this round keeps the absolute criteria")
    taken = _taken_by_mdps(seats, matching)
    if taken:
        matching = _match(seats, edges, _Layout(seats, taken)) or matching
    return _pairing(seats, matching)


def _seats(standings: Sequence[Standing]) -> list[Seat]:
    ordered = sorted(standings, key=lambda s: (-s.points, s.number, s.id))
    totals = sorted({s.points for s in ordered}, reverse=True)
    seen: dict[int, int] = {}
    seats = []
    for index, s in enumerate(ordered):
        group = totals.index(s.points)
        seats.append(Seat(s, index, group, seen.get(group, 0)))
        seen[group] = seen.get(group, 0) + 1
    return seats


def _legal_edges(seats: list[Seat]) -> list[tuple[int, int]]:
    """Every pair the absolute criteria allow, and (odd count) every entrant the bye may go to."""
    edges = []
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            s, t = a.standing, b.standing
            if t.id in s.opponents or s.id in t.opponents:
                continue
            if compatible(s.colours, t.colours):
                edges.append((a.index, b.index))
    if len(seats) % 2:
        edges += [(a.index, BYE) for a in seats if a.standing.pairing_byes == 0]
    return edges


class _Layout:
    """Where each criterion sits in a cost: one block per bracket, the top bracket's highest."""

    def __init__(self, seats: list[Seat], taken: frozenset[int] = frozenset()) -> None:
        self.groups = seats[-1].group + 2  # the bye's own bracket below the last group
        self.sizes = [0] * self.groups
        self.starts = [0] * self.groups
        for seat in reversed(seats):
            self.sizes[seat.group] += 1
            self.starts[seat.group] = seat.index
        # The residents a first matching gave to MDPs: the remainder is the others.
        self.taken = taken
        moved: dict[int, int] = {}
        for i in taken:
            moved[seats[i].group] = moved.get(seats[i].group, 0) + 1
        self.moved = moved
        self.remainder: dict[int, int] = {}
        counts: dict[int, int] = {}
        for seat in seats:
            if seat.index in taken:
                self.remainder[seat.index] = -1
            else:
                self.remainder[seat.index] = counts.get(seat.group, 0)
                counts[seat.group] = counts.get(seat.group, 0) + 1
        self.small = (len(seats) + 2).bit_length() + 1  # a field holds a count of entrants
        self.offsets: list[list[int]] = [[] for _ in range(self.groups)]
        shift = 0
        for bracket in reversed(range(self.groups)):
            widths = [self.small] * TRANSPOSITION
            widths[MDP] = self.small * (moved.get(bracket, 0) + 6)  # a digit each, and room below zero
            widths[DIFFERENCE] = 2 * self.small + 2
            widths[MOVED_DOWN] = widths[MOVED_UP] = self.small * (self.sizes[bracket] + 1)
            widths[PSD] = widths[NEXT_PSD] = self.small * (self.groups + 2)
            widths.append(self.small * (self.sizes[bracket] + 1))
            for field in reversed(range(len(widths))):
                self.offsets[bracket].insert(0, shift)
                shift += widths[field]

    def power(self, difference: int) -> int:
        """A score difference of `difference` groups, as a digit of the PSD field."""
        return 1 << (self.small * difference)

    def cost(self, bracket: int, field: int, value: int) -> int:
        return value << self.offsets[bracket][field]


def _pair_cost(a: Seat, b: Seat | None, layout: _Layout) -> int:
    """The cost of a meeting `b` (None: the bye); `a` is the better placed of the two."""
    bottom = b.group if b is not None else layout.groups - 1
    cost = _floats(a.group, bottom, b is not None, layout)
    if b is None:
        size = layout.sizes[a.group]
        return (
            cost
            + layout.cost(a.group, DOWN_1, _floated(a, 1, "D"))
            + layout.cost(a.group, DOWN_2, _floated(a, 2, "D"))
            + layout.cost(bottom, TRANSPOSITION, size - 1 - a.place)
            + _floater_order(a, layout)
        )
    p, q = preference(a.standing.colours), preference(b.standing.colours)
    if p.colour is not None and p.colour == q.colour:
        cost += layout.cost(bottom, COLOUR, 1)
        if min(p.strength, q.strength) >= STRONG:
            cost += layout.cost(bottom, STRONG_COLOUR, 1)
    if a.group != b.group:
        # The bracket a downfloater leaves chooses it; the bracket it joins chooses its opponent.
        cost += layout.cost(a.group, DOWN_1, _floated(a, 1, "D")) + layout.cost(
            bottom, UP_1, _floated(b, 1, "U")
        )
        cost += layout.cost(a.group, DOWN_2, _floated(a, 2, "D")) + layout.cost(
            bottom, UP_2, _floated(b, 2, "U")
        )
        return cost + _mdp_order(a, b, layout) + _floater_order(a, layout)
    return cost + _resident_order(a, b, layout)


def _floats(top: int, bottom: int, paired: bool, layout: _Layout) -> int:
    """C.5-C.7 for an entrant of group `top` meeting one of group `bottom`: it leaves every
    bracket in between unpaired (C.5), and the pairing score differences (C.6) grow with the
    groups it passes: d groups weigh more than any number of differences below d. Each
    bracket also weighs these for the next bracket, before its own colours (C.7)."""
    cost = 0
    for k in range(top, bottom):
        cost += layout.cost(k, FLOATERS, 1) + layout.cost(k, PSD, layout.power(k - top + 1))
        if k > 0:
            cost += layout.cost(k - 1, NEXT_FLOATERS, 1) + layout.cost(
                k - 1, NEXT_PSD, layout.power(k - top + 1)
            )
    if paired and bottom > top:
        cost += layout.cost(bottom, PSD, layout.power(bottom - top))
        cost += layout.cost(bottom - 1, NEXT_PSD, layout.power(bottom - top)) if bottom > 0 else 0
    return cost


def _mdp_order(a: Seat, b: Seat, layout: _Layout) -> int:
    """S1 = the MDPs, highest first: the highest are paired first, each with the best resident
    it can meet. A paired MDP earns (the bracket's size - its partner's place) at its own digit,
    so an unpaired MDP weighs more than any partner; the field's total is below zero."""
    distance = min(layout.starts[b.group] - a.index, layout.moved.get(b.group, 0) + 3)
    return layout.cost(b.group, MDP, (b.place - layout.sizes[b.group]) << (layout.small * distance))


def _halves(seat: Seat, layout: _Layout) -> tuple[int, int]:
    """The entrant's sequence number in its bracket's remainder (from 0; below 0 for a resident
    due to meet an MDP) and the size of the remainder's S1."""
    taken = layout.moved.get(seat.group, 0)
    return layout.remainder[seat.index], max((layout.sizes[seat.group] - taken) // 2, 1)


def _floater_order(a: Seat, layout: _Layout) -> int:
    """A downfloater taken from S1 is an exchange: S1 gives one entrant to S2."""
    number, half = _halves(a, layout)
    return _moved_down(a.group, number, layout) if 0 <= number < half else 0


def _moved_down(group: int, number: int, layout: _Layout) -> int:
    """S1's `number` moved to S2: the least difference of sequence numbers, then (D.2.b.3) the
    exchange whose highest differing number moved from S1 is the highest: each moved number
    weighs below zero more than all lower ones together, so 5-2 comes before 4-3. A resident
    due to meet an MDP (`number` below zero) earns nothing here: it is the last choice."""
    moved = layout.cost(group, MOVED_DOWN, layout.power(number)) if number >= 0 else 0
    return layout.cost(group, DIFFERENCE, -number) - moved


def _moved_up(group: int, number: int, layout: _Layout) -> int:
    """S2's `number` moved to S1: one exchange, then (D.2.b.4) the exchange whose lowest
    differing number moved from S2 is the lowest: 6-9 comes before 7-8."""
    last = layout.sizes[group] - 1
    return (
        layout.cost(group, EXCHANGES, 1)
        + layout.cost(group, DIFFERENCE, number)
        - layout.cost(group, MOVED_UP, layout.power(last - number))
    )


def _resident_order(a: Seat, b: Seat, layout: _Layout) -> int:
    """Two residents: S1 meets S2 in the first transposition; an exchange costs more than any
    transposition: the fewest exchanged, then the least difference of their sequence numbers."""
    x, half = _halves(a, layout)
    y, _ = _halves(b, layout)
    size = layout.sizes[a.group] - layout.moved.get(a.group, 0)
    transposition = (
        layout.cost(a.group, TRANSPOSITION, max(y, 0) << (layout.small * (size - 1 - x))) if x >= 0 else 0
    )
    if x < 0:
        return layout.cost(a.group, EXCHANGES, 1) + layout.cost(a.group, DIFFERENCE, b.place)
    if y < half:
        return transposition + _moved_down(a.group, y, layout)
    if x >= half:
        return transposition + _moved_up(a.group, x, layout)
    return transposition


def _floated(seat: Seat, rounds_ago: int, way: str) -> int:
    floats = seat.standing.floats
    return int(len(floats) >= rounds_ago and floats[-rounds_ago] == way)


def _match(seats: list[Seat], edges: list[tuple[int, int]], layout: _Layout) -> dict[int, int] | None:
    """Each index's partner (BYE for the bye) in the least costly complete pairing, or None."""
    costs = {(i, j): _pair_cost(seats[i], seats[j] if j != BYE else None, layout) for i, j in edges}
    if not costs:
        return None
    ceiling = max(costs.values()) + 1
    graph = nx.Graph()
    nodes = len(seats) + len(seats) % 2
    graph.add_nodes_from(range(-1 if len(seats) % 2 else 0, len(seats)))
    graph.add_weighted_edges_from((i, j, ceiling - c) for (i, j), c in costs.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != nodes:
        return None
    partners = {}
    for i, j in matching:
        partners[i], partners[j] = j, i
    return partners


def _taken_by_mdps(seats: list[Seat], partners: dict[int, int]) -> frozenset[int]:
    """The residents a matching gave to entrants from higher groups."""
    return frozenset(
        i for i, j in partners.items() if i != BYE and j != BYE and seats[j].group < seats[i].group
    )


def _pairing(seats: list[Seat], partners: dict[int, int]) -> Pairing:
    """Tables in seat order, by the higher score, then the sum of scores, then the better place."""
    tables = []
    for i, j in sorted(partners.items()):
        if j == BYE or i > j or i == BYE:
            continue
        a, b = seats[i].standing, seats[j].standing
        pair = (a.id, b.id) if first_of(a.colours, b.colours, a.number) else (b.id, a.id)
        tables.append(((-a.points, -(a.points + b.points), i), pair))
    byes = tuple(seats[i].standing.id for i, j in partners.items() if j == BYE and i != BYE)
    return Pairing(tuple(pair for _, pair in sorted(tables)), byes)
