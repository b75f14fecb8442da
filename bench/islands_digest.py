"""A digest of the island games' behaviour: seeded random games, every command, event and
legal list, hashed per game (bench/digest.py); run before and after a change to the rules, the
lines compare.

    python -m bench.islands_digest --games 300 > after.txt
    python -m bench.islands_digest --game kahuna --games 20
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bench.digest import main as digest_main
from bench.domain import Setup

SETUPS = (
    Setup("kahuna", 2),
    Setup("kahuna", 2, {"edition": "thames-kosmos"}),
    Setup("arabana-ikibiti", 2),
    Setup("arabana-ikibiti", 2, {"seafarers": True}),
    Setup("arabana-opodopo", 3),
    Setup("arabana-opodopo", 3, {"gods": True}),
    Setup("arabana-opodopo", 4),
    Setup("arabana-opodopo", 4, {"gods": True}),
)
"""Every island game and edition with the options `bench domain` plays, each to its end (a
random island game is a few hundred commands)."""


def main(argv: Sequence[str] | None = None) -> int:
    return digest_main(SETUPS, argv, "The island games' behaviour digest: one hash per seeded random game.")


if __name__ == "__main__":
    sys.exit(main())
