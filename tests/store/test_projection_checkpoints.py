"""The ratings projection keeps one checkpoint per all-events stream: on a cluster it reads every
bucket's stream once, and a projection stored with the one-number checkpoint of a single Redis
keeps reading from where it was."""

from __future__ import annotations

import json
from typing import Any

import redis
from redis.cluster import RedisCluster

from service.keys import CLUSTER, TOURNAMENT
from service.ratings_projection import KEY, RatingsProjection
from service.store import EventStore, NewEvent

ANN = "p00000000000000a1"
"""Ann's player id: she is one player in every tournament."""


def _tournament(store: EventStore, tournament_id: str, names: tuple[str, str]) -> None:
    """A rated kahuna tournament with two entrants and no result yet: three events. Ann
    registers as her player; anyone else is a one-off player."""
    store.append(
        tournament_id,
        0,
        [
            NewEvent(f"{tournament_id}:0", "TournamentCreated", {"game": "kahuna", "rated": True}),
            *(
                NewEvent(
                    f"{tournament_id}:{i}",
                    "EntrantRegistered",
                    {
                        "entrant": f"e{i}",
                        "kind": "person",
                        "name": n,
                        **({"player": ANN} if n == "Ann" else {}),
                    },
                )
                for i, n in enumerate(names, start=1)
            ),
        ],
    )


def _result(store: EventStore, tournament_id: str, game_id: str, places: list[int]) -> None:
    data = {"game_id": game_id, "seats": ["e1", "e2"], "places": places}
    store.append(
        tournament_id, store.version(tournament_id), [NewEvent(f"r:{game_id}", "ResultRecorded", data)]
    )


def _ratings(projection: RatingsProjection) -> dict[str, Any]:
    return {p["player"]: (p["mu"], p["games"]) for p in projection.ratings("kahuna")[1]}


def test_a_projection_stored_with_a_single_redis_checkpoint_reads_on_from_it(
    redis_client: redis.Redis,
) -> None:
    store = EventStore(redis_client, kind=TOURNAMENT)
    _tournament(store, "t1", ("Ann", "Ben"))
    _result(store, "t1", "g1", [1, 2])
    projection = RatingsProjection(redis_client, store)
    assert projection.update() == 4
    doc = json.loads(redis_client.get(KEY))
    del doc["streams"]  # as the projection stored it before there were several streams
    redis_client.set(KEY, json.dumps(doc))

    _result(store, "t1", "g2", [2, 1])

    assert projection.update() == 1, "only the new result is read"
    resumed = _ratings(projection)
    redis_client.delete(KEY)
    assert projection.update() == 5
    assert resumed == _ratings(projection) and resumed[ANN][1] == 2


def test_on_a_cluster_the_ratings_read_every_bucket_once(cluster_client: RedisCluster) -> None:
    store = EventStore(cluster_client, kind=TOURNAMENT)
    tournaments = [f"t{i}" for i in range(6)]
    assert len({CLUSTER.bucket(t) for t in tournaments}) == len(tournaments), "one bucket each"
    for index, tournament_id in enumerate(tournaments):
        _tournament(store, tournament_id, ("Ann", f"Rival {index}"))
        _result(store, tournament_id, f"g{index}", [1, 2])
    projection = RatingsProjection(cluster_client, store)

    assert projection.update() == 4 * len(tournaments)
    assert projection.update() == 0, "a second pass reads nothing again"
    _result(store, "t3", "g-late", [2, 1])
    assert projection.update() == 1
    checkpoint, players = projection.ratings("kahuna")
    assert checkpoint == 4 * len(tournaments) + 1
    assert {p["player"]: p["games"] for p in players}[ANN] == len(tournaments) + 1
