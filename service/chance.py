"""The service's dice: the random inputs the rules ask for (shuffles, god stones, Pele's picks).

In play they come from the operating system (`secrets`). ARCHIPELAGO_DICE_SEED makes them
reproducible, for tests and demonstrations only: whoever knows the seed knows every deal.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Mapping
from typing import Any

from domain.core import Command

IMMEDIATE = ("shuffle", "pick")
"""Pending system work the service does at once; "score" goes to the worker instead."""

SEED_VARIABLE = "ARCHIPELAGO_DICE_SEED"


def system_command(pending: Mapping[str, Any], rng: random.Random) -> Command:
    """The system command answering `pending` (engine.pending_system), chance drawn from `rng`.

    The service's dice, the AI's simulations and the benchmarks all answer through this.
    """
    kind = pending["kind"]
    if kind == "shuffle":
        args = {name: rng.sample(range(size), size) for name, size in pending["permutations"].items()}
        return Command("ShuffleDeck", None, args)
    if kind == "pick":
        picks = {seat: rng.randrange(size) for seat, size in pending["hands"].items()}
        return Command("DrawAtRandom", None, {"picks": picks})
    if kind == "score":
        return Command("ScoreRound", None, {"round": pending["round"]})
    raise ValueError(f"unknown system request {pending!r}")


class Dice:
    """Draws the system commands that answer the rules' requests for chance."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)

    def below(self, n: int) -> int:
        return self._rng.randrange(n)

    def command(self, pending: Mapping[str, Any]) -> Command | None:
        """The system command answering `pending` with fresh randomness, or None for other work."""
        return system_command(pending, self._rng) if pending["kind"] in IMMEDIATE else None


def dice_from(environ: Mapping[str, str] | None = None) -> Dice:
    """The OS's dice, or seeded ones when ARCHIPELAGO_DICE_SEED is set."""
    env = os.environ if environ is None else environ
    seed = env.get(SEED_VARIABLE)
    return Dice(None if not seed else int(seed))
