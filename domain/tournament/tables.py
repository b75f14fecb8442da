"""Tables of 3 or 4 for Arabana-Opodopo, grouped by standing, seats rotated.

Sizes: the fewest byes that let the others sit at tables of the allowed sizes, and among
those splits the most tables of the first size listed, then of the next. With (4, 3): 4s
unless the count forces 3s (6 = 3+3, 7 = 4+3, 9 = 3+3+3, 10 = 4+3+3, 11 = 4+4+3); 5 is a
table of 4 and one bye (3+3 would need 6); 1 or 2 entrants fill no table (no_pairing).
The byes go to the entrants with the fewest byes, the lowest-ranked among them; the
larger tables are filled first, from the top of the standings.

Grouping: the entrants fill the tables in rank order (Swiss-style: the leaders together).
Then two entrants at different tables swap places while that lowers the number of pairs
at a table who have met before, or keeps it and seats entrants nearer the places of the
standings their table covered (squared distance). The swaps are tried in a fixed order,
so the same standings always give the same tables, and the result has no single swap
left that lowers the repeat meetings.

Seats: at each table, the seat order that gives the entrants the seats they have held
least (the least total of the times each has held its new seat, then the least largest
such count); among equals, the first seat goes to the best-ranked who can have it, then
the second, and so on. The same four at one
table for k rounds thus hold every seat within one time of each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, permutations

from domain.decider import IllegalMove
from domain.tournament.pairing import Pairing, Standing, bye_candidates, in_rank_order


def group_tables(standings: Sequence[Standing], sizes: tuple[int, ...] = (4, 3)) -> Pairing:
    """The next round's tables of the allowed sizes, in seat order, top table first."""
    if not sizes or min(sizes) < 2 or len(set(sizes)) != len(sizes):
        raise ValueError(f"table sizes are distinct and at least 2: {sizes}")
    ordered = in_rank_order(standings)
    if not ordered:
        return Pairing(())
    byes, split = table_sizes(len(ordered), sizes)
    if not split:
        raise IllegalMove("no_pairing", f"{len(ordered)} entrants cannot fill a table of {min(sizes)}")
    sitting_out = {s.id for s in bye_candidates(ordered)[:byes]}
    playing = [s for s in ordered if s.id not in sitting_out]
    tables = _fewer_repeats(_fill_in_rank_order(playing, split))
    place = {s.id: p for p, s in enumerate(ordered)}
    seated = sorted((_seat_order(t) for t in tables), key=lambda t: min(place[s.id] for s in t))
    return Pairing(
        tuple(tuple(s.id for s in t) for t in seated),
        tuple(s.id for s in ordered if s.id in sitting_out),
    )


def table_sizes(count: int, sizes: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """The fewest byes and the sizes of the tables for `count` entrants, larger-first
    preference in the order `sizes` lists them."""
    for byes in range(count + 1):
        split = _split(count - byes, sizes)
        if split is not None and (split or byes == count):
            return byes, split
    return count, ()


def _split(count: int, sizes: tuple[int, ...]) -> tuple[int, ...] | None:
    """`count` as a sum of `sizes`, as many of sizes[0] as possible, then of sizes[1], ..."""
    if count == 0:
        return ()
    if not sizes:
        return None
    first, rest = sizes[0], sizes[1:]
    for many in range(count // first, -1, -1):
        tail = _split(count - many * first, rest)
        if tail is not None:
            return (first,) * many + tail
    return None


def _fill_in_rank_order(playing: list[Standing], split: tuple[int, ...]) -> list[list[Standing]]:
    tables, start = [], 0
    for size in split:
        tables.append(playing[start : start + size])
        start += size
    return tables


def _repeats(table: Sequence[Standing]) -> int:
    """Pairs at the table who have met before."""
    return sum(1 for a, b in combinations(table, 2) if b.id in a.opponents or a.id in b.opponents)


def _fewer_repeats(tables: list[list[Standing]]) -> list[list[Standing]]:
    """Swaps entrants between tables while a swap lowers (repeat meetings, displacement)."""
    place = {s.id: p for p, s in enumerate(s for table in tables for s in table)}
    starts = [sum(len(table) for table in tables[:t]) for t in range(len(tables))]

    def cost(t: int, table: Sequence[Standing]) -> tuple[int, int]:
        # Displacement: how far, in places of the standings, each entrant sits from the
        # places this table covered in rank order, squared.
        first, last = starts[t], starts[t] + len(table) - 1
        away = sum(max(first - place[s.id], place[s.id] - last, 0) ** 2 for s in table)
        return _repeats(table), away

    improved = True
    while improved:
        improved = False
        for t, u in combinations(range(len(tables)), 2):
            for i in range(len(tables[t])):
                for j in range(len(tables[u])):
                    a, b = tables[t][i], tables[u][j]
                    moved_t = [*tables[t][:i], b, *tables[t][i + 1 :]]
                    moved_u = [*tables[u][:j], a, *tables[u][j + 1 :]]
                    before = _add(cost(t, tables[t]), cost(u, tables[u]))
                    if _add(cost(t, moved_t), cost(u, moved_u)) < before:
                        tables[t], tables[u] = moved_t, moved_u
                        improved = True
    return tables


def _add(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    return x[0] + y[0], x[1] + y[1]


def _seat_order(table: list[Standing]) -> tuple[Standing, ...]:
    """The table's seat order: each entrant in a seat it has held least (see the module)."""
    by_rank = sorted(table, key=lambda s: (s.rank, s.id))

    def held(order: tuple[Standing, ...]) -> tuple[int, int]:
        counts = [s.held(seat) for seat, s in enumerate(order)]
        return sum(counts), max(counts)

    # permutations() yields the rank order first and min() keeps the first of equals.
    return min(permutations(by_rank), key=held)
