"""A seat's requests look its token up in the round trip that reads the game's new events: a view
and the legal commands cost one round trip, a command one less than before, with the same
answers as a separate lookup and read give."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import redis.client
from flask.testing import FlaskClient

from record.envelope import NewEvent
from service import read_ahead
from service.store import EventStore
from tests.api.helpers import bearer, create_game, legal_commands, post, view

Trips = list[list[str]]


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[Trips]:
    """The commands of each round trip to Redis the app makes, in order."""
    seen: Trips = []
    single, batch = redis.client.Redis.execute_command, redis.client.Pipeline.execute

    def one(self: Any, *args: Any, **options: Any) -> Any:
        seen.append([str(args[0]).upper()])
        return single(self, *args, **options)

    def many(self: Any, raise_on_error: bool = True) -> Any:
        seen.append([str(c[0][0]).upper() for c in self.command_stack])
        return batch(self, raise_on_error)

    monkeypatch.setattr(redis.client.Redis, "execute_command", one)
    monkeypatch.setattr(redis.client.Pipeline, "execute", many)
    yield seen


LOOKUP_AND_READ = ["HGETALL", "XRANGE", "HMGET"]


def test_a_seats_view_and_legal_commands_cost_one_round_trip_each(client: FlaskClient, trips: Trips) -> None:
    game = create_game(client)
    first = view(client, game, 0)  # the fold is cached from here on
    trips.clear()
    assert view(client, game, 0) == first
    assert trips == [LOOKUP_AND_READ]
    trips.clear()
    legal = legal_commands(client, game, 0)
    assert legal["commands"]
    assert trips == [LOOKUP_AND_READ]


def test_a_command_reads_its_game_in_the_round_trip_of_its_token(client: FlaskClient, trips: Trips) -> None:
    game = create_game(client)
    command = random.Random(1).choice(legal_commands(client, game, 0)["commands"])
    trips.clear()
    answer = post(client, game, 0, command)
    assert answer.status_code == 200, answer.json
    # (Whether the game is an imported record is asked once per game and process: not counted.)
    reads = [trip for trip in trips if {"HGETALL", "XRANGE"} & set(trip)]
    assert reads == [LOOKUP_AND_READ]
    assert view(client, game, 0)["version"] == answer.json["version"]


def test_an_unknown_token_and_a_missing_game_answer_as_before(client: FlaskClient) -> None:
    game = create_game(client)
    other = create_game(client)
    wrong = client.get(f"/games/{game['game_id']}", headers=bearer(other["tokens"][0]))
    assert wrong.status_code == 401 and wrong.json["code"] == "invalid_token"
    missing = client.get("/games/nosuchgame/legal", headers=bearer(game["tokens"][0]))
    assert missing.status_code == 404


def test_nothing_read_ahead_outlives_its_request(client: FlaskClient) -> None:
    game = create_game(client)
    view(client, game, 0)
    assert read_ahead._AHEAD.get() is None


def test_a_read_ahead_serves_only_its_own_store_game_and_start() -> None:
    store, other = object(), object()
    read_ahead.keep(store, "g1", 4, ["replies"])
    assert read_ahead.take(other, "g1", 4) is None
    assert read_ahead.take(store, "g1", 4) is None  # gone after the first read asked
    read_ahead.keep(store, "g1", 4, ["replies"])
    assert read_ahead.take(store, "g1", 3) is None
    read_ahead.keep(store, "g1", 4, ["replies"])
    assert read_ahead.take(store, "g2", 4) is None
    read_ahead.keep(store, "g1", 4, ["replies"])
    assert read_ahead.take(store, "g1", 4) == ["replies"]
    assert read_ahead.take(store, "g1", 4) is None


def test_a_store_read_with_the_replies_read_ahead_equals_a_read(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    created = NewEvent("e1", "GameCreated", {"game": "kahuna", "seats": []}, actor="organizer")
    store.append("ra1", 0, [created])
    pipe = redis_client.pipeline(transaction=False)
    store.queue_read(pipe, "ra1", 0)
    read_ahead.keep(store, "ra1", 0, pipe.execute())
    ahead = store.read("ra1")  # from the replies held
    assert read_ahead._AHEAD.get() is None
    assert ahead == store.read("ra1") and [e.type for e in ahead] == ["GameCreated"]
