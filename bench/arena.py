"""What the search loses by not seeing: `ismcts` against the all-seeing `seeing` player (ai.seeing)
in the arena, at equal CPU time per move, in each game family.

A small default (a few games per family, a win rate with a wide interval: a check that the
figure is measured, not the figure to quote); `arena --games 200 --minutes ...` plays the long
form (README, docs/ai.md). The budgets are CPU time of the searching process, so other work on
the machine lengthens the run, not the searches; the load average is printed beside each
family's figures all the same, as the CPU's caches and cores are shared.

BENCH_ARENA_GAMES=N plays N games per family; BENCH_ARENA_LEVEL=L (default 1) sets both
players' level.
"""

from __future__ import annotations

import os
import time
from typing import Any

from ai import arena
from ai.arena import Match, Outcome, Player, wilson
from ai.policies import LEVEL_SECONDS
from ai.seeing import SEEING
from bench.common import Figure, say

FAMILIES: tuple[tuple[str, int, dict[str, Any], int], ...] = (
    # game, seats, options, games by default (Kahuna, the goal's family, gets the most)
    ("kahuna", 2, {}, 10),
    ("arabana-ikibiti", 2, {}, 4),
    ("arabana-opodopo", 3, {}, 3),
    ("nanuuk", 2, {}, 4),
    ("conquest-of-paradise", 2, {"last_turn": 8}, 2),
)
QUICK_ITERATIONS = 10


def run(quick: bool = False, seed: int = 1, seconds: float | None = None) -> list[Figure]:
    """Play each family's games; print how and the win rates, return the figures."""
    level = int(os.environ.get("BENCH_ARENA_LEVEL") or 1)
    wanted = os.environ.get("BENCH_ARENA_GAMES")
    how = (
        f"{QUICK_ITERATIONS} iterations a search (--quick)"
        if quick
        else f"level {level} for both ({seconds or 'its'} s of CPU time a search)"
    )
    say("== arena: ismcts against the all-seeing search (ai.seeing), equal budgets ==")
    say(f"   {how}; seats rotate; seed {seed}; 2 processes")
    figures: list[Figure] = []
    for game, seats, options, games in FAMILIES:
        count = 1 if quick else int(wanted) if wanted else games
        matches = [
            Match(
                n,
                game,
                seats,
                options,
                Player("ismcts", level),
                Player(SEEING, level),
                seed,
                budget_scale=1.0 if seconds is None else seconds / LEVEL_SECONDS[level],
                cpu_time=not quick,
                iterations=QUICK_ITERATIONS if quick else None,
            )
            for n in range(count)
        ]
        started = time.monotonic()
        outcomes = arena.run(matches, processes=2, progress=False)
        load = os.getloadavg()[0]
        rate, low, high = _rate(outcomes)
        par = f" (par {1 / seats:.0%})" if seats > 2 else ""
        say(
            f"   {game} {seats}p: ismcts won {rate:.1%} of {len(outcomes)} games{par} against the all-seeing "
            f"search, 95% interval {low:.1%}-{high:.1%}; {time.monotonic() - started:.0f} s; "
            f"load average {load:.2f}"
        )
        label = f"{game} {seats}p: ismcts vs seeing, {len(outcomes)} games"
        figures.append(Figure("arena", label, 100 * rate, "% won"))
        figures.append(Figure("arena", f"{label}: interval low-high", 100 * low, f"% - {100 * high:.1f}%"))
        figures.append(Figure("arena", f"{label}: load average (1 min)", load, "at its end"))
    return figures


def _rate(outcomes: list[Outcome]) -> tuple[float, float, float]:
    share = sum(o.share for o in outcomes)
    low, high = wilson(share, len(outcomes))
    return share / len(outcomes), low, high
