"""Swiss pairing of a 2-player round as a maximum-weight matching.

Entrants are the nodes of a graph and every pair that has not met yet is an edge; a rematch
has no edge, so no pairing can hold one. networkx's maximum-weight matching among the
largest matchings then picks the pairing; each edge's weight encodes, most important first:

1. seat balance beyond two: how far either entrant would end past |firsts - seconds| = 2
   (FIDE's Dutch system holds that limit above score groups too);
2. score groups: the square of the distance between the two entrants' score groups, so
   entrants meet their own group and a floater drops to the next one;
3. seat balance beyond one: how far either would end past |firsts - seconds| = 1 (0
   unless both have played one seat more often than the other);
4. seat preference: the sum of |firsts - seconds| after the game, so each gets its due seat;
5. rank order, which settles every remaining tie the same way: within a score group the
   top half meets the bottom half in order (1st-5th, 2nd-6th, ... of a group of eight, as
   the Dutch system's first try), across groups the nearest ranks meet. The cost is the
   square of how far the two are from that.

Each level's unit exceeds the most the levels below it can add up to over a whole round,
so the total weight orders pairings by these criteria lexicographically. With an odd
count, the bye goes to the entrant with the fewest byes, the lowest-ranked among them,
for whom the others can still all be paired without a rematch. Entrants are read in rank
order (ties by id) and the graph's nodes are their positions in that order, built in that
order, so the same standings give the same pairing whatever order they come in, and
nothing depends on how Python hashes strings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import networkx as nx

from domain.core import IllegalMove
from domain.tournament.pairing import Pairing, Standing, bye_candidates, in_rank_order


def pair_swiss(standings: Sequence[Standing]) -> Pairing:
    """The next round's pairing; IllegalMove("no_pairing") when none avoids a rematch."""
    ordered = in_rank_order(standings)
    # Groups by everyone's points: the bye's total still separates the groups around it.
    groups = score_groups(ordered)
    if len(ordered) % 2 == 0:
        tables = _match(ordered, groups)
        if tables is not None:
            return Pairing(tables)
    else:
        for bye in bye_candidates(ordered):
            tables = _match([s for s in ordered if s is not bye], groups)
            if tables is not None:
                return Pairing(tables, (bye.id,))
    raise IllegalMove("no_pairing", "every pairing of this round would repeat a game already played")


def first_minus_second(s: Standing) -> int:
    """How many more games the entrant played in the first seat than in the second."""
    return s.held(0) - s.held(1)


def seat_order(a: Standing, b: Standing) -> tuple[Standing, Standing]:
    """The two in seat order: least past a balance of two, then of one, then each nearest its
    due seat, then the better-ranked `a` nearest its due seat, then `a` first."""
    da, db = first_minus_second(a), first_minus_second(b)

    def cost(a_first: bool) -> tuple[int, int, int, int]:
        na, nb = (da + 1, db - 1) if a_first else (da - 1, db + 1)
        return _past(2, na) + _past(2, nb), _past(1, na) + _past(1, nb), abs(na) + abs(nb), abs(na)

    return (a, b) if cost(True) <= cost(False) else (b, a)


def _past(limit: int, diff: int) -> int:
    return max(0, abs(diff) - limit)


def _match(ordered: list[Standing], groups: dict[str, int]) -> tuple[tuple[str, str], ...] | None:
    """The best pairing of all of `ordered` without a rematch, top table first; None if none."""
    if not ordered:
        return ()
    games = len(ordered) // 2
    places = _places_in_group(ordered, groups)
    worst = max(abs(first_minus_second(s)) for s in ordered) + 1
    # A level's unit exceeds what all the levels below it can add up to over one round.
    preference_unit = games * (len(ordered) - 1) ** 2 + 1
    balance_unit = preference_unit * (games * 2 * worst + 1)
    group_unit = balance_unit * (games * 2 * worst + 1)
    limit_unit = group_unit * (games * max(groups.values()) ** 2 + 1)
    costs: dict[tuple[int, int], int] = {}
    for i, a in enumerate(ordered):
        for j in range(i + 1, len(ordered)):
            b = ordered[j]
            if b.id in a.opponents or a.id in b.opponents:
                continue
            first, second = seat_order(a, b)
            after = first_minus_second(first) + 1, first_minus_second(second) - 1
            costs[i, j] = (
                limit_unit * sum(_past(2, d) for d in after)
                + group_unit * (groups[a.id] - groups[b.id]) ** 2
                + balance_unit * sum(_past(1, d) for d in after)
                + preference_unit * sum(map(abs, after))
                + _off_order(i, j, groups[a.id] == groups[b.id], places)
            )
    if not costs:
        return None
    ceiling = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(len(ordered)))
    # Among the largest matchings networkx takes the heaviest: the least total cost.
    graph.add_weighted_edges_from((i, j, ceiling - c) for (i, j), c in costs.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(ordered):
        return None
    pairs = sorted(tuple(sorted(edge)) for edge in matching)
    return tuple(_ids(seat_order(ordered[i], ordered[j])) for i, j in pairs)


def _places_in_group(ordered: list[Standing], groups: dict[str, int]) -> list[tuple[int, int]]:
    """Each entrant's place within its score group and half the number of that group's
    entrants being paired (the bye left out)."""
    sizes = Counter(groups[s.id] for s in ordered)
    seen: Counter[int] = Counter()
    places = []
    for s in ordered:
        group = groups[s.id]
        places.append((seen[group], sizes[group] // 2))
        seen[group] += 1
    return places


def _off_order(i: int, j: int, same_group: bool, places: list[tuple[int, int]]) -> int:
    """How far pairing positions i < j strays from the rank order, squared (below len**2)."""
    if not same_group:
        return (j - i) ** 2
    (place_i, half), (place_j, _) = places[i], places[j]
    return (place_j - place_i - half) ** 2


def _ids(pair: tuple[Standing, Standing]) -> tuple[str, str]:
    return pair[0].id, pair[1].id


def score_groups(ordered: Sequence[Standing]) -> dict[str, int]:
    """Each entrant's score group: 0 for the most points, 1 for the next distinct total, ..."""
    totals = sorted({s.points for s in ordered}, reverse=True)
    return {s.id: totals.index(s.points) for s in ordered}
