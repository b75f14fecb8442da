"""The flood replay runs end to end (its figure is read by people, never asserted)."""

from __future__ import annotations

import re

import pytest
import redis

from bench.flood import _run
from service.embedded_redis import EmbeddedRedis


def test_the_flood_replay_admits_four_games_and_times_the_other_move(
    redis_server: EmbeddedRedis, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {
        "REDIS_URL": redis_server.url,
        "RQ_REDIS_URL": redis_server.url,
        "ARCHIPELAGO_RATE_LIMITS": "off",
        "ARCHIPELAGO_AI_SECONDS": "1=0.01,5=0.05",
        "ARCHIPELAGO_AI_SLICE_SECONDS": "0.01",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("ARCHIPELAGO_AI_MAX_ITERATIONS", raising=False)
    line = _run(redis_server.url, 6)
    assert line.startswith("4 of 6 flood games admitted, 2 refused;")
    assert re.search(r"first move done after \d+\.\d\d s$", line), line
