"""The one-time move of a single Redis onto an empty cluster (service/migrate_to_cluster.py): every
game and tournament reads the same there, its chain holds, its tokens and idempotency keys still
work, a player's token too, play goes on, and a second move into the now full cluster is refused."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from redis.cluster import RedisCluster

from record.chain import verify_chain
from service.embedded_cluster import EmbeddedCluster
from service.embedded_redis import EmbeddedRedis
from service.keys import GAME, TOURNAMENT
from service.migrate_to_cluster import MigrationRefused, main, migrate
from service.store import EventStore
from tests.api.game_checks import fresh_client
from tests.api.helpers import bearer, create_game, events, legal_commands, play, post, view
from tests.api.tournament_helpers import create_tournament, register

NDJSON = "application/x-ndjson"


def _a_legal(client: FlaskClient, game: dict) -> tuple[int, dict]:
    """The active seat and its first legal command."""
    seat = view(client, game)["active"]
    return seat, legal_commands(client, game, seat)["commands"][0]


def _snapshot(client: FlaskClient, games: list[dict], tournament_id: str) -> dict[str, object]:
    """What readers see: each game's spectator view, its events for seat 0 (if it has seats), its
    annotations, and the tournament."""
    seen: dict[str, object] = {}
    for game in games:
        seen[game["game_id"]] = (
            view(client, game),
            events(client, game, 0 if game["tokens"] else None),
            client.get(f"/games/{game['game_id']}/annotations").json,
        )
    seen["tournament"] = client.get(f"/tournaments/{tournament_id}").json
    return seen


def test_a_single_redis_moves_onto_an_empty_cluster_and_reads_the_same_there(
    app: Flask,
    client: FlaskClient,
    run_worker: Callable[[], None],
    redis_server: EmbeddedRedis,
    redis_client: redis.Redis,
    redis_cluster: EmbeddedCluster,
    cluster_client: RedisCluster,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ended = create_game(client)
    play(client, ended, random.Random(2), run_worker)
    mark = {"version": 3, "kind": "mark", "mark": "!"}
    noted = client.post(
        f"/games/{ended['game_id']}/annotations", json=mark, headers=bearer(ended["tokens"][0])
    )
    assert noted.status_code == 201
    ongoing = create_game(client, game="arabana-ikibiti")
    seat, command = _a_legal(client, ongoing)
    first = post(client, ongoing, seat, command, **{"Idempotency-Key": "k1"})
    assert first.status_code == 200, first.json
    exported = client.get(f"/games/{ended['game_id']}/export").get_data()
    imported = client.post("/games/import", data=exported, content_type=NDJSON).json
    archived = {"game_id": imported["game_id"], "tokens": []}
    tournament = create_tournament(client, name="Moving Cup")
    register(client, tournament, name="Ann")
    bea = client.post("/players").json
    games = [ended, ongoing, archived]
    before = _snapshot(client, games, tournament["tournament_id"])

    moved = migrate(redis_client, cluster_client, batch=7)

    assert moved.streams == {GAME: 3, TOURNAMENT: 1} and moved.keys > 0
    assert moved.events[GAME] == sum(len(events(client, g)["events"]) for g in games)
    monkeypatch.setenv("REDIS_CLUSTER_URL", redis_cluster.url)
    with fresh_client(REDIS_CLUSTER_URL=redis_cluster.url, RQ_REDIS_URL=redis_server.url) as on_cluster:
        assert _snapshot(on_cluster, games, tournament["tournament_id"]) == before
        store = EventStore(cluster_client)
        for game in games:
            stored = store.read(game["game_id"])
            assert verify_chain(stored) is None
            pointers = [p for p in store.read_pointers() if p.game_id == game["game_id"]]
            assert [(p.version, p.position) for p in pointers] == [(e.version, e.position) for e in stored]
        listed = on_cluster.get("/").get_data(as_text=True)
        assert all(g["game_id"] in listed for g in games)

        retried = post(on_cluster, ongoing, seat, command, **{"Idempotency-Key": "k1"})
        assert retried.json == {**first.json, "duplicate": True}, "the idempotency key came along"
        going_on = post(on_cluster, ongoing, *_a_legal(on_cluster, ongoing))
        assert going_on.status_code == 200, going_on.json
        assert verify_chain(store.read(ongoing["game_id"])) is None

        as_bea = on_cluster.post(
            f"/tournaments/{tournament['tournament_id']}/entrants",
            json={"name": "Bea"},
            headers=bearer(bea["token"]),
        )
        assert (as_bea.status_code, as_bea.json["player"]) == (201, bea["player"]), "the player came along"

        with pytest.raises(MigrationRefused):
            migrate(redis_client, cluster_client)
        assert main(["--source", redis_server.url, "--target", redis_cluster.url]) == 1
