"""The growth benchmark stores games in bulk and times every answer it names at each size."""

from __future__ import annotations

import random

import pytest
import redis

from bench import growth
from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from service.wiring import build_service


def test_bench_growth_times_each_answer_at_each_size_and_the_memory_per_game(
    redis_server: EmbeddedRedis, redis_client: redis.Redis, capsys: pytest.CaptureFixture[str]
) -> None:
    service = build_service(redis_server.url, redis_server.url)
    app = create_app({"GAME_SERVICE": service, "TESTING": True, "RATE_LIMITS_ENABLED": False})

    figures = growth.measure(app, service, (5, 12), random.Random(2))

    assert service.listings.listing.count("status:finished") == 12
    assert len(figures) == 7 * 3 + 1
    assert all(figure.value > 0 for figure in figures)
    out = capsys.readouterr().out
    assert "N=12: stored 7 games" in out and "GET /tournaments/{id}/standings" in out
