"""The web app as deployed: gunicorn with deploy/gunicorn.conf.py on a test Redis, in a child process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from service.embedded_redis import free_port

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class LiveWeb:
    url: str
    process: subprocess.Popen[bytes]
    metrics: Path
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def get(url: str) -> tuple[int, str]:
    """Status and text of a GET, errors included."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def wait_for(check: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError("timed out")


@contextmanager
def live_web(redis_url: str, directory: Path, workers: int = 2) -> Iterator[LiveWeb]:
    """gunicorn with `workers` processes, rate limits off, its metrics and log (stderr) in `directory`."""
    port = free_port()
    env = dict(
        os.environ,
        REDIS_URL=redis_url,
        RQ_REDIS_URL=redis_url,
        ARCHIPELAGO_HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY=str(workers),
        GUNICORN_THREADS="4",
        ARCHIPELAGO_RATE_LIMITS="off",
        PROMETHEUS_MULTIPROC_DIR=str(directory / "metrics"),
    )
    log = directory / "web.log"
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py"],
            cwd=ROOT,
            env=env,
            stderr=stderr,
        )
    web = LiveWeb(f"http://127.0.0.1:{port}", process, directory / "metrics", log)
    try:
        wait_for(lambda: get(f"{web.url}/health/live")[0] == 200)
        yield web
    finally:
        web.stop()
