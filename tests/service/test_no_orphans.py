"""No process of `make run` outlives the launcher, whatever way it ends: work horses included."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
import redis

from service.queues import QUEUE_DEFAULT, queue
from tests.service.launcher_run import STARTED_WITHIN, Run, alive, running

GONE_WITHIN = 15.0


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Run]:
    with running(tmp_path) as started:
        yield started


def _horse_busy(run: Run) -> dict[int, str]:
    """Start a long job and wait until its work horse runs it; the launcher's process tree."""
    run.wait_for("Archipelago is running", STARTED_WITHIN)
    connection = redis.Redis(port=run.redis_port)
    job = queue(QUEUE_DEFAULT, connection).enqueue("time.sleep", 600, job_timeout=900)
    deadline = time.monotonic() + 30
    while job.get_status(refresh=True) != "started":
        assert time.monotonic() < deadline, "the long job never started"
        time.sleep(0.1)
    connection.close()
    tree = run.tree()
    # launcher, redis-server, gunicorn and its worker, the RQ worker, its scheduler and horse.
    assert len(tree) >= 6, tree
    return tree


def _kill(run: Run, tree: dict[int, str], how: str) -> None:
    if how in ("SIGINT", "SIGTERM", "SIGKILL"):
        os.kill(run.process.pid, getattr(signal, how))
        return
    target = "redis-server" if how == "redis dies" else "service.worker"
    pids = [pid for pid, name in tree.items() if target in name and pid != run.process.pid]
    # The worker: the one the launcher started (its horse and scheduler are its children).
    pid = min(pids, key=lambda p: len(psutil.Process(p).parents()))
    os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGKILL", "redis dies", "worker dies"])
def test_no_process_of_the_launcher_outlives_it(run: Run, how: str) -> None:
    tree = _horse_busy(run)
    run.seen.update(tree)  # type: ignore[attr-defined]
    _kill(run, tree, how)
    if how in ("redis dies", "worker dies"):
        # The launcher starts the dead part again; then it is stopped, with what it started since.
        died = "Redis" if how == "redis dies" else "RQ worker"
        run.wait_for(f"{died} is back", STARTED_WITHIN)
        assert f"{died} (pid" in run.said() and "stopped unexpectedly" in run.said()
        tree.update(run.tree())
        run.seen.update(tree)  # type: ignore[attr-defined]
        os.kill(run.process.pid, signal.SIGTERM)

    deadline = time.monotonic() + GONE_WITHIN
    while (left := {pid: name for pid, name in tree.items() if alive(pid)}) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left == {}, f"still running {GONE_WITHIN}s after {how}: {left}\n{run.output()}"
    if how in ("redis dies", "worker dies"):
        assert run.process.wait(timeout=5) == 0
