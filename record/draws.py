"""The deal's generator: every draw of a game from its committed seed, the entropy the seats
added, and the draw's index, so that anyone holding the revealed seed draws the same again.

Each draw reads its own stream of bytes, HMAC-SHA256 in counter mode keyed by the seed over
the canonical JSON of {block, draw, entropy}; `below(n)` takes 8 bytes at a time and rejects
the values past the last whole multiple of n, so every answer is exactly as likely.
The rules ask for chance through `randrange` and `sample` (domain.turns.RandomSource), which
a stream provides. A draw's index is the version of the first event it caused: versions never
repeat, so a takeback does not draw the same chance again and an undone draw stays in the log.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from typing import Any

from domain.platform_schemas import ENTROPY_ADDED
from record.canonical import canonical_json

SCHEME = "hmac-sha256-ctr-v1"
"""The name of this generator in a game's commitment; another scheme would get another name."""

SEED_BYTES = 32
FIRST_SEAT_DRAW = 1
"""The index of the lot for the first seat: it is drawn with GameCreated, version 1."""

ENTROPY_EVENT = ENTROPY_ADDED
"""The event by which a seat adds its entropy: {seat, entropy}; draws after it mix it in."""

_HEX = re.compile(r"^[0-9a-f]*$")
ENTROPY_MIN_HEX, ENTROPY_MAX_HEX = 32, 128
"""A seat's entropy: 16 to 64 bytes, as lowercase hex."""

_SPACE = 1 << 64


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256 in hex (32 random bytes cannot be guessed)."""
    return hashlib.sha256(seed).hexdigest()


def is_entropy(text: object) -> bool:
    """Whether `text` is entropy a seat may add: lowercase hex of 16 to 64 bytes."""
    return (
        isinstance(text, str)
        and ENTROPY_MIN_HEX <= len(text) <= ENTROPY_MAX_HEX
        and len(text) % 2 == 0
        and _HEX.match(text) is not None
    )


Entropy = Sequence[tuple[str, str]]
"""Who added entropy ("creator", "seat:1") and the hex they gave, in the order recorded."""


class DrawStream:
    """The random answers of one draw: deterministic in (seed, entropy, index)."""

    def __init__(self, seed: bytes, entropy: Entropy, index: int) -> None:
        self._seed = seed
        self._material = {"draw": index, "entropy": [list(pair) for pair in entropy]}
        self._block = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            message = canonical_json({**self._material, "block": self._block}).encode("utf-8")
            self._buffer += hmac.new(self._seed, message, hashlib.sha256).digest()
            self._block += 1
        taken, self._buffer = self._buffer[:n], self._buffer[n:]
        return taken

    def below(self, n: int) -> int:
        """A number from 0 to n - 1, each equally likely."""
        if n <= 0:
            raise ValueError(f"nothing to draw below {n}")
        limit = _SPACE - _SPACE % n
        while True:
            value = int.from_bytes(self._bytes(8), "big")
            if value < limit:
                return value % n

    def randrange(self, stop: int) -> int:
        return self.below(stop)

    def sample(self, population: Sequence[int], k: int) -> list[int]:
        """`k` distinct members of `population` in drawn order (a partial Fisher-Yates)."""
        pool = list(population)
        if not 0 <= k <= len(pool):
            raise ValueError(f"cannot take {k} of {len(pool)}")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


ENTRANT_EVENT = "EntrantRegistered"
"""A tournament's registration: an entrant's `entropy`, when given, mixes into every lot after it."""


def creator_entropy(deal: Mapping[str, Any]) -> Entropy:
    """The entropy GameCreated's deal holds (the creator's), as the first pair of every draw."""
    given = deal.get("entropy")
    return [("creator", given)] if isinstance(given, str) else []


def entropy_before(deal: Mapping[str, Any], records: Sequence[Any], version: int) -> list[tuple[str, str]]:
    """The entropy recorded before `version`: the creator's, then each seat's EntropyAdded, or
    in a tournament each entrant's given at registration (records with `version`, `type` and
    `data`, from the first event on)."""
    return entropy_from(deal, entropy_log(records, before=version), version)


EntropyLog = tuple[tuple[int, tuple[str, str]], ...]
"""The entropy a record adds to its deal: (version, pair) for each event that adds some."""


def entropy_log(records: Sequence[Any], before: int | None = None) -> EntropyLog:
    """The entropy `records` (in version order) add, up to `before` when given: read once, it
    serves each of a run of draws (`entropy_from`) instead of a read of the records per draw."""
    found = []
    for record in records:
        if before is not None and record.version >= before:
            break
        pair = _entropy_pair(record)
        if pair is not None:
            found.append((record.version, pair))
    return tuple(found)


def _entropy_pair(record: Any) -> tuple[str, str] | None:
    """The (source, entropy) pair `record` adds: a seat's EntropyAdded, an entrant's registration."""
    if record.type == ENTROPY_EVENT:
        return (f"seat:{record.data.get('seat')}", str(record.data.get("entropy")))
    if record.type == ENTRANT_EVENT and record.data.get("entropy") is not None:
        return (f"entrant:{record.data.get('entrant')}", str(record.data.get("entropy")))
    return None


def entropy_from(deal: Mapping[str, Any], log: EntropyLog, version: int) -> list[tuple[str, str]]:
    """`entropy_before` of the records `log` was read from."""
    return [*creator_entropy(deal), *(pair for at, pair in log if at < version)]
