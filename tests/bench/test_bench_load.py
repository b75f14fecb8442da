"""The load benchmark runs against a real service and reports every figure it names."""

from __future__ import annotations

import math

import pytest

from bench import load


def test_bench_load_quick_reports_commands_latency_ratios_and_the_scoring_wait_on_redis_and_cluster(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BENCH_LOAD_STORES", raising=False)
    figures = load.run(quick=True, seconds=2.0)

    labels = {figure.label for figure in figures}
    assert labels == {
        f"{store} 1w/1q {name}"
        for store in ("redis", "cluster")
        for name in (
            "commands/s",
            "commands per web-CPU s",
            "GET p50 / raw",
            "POST p50 / raw",
            "POST p99",
            "scoring wait p99",
        )
    }
    assert all(figure.value > 0 for figure in figures if not math.isnan(figure.value))
    per_core = [figure.value for figure in figures if figure.label.endswith("per web-CPU s")]
    assert len(per_core) == 2 and all(value > 0 for value in per_core)  # NaN fails: CPU was counted
    out = capsys.readouterr().out
    assert "raw PING p50" in out and "scoring wait" in out
    assert "the events on a 3-primary cluster" in out


def test_bench_load_stores_are_picked_by_name_and_an_unknown_one_is_refused() -> None:
    assert load.stores_of("cluster") == ["cluster"]
    assert load.stores_of("redis, cluster") == ["redis", "cluster"]
    with pytest.raises(ValueError, match="'clustre'"):
        load.stores_of("clustre")


def test_bench_load_pairs_are_read_as_web_processes_x_workers() -> None:
    assert list(load.pairs_of("1x2,4x1")) == [(1, 2), (4, 1)]
