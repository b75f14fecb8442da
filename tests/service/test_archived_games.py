"""An imported game is read-only; a game in play is asked about once, then remembered."""

from __future__ import annotations

import redis

from service.archived_games import ArchivedGames
from service.keys import SINGLE
from service.store import archive_key, stream_key


def write_events(client: redis.Redis, game_id: str) -> None:
    client.xadd(stream_key(game_id), {"version": "1"}, id="0-1")


def test_an_imported_game_is_archived_every_time(redis_client: redis.Redis) -> None:
    write_events(redis_client, "imported")
    redis_client.set(archive_key("imported"), "{}")
    games = ArchivedGames(redis_client, SINGLE)
    assert games.holds("imported")
    assert games.holds("imported")


def test_a_game_in_play_is_remembered_as_such(redis_client: redis.Redis) -> None:
    write_events(redis_client, "played")
    games = ArchivedGames(redis_client, SINGLE)
    assert not games.holds("played")
    # No import can write a header under a game that has events; were one there, this process
    # would not ask again.
    redis_client.set(archive_key("played"), "{}")
    assert not games.holds("played")
    assert ArchivedGames(redis_client, SINGLE).holds("played")


def test_a_game_without_events_is_asked_about_again(redis_client: redis.Redis) -> None:
    games = ArchivedGames(redis_client, SINGLE)
    assert not games.holds("later")
    write_events(redis_client, "later")  # imported after the first question
    redis_client.set(archive_key("later"), "{}")
    assert games.holds("later")
