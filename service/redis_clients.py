"""Redis clients that give up: a stalled Redis costs a request a few seconds and a 503, never a
hung thread.

Every command waits at most ARCHIPELAGO_REDIS_TIMEOUT_SECONDS (default 2) for its answer, and
is tried once more on a timeout or a broken connection. A command whose answer was lost may
still have run (a paused Redis runs what it had received once it resumes): the event store's
append recognises its retry by the events' ids, and a client resends a command with the same
Idempotency-Key.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.retry import Retry

from service.redis_readiness import ReplyParser

TIMEOUT_SECONDS = 2.0
RETRIES = 1


def timeout_seconds(environ: Mapping[str, str] | None = None) -> float:
    """How long a command waits for Redis: ARCHIPELAGO_REDIS_TIMEOUT_SECONDS, else TIMEOUT_SECONDS."""
    env = os.environ if environ is None else environ
    return float(env.get("ARCHIPELAGO_REDIS_TIMEOUT_SECONDS") or TIMEOUT_SECONDS)


def options(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The keyword arguments of a redis-py client (or a rate-limit storage) with these limits."""
    timeout = timeout_seconds(environ)
    return {
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        "retry": Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), RETRIES),
        "parser_class": ReplyParser,
    }


def connect(url: str, environ: Mapping[str, str] | None = None) -> redis.Redis:
    """A client for `url` (bytes replies) whose commands time out as the module says."""
    return redis.Redis.from_url(url, **options(environ))
