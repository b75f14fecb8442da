"""The service's dice: the random inputs the rules ask for (shuffles, god stones, Pele's picks,
chits, dice, lots), drawn from each game's committed deal (record.draws).

A game's seed is 32 bytes from the operating system (`secrets`), committed in GameCreated and
kept secret until the end. ARCHIPELAGO_DICE_SEED makes the seeds reproducible, for tests and
demonstrations only: whoever knows it knows every deal.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import random
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.decider import SERVER, Command, Event
from domain.turns import RandomSource, SystemRequest
from record.draws import SCHEME, SEED_BYTES, DrawStream, EntropyLog, commitment, entropy_from

SEED_VARIABLE = "ARCHIPELAGO_DICE_SEED"


@dataclass(frozen=True)
class Deal:
    """A stream's committed deal as the service holds it: the seed and the public deal data."""

    seed: bytes
    data: Mapping[str, Any]

    def stream(self, entropy: EntropyLog, index: int) -> DrawStream:
        """The draw at `index`, mixing in the entropy recorded before it (`entropy`: the
        record's record.draws.entropy_log)."""
        return DrawStream(self.seed, entropy_from(self.data, entropy, index), index)


def deal_of(created: Any) -> Deal | None:
    """The deal a stored creation event commits to (its seed in the secret), or None for a
    stream recorded before deals were committed."""
    data = created.data.get("deal")
    seed = (created.secret or {}).get("seed")
    if not isinstance(data, Mapping) or not isinstance(seed, str):
        return None
    return Deal(bytes.fromhex(seed), data)


def committed(created: Event, seed: bytes, deal: Mapping[str, Any] | None = None) -> Event:
    """`created` (a game's or a tournament's first event) committing to `seed`: the public
    commitment (`deal`, when it holds more) in its data, the seed its secret for no seat until
    the reveal."""
    public = dict(deal) if deal is not None else {"scheme": SCHEME, "commitment": commitment(seed)}
    data = {**created.data, "deal": public}
    return Event(created.type, data, {"seed": seed.hex()}, SERVER, created.schema)


class Dice:
    """Fresh seeds for new games, and the system commands that answer the rules' requests."""

    def __init__(self, seed: int | None = None) -> None:
        self._fixed = seed
        self._made = itertools.count()
        self._lock = threading.Lock()
        # Streams recorded before deals were committed still draw, from the old source.
        self._rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)

    def fresh_seed(self) -> bytes:
        """A new game's seed: 32 random bytes, or the next of a fixed series under a test seed."""
        if self._fixed is None:
            return secrets.token_bytes(SEED_BYTES)
        with self._lock:
            n = next(self._made)
        return hashlib.sha256(f"{self._fixed}:{n}".encode()).digest()

    def command(self, pending: SystemRequest, source: RandomSource | None = None) -> Command | None:
        """The system command answering `pending` from `source` (a deal's draw), or None for
        the worker's work (a scoring)."""
        if not pending.immediate:
            return None
        return pending.answer(self._rng if source is None else source)


def draw_source(deal: Deal | None, entropy: EntropyLog, index: int) -> DrawStream | None:
    """The draw at `index` of `deal`; None (the dice's own source) without a committed deal."""
    return None if deal is None else deal.stream(entropy, index)


def dice_from(environ: Mapping[str, str] | None = None) -> Dice:
    """The OS's dice, or seeded ones when ARCHIPELAGO_DICE_SEED is set."""
    env = os.environ if environ is None else environ
    seed = env.get(SEED_VARIABLE)
    return Dice(None if not seed else int(seed))
