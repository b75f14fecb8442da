"""The service's dice: the random inputs the rules ask for (shuffles, god stones, Pele's picks).

In play they come from the operating system (`secrets`). ARCHIPELAGO_DICE_SEED makes them
reproducible, for tests and demonstrations only: whoever knows the seed knows every deal.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Mapping

from domain.core import Command, SystemRequest

SEED_VARIABLE = "ARCHIPELAGO_DICE_SEED"


class Dice:
    """Draws the system commands that answer the rules' requests for chance."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)

    def below(self, n: int) -> int:
        return self._rng.randrange(n)

    def command(self, pending: SystemRequest) -> Command | None:
        """The system command answering `pending` with fresh randomness, or None for the
        worker's work (a scoring)."""
        return pending.answer(self._rng) if pending.immediate else None


def dice_from(environ: Mapping[str, str] | None = None) -> Dice:
    """The OS's dice, or seeded ones when ARCHIPELAGO_DICE_SEED is set."""
    env = os.environ if environ is None else environ
    seed = env.get(SEED_VARIABLE)
    return Dice(None if not seed else int(seed))
