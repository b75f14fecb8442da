"""Idle viewers and slow clients do not starve ordinary requests: `make run` as it starts, with
hundreds of open event streams and slowloris connections, still answers everyone else."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.streams import Result, running_service, siege

#: Far above the few milliseconds an ordinary request takes: only a starved server exceeds it.
CEILING = 5.0
#: gunicorn's keepalive (deploy/gunicorn.conf.py): the time a request head may take to arrive.
HEADER_TIMEOUT = 5.0


def check(result: Result, streams: int) -> None:
    assert result.streams_opened == result.streams_open_after == streams
    assert result.timeouts == 0 and result.errors == 0
    assert len(result.latencies) >= 20
    assert max(result.latencies) < CEILING
    # The server cut the slowloris connections off after the header timeout, not never.
    assert result.slow_cut > 0
    assert max(result.slow_lifetimes) < HEADER_TIMEOUT + 5


def test_300_streams_and_50_slow_clients_leave_ordinary_requests_answering(tmp_path: Path) -> None:
    with running_service(tmp_path) as service:
        result = siege(
            service.port, streams=300, slow=50, seconds=8, ceiling=CEILING, games=20, tournaments=5
        )
    check(result, 300)


@pytest.mark.faults
def test_1000_streams_and_200_slow_clients_leave_p99_under_300_ms(tmp_path: Path) -> None:
    with running_service(tmp_path) as service:
        result = siege(service.port, streams=1000, slow=200, seconds=30, ceiling=CEILING)
    print(f"\np50 {result.p50_ms:.1f} ms, p99 {result.p99_ms:.1f} ms, load {result.load}")
    check(result, 1000)
    assert result.p99_ms < 300
