"""`python -m bench ai --quick` measures the searches and reports positive figures (no speed is asserted)."""

from __future__ import annotations

from bench import ai


def test_bench_ai_quick_reports_positive_figures() -> None:
    figures = ai.run(quick=True, seconds=0.02)

    labels = {figure.label for figure in figures}
    assert "kahuna 2p: ISMCTS iterations" in labels
    assert "kahuna move: ismcts level 5" in labels
    assert {"nanuuk 2p: ISMCTS iterations", "nanuuk-learning 2p: ISMCTS iterations"} <= labels
    units = {(figure.label, figure.unit) for figure in figures}
    assert ("kahuna 2p: ISMCTS iterations", "iterations/CPU s") in units, "the iterations per CPU second too"
    assert all(figure.part == "ai" and figure.value > 0 for figure in figures)
