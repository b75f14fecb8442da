"""The deal's generator: the same (seed, entropy, index) draws the same for ever, anything else
draws otherwise, and `below(n)` is exactly uniform (values past the last multiple of n are
drawn again)."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from record.canonical import canonical_json
from record.draws import DrawStream, commitment, is_entropy

SEED = bytes(range(32))
ENTROPY = [("creator", "ab" * 16)]


def test_a_known_draw_stays_the_same_so_stored_games_stay_checkable() -> None:
    stream = DrawStream(SEED, ENTROPY, 7)
    assert stream.sample(range(10), 10) == [9, 0, 3, 1, 2, 5, 8, 7, 4, 6]
    assert (stream.below(6), stream.below(1000003)) == (3, 555511)


def test_the_first_block_is_hmac_sha256_of_the_canonical_material() -> None:
    message = canonical_json({"block": 0, "draw": 7, "entropy": [["creator", "ab" * 16]]}).encode()
    block = hmac.new(SEED, message, hashlib.sha256).digest()
    assert DrawStream(SEED, ENTROPY, 7).below(1 << 32) == int.from_bytes(block[:8], "big") % (1 << 32)


def test_another_index_entropy_or_seed_draws_otherwise() -> None:
    def deal(seed: bytes, entropy: list[tuple[str, str]], index: int) -> list[int]:
        return DrawStream(seed, entropy, index).sample(range(24), 24)

    base = deal(SEED, ENTROPY, 7)
    assert base == deal(SEED, ENTROPY, 7)
    others = [
        deal(SEED, ENTROPY, 8),
        deal(SEED, [*ENTROPY, ("seat:0", "cd" * 16)], 7),
        deal(bytes(32), ENTROPY, 7),
    ]
    assert all(other != base for other in others)


def test_values_past_the_last_whole_multiple_are_drawn_again() -> None:
    n = 3 << 62  # a quarter of all 8-byte values fall past n: they are drawn again
    draws = [DrawStream(SEED, [], index).below(n) for index in range(300)]
    assert all(0 <= d < n for d in draws)
    # Uniform: a third below 2**62. Taking value % n instead would make it a half.
    assert 70 < sum(d < (1 << 62) for d in draws) < 130


def test_small_draws_are_spread_evenly() -> None:
    stream = DrawStream(SEED, ENTROPY, 2)
    counts = Counter(stream.below(6) for _ in range(6000))
    assert set(counts) == set(range(6)) and all(900 < c < 1100 for c in counts.values())


def test_nothing_is_drawn_below_zero_and_the_commitment_is_sha256() -> None:
    with pytest.raises(ValueError):
        DrawStream(SEED, [], 1).below(0)
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert is_entropy("ab" * 16) and not is_entropy("AB" * 16) and not is_entropy("ab" * 15)
