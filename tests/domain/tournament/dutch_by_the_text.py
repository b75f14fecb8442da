"""The Dutch system's candidate order for one homogeneous bracket, done as C.04.3 (2017) writes it.

This is the test suite's own reading of articles D.1 and D.2, independent of the engine's
matching: every exchange between S1 and S2 in the order of D.2 (the fewest BSNs exchanged;
the least difference of their sums; the highest differing BSN moved from S1; the lowest
differing BSN moved from S2), and for each, every transposition of S2 in the order of D.1
(the lexicographic order of its BSNs); the first candidate without a rematch is the pairing.
An odd bracket leaves S2's last entrant unpaired (in the last bracket, the bye). It holds for
a bracket whose entrants have no colour or float history, where every quality criterion
C.5-C.19 rates all candidates alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, permutations

Met = frozenset[frozenset[int]]


def exchanges(bracket: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(BSNs moved from S1 to S2, BSNs moved from S2 to S1), in the order of D.2; the first is
    no exchange."""
    half = bracket // 2
    s1, s2 = range(1, half + 1), range(half + 1, bracket + 1)
    found = [
        (down, up) for k in range(half + 1) for down in combinations(s1, k) for up in combinations(s2, k)
    ]
    return sorted(
        found,
        key=lambda e: (
            len(e[0]),
            sum(e[1]) - sum(e[0]),
            tuple(-n for n in sorted(e[0], reverse=True)),
            tuple(sorted(e[1])),
        ),
    )


def candidates(bracket: int) -> Iterator[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]]:
    """Every candidate pairing of a bracket of BSNs 1..bracket in the system's order: its pairs
    (S1's entrant first) and the exchange it came from."""
    half = bracket // 2
    for down, up in exchanges(bracket):
        s1 = sorted((set(range(1, half + 1)) - set(down)) | set(up))
        s2 = sorted((set(range(half + 1, bracket + 1)) - set(up)) | set(down))
        for order in permutations(s2):
            yield tuple(zip(s1, order[:half], strict=True)), down + up


def first_legal(bracket: int, met: Met) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]] | None:
    """The pairing D.1/D.2 choose: the first candidate in which nobody meets again."""
    for pairs, exchange in candidates(bracket):
        if not any(frozenset(p) in met for p in pairs):
            return pairs, exchange
    return None
