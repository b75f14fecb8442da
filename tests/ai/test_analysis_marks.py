"""The analysis marks: "?" beyond a loss of 0.10 win chance, "??" beyond 0.25 (docs/ai.md)."""

from __future__ import annotations

from service.analysis import BLUNDER, DUBIOUS, mark_for


def test_marks_follow_the_documented_thresholds() -> None:
    assert (DUBIOUS, BLUNDER) == (0.10, 0.25)
    assert mark_for(0.0) is None and mark_for(0.10) is None
    assert mark_for(0.11) == "?" and mark_for(0.25) == "?"
    assert mark_for(0.26) == "??"
