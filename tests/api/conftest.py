"""API fixtures: a fresh app per test on the flushed real Redis, and an in-process RQ worker."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq import SimpleWorker
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from service import jobs
from service.api.context import EXTENSION
from service.app import create_app
from service.chance import SEED_VARIABLE
from service.embedded_redis import EmbeddedRedis
from service.queues import QUEUE_AI, QUEUE_DEFAULT, queue
from service.wiring import build_service
from tests.api.contract import ValidatingClient


@pytest.fixture
def app(
    redis_server: EmbeddedRedis, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Flask]:
    """The app on the test Redis; the env makes the jobs' build_service() find it too."""
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    # Reproducible deals, in the app and in the jobs: a test sees the same games every run.
    monkeypatch.setenv(SEED_VARIABLE, "20261122")
    monkeypatch.setenv("RQ_REDIS_URL", redis_server.url)
    # Tests play fast from one address; test_rate_limits turns the limits on.
    config = {"REDIS_URL": redis_server.url, "TESTING": True, "SSE_MAX_SECONDS": 0.3}
    app = create_app({**config, "RATE_LIMITS_ENABLED": False})
    # Every answer a test gets is checked against the served document (tests/api/contract.py).
    app.test_client_class = ValidatingClient
    # Jobs run in this process build their service once: from this test's environment, not an earlier one's.
    jobs.serve_with(build_service)
    yield app
    app.extensions[EXTENSION].redis.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def run_worker(redis_client: redis.Redis) -> Callable[[], None]:
    """Run the queued jobs in this process (SimpleWorker, burst); fail if any job failed."""

    def run() -> None:
        jobs = queue(QUEUE_DEFAULT, redis_client)
        worker = SimpleWorker([jobs], connection=redis_client, serializer=JSONSerializer)
        worker.work(burst=True)
        failed = FailedJobRegistry(queue=jobs)
        assert failed.get_job_ids() == [], "a job failed"

    return run


@pytest.fixture
def run_jobs(redis_client: redis.Redis) -> Callable[[], None]:
    """Run every queued job, scoring and AI alike, in this process; fail if any job failed."""

    def run() -> None:
        queues = [queue(QUEUE_DEFAULT, redis_client), queue(QUEUE_AI, redis_client)]
        SimpleWorker(queues, connection=redis_client, serializer=JSONSerializer).work(burst=True)
        for each in queues:
            assert FailedJobRegistry(queue=each).get_job_ids() == [], "a job failed"

    return run
