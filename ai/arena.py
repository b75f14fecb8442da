"""`arena`: computer players against each other, many games across processes, win rates with 95% intervals.

    arena --game kahuna --a greedy --b random --games 200 --processes 2
    arena --game kahuna --a ismcts --level-a 2 --b greedy --games 200
    arena --game arabana-opodopo --seats 3 --a ismcts --b greedy --games 60

Player A meets one or more copies of player B. Game n seats A at seat n mod seats, and
seat 0 always starts, so A plays first, second, ... in turn. Games run in memory (no
Redis) on ai.table.Table; each player gets only its seat's knowledge (its view and the
events redacted for it), as the service's ai_move job gives it. A draw counts half a win
for each of the seats sharing the best total; the table shows draws apart as well. The
interval is Wilson's score interval at 95%.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ai.policies import KINDS, LEVELS, budget_for, choose
from ai.sim import as_command, seed_of
from ai.table import Table
from domain.decider import IllegalMove
from domain.games import GAMES, rules_for

Z95 = 1.959963984540054
MAX_COMMANDS = 5000
LEVELLED = ("ismcts",)
"""The players whose strength a level sets; the others play the same at any level."""
DEFAULT_LEVEL = 2


@dataclass(frozen=True)
class Player:
    kind: str
    level: int = DEFAULT_LEVEL

    @property
    def label(self) -> str:
        return f"{self.kind} L{self.level}" if self.kind in LEVELLED else self.kind


@dataclass(frozen=True)
class Match:
    """One game to play: who sits where, the setup, the seeds."""

    number: int
    game: str
    seats: int
    options: dict[str, Any]
    a: Player
    b: Player
    seed: int
    budget_scale: float = 1.0

    @property
    def a_seat(self) -> int:
        return self.number % self.seats


@dataclass(frozen=True)
class Outcome:
    number: int
    a_seat: int
    share: float  # A's share of the win: 1, 0, or 1/k for a k-way draw at the top
    draw: bool
    commands: int
    seconds: dict[str, float]  # per player label: seconds spent choosing
    moves: dict[str, int]


def play(match: Match) -> Outcome:
    """Play one game of `match` to its end."""
    players = [match.a if seat == match.a_seat else match.b for seat in range(match.seats)]
    setup = {
        "game": match.game,
        "seats": [{"name": f"{p.label} #{n}"} for n, p in enumerate(players)],
        "first_seat": 0,
        "options": match.options,
    }
    table = Table(setup, random.Random(seed_of(match.seed, match.number, "chance")))
    env = {"ARCHIPELAGO_AI_BUDGET_SCALE": str(match.budget_scale)}
    spent: dict[str, float] = {}
    moves: dict[str, int] = {}
    count = 0
    while not table.ended:
        seat = table.mover()
        if seat is None or count >= MAX_COMMANDS:
            raise RuntimeError(f"game {match.number} is stuck at version {table.version}")
        player = players[seat]
        rng = random.Random(seed_of(match.seed, match.number, table.version, seat))
        started = time.perf_counter()
        body = choose(
            player.kind, table.knowledge(seat), table.legal(seat), rng, budget_for(player.level, env)
        )
        spent[player.label] = spent.get(player.label, 0.0) + time.perf_counter() - started
        moves[player.label] = moves.get(player.label, 0) + 1
        table.play(as_command(body, seat))
        count += 1
    result = table.result() or {}
    winner = result.get("winner")
    if winner is not None:
        share, draw = (1.0 if winner == match.a_seat else 0.0), False
    else:
        totals = result.get("totals") or [0] * match.seats
        leaders = [s for s, t in enumerate(totals) if t == max(totals)]
        share, draw = (1.0 / len(leaders) if match.a_seat in leaders else 0.0), True
    return Outcome(match.number, match.a_seat, share, draw, count, spent, moves)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion `successes / n` (draws may add halves)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def report(matches: Sequence[Match], outcomes: Sequence[Outcome]) -> str:
    """The table: A's win rate overall and by A's seat, with 95% intervals."""
    first = matches[0]
    title = f"{first.game}, {first.seats} seats: A = {first.a.label} vs B = {first.b.label}"
    rows = [("games", "A seat", "A wins", "B wins", "draws", "A win rate", "95% interval")]
    groups: list[tuple[str, list[Outcome]]] = [("all", list(outcomes))]
    for seat in range(first.seats):
        label = "first" if seat == 0 else f"{_ordinal(seat + 1)}"
        groups.append((label, [o for o in outcomes if o.a_seat == seat]))
    for label, group in groups:
        n = len(group)
        share = sum(o.share for o in group)
        draws = sum(1 for o in group if o.draw)
        a_wins = sum(1 for o in group if not o.draw and o.share == 1.0)
        low, high = wilson(share, n)
        rate = f"{share / n:.1%}" if n else "-"
        rows.append(
            (str(n), label, str(a_wins), str(n - a_wins - draws), str(draws), rate, f"{low:.1%} - {high:.1%}")
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [title, ""]
    for n, row in enumerate(rows):
        lines.append("  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append("A win rate: A's wins plus half of each draw it shares at the top (1/k for k tied leaders).")
    spent: dict[str, float] = {}
    moves: dict[str, int] = {}
    for o in outcomes:
        for label, seconds in o.seconds.items():
            spent[label] = spent.get(label, 0.0) + seconds
            moves[label] = moves.get(label, 0) + o.moves[label]
    for label in sorted(spent):
        lines.append(
            f"{label}: {moves[label]} commands, {spent[label] / max(1, moves[label]):.3f} s per command"
        )
    return "\n".join(lines)


def _ordinal(n: int) -> str:
    return {2: "second", 3: "third", 4: "fourth"}.get(n, f"#{n}")


class Progress:
    """A text progress bar on stderr."""

    def __init__(self, total: int, enabled: bool = True) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.started = time.monotonic()

    def advance(self, share: float) -> None:
        self.done += 1
        if not self.enabled:
            return
        width = 30
        filled = int(width * self.done / self.total)
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done)
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(f"\r[{bar}] {self.done}/{self.total} games, {elapsed:.0f} s, ~{eta:.0f} s left")
        if self.done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def run(matches: Sequence[Match], processes: int, progress: bool = True) -> list[Outcome]:
    """Play every match, across `processes` processes (1: in this one)."""
    bar = Progress(len(matches), progress)
    outcomes: list[Outcome] = []
    if processes <= 1:
        for match in matches:
            outcomes.append(play(match))
            bar.advance(outcomes[-1].share)
        return outcomes
    with ProcessPoolExecutor(max_workers=processes) as pool:
        futures = [pool.submit(play, match) for match in matches]
        for future in as_completed(futures):
            outcomes.append(future.result())
            bar.advance(outcomes[-1].share)
    return sorted(outcomes, key=lambda o: o.number)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Play computer players against each other and print win rates with 95% intervals.",
    )
    parser.add_argument("--game", default="kahuna", choices=sorted(GAMES))
    parser.add_argument("--seats", type=int, help="seats (default: the fewest the game takes)")
    parser.add_argument("--options", default="{}", help="game options as JSON, e.g. '{\"gods\": true}'")
    parser.add_argument("--a", default="greedy", choices=KINDS, help="player A (default greedy)")
    parser.add_argument("--b", default="random", choices=KINDS, help="player B, in every other seat")
    parser.add_argument("--level-a", type=int, choices=LEVELS, help="ismcts level of A (default 2)")
    parser.add_argument("--level-b", type=int, choices=LEVELS, help="ismcts level of B (default 2)")
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--budget-scale", type=float, default=1.0, help="multiply every search time")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the players")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    for side in ("a", "b"):
        kind, level = getattr(args, side), getattr(args, f"level_{side}")
        if level is not None and kind not in LEVELLED:
            # A level the player ignores would label the table with a strength it never had.
            parser.error(f"--level-{side}: {kind} has no levels (only {', '.join(LEVELLED)} has)")
        setattr(args, f"level_{side}", DEFAULT_LEVEL if level is None else level)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.budget_scale <= 0:
        parser.error("--budget-scale must be above 0")
    try:
        args.options = json.loads(args.options)
        rules = rules_for(args.game)
        rules.check_options(args.options)
    except json.JSONDecodeError as error:
        parser.error(f"--options is not JSON: {error}")
    except IllegalMove as refusal:
        parser.error(f"--options: {refusal.message}")
    if args.seats is None:
        args.seats = rules.min_seats
    if not rules.min_seats <= args.seats <= rules.max_seats:
        parser.error(f"{args.game} is played by {rules.seat_counts()}, not {args.seats}")
    return args


def matches_of(args: argparse.Namespace) -> list[Match]:
    a, b = Player(args.a, args.level_a), Player(args.b, args.level_b)
    return [
        Match(n, args.game, args.seats, args.options, a, b, args.seed, args.budget_scale)
        for n in range(args.games)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    matches = matches_of(args)
    started = time.monotonic()
    outcomes = run(matches, args.processes, progress=not args.no_progress)
    print(report(matches, outcomes))
    print(f"{len(outcomes)} games in {time.monotonic() - started:.0f} s with {args.processes} process(es)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
