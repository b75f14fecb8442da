"""`archipelago-run` in the background on free ports and a data dir of the test's own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

from service.embedded_redis import free_port

ROOT = Path(__file__).resolve().parents[2]
STARTED_WITHIN = 90.0


class Run:
    """A launcher in the background, its output collected line by line."""

    def __init__(self, tmp_path: Path, **env: str) -> None:
        self.redis_port = free_port()
        self.port = free_port()
        self.data = tmp_path / "var"
        environ = dict(
            os.environ,
            ARCHIPELAGO_DATA=str(self.data),
            PORT=str(self.port),
            REDIS_PORT=str(self.redis_port),
            ARCHIPELAGO_STOP_TIMEOUT="2",
            WEB_CONCURRENCY="1",
            GUNICORN_ACCESS_LOG="",
            PYTHONUNBUFFERED="1",
        )
        for name in ("REDIS_URL", "RQ_REDIS_URL", "REDIS_CLUSTER_URL"):
            environ.pop(name, None)
        environ.update(env)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.launcher"],
            cwd=ROOT,
            env=environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def output(self) -> str:
        return "".join(self.lines)

    def said(self) -> str:
        """The launcher's own lines (not the JSON log lines of the web app and the worker)."""
        return "".join(line for line in self.lines if not line.startswith("{"))

    def wait_for(self, text: str, timeout: float, count: int = 1) -> None:
        """Until `text` has appeared `count` times in the output."""
        deadline = time.monotonic() + timeout
        while self.output().count(text) < count:
            assert self.process.poll() is None or text in self.output(), self.said()
            assert time.monotonic() < deadline, f"no {text!r} within {timeout}s:\n{self.said()}"
            time.sleep(0.1)

    def tree(self) -> dict[int, str]:
        """Every process under the launcher: pid -> name."""
        found = {self.process.pid: "launcher"}
        for child in psutil.Process(self.process.pid).children(recursive=True):
            try:
                found[child.pid] = " ".join(child.cmdline()[:3]) or child.name()
            except psutil.Error:  # gone, or a zombie: dead already
                continue
        return found

    def pid_of(self, target: str) -> int:
        """The launcher's own child running `target` (its children's children share the name)."""
        for child in psutil.Process(self.process.pid).children():
            if target in " ".join(child.cmdline()):
                return child.pid
        raise AssertionError(f"no {target} under the launcher:\n{self.tree()}")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@contextmanager
def running(tmp_path: Path, **env: str) -> Iterator[Run]:
    """A launcher for the test; whatever a failed test left of it is killed."""
    started = Run(tmp_path, **env)
    seen: dict[int, str] = {}
    started.seen = seen  # type: ignore[attr-defined]
    try:
        yield started
    finally:
        left = set(seen)
        if alive(started.process.pid):
            left |= set(started.tree())
        for pid in left:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        started.process.wait(timeout=10)
        started.reader.join(timeout=10)
        assert started.process.stdout is not None
        started.process.stdout.close()


def call(method: str, url: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """Status and JSON body of one request (errors included); (0, reason) when nothing answered."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")
    except (OSError, ValueError) as failed:
        return 0, str(failed)


def wait_until(check: Callable[[], bool], seconds: float, what: str) -> float:
    """Seconds until `check()` held (polled every 0.1 s); fails after `seconds`."""
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < seconds, f"not within {seconds}s: {what}"
        time.sleep(0.1)
    return time.monotonic() - started
