"""A digest of a game's behaviour: seeded random games, every command, event and legal list,
hashed per game; run before and after a change to the rules, the lines compare.

Each line is `setup game-number sha256`; a game's hash covers, command by command, the legal
commands of the seat that moved (in order: a random pick indexes into them), the command, its
events (type, data, secret, audience) and, at the end, the result. Games are played as
`bench domain` plays them (`bench.domain.play_game`'s loop), each from its own
`random.Random(seed)`, so a run with fewer games is a prefix of one with more.

The setups each family digests are in bench/paradise_digest.py and bench/islands_digest.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench.domain import MAX_COMMANDS_PER_GAME, Setup
from domain.games import GAMES


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=repr, separators=(",", ":")).encode()


def game_digest(setup: Setup, seed: int) -> tuple[str, int]:
    """The hash of one seeded random game of `setup`, and its number of commands."""
    rules = GAMES[setup.game]
    data = setup.to_setup()
    rng = random.Random(seed)
    digest = hashlib.sha256()
    state = rules.initial_state(data)
    played = 0
    while not rules.is_terminal(state):
        if played >= MAX_COMMANDS_PER_GAME:
            raise RuntimeError(f"{setup.label}: no end after {played} commands")
        pending = rules.pending_system(state)
        if pending is not None:
            command = pending.answer(rng)
        else:
            for seat in range(setup.seats):
                legal = rules.legal_commands(state, seat)
                if not isinstance(legal, Sequence):
                    legal = list(legal)
                if legal:
                    break
            else:
                raise RuntimeError("no seat has a legal command, yet the game neither ended nor waits")
            digest.update(_dump([[c.type, c.seat, c.args] for c in legal]))
            command = rng.choice(legal)
        events, state = rules.apply(state, command)
        played += 1
        digest.update(_dump([command.type, command.seat, command.args]))
        digest.update(_dump([[e.type, e.data, e.secret, e.audience] for e in events]))
    digest.update(_dump(rules.result(state)))
    return digest.hexdigest(), played


def main(setups: Sequence[Setup], argv: Sequence[str] | None = None, description: str = "") -> int:
    """Print the digest lines of `setups` (those `--game` and `--setups` choose)."""
    parser = argparse.ArgumentParser(description=description or __doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per setup (default 20)")
    parser.add_argument("--first", type=int, default=0, help="the first game number (its seed)")
    parser.add_argument("--setups", default="", help="comma-separated setup numbers (default: all)")
    names = sorted({setup.game for setup in setups})
    parser.add_argument("--game", choices=names, action="append", help="only this game's setups (repeatable)")
    args = parser.parse_args(argv)
    chosen = [setups[int(n)] for n in args.setups.split(",")] if args.setups else list(setups)
    if args.game:
        chosen = [setup for setup in chosen if setup.game in args.game]
    for setup in chosen:
        label = setup.label.replace(" ", "_")
        for n in range(args.first, args.first + args.games):
            started = time.process_time()
            digest, played = game_digest(setup, n)
            spent = time.process_time() - started
            print(f"{label} {n} {digest}", flush=True)
            print(f"   {played} commands, {spent:.2f} CPU s", file=sys.stderr, flush=True)
    return 0
