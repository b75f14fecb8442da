"""Idle viewers and slow clients do not starve ordinary requests: `make run` as it starts, with
hundreds of open event streams and slowloris connections, still answers everyone else."""

from __future__ import annotations

import time
from pathlib import Path

import psutil
import pytest

from bench.streams import Result, create_targets, open_streams, running_service, siege

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


def test_a_stream_whose_client_left_ends_at_its_next_heartbeat(tmp_path: Path) -> None:
    with running_service(tmp_path, ARCHIPELAGO_SSE_HEARTBEAT_SECONDS="0.5") as service:
        web = [
            p
            for p in psutil.Process(service.process.pid).children(recursive=True)
            if "gunicorn" in " ".join(p.cmdline())
        ]

        def served() -> int:
            """The web workers' connections on the service's port."""
            return sum(
                1
                for process in web
                for connection in process.net_connections("tcp")
                if connection.laddr and connection.laddr.port == service.port and connection.raddr
            )

        streams = open_streams(service.port, create_targets(service.port, games=2, tournaments=1), 30)
        assert served() >= 30
        for stream in streams:
            stream.close()

        deadline = time.monotonic() + 20  # a heartbeat or two (0.5 s) after the clients left
        while served() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert served() == 0
