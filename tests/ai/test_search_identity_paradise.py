"""Conquest of Paradise's search gives, from a seed, the visits it gave before its speed work
(pinned at 3f062d6): in the move, build and order phases, with 2 and 3 seats and with the
advanced rules, so a change made for speed is shown not to change play. Pinned again once, on
purpose, when a stack of one canoe stopped listing its moves twice (the positions and the
searched spread of Moves changed with the legal lists)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from ai.ismcts import Budget, search
from bench.ai import positions

ADVANCED = {"malaria": True, "south_island": True, "kumara": True, "saved_resources": True}

# (seats, options, seed of the positions, position) -> digest of the root's visits after a
# search of 200 iterations seeded by the position's number.
PINNED: list[tuple[int, dict[str, Any], int, int, str]] = [
    (2, {}, 2, 1, "e030f13cd80fad3e"),
    (2, {}, 2, 2, "03b5c4c8cd690c64"),
    (2, {}, 2, 3, "55a261d8be59dd56"),
    (3, {}, 2, 1, "4821b304281b5ced"),
    (3, {}, 2, 2, "2c02c607b8e0ec5f"),
    (3, {}, 2, 3, "2a234113e383e72b"),
    (3, ADVANCED, 4, 1, "d2f55152f203e8e0"),
    (3, ADVANCED, 4, 2, "478bd8452a423629"),
    (3, ADVANCED, 4, 3, "4fca825539e31f66"),
]


@pytest.fixture(scope="module")
def found() -> dict[tuple[int, str, int], list[Any]]:
    """The positions of each (seats, options, seed), played once for every pin that reads them."""
    return {
        (seats, repr(options), seed): positions("conquest-of-paradise", seats, options, 4, seed)
        for seats, options, seed, _, _ in PINNED
    }


@pytest.mark.parametrize(("seats", "options", "seed", "n", "digest"), PINNED)
def test_a_seeded_paradise_search_gives_the_pinned_visits(
    found: dict[tuple[int, str, int], list[Any]],
    seats: int,
    options: dict[str, Any],
    seed: int,
    n: int,
    digest: str,
) -> None:
    knowledge, legal = found[(seats, repr(options), seed)][n]
    result = search(knowledge, legal, random.Random(n), Budget(iterations=200))
    assert hashlib.sha256(repr(sorted(result.visits.items())).encode()).hexdigest()[:16] == digest
