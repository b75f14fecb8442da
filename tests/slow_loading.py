"""A Redis data dir that takes seconds to load, for the tests of what happens meanwhile.

Its append-only file starts with an RDB preamble of incompressible values, and the server
is started with Redis's `key-load-delay` (microseconds of sleep per key loaded). A loading
Redis answers clients only every 2 MB it reads (`LOADING` to most commands, INFO in full),
so `cycle` seconds pass between two answers and the whole load takes `seconds`.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import redis

from service.embedded_redis import DEFAULT_CONF, start_redis

VALUE_BYTES = 20_000
CHUNK_BYTES = 2 * 1024 * 1024  # Redis 6.2's loading-process-events-interval-bytes


def slow_loading_data(data_dir: Path, seconds: float, cycle: float = 0.5) -> list[str]:
    """Fill `data_dir` so that a Redis started with `key_load_delay(cycle)` loads it in about
    `seconds`; the redis-server arguments that do so."""
    keys = int(seconds / cycle * CHUNK_BYTES / VALUE_BYTES)
    # No rewrite of Redis's own: the data written here outgrows its default auto-aof-rewrite
    # size (64 MB), and a rewrite it started would make the one asked for below refused.
    server = start_redis(data_dir, extra_args=["--auto-aof-rewrite-percentage", "0"])
    client = redis.Redis(port=server.port)
    try:
        pipe = client.pipeline(transaction=False)
        for n in range(keys):
            pipe.set(f"filler:{n}", os.urandom(VALUE_BYTES))
        pipe.execute()
        client.bgrewriteaof()  # the preamble: loaded as an RDB, where the delay applies
        while _rewriting(client):
            time.sleep(0.05)
    finally:
        client.close()
        server.stop()
    return ["--key-load-delay", str(key_load_delay(cycle))]


def key_load_delay(cycle: float) -> int:
    """Microseconds per key for one answer every `cycle` seconds."""
    return int(cycle * 1e6 * VALUE_BYTES / CHUNK_BYTES)


def slow_loading_conf(path: Path, cycle: float = 0.5) -> Path:
    """deploy/redis.conf plus the delay, as a redis.conf of its own at `path`."""
    path.write_text(DEFAULT_CONF.read_text() + f"\nkey-load-delay {key_load_delay(cycle)}\n")
    return path


def _rewriting(client: redis.Redis) -> bool:
    info = client.info("persistence")
    return bool(info["aof_rewrite_in_progress"] or info["aof_rewrite_scheduled"])
