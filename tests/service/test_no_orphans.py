"""No process of `make run` outlives the launcher, whatever way it ends: work horses included."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
import redis

from service.embedded_redis import free_port
from service.queues import QUEUE_DEFAULT, queue

ROOT = Path(__file__).resolve().parents[2]
STARTED_WITHIN = 90.0
GONE_WITHIN = 15.0


class Run:
    """A launcher in the background, its output collected line by line."""

    def __init__(self, tmp_path: Path) -> None:
        self.redis_port = free_port()
        env = dict(
            os.environ,
            ARCHIPELAGO_DATA=str(tmp_path / "var"),
            PORT=str(free_port()),
            REDIS_PORT=str(self.redis_port),
            ARCHIPELAGO_STOP_TIMEOUT="2",
            WEB_CONCURRENCY="1",
            GUNICORN_ACCESS_LOG="",
            PYTHONUNBUFFERED="1",
        )
        for name in ("REDIS_URL", "RQ_REDIS_URL"):
            env.pop(name, None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.launcher"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def output(self) -> str:
        return "".join(self.lines)

    def wait_for(self, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output():
            assert self.process.poll() is None or text in self.output(), self.output()
            assert time.monotonic() < deadline, f"no {text!r} within {timeout}s:\n{self.output()}"
            time.sleep(0.1)

    def tree(self) -> dict[int, str]:
        """Every process under the launcher: pid -> name."""
        found = {self.process.pid: "launcher"}
        for child in psutil.Process(self.process.pid).children(recursive=True):
            with_name = " ".join(child.cmdline()[:3]) or child.name()
            found[child.pid] = with_name
        return found


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Run]:
    started = Run(tmp_path)
    seen: dict[int, str] = {}
    started.seen = seen  # type: ignore[attr-defined]
    yield started
    for pid in [*seen, started.process.pid]:  # whatever a failed test left
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    started.process.wait(timeout=10)
    started.reader.join(timeout=10)
    assert started.process.stdout is not None
    started.process.stdout.close()


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

    deadline = time.monotonic() + GONE_WITHIN
    while (left := {pid: name for pid, name in tree.items() if _alive(pid)}) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left == {}, f"still running {GONE_WITHIN}s after {how}: {left}\n{run.output()}"
    if how in ("redis dies", "worker dies"):
        assert run.process.wait(timeout=5) == 1
        died = "Redis" if how == "redis dies" else "RQ worker"
        assert f"{died} stopped unexpectedly" in run.output()
