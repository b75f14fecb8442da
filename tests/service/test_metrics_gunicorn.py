"""/metrics under gunicorn with two workers (deploy/gunicorn.conf.py): any worker's scrape sums
the counts of both, and of one that died; each request is one JSON line on gunicorn's stderr."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from service.embedded_redis import EmbeddedRedis, free_port

ROOT = Path(__file__).resolve().parents[2]
HEALTH = (
    "archipelago_http_requests_total",
    frozenset({"method": "GET", "route": "/health", "status": "200"}.items()),
)


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def counted_health_checks(base: str) -> float:
    status, text = get(f"{base}/metrics")
    assert status == 200
    samples = {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    return samples.get(HEALTH, 0.0)


def counting_pids(directory: Path) -> set[int]:
    return {int(f.stem.rpartition("_")[2]) for f in directory.glob("counter_*.db")}


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


Web = tuple[str, "subprocess.Popen[bytes]", Path]


@pytest.fixture
def gunicorn(redis_server: EmbeddedRedis, redis_client: redis.Redis, tmp_path: Path) -> Iterator[Web]:
    """gunicorn -c deploy/gunicorn.conf.py with two workers on the flushed test Redis: (its URL,
    the master process, the directory of its metrics and its log web.log)."""
    port = free_port()
    env = dict(
        os.environ,
        REDIS_URL=redis_server.url,
        RQ_REDIS_URL=redis_server.url,
        ARCHIPELAGO_HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="2",
        GUNICORN_THREADS="4",
        ARCHIPELAGO_RATE_LIMITS="off",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
    )
    log = (tmp_path / "web.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py"], cwd=ROOT, env=env, stderr=log
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: get(f"{base}/health/live")[0] == 200)
        yield base, process, tmp_path
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def test_a_scrape_sums_the_counts_of_both_gunicorn_workers_and_of_a_dead_one(gunicorn: Web) -> None:
    base, process, tmp_path = gunicorn
    metrics = tmp_path / "metrics"
    sent = 0
    with ThreadPoolExecutor(8) as pool:
        while len(counting_pids(metrics)) < 2 and sent < 800:
            statuses = list(pool.map(lambda _: get(f"{base}/health")[0], range(40)))
            assert statuses == [200] * 40
            sent += 40
    workers = counting_pids(metrics)
    assert len(workers) == 2, "the requests all went to one worker"

    assert [counted_health_checks(base) for _ in range(6)] == [sent] * 6

    victim = sorted(workers)[0]
    os.kill(victim, signal.SIGKILL)
    gunicorn_workers = psutil.Process(process.pid).children
    wait_for(lambda: victim not in [c.pid for c in gunicorn_workers()] and len(gunicorn_workers()) == 2)
    wait_for(lambda: get(f"{base}/health/live")[0] == 200)
    assert [counted_health_checks(base) for _ in range(6)] == [sent] * 6

    process.send_signal(signal.SIGTERM)
    process.wait(timeout=20)
    lines = [json.loads(line) for line in (tmp_path / "web.log").read_text().splitlines()]
    checks = [r for r in lines if r.get("logger") == "archipelago.requests" and r["route"] == "/health"]
    assert len(checks) == sent
    assert all(len(r["request_id"]) == 32 and r["status"] == 200 for r in checks)
    assert len({r["pid"] for r in checks}) == 2
