"""The short form of `python -m bench growth`: the lobby and the listings do the same work with
2,000 stored games as with 100. Counted in Redis commands (INFO commandstats), not in seconds,
so that a busy machine cannot make it fail: a read that folded games or walked the all-events
stream would send more commands as the store grows."""

from __future__ import annotations

import random
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from domain.games import rules_for
from record.envelope import Envelope
from service.api.context import game_service
from service.game_files import store_imported
from service.games import GameService
from service.loading import fold_envelopes
from tests.replays.play import sealed_game, setup_of

READS = ("/", "/games?limit=30", "/games?game=kahuna&status=finished&limit=30", "/games?player=ann&limit=30")


def _commands(client: redis.Redis) -> int:
    """Commands the server has run so far, the INFO that asks left out."""
    stats = client.info("commandstats")
    return sum(int(v["calls"]) for name, v in stats.items() if name != "cmdstat_info")


def _work(client: FlaskClient, events: redis.Redis, path: str) -> int:
    """Redis commands one answer to GET `path` costs, after a first answer has warmed caches.

    The fewest of three: the server is the test session's, and a stream reader an earlier test
    left to its idle end may send its next XREAD in the middle of one of them; it never sends
    fewer than the answer itself does."""
    assert client.get(path).status_code == 200
    counts = []
    for _ in range(3):
        before = _commands(events)
        assert client.get(path).status_code == 200
        counts.append(_commands(events) - before)
    return min(counts)


def _grow(service: GameService, games: list[tuple[list[Envelope], Any]], ongoing: int, finished: int) -> None:
    """Store games in bulk, as `bench growth` does: `ongoing` copies of the first 20 events of a
    game (fast to store) and `finished` copies of the whole game, each listed as it is stored."""
    for count, (envelopes, state) in zip((ongoing, finished), games, strict=True):
        for _ in range(count):
            store_imported(service, f"g-{random.getrandbits(48):012x}", envelopes, state, "{}")


def test_the_lobby_and_the_listings_cost_the_same_with_2000_games_as_with_100(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    whole = sealed_game(random.Random(4), setup_of("kahuna"))
    games = [(e, fold_envelopes(rules_for("kahuna"), e)) for e in (whole[:20], whole)]
    with app.app_context():
        service = game_service()
        _grow(service, games, ongoing=70, finished=30)
        small = {path: _work(client, redis_client, path) for path in READS}
        _grow(service, games, ongoing=1700, finished=200)
        assert service.listings.listing.count() == 2000

    large = {path: _work(client, redis_client, path) for path in READS}

    assert large == small
    assert max(large.values()) <= 8, large
