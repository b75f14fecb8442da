"""Writes Redis refuses, named: a full store, a read-only one, one still loading, one out of reach.

Redis refuses a write without running it when its memory is at `maxmemory` (OOM), when it
cannot persist (MISCONF: a failed AOF write, a full disk, a failed background save), when it
is a replica (READONLY) or lacks the replicas it must write to (NOREPLICAS), and while it
loads its data (LOADING). Each passes by itself once the condition is cleared, so the
service answers 503 with Retry-After and carries on.

Inside a Lua script (Redis 6.2) the first write of the script is refused the same way, and
the script's error quotes Redis's: the append checks everything before its first write, so a
refused append has written nothing.
"""

from __future__ import annotations

from enum import StrEnum

import redis

OK = "ok"


class StoreState(StrEnum):
    """Why the store refuses: the `store` member of a 503 and of /health."""

    FULL = "full"
    READ_ONLY = "read_only"
    LOADING = "loading"
    UNREACHABLE = "unreachable"


RETRY_AFTER_SECONDS: dict[StoreState, int] = {
    # Someone has to free memory or disk: no point in asking again at once.
    StoreState.FULL: 30,
    StoreState.READ_ONLY: 10,
    StoreState.LOADING: 5,
    StoreState.UNREACHABLE: 5,
}

_RETRY = "; try again after Retry-After seconds, a command with the same Idempotency-Key"
DETAILS: dict[StoreState, str] = {
    StoreState.FULL: "the game store is full (memory or disk) and refuses writes" + _RETRY,
    StoreState.READ_ONLY: "the game store is read-only now (a replica)" + _RETRY,
    StoreState.LOADING: "the game store is loading its data" + _RETRY,
    StoreState.UNREACHABLE: "the game store is unavailable" + _RETRY,
}

# Redis's error prefixes, as a client gets them or as a script's error quotes them.
_PREFIXES: tuple[tuple[str, StoreState], ...] = (
    ("OOM ", StoreState.FULL),
    ("MISCONF ", StoreState.FULL),
    ("READONLY ", StoreState.READ_ONLY),
    # min-replicas-to-write unmet: reads served, writes refused, as on a replica.
    ("NOREPLICAS ", StoreState.READ_ONLY),
    ("LOADING ", StoreState.LOADING),
    # A replica cut off from its primary with replica-serve-stale-data no: nothing served.
    ("MASTERDOWN ", StoreState.UNREACHABLE),
)
_QUOTED = tuple((f"-{prefix}", state) for prefix, state in _PREFIXES)


def refusal(error: BaseException) -> StoreState | None:
    """What the store's state is when it answered with `error`; None for an error that is no
    refusal (a wrong type, a script's bug): that one is the service's own fault."""
    if isinstance(error, redis.exceptions.BusyLoadingError):
        return StoreState.LOADING
    if isinstance(error, redis.exceptions.OutOfMemoryError):
        return StoreState.FULL
    if isinstance(error, redis.exceptions.ReadOnlyError):
        return StoreState.READ_ONLY
    if isinstance(error, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        return StoreState.UNREACHABLE
    if isinstance(error, redis.exceptions.ClusterError | redis.exceptions.TryAgainError):
        return StoreState.UNREACHABLE  # a cluster that fails over or moves a slot: a retry will do
    if isinstance(error, redis.exceptions.ResponseError):
        return _named(str(error))
    return None


def _named(message: str) -> StoreState | None:
    """The state a refusal's message names: at its start (redis-py strips the error's own
    prefix only for the errors it knows, and a pipeline prepends the command) or quoted by a
    script's error (`... @user_script: 1: -OOM command not allowed ...`)."""
    for prefix, state in _PREFIXES:
        if message.startswith(prefix):
            return state
    for quoted, state in _QUOTED:
        if quoted in message:
            return state
    if "command not allowed when used memory" in message:
        return StoreState.FULL
    if "Errors writing to the AOF file" in message or "unable to persist to disk" in message:
        return StoreState.FULL
    if "can't write against a read only replica" in message:
        return StoreState.READ_ONLY
    return None


PROBE_KEY = "archipelago:health:probe"


def probe(client: redis.Redis | redis.RedisCluster) -> str:
    """ "ok" when the store takes a write now; "full" or "read_only" when it answers but refuses
    writes. The error of a store loading or out of reach (or of no refusal at all) is raised.

    A real (tiny, expiring) write: only a write meets every refusal, and MISCONF refuses
    even PING.
    """
    try:
        client.set(PROBE_KEY, b"1", px=10_000)
    except redis.exceptions.RedisError as error:
        state = refusal(error)
        if state in (StoreState.FULL, StoreState.READ_ONLY):
            return str(state.value)
        raise
    return OK
