"""Two Kahuna searches that differ in one search setting, head to head in the arena's way.

    python -m bench.settings_duel SETTING VALUE [LEVEL] [MINUTES]
    python -m bench.settings_duel exploration 0.5 2 55

A is ismcts with Kahuna's SETTING (a field of domain.game_module.SearchSettings) set to VALUE,
B is ismcts as it is; equal CPU time per move (LEVEL's seconds, `Budget(cpu=True)`), seats
rotating (game n seats A at n mod 2, seat 0 starts), the deals seeded as the arena seeds them,
2 processes, no game started after MINUTES. Prints the arena's table (Wilson 95% intervals).
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import fields
from typing import Any

from ai.arena import Match, Outcome, Player, load_line, report
from ai.ismcts import Budget
from ai.policies import LEVEL_SECONDS, choose
from ai.sim import as_command, seed_of
from ai.table import Table
from bench.where_it_loses import settings
from domain.game_module import SearchSettings

SEED = 1


def play(number: int, changes: dict[str, Any], level: int) -> Outcome:
    """Game `number`: A (the changed settings) at seat number mod 2 against B."""
    a_seat = number % 2
    setup = {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0, "options": {}}
    table = Table(setup, random.Random(seed_of(SEED, number, "chance")))
    budget = Budget(seconds=LEVEL_SECONDS[level], cpu=True)
    count = 0
    while not table.ended:
        seat = table.mover()
        assert seat is not None
        rng = random.Random(seed_of(SEED, number, table.version, seat))
        with settings(changes if seat == a_seat else {}):
            body = choose("ismcts", table.knowledge(seat), table.legal(seat), rng, budget)
        table.play(as_command(body, seat))
        count += 1
    result = table.result() or {}
    winner = result.get("winner")
    share = 0.5 if winner is None else float(winner == a_seat)
    return Outcome(number, a_seat, share, winner is None, count, {}, {})


def _parsed(args: Sequence[str]) -> tuple[str, float, int, float] | str:
    """SETTING, VALUE, LEVEL and MINUTES, or what is wrong with them."""
    known = {f.name for f in fields(SearchSettings)}
    if not 2 <= len(args) <= 4:
        return "usage: python -m bench.settings_duel SETTING VALUE [LEVEL] [MINUTES]"
    if args[0] not in known:
        return f"SETTING is one of {', '.join(sorted(known))}, not {args[0]!r}"
    try:
        value: float = int(args[1]) if args[1].isdigit() else float(args[1])
        level = int(args[2]) if len(args) > 2 else 2
        minutes = float(args[3]) if len(args) > 3 else 10.0
    except ValueError as error:
        return f"VALUE, LEVEL and MINUTES are numbers: {error}"
    if level not in LEVEL_SECONDS or minutes <= 0:
        return f"LEVEL is one of {sorted(LEVEL_SECONDS)} and MINUTES above 0"
    return args[0], value, level, minutes


def main(argv: Sequence[str] | None = None) -> int:
    parsed = _parsed(list(sys.argv[1:] if argv is None else argv))
    if isinstance(parsed, str):
        print(parsed, file=sys.stderr)
        return 2
    name, value, level, minutes = parsed
    deadline = time.monotonic() + 60 * minutes
    changes = {name: value}
    before = os.getloadavg()
    outcomes: list[Outcome] = []
    number = 0
    with ProcessPoolExecutor(max_workers=2) as pool:
        running: set[Future[Outcome]] = set()
        while running or time.monotonic() < deadline:
            while len(running) < 2 and time.monotonic() < deadline:
                running.add(pool.submit(play, number, changes, level))
                number += 1
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                outcomes.append(future.result())
                print(f"{len(outcomes)} games, A's share {sum(o.share for o in outcomes):g}", file=sys.stderr)
    outcomes.sort(key=lambda o: o.number)
    matches = [
        Match(o.number, "kahuna", 2, {}, Player("ismcts", level), Player("ismcts", level), SEED)
        for o in outcomes
    ]
    print(f"A: Kahuna's search with {name} = {value:g}; B: as it is; level {level} in CPU time")
    print(report(matches, outcomes))
    print(load_line(before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
