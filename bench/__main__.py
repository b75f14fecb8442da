"""`make bench` / `python -m bench [domain|store|api ...] [--quick]`: measure, print a table.

Figures are printed for people to read; no test asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence

from bench import ai, api, arena, domain, growth, load, long_game, store, streams
from bench.common import Figure, load_span, machine, say, table
from domain.games import GAMES

PARTS: dict[str, Callable[..., list[Figure]]] = {
    "domain": domain.run,
    "store": store.run,
    "api": api.run,
    "ai": ai.run,
    "load": load.run,
    "growth": growth.run,
    "long": long_game.run,
    "streams": streams.run,
    "arena": arena.run,
}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=(
            "Archipelago benchmarks. domain: random self-play games/s in the rules alone; "
            "store: EventStore.append vs raw XADD on a fresh embedded Redis; "
            "api: p50/p99 latency against gunicorn + RQ worker + Redis; "
            "ai: ISMCTS iterations/s per game and time per AI move by level; "
            "load: commands/s, commands per web-CPU second, latency and scoring wait with 1-4 web "
            "processes and 1-2 workers; "
            "growth: lobby, listings, a game, ratings and standings times with 100, 1,000 and 10,000 "
            "stored games (BENCH_GROWTH_HUGE=1 adds 100,000: about 16 GB of Redis memory); "
            "long: a command's CPU time as one Conquest of Paradise game grows to its end; "
            "streams: p50/p99 of ordinary requests while 1,000 event streams and 200 slowloris "
            "clients hold connections to `make run`; "
            "arena: ismcts against the all-seeing search at equal CPU time, a few games per family."
        ),
    )
    parser.add_argument(
        "parts",
        nargs="*",
        metavar="part",
        help=f"which benchmarks to run: {', '.join(PARTS)} (default: all)",
    )
    parser.add_argument("--quick", action="store_true", help="short runs (a smoke test, not figures)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random play (default 1)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="measured time of each measurement instead of the default",
    )
    parser.add_argument(
        "--game",
        action="append",
        default=None,
        metavar="GAME",
        help="domain only: benchmark only this registered game's setups (may be repeated)",
    )
    args = parser.parse_args(argv)
    unknown = [part for part in args.parts if part not in PARTS]
    if unknown:
        parser.error(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(PARTS)}")
    strange = [game for game in args.game or () if game not in GAMES]
    if strange:
        parser.error(f"unknown game {strange[0]!r}; choose from {', '.join(sorted(GAMES))}")
    args.parts = list(dict.fromkeys(args.parts)) or list(PARTS)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    say(f"Archipelago benchmarks{' (--quick)' if args.quick else ''}: {machine()}")
    say(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (other work skews figures)")
    figures: list[Figure] = []
    unrun: list[str] = []
    loads: dict[str, str] = {}
    started = time.monotonic()
    try:
        for part in args.parts:
            say()
            options: dict[str, object] = {"quick": args.quick, "seed": args.seed, "seconds": args.seconds}
            if part == "domain" and args.game:
                options["games"] = args.game
            load_before = os.getloadavg()
            measured = PARTS[part](**options)
            loads[part] = load_span(load_before, os.getloadavg())
            figures += measured
            if not measured:
                unrun.append(part)
    except KeyboardInterrupt:
        say("\ninterrupted; everything the bench started was stopped")
        return 130
    except api.BenchError as exc:
        say(f"\napi benchmark failed: {exc}")
        return 1
    except streams.SiegeError as exc:
        say(f"\nstreams benchmark failed: {exc}")
        return 1
    say()
    say(f"== summary ({time.monotonic() - started:.0f} s) ==")
    if figures:
        say(table(figures, loads))
        say("load: the 1-minute load average when the part started and when it ended")
    for part in unrun:
        say(f"{part}: not run (see above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
