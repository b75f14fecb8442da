"""Does cutting a search into slices cost strength? `python -m bench.slices [N] [POSITIONS]`.

On Kahuna positions from greedy self-play (every 7th decision with at least 4 commands), one
ISMCTS search of N iterations and five slices of N/5 iterations (fresh trees, root statistics
summed: ai.slices) each choose a command; a reference search of 4N iterations judges both:
how often each agrees with the reference's choice, and the mean win chance (by the reference)
it gives up against the reference's best. Iteration budgets, so the figures do not depend
on the machine's speed or load. Not part of `make bench` (N=2000 takes minutes).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence

from ai.ismcts import Budget, search
from ai.policies import choose, commands
from ai.sim import key
from ai.slices import Tally, best, record
from ai.table import Table

SLICES = 5
SETUP = {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0}


def compare(iterations: int, positions: int) -> str:
    rng = random.Random(7)
    rows: list[tuple[bool, bool, float, float]] = []
    started, game = time.perf_counter(), 0
    while len(rows) < positions:
        table, step = Table(SETUP, random.Random(game)), 0
        game += 1
        while not table.ended and len(rows) < positions:
            seat = table.mover()
            assert seat is not None
            legal = commands(seat, table.legal(seat))
            step += 1
            if len(legal) >= 4 and step % 7 == 0:
                rows.append(_judge(table, seat, legal, iterations))
            body = choose("greedy", table.knowledge(seat), legal, rng, Budget(iterations=1))
            table.play(next(c for c in legal if c.to_json() == body))
    n = len(rows)
    return (
        f"{n} positions, {iterations} iterations: agreement with a {4 * iterations}-iteration "
        f"reference: one search {sum(r[0] for r in rows)}/{n}, {SLICES} slices "
        f"{sum(r[1] for r in rows)}/{n}; mean win chance given up: one search "
        f"{sum(r[2] for r in rows) / n:.4f}, slices {sum(r[3] for r in rows) / n:.4f} "
        f"({time.perf_counter() - started:.0f} s)"
    )


def _judge(table: Table, seat: int, legal: list, iterations: int) -> tuple[bool, bool, float, float]:
    knowledge = table.knowledge(seat)
    whole = search(knowledge, legal, random.Random(1), Budget(iterations=iterations)).command
    tally = Tally()
    for n in range(SLICES):
        budget = Budget(iterations=iterations // SLICES)
        tally = record(tally, search(knowledge, legal, random.Random(100 + n), budget), budget)
    sliced = best(tally, legal)
    reference = search(knowledge, legal, random.Random(999), Budget(iterations=4 * iterations))
    top = max(reference.chances.values())
    return (
        key(whole) == key(reference.command),
        key(sliced) == key(reference.command),
        top - reference.chances[key(whole)],
        top - reference.chances[key(sliced)],
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    iterations = int(args[0]) if args else 2000
    positions = int(args[1]) if len(args) > 1 else 12
    print(compare(iterations, positions))
    return 0


if __name__ == "__main__":
    sys.exit(main())
