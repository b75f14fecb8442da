"""REDIS_CLUSTER_URL: the events go to the cluster, RQ's queues and the rate limits to a plain
Redis, and without one for RQ the service refuses to start."""

from __future__ import annotations

import pytest
import redis
from redis.cluster import RedisCluster

from service.api.context import EXTENSION
from service.app import create_app
from service.embedded_cluster import EmbeddedCluster
from service.embedded_redis import EmbeddedRedis
from service.keys import CLUSTER
from service.wiring import build_service


def test_a_cluster_without_a_plain_redis_for_rq_refuses_to_start(
    redis_cluster: EmbeddedCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("REDIS_URL", "RQ_REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("REDIS_CLUSTER_URL", redis_cluster.url)
    with pytest.raises(ValueError, match="RQ_REDIS_URL"):
        build_service()
    with pytest.raises(ValueError, match="RQ_REDIS_URL"):
        create_app({"TESTING": True})


def test_on_a_cluster_the_events_go_there_and_rq_and_the_limits_to_the_plain_redis(
    redis_cluster: EmbeddedCluster,
    redis_server: EmbeddedRedis,
    cluster_client: RedisCluster,
    redis_client: redis.Redis,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    app = create_app(
        {"REDIS_CLUSTER_URL": redis_cluster.url, "RQ_REDIS_URL": redis_server.url, "TESTING": True}
    )
    service = app.extensions[EXTENSION]
    assert isinstance(service.redis, RedisCluster) and service.store.layout is CLUSTER
    assert not isinstance(service.scoring.connection, RedisCluster)
    assert app.config["RATELIMIT_STORAGE_URI"] == redis_server.url

    created = app.test_client().post(
        "/games", json={"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}]}
    )

    assert created.status_code == 201, created.json
    game_id = created.json["game_id"]
    assert cluster_client.xlen(CLUSTER.key("game", game_id, "events")) == service.store.version(game_id) > 0
    assert not any(key.startswith(b"game:") for key in redis_client.keys()), "no event on RQ's Redis"
    service.redis.close()
