"""The cap on open games with computer seats, per client address and overall.

Every move of a computer seat is work for the "ai" queue, so the number of games that can
ask for such moves is bounded. A game counts from its creation until it ends (by its rules,
or at once when a seat resigns or aborts it: docs/finishing.md), or until it has waited IDLE
seconds without any append (an abandoned game asks the worker for
nothing). The counts live in sorted sets (game -> time of its last append) on RQ's Redis,
beside the queue they protect, so they survive restarts of the app and the worker; one
Lua script checks both caps and reserves the place, so concurrent creations never
overshoot.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import redis

from service.errors import ServiceError

# One hash tag: the script touches several of these keys (RQ's Redis is never a cluster, but
# nothing here should stop one).
OPEN = "{ai-games}:open"
OWNERS = "{ai-games}:owners"
CLIENT_PREFIX = "{ai-games}:client:"

_RESERVE = """
local open, mine, owners = KEYS[1], KEYS[2], KEYS[3]
local game, client, now, before = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
for _, idle in ipairs(redis.call('ZRANGEBYSCORE', open, '-inf', before)) do
  redis.call('HDEL', owners, idle)
end
redis.call('ZREMRANGEBYSCORE', open, '-inf', before)
redis.call('ZREMRANGEBYSCORE', mine, '-inf', before)
if redis.call('ZCARD', mine) >= tonumber(ARGV[5]) then return 1 end
if redis.call('ZCARD', open) >= tonumber(ARGV[6]) then return 2 end
redis.call('ZADD', open, now, game)
redis.call('ZADD', mine, now, game)
redis.call('HSET', owners, game, client)
return 0
"""
# Only a game still counted is touched or released: an idle one that was pruned does not
# come back (it may not be refused any more, having been created).
_TOUCH = """
local client = redis.call('HGET', KEYS[2], ARGV[1])
if not client then return 0 end
redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1])
redis.call('ZADD', ARGV[3] .. client, 'XX', ARGV[2], ARGV[1])
return 1
"""
_RELEASE = """
local client = redis.call('HGET', KEYS[2], ARGV[1])
if not client then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', ARGV[2] .. client, ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""


class TooManyAiGames(ServiceError):
    """A new game with computer seats would exceed a cap (429)."""

    def __init__(self, message: str) -> None:
        super().__init__("too_many_ai_games", message)


@dataclass(frozen=True)
class AiGameLimits:
    per_client: int = 4
    overall: int = 100
    idle_seconds: float = 1800.0


#: Environment variable -> field of AiGameLimits; create_app's config names are the upper-case fields.
ENVIRONMENT: Mapping[str, str] = {
    "ARCHIPELAGO_AI_GAMES_PER_CLIENT": "per_client",
    "ARCHIPELAGO_AI_GAMES_OVERALL": "overall",
    "ARCHIPELAGO_AI_GAMES_IDLE_SECONDS": "idle_seconds",
}


def limits_from(
    environ: Mapping[str, str] | None = None, config: Mapping[str, Any] | None = None
) -> AiGameLimits:
    """The limits: defaults, then the environment, then `config` (AI_GAMES_PER_CLIENT, ...)."""
    env = os.environ if environ is None else environ
    fields: dict[str, Any] = {f: env[name] for name, f in ENVIRONMENT.items() if env.get(name)}
    for f in ENVIRONMENT.values():
        if (config or {}).get(f"AI_GAMES_{f.upper()}") is not None:
            fields[f] = (config or {})[f"AI_GAMES_{f.upper()}"]
    default = AiGameLimits()
    return AiGameLimits(
        per_client=int(fields.get("per_client", default.per_client)),
        overall=int(fields.get("overall", default.overall)),
        idle_seconds=float(fields.get("idle_seconds", default.idle_seconds)),
    )


def has_computer(setup: Mapping[str, Any]) -> bool:
    return any(isinstance(seat, Mapping) and seat.get("ai") for seat in setup.get("seats", ()))


class OpenAiGames:
    """Reserves a place for a new game with computer seats; frees it when the game ends."""

    def __init__(
        self,
        connection: redis.Redis,
        limits: AiGameLimits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.connection = connection
        self.limits = limits or AiGameLimits()
        self.clock = clock
        self._reserve = connection.register_script(_RESERVE)
        self._touch = connection.register_script(_TOUCH)
        self._release = connection.register_script(_RELEASE)

    def reserve(self, game_id: str, client: str) -> None:
        """Count `game_id` for `client`, or raise TooManyAiGames (nothing reserved then)."""
        now = self.clock()
        limits = self.limits
        keys = [OPEN, CLIENT_PREFIX + client, OWNERS]
        args: list[str | float] = [
            game_id,
            client,
            now,
            now - limits.idle_seconds,
            limits.per_client,
            limits.overall,
        ]
        refused = int(self._reserve(keys=keys, args=args))
        if refused == 1:
            raise TooManyAiGames(
                f"this address has {limits.per_client} unfinished games against the computer; "
                "finish, resign or abort one first (or leave it idle for a while)"
            )
        if refused == 2:
            raise TooManyAiGames(
                f"the service already runs {limits.overall} unfinished games against the computer; "
                "try again later"
            )

    def touch(self, game_id: str) -> None:
        """The game moved: it counts for another IDLE seconds."""
        self._touch(keys=[OPEN, OWNERS], args=[game_id, self.clock(), CLIENT_PREFIX])

    def release(self, game_id: str) -> None:
        """The game ended: its place is free."""
        self._release(keys=[OPEN, OWNERS], args=[game_id, CLIENT_PREFIX])

    def count(self, client: str | None = None) -> int:
        """Games counted now, for `client` or overall (idle ones the next reservation prunes)."""
        key = OPEN if client is None else CLIENT_PREFIX + client
        return int(self.connection.zcount(key, self.clock() - self.limits.idle_seconds, "+inf"))
