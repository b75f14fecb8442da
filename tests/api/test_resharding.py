"""Resharding the cluster while games are played loses nothing: the slots of the games' buckets
move from primary to primary (CLUSTER SETSLOT IMPORTING/MIGRATING, MIGRATE, SETSLOT NODE) while
players post commands and a worker scores rounds, and every game checks out afterwards."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask import Flask
from redis.cluster import RedisCluster, key_slot

from service.app import create_app
from service.embedded_cluster import EmbeddedCluster
from service.keys import CLUSTER, GAME
from service.store import EventStore
from tests.api.game_checks import check_stored_game, fresh_view
from tests.api.helpers import create_game, play, view

PLAYERS = 3
GAMES_EACH = 2


@pytest.fixture
def store_backend() -> str:
    return "cluster"


def test_moving_slots_while_games_are_played_loses_nothing(
    app: Flask,
    redis_cluster: EmbeddedCluster,
    events_client: RedisCluster,
    redis_client: redis.Redis,
    run_worker: Callable[[], None],
) -> None:
    starter = app.test_client()
    games = [create_game(starter) for _ in range(PLAYERS * GAMES_EACH)]
    slots = sorted({key_slot(CLUSTER.all_stream(GAME, g["game_id"]).encode()) for g in games})
    finals: dict[str, dict[str, Any]] = {}
    failures: list[BaseException] = []

    def player(mine: list[dict[str, Any]], seed: int) -> None:
        client = app.test_client()
        try:
            for game in mine:
                # RQ's worker needs the main thread (signals): there it scores between two moves.
                finals[game["game_id"]] = play(client, game, random.Random(seed), lambda: time.sleep(0.01))
        except BaseException as error:  # reported by the test's thread
            failures.append(error)

    threads = [
        threading.Thread(target=player, args=(games[i::PLAYERS], i), daemon=True) for i in range(PLAYERS)
    ]
    for thread in threads:
        thread.start()
    moves = moved_keys = 0
    while any(thread.is_alive() for thread in threads):
        slot = slots[moves % len(slots)]
        owner = redis_cluster.owner(slot)
        target = redis_cluster.nodes[(redis_cluster.nodes.index(owner) + 1) % len(redis_cluster.nodes)]
        # One key a MIGRATE: a script then meets its slot half moved (TRYAGAIN, ASK) as well.
        moved_keys += redis_cluster.move_slot(slot, target, batch=1)
        moves += 1
        run_worker()
    for thread in threads:
        thread.join()

    assert failures == []
    assert moves >= 2 * len(slots) and moved_keys > 0, (moves, moved_keys)
    fresh = create_app(
        {"REDIS_CLUSTER_URL": redis_cluster.url, "TESTING": True, "RATE_LIMITS_ENABLED": False}
    )
    store = EventStore(events_client)
    for game in games:
        game_id = game["game_id"]
        check_stored_game(store, game_id, finals[game_id])
        assert fresh_view(fresh.test_client(), game_id) == view(starter, game) == finals[game_id]
