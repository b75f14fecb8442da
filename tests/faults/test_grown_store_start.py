"""`make run` starts on a grown store: it says how far Redis has loaded, then serves.

ARCHIPELAGO_GROWN_GAMES finished games (default 2,000; the README's figure is for 10,000)
are imported into a data dir, Redis is stopped, and the launcher is timed to its
"Archipelago is running" line.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import redis

from service.embedded_redis import start_redis
from tests.grown_store import fill
from tests.service.launcher_run import call, running

GAMES = int(os.environ.get("ARCHIPELAGO_GROWN_GAMES") or 2000)
#: Only a ceiling: the launcher waits as long as Redis makes progress.
READY_WITHIN = 900.0


@pytest.mark.faults
def test_make_run_becomes_ready_on_a_grown_store(tmp_path: Path) -> None:
    data = tmp_path / "var"
    server = start_redis(data)
    client = redis.Redis(port=server.port)
    fill(client, GAMES)
    client.close()
    server.stop()
    size = sum(f.stat().st_size for f in data.iterdir() if f.name.startswith("appendonly"))

    started = time.monotonic()
    with running(tmp_path) as run:
        run.wait_for("Archipelago is running", READY_WITHIN)
        ready = time.monotonic() - started
        status, _ = call("GET", f"{run.url}/health/ready")
        assert status == 200
        # It said how much data there was and how far Redis had got.
        assert f"starting Redis on {size / 1e6:.1f} MB of data" in run.said()
        assert "Redis is loading" in run.said()
        print(
            f"\n{GAMES} games, append-only file {size / 1e6:.0f} MB: ready after {ready:.1f}s "
            f"(load average {os.getloadavg()[0]:.1f})\n{run.said()}"
        )
        assert run.stop() == 0
