"""`python -m bench store` also times a load of a stored 300-event Kahuna game through
GameService.load with an empty cache (read + chain check + fold), in wall and CPU time; no speed
is asserted."""

from __future__ import annotations

import redis

from bench import store
from service.store import EventStore


def test_a_stored_game_of_fold_events_is_loaded_whole_and_timed(redis_client: redis.Redis) -> None:
    timed = store.fold_cost(EventStore(redis_client), redis_client, repeats=3)

    assert timed.events == store.FOLD_EVENTS
    assert timed.folded_version == store.FOLD_EVENTS
    assert timed.read_ms > 0 and timed.load_ms > 0 and timed.load_cpu_ms > 0
