"""Computer players: ISMCTS iterations per second in each game, and seconds per AI move by level.

Positions come from games played in memory by greedy players (ai.table.Table, seeded):
every POSITION_STRIDE-th command with at least two legal commands, up to a count per game.
On each, a search runs from the seat's knowledge (its view and redacted events) as the
ai_move job runs it: "iterations/s" is the sum of iterations over the sum of seconds of
the searches, "iterations/CPU s" the same over this process's CPU time (what other work on
the machine does not change); "ms/move" is the mean wall time of `choose` (knowledge building excluded)
for random, greedy and ismcts at each level (ismcts stops at its level's time budget).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from ai.ismcts import Budget, search
from ai.knowledge import SeatKnowledge
from ai.policies import LEVELS, budget_for, choose, commands
from ai.sim import as_command
from ai.table import Table
from bench.common import Figure, say
from domain.decider import Command

GAMES = (
    ("kahuna", 2, {}),
    ("arabana-ikibiti", 2, {}),
    ("arabana-opodopo", 3, {}),
    ("nanuuk", 2, {}),
    ("nanuuk-learning", 2, {}),
    ("conquest-of-paradise", 2, {}),
)
POSITION_STRIDE = 9
Position = tuple[SeatKnowledge, list[Command]]


def positions(game: str, seats: int, options: dict[str, Any], count: int, seed: int) -> list[Position]:
    """`count` positions of a greedy self-play game of `game`, spread over the game."""
    setup = {
        "game": game,
        "seats": [{"name": f"P{n}"} for n in range(seats)],
        "first_seat": 0,
        "options": options,
    }
    found: list[Position] = []
    rng = random.Random(seed)
    game_number = 0
    while len(found) < count:
        table = Table(setup, random.Random(seed * 1000 + game_number))
        moves = 0
        while not table.ended and len(found) < count:
            seat = table.mover()
            assert seat is not None
            knowledge, legal = table.knowledge(seat), commands(seat, table.legal(seat))
            if moves % POSITION_STRIDE == POSITION_STRIDE - 1 and len(legal) > 1:
                found.append((knowledge, legal))
            table.play(as_command(choose("greedy", knowledge, legal, rng, Budget(iterations=1)), seat))
            moves += 1
        game_number += 1
    return found


def iterations_per_second(found: Sequence[Position], seconds: float, seed: int) -> tuple[float, int, float]:
    """Iterations per second over searches of `seconds` each on `found`; the iterations run; and
    iterations per CPU second of this process (the fairer figure when other work shares the cores)."""
    iterations, spent, cpu = 0, 0.0, 0.0
    for n, (knowledge, legal) in enumerate(found):
        started = time.process_time()
        result = search(knowledge, legal, random.Random(seed + n), Budget(seconds=seconds))
        cpu += time.process_time() - started
        iterations += result.iterations
        spent += result.seconds
    return iterations / spent, iterations, iterations / max(cpu, 1e-9)


def seconds_per_move(kind: str, level: int, found: Sequence[Position], scale: float, seed: int) -> float:
    """The mean wall time of one `choose` of `kind` (at `level`) over `found`."""
    env = {"ARCHIPELAGO_AI_BUDGET_SCALE": str(scale)}
    started = time.perf_counter()
    for n, (knowledge, legal) in enumerate(found):
        choose(kind, knowledge, legal, random.Random(seed + n), budget_for(level, env))
    return (time.perf_counter() - started) / len(found)


def run(quick: bool = False, seed: int = 1, seconds: float | None = None) -> list[Figure]:
    """Benchmark the searches; print how, return the figures."""
    per_search = seconds if seconds is not None else (0.1 if quick else 1.0)
    count = 2 if quick else 6
    scale = 0.05 if quick else 1.0
    say("== ai: computer players (in memory, no I/O) ==")
    say(
        f"   positions: every {POSITION_STRIDE}th command of greedy self-play with a choice, "
        f"{count} per game; searches of {per_search:g} s each; seed {seed}"
    )
    figures = []
    kahuna: list[Position] = []
    for game, seats, options in GAMES:
        found = positions(game, seats, options, count, seed)
        if game == "kahuna":
            kahuna = found
        rate, iterations, per_cpu = iterations_per_second(found, per_search, seed)
        say(
            f"   {game} {seats}p: {iterations} ISMCTS iterations in {len(found)} searches "
            f"-> {rate:,.0f} iterations/s ({per_cpu:,.0f} per CPU second)"
        )
        figures.append(Figure("ai", f"{game} {seats}p: ISMCTS iterations", rate, "iterations/s"))
        figures.append(Figure("ai", f"{game} {seats}p: ISMCTS iterations", per_cpu, "iterations/CPU s"))
    moves = kahuna[: 2 if quick else 4]
    budget_note = f" (budgets scaled by {scale:g}, --quick)" if quick else ""
    for kind in ("random", "greedy"):
        mean = seconds_per_move(kind, 1, moves, scale, seed)
        say(f"   kahuna {kind}: {mean * 1000:.2f} ms per move")
        figures.append(Figure("ai", f"kahuna move: {kind}", mean * 1000, "ms/move"))
    for level in LEVELS:
        mean = seconds_per_move("ismcts", level, moves, scale, seed)
        say(f"   kahuna ismcts level {level}: {mean * 1000:.0f} ms per move{budget_note}")
        figures.append(Figure("ai", f"kahuna move: ismcts level {level}", mean * 1000, "ms/move"))
    return figures
