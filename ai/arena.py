"""`arena`: computer players against each other, many games across processes, win rates with 95% intervals.

    arena --game kahuna --a greedy --b random --games 200 --processes 2
    arena --game kahuna --a ismcts --level-a 2 --b greedy --games 200
    arena --game arabana-opodopo --seats 3 --a ismcts --b greedy --games 60
    arena --game kahuna --a ismcts --b seeing --level-a 2 --level-b 2 --cpu-time --games 200

Player A meets one or more copies of player B. Game n seats A at seat n mod seats, and
seat 0 always starts, so A plays first, second, ... in turn. Games run in memory (no
Redis) on ai.table.Table; each player gets only its seat's knowledge (its view and the
events redacted for it), as the service's ai_move job gives it. A draw counts half a win
for each of the seats sharing the best total; the table shows draws apart as well. The
interval is Wilson's score interval at 95%.

Besides the service's players (ai.policies.KINDS) the arena knows `seeing`, the all-seeing
ismcts (ai.seeing): the same search over the true State the arena holds; and `knows-hands`
(the island games), the same search over worlds that hold every true hand and draw only what
no seat can know (the stack's order) anew: what reading the others' hands could win at best. `--cpu-time`
reads every search's seconds as CPU time of its process, so that players meet at equal
time however busy the machine; `--iterations N` gives every search N iterations instead.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from ai.ismcts import Budget
from ai.policies import KINDS, LEVELS, budget_for, choose
from ai.seeing import KNOWS_HANDS, SEEING, choose_knowing_hands, choose_seeing, knowing_hands_of
from ai.sim import as_command, seed_of
from ai.table import Table
from domain.decider import IllegalMove
from domain.games import GAMES, rules_for

Z95 = 1.959963984540054
MAX_COMMANDS = 5000
ARENA_KINDS = (*KINDS, SEEING, KNOWS_HANDS)
"""The service's players and the arena's own all-seeing and half-seeing ones."""
LEVELLED = ("ismcts", SEEING, KNOWS_HANDS)
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
    cpu_time: bool = False  # a search's seconds are CPU seconds of its process
    iterations: int | None = None  # every search gets this many iterations, whatever the time

    def budget(self, level: int) -> Budget:
        """The search budget of a player of `level` in this match."""
        if self.iterations is not None:
            return Budget(iterations=self.iterations)
        timed = budget_for(level, {"ARCHIPELAGO_AI_BUDGET_SCALE": str(self.budget_scale)})
        return Budget(seconds=timed.seconds, cpu=self.cpu_time)

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
        knowledge, legal, budget = table.knowledge(seat), table.legal(seat), match.budget(player.level)
        if player.kind == SEEING:
            body = choose_seeing(table.state, knowledge, legal, rng, budget)
        elif player.kind == KNOWS_HANDS:
            body = choose_knowing_hands(match.game, table.state, knowledge, legal, rng, budget)
        else:
            body = choose(player.kind, knowledge, legal, rng, budget)
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
    if first.iterations is not None:
        title += f", {first.iterations} iterations a search"
    elif first.cpu_time:
        title += ", a level's seconds in CPU time"
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


def run(
    matches: Sequence[Match],
    processes: int,
    progress: bool = True,
    seconds: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> list[Outcome]:
    """Play the matches in order, across `processes` processes (1: in this one). With
    `seconds`, no game starts once that much time (on `clock`) has passed: the outcomes are
    those of the games played, a prefix of the matches (those under way are finished)."""
    bar = Progress(len(matches), progress)
    deadline = None if seconds is None else clock() + seconds
    outcomes: list[Outcome] = []
    waiting = list(reversed(matches))

    def may_start() -> bool:
        return bool(waiting) and (deadline is None or clock() < deadline)

    if processes <= 1:
        while may_start():
            outcomes.append(play(waiting.pop()))
            bar.advance(outcomes[-1].share)
        return outcomes
    with ProcessPoolExecutor(max_workers=processes) as pool:
        # At most one game queued per process, so a deadline leaves none waiting to start.
        running: set[Future[Outcome]] = set()
        while running or may_start():
            while len(running) < processes and may_start():
                running.add(pool.submit(play, waiting.pop()))
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                outcomes.append(future.result())
                bar.advance(outcomes[-1].share)
    return sorted(outcomes, key=lambda o: o.number)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Play computer players against each other and print win rates with 95% intervals.",
    )
    parser.add_argument("--game", default="kahuna", choices=sorted(GAMES))
    parser.add_argument("--seats", type=int, help="seats (default: the fewest the game takes)")
    parser.add_argument("--options", default="{}", help="game options as JSON, e.g. '{\"gods\": true}'")
    parser.add_argument(
        "--a",
        default="greedy",
        choices=ARENA_KINDS,
        help="player A (default greedy); seeing: the ismcts search over the true state, arena only; "
        "knows-hands: the ismcts search over worlds holding the true hands, the stack's order unseen "
        "(the island games), arena only",
    )
    parser.add_argument("--b", default="random", choices=ARENA_KINDS, help="player B, in every other seat")
    parser.add_argument("--level-a", type=int, choices=LEVELS, help="search level of A (default 2)")
    parser.add_argument("--level-b", type=int, choices=LEVELS, help="search level of B (default 2)")
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--minutes",
        type=float,
        help="start no game after this many minutes; the table counts the games played",
    )
    parser.add_argument("--budget-scale", type=float, default=1.0, help="multiply every search time")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="a level's seconds are CPU seconds of the searching process (equal time on a busy machine)",
    )
    parser.add_argument(
        "--iterations", type=int, help="every search runs this many iterations (levels then only label)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the players")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = _parser()
    args = parser.parse_args(argv)
    for side in ("a", "b"):
        kind, level = getattr(args, side), getattr(args, f"level_{side}")
        if level is not None and kind not in LEVELLED:
            # A level the player ignores would label the table with a strength it never had.
            parser.error(f"--level-{side}: {kind} has no levels (only {', '.join(LEVELLED)} has)")
        setattr(args, f"level_{side}", DEFAULT_LEVEL if level is None else level)
        if kind == KNOWS_HANDS and knowing_hands_of(args.game) is None:
            parser.error(f"--{side} {KNOWS_HANDS}: {args.game} gives no worlds that know the hands")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.budget_scale <= 0:
        parser.error("--budget-scale must be above 0")
    if args.minutes is not None and args.minutes <= 0:
        parser.error("--minutes must be above 0")
    if args.iterations is not None and args.iterations < 1:
        parser.error("--iterations must be at least 1")
    if args.iterations is not None and args.cpu_time:
        parser.error("--iterations and --cpu-time exclude each other: a budget of iterations reads no clock")
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
        Match(
            n,
            args.game,
            args.seats,
            args.options,
            a,
            b,
            args.seed,
            args.budget_scale,
            cpu_time=args.cpu_time,
            iterations=args.iterations,
        )
        for n in range(args.games)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    matches = matches_of(args)
    before = os.getloadavg()
    started = time.monotonic()
    limit = None if args.minutes is None else args.minutes * 60
    outcomes = run(matches, args.processes, progress=not args.no_progress, seconds=limit)
    print(report(matches, outcomes))
    print(f"{len(outcomes)} games in {time.monotonic() - started:.0f} s with {args.processes} process(es)")
    print(load_line(before))
    return 0


def load_line(before: tuple[float, float, float]) -> str:
    """The load averages at a run's start and now: wall-time budgets give a busy machine's
    searches fewer iterations, so the load goes with the figures."""
    loads = (before, os.getloadavg())
    return "load average (1, 5, 15 min) at start / end: " + " / ".join(
        " ".join(f"{x:.2f}" for x in a) for a in loads
    )


if __name__ == "__main__":
    sys.exit(main())
