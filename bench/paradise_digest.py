"""A digest of Conquest of Paradise's behaviour: seeded random games, every command, event and
legal list, hashed per game (bench/digest.py); run before and after a change to the rules, the
lines compare.

    python -m bench.paradise_digest --games 20 > after.txt
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bench.digest import game_digest
from bench.digest import main as digest_main
from bench.domain import Setup

__all__ = ["ADVANCED", "GAME", "SETUPS", "game_digest", "main"]

GAME = "conquest-of-paradise"
ADVANCED = {
    "variable_start": True,
    "saved_resources": True,
    "malaria": True,
    "south_island": True,
    "kumara": True,
}
SETUPS = (
    Setup(GAME, 2),
    Setup(GAME, 3, {"last_turn": 20}),
    Setup(GAME, 4, {"last_turn": 15}),
    Setup(GAME, 2, {**ADVANCED, "last_turn": 20}),
    Setup(GAME, 4, {**ADVANCED, "last_turn": 15}),
)
"""The default game played to its end; the others stop at a last turn, so that a shared
machine plays enough of them before and after a change (a whole random game is thousands of
commands)."""


def main(argv: Sequence[str] | None = None) -> int:
    return digest_main(
        SETUPS, argv, "The Conquest of Paradise behaviour digest: one hash per seeded random game."
    )


if __name__ == "__main__":
    sys.exit(main())
