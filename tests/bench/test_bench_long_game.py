"""The long-game benchmark plays one seeded Conquest of Paradise game through the app and times
its commands window by window, beside the game's version."""

from __future__ import annotations

import random

import pytest
import redis

from bench import long_game
from service.embedded_redis import EmbeddedRedis


def test_bench_long_game_times_each_window_of_commands_beside_the_version(
    redis_server: EmbeddedRedis, redis_client: redis.Redis, capsys: pytest.CaptureFixture[str]
) -> None:
    app = long_game.app_on(redis_server.url, 3)

    windows = long_game.play(app.test_client(), random.Random(3), 20, 60)

    assert [done for done, _, _ in windows] == [20, 40, 60]
    versions = [version for _, version, _ in windows]
    assert versions == sorted(versions) and versions[0] > 20, "each command adds one event or more"
    assert all(ms > 0 for _, _, ms in windows)
    figures = long_game.report(windows)
    assert [f.unit for f in figures] == ["ms", "ms", "ratio"]
    assert figures[2].value == pytest.approx(windows[-1][2] / windows[0][2])
    assert "commands 41-60 (version" in capsys.readouterr().out
