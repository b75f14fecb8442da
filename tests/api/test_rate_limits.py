"""Rate limits per client address (P5 B.9): settings of create_app, 429 problem+json with Retry-After."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask

from service.api.context import EXTENSION
from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from tests.api.helpers import create_game, post

ANN = {"REMOTE_ADDR": "192.0.2.1"}
BEN = {"REMOTE_ADDR": "192.0.2.2"}
KAHUNA = {"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}], "first_seat": 0}


@pytest.fixture
def limited(
    redis_server: EmbeddedRedis, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    """Build apps with rate limits on (the API tests' app has them off) and small limits."""
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("RQ_REDIS_URL", redis_server.url)
    apps: list[Flask] = []

    def build(**config: Any) -> Flask:
        app = create_app({"REDIS_URL": redis_server.url, "TESTING": True, **config})
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.extensions[EXTENSION].redis.close()


def _all_events(redis_client: redis.Redis) -> int:
    return int(redis_client.xlen("events:$all"))


def test_rate_limits_are_on_by_default(monkeypatch: pytest.MonkeyPatch, limited: Any) -> None:
    monkeypatch.delenv("ARCHIPELAGO_RATE_LIMITS", raising=False)
    assert limited().config["RATE_LIMITS_ENABLED"] is True


def test_the_environment_turns_rate_limits_off_and_sets_them(
    monkeypatch: pytest.MonkeyPatch, limited: Any
) -> None:
    monkeypatch.setenv("ARCHIPELAGO_RATE_LIMITS", "off")
    monkeypatch.setenv("ARCHIPELAGO_RATE_LIMIT_CREATE", "7 per minute")
    app = limited()
    assert app.config["RATE_LIMITS_ENABLED"] is False
    assert app.config["RATE_LIMIT_CREATE"] == "7 per minute"


def test_game_creation_beyond_the_limit_is_429_rate_limited_with_retry_after_and_writes_nothing(
    limited: Any, redis_client: redis.Redis
) -> None:
    client = limited(RATE_LIMIT_CREATE="2 per hour").test_client()
    for _ in range(2):
        assert client.post("/games", json=KAHUNA, environ_base=ANN).status_code == 201
    written = _all_events(redis_client)

    refused = client.post("/games", json=KAHUNA, environ_base=ANN)

    assert refused.status_code == 429
    assert refused.mimetype == "application/problem+json"
    assert refused.json["code"] == "rate_limited"
    assert refused.json["status"] == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 3600
    assert _all_events(redis_client) == written, "a refused creation writes nothing"


def test_each_client_address_has_its_own_allowance(limited: Any) -> None:
    client = limited(RATE_LIMIT_CREATE="1 per hour").test_client()
    assert client.post("/games", json=KAHUNA, environ_base=ANN).status_code == 201
    assert client.post("/games", json=KAHUNA, environ_base=ANN).status_code == 429
    assert client.post("/games", json=KAHUNA, environ_base=BEN).status_code == 201


def test_commands_beyond_the_limit_are_429_rate_limited(limited: Any) -> None:
    client = limited(RATE_LIMIT_COMMANDS="2 per hour").test_client()
    game = create_game(client)
    draw = {"type": "DrawCard", "source": "stack"}
    answers = [post(client, game, 1, draw).status_code for _ in range(3)]
    assert answers[:2] == [409, 409], "Ben may not move yet, but the requests count"
    assert answers[2] == 429


def test_every_other_request_has_the_default_limit(limited: Any) -> None:
    client = limited(RATE_LIMIT_DEFAULT="3 per hour").test_client()
    assert [client.get("/health").status_code for _ in range(4)] == [200, 200, 200, 429]
    refused = client.get("/health")
    assert refused.json["code"] == "rate_limited" and int(refused.headers["Retry-After"]) >= 1


def test_an_app_without_limits_leaves_another_apps_limits_on(limited: Any) -> None:
    client = limited(RATE_LIMIT_CREATE="1 per hour").test_client()
    limited(RATE_LIMITS_ENABLED=False)  # e.g. a second app in the same process, limits off
    assert client.post("/games", json=KAHUNA, environ_base=ANN).status_code == 201
    assert client.post("/games", json=KAHUNA, environ_base=ANN).status_code == 429


def test_the_openapi_document_names_the_429_of_the_limited_endpoints(limited: Any) -> None:
    document = limited().test_client().get("/openapi.json").json
    for path in ("/games", "/games/{game_id}/commands"):
        named = document["paths"][path]["post"]["responses"]["429"]["$ref"].rsplit("/", 1)[1]
        answer = document["components"]["responses"][named]
        assert set(answer["content"]) == {"application/problem+json"}, path
        assert "Retry-After" in answer["headers"], path


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_allowance(limited: Any) -> None:
    client = limited(RATE_LIMIT_CREATE="1 per hour", FORWARDED_ALLOW_IPS="10.0.0.5").test_client()
    proxy = {"REMOTE_ADDR": "10.0.0.5"}

    def create(forwarded_for: str) -> int:
        headers = {"X-Forwarded-For": forwarded_for}
        return client.post("/games", json=KAHUNA, environ_base=proxy, headers=headers).status_code

    assert create("198.51.100.7") == 201
    assert create("198.51.100.7") == 429
    assert create("198.51.100.8") == 201
    assert create("203.0.113.9, 198.51.100.8") == 429, "the address the trusted proxy saw counts"


def test_a_forwarded_for_header_from_an_untrusted_peer_changes_nothing(limited: Any) -> None:
    client = limited(RATE_LIMIT_CREATE="1 per hour", FORWARDED_ALLOW_IPS="10.0.0.5").test_client()
    spoof = {"X-Forwarded-For": "198.51.100.9"}
    assert client.post("/games", json=KAHUNA, environ_base=ANN).status_code == 201
    assert client.post("/games", json=KAHUNA, environ_base=ANN, headers=spoof).status_code == 429


def test_an_app_configured_by_the_environment_counts_in_the_services_redis(
    limited: Any, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As under `make run`: gunicorn's workers share their counts through the service's Redis."""
    monkeypatch.delenv("ARCHIPELAGO_RATE_LIMITS", raising=False)
    app = create_app({"TESTING": True})  # REDIS_URL from the environment only
    try:
        assert app.test_client().get("/health").status_code == 200
        assert redis_client.keys("*LIMITER/archipelago/*"), "the count is in Redis"
    finally:
        app.extensions[EXTENSION].redis.close()
