"""API fixtures: a fresh app per test on the flushed real Redis (or, for the modules that import
tests.backends.store_backend, on the Redis Cluster too), and an in-process RQ worker."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from redis.cluster import RedisCluster
from rq import SimpleWorker
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from service import jobs
from service.api.context import EXTENSION
from service.app import create_app
from service.chance import SEED_VARIABLE
from service.embedded_cluster import EmbeddedCluster
from service.embedded_redis import EmbeddedRedis
from service.queues import QUEUE_AI, QUEUE_DEFAULT, queue
from service.wiring import build_service


@pytest.fixture
def store_backend() -> str:
    """Where the events live: the one Redis, unless a module imports tests.backends.store_backend."""
    return "redis"


@pytest.fixture
def cluster(store_backend: str, request: pytest.FixtureRequest) -> EmbeddedCluster | None:
    """The Redis Cluster that holds the events, None when they are on the one Redis."""
    if store_backend != "cluster":
        return None
    request.getfixturevalue("cluster_client")  # flushed around the test
    return request.getfixturevalue("redis_cluster")  # type: ignore[no-any-return]


@pytest.fixture
def events_client(
    cluster: EmbeddedCluster | None, redis_client: redis.Redis
) -> Iterator[redis.Redis | RedisCluster]:
    """A client of the Redis (or the cluster) that holds the events."""
    if cluster is None:
        yield redis_client
        return
    client = cluster.client()
    yield client
    client.close()


@pytest.fixture
def app(
    redis_server: EmbeddedRedis,
    redis_client: redis.Redis,
    cluster: EmbeddedCluster | None,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Flask]:
    """The app on the test Redis (or cluster); the env makes the jobs' build_service() find it too."""
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    # Reproducible deals, in the app and in the jobs: a test sees the same games every run.
    monkeypatch.setenv(SEED_VARIABLE, "20261122")
    monkeypatch.setenv("RQ_REDIS_URL", redis_server.url)
    # Tests play fast from one address; test_rate_limits turns the limits on.
    config = {"REDIS_URL": redis_server.url, "TESTING": True, "SSE_MAX_SECONDS": 0.3}
    if cluster is not None:
        monkeypatch.setenv("REDIS_CLUSTER_URL", cluster.url)
        config["REDIS_CLUSTER_URL"] = cluster.url
    else:
        monkeypatch.delenv("REDIS_CLUSTER_URL", raising=False)
    app = create_app({**config, "RATE_LIMITS_ENABLED": False})
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
