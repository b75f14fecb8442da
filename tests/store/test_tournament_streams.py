"""Tournament streams beside game streams: same append script and chain, their own keys and
their own global stream, so a reader of `events:$all` never takes a tournament id for a game."""

from __future__ import annotations

import redis

from service.store import (
    GLOBAL_STREAM,
    GLOBAL_STREAMS,
    TOURNAMENT,
    EventStore,
    NewEvent,
    event_ids_key,
    stream_key,
    verify_chain,
)


def test_tournament_keys_share_the_tournament_hash_tag() -> None:
    keys = (stream_key("t1", TOURNAMENT), event_ids_key("t1", TOURNAMENT))
    assert keys == ("tournament:{t1}:events", "tournament:{t1}:event_ids")


def test_a_tournament_stream_is_chained_and_points_into_its_own_global_stream(
    redis_client: redis.Redis,
) -> None:
    games, tournaments = EventStore(redis_client), EventStore(redis_client, kind=TOURNAMENT)
    games.append("same-id", 0, [NewEvent("g:0", "GameCreated", {})])
    tournaments.append("same-id", 0, [NewEvent("t:0", "TournamentCreated", {}), NewEvent("t:1", "X", {})])

    assert redis_client.xlen(stream_key("same-id", TOURNAMENT)) == 2
    assert [e.type for e in games.read("same-id")] == ["GameCreated"]
    stored = tournaments.read("same-id")
    assert [e.type for e in stored] == ["TournamentCreated", "X"] and verify_chain(stored) is None
    assert redis_client.xlen(GLOBAL_STREAM) == 1, "game projections see no tournament event"
    assert tournaments.read_all() == [(1, "same-id", 1), (2, "same-id", 2)]
    assert redis_client.xlen(GLOBAL_STREAMS[TOURNAMENT]) == 2
