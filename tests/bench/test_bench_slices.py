"""The slices comparison runs end to end (its figures are read by people, never asserted)."""

from __future__ import annotations

from bench.slices import compare


def test_the_slices_comparison_judges_the_positions_it_asked_for() -> None:
    line = compare(20, 2)
    assert line.startswith("2 positions, 20 iterations:")
    assert "one search" in line and "5 slices" in line
