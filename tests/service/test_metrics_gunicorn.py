"""/metrics under gunicorn with two workers (deploy/gunicorn.conf.py): any worker's scrape sums
the counts of both, and of one that died; each request is one JSON line on gunicorn's stderr."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from service.embedded_redis import EmbeddedRedis
from tests.live_web import LiveWeb, get, live_web, wait_for

HEALTH = (
    "archipelago_http_requests_total",
    frozenset({"method": "GET", "route": "/health", "status": "200"}.items()),
)


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


@pytest.fixture
def gunicorn(redis_server: EmbeddedRedis, redis_client: redis.Redis, tmp_path: Path) -> Iterator[LiveWeb]:
    with live_web(redis_server.url, tmp_path, workers=2) as web:
        yield web


def test_a_scrape_sums_the_counts_of_both_gunicorn_workers_and_of_a_dead_one(gunicorn: LiveWeb) -> None:
    base, process, metrics = gunicorn.url, gunicorn.process, gunicorn.metrics
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
    lines = [json.loads(line) for line in gunicorn.log.read_text().splitlines()]
    checks = [r for r in lines if r.get("logger") == "archipelago.requests" and r["route"] == "/health"]
    assert len(checks) == sent
    assert all(len(r["request_id"]) == 32 and r["status"] == 200 for r in checks)
    assert len({r["pid"] for r in checks}) == 2
