"""The load benchmark runs against a real service and reports every figure it names."""

from __future__ import annotations

import math

import pytest

from bench import load


def test_bench_load_quick_reports_commands_latency_ratios_and_the_scoring_wait(
    capsys: pytest.CaptureFixture[str],
) -> None:
    figures = load.run(quick=True, seconds=3.0)

    labels = {figure.label for figure in figures}
    assert labels == {
        f"redis 1w/1q {name}"
        for name in ("commands/s", "GET p50 / raw", "POST p50 / raw", "POST p99", "scoring wait p99")
    }
    assert all(figure.value > 0 for figure in figures if not math.isnan(figure.value))
    out = capsys.readouterr().out
    assert "raw PING p50" in out and "scoring wait" in out


def test_bench_load_pairs_are_read_as_web_processes_x_workers() -> None:
    assert list(load.pairs_of("1x2,4x1")) == [(1, 2), (4, 1)]
