"""Round robin by the Berger tables of FIDE C.05 Annex 1.

Entrant i (1-based, in the given order) is draw number i. With an even count n, draw
number n stays put and the others rotate: each number k < n becomes k + n/2 (counted
round 1..n-1) from one round to the next, which reproduces the published tables row by
row, table order included. Draw number n changes seat every round so that it alternates
first and second. With an odd count, the missing draw number n + 1 is the bye: whoever
meets it sits the round out.

A double round robin plays the cycle again with every game's seats swapped. As the Annex
recommends, its first cycle plays the last two rounds in the other order (the second
cycle keeps the published order): otherwise the last round of the first cycle and the
first of the second give most entrants the same seat twice, and draw numbers 1 and
n/2 + 1 the same seat three times running.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournament.pairing import Pairing

Table = tuple[int, int]


def round_robin(entrants: Sequence[str], double: bool = False) -> list[Pairing]:
    """Every round of a round robin; an odd count gives one bye a round; `double` adds a
    second cycle with the seats of every game swapped."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant appears twice")
    if len(entrants) < 2:
        return []
    count = len(entrants) + len(entrants) % 2
    cycle = [_named(tables, entrants) for tables in _berger(count)]
    if not double:
        return cycle
    swapped = [Pairing(tuple(t[::-1] for t in p.tables), p.byes) for p in cycle]
    first = cycle[:-2] + cycle[:-3:-1] if len(cycle) >= 3 else cycle
    return first + swapped


def _berger(n: int) -> list[list[Table]]:
    """The draw numbers of each table of each round, for an even n."""
    half = n // 2
    rounds = [[(k, n + 1 - k) for k in range(1, half + 1)]]
    for _ in range(n - 2):
        rounds.append([_next_table(table, n, half) for table in rounds[-1]])
    return rounds


def _next_table(table: Table, n: int, half: int) -> Table:
    first, second = (_rotate(k, n, half) for k in table)
    # The fixed draw number n alternates seats; the others keep theirs.
    return (second, first) if n in table else (first, second)


def _rotate(k: int, n: int, half: int) -> int:
    return k if k == n else (k - 1 + half) % (n - 1) + 1


def _named(tables: list[Table], entrants: Sequence[str]) -> Pairing:
    """Draw numbers to entrant ids; a draw number past the entrants is the bye."""
    played = tuple((entrants[a - 1], entrants[b - 1]) for a, b in tables if max(a, b) <= len(entrants))
    byes = tuple(entrants[min(a, b) - 1] for a, b in tables if max(a, b) > len(entrants))
    return Pairing(played, byes)
