"""Whether a game is an imported record (read-only), asked of Redis once per game in play.

An import writes the game's events and its archive header in one script, and only under an id
that holds nothing yet; nothing removes a header. So a game seen with events and, after that,
without a header is in play for good: each process remembers so and asks no more.
"""

from __future__ import annotations

import threading

import redis
from redis.cluster import RedisCluster

from service.keys import Layout
from service.store import archive_key, stream_key

REMEMBERED = 65536
"""Games in play remembered; past that the memory starts afresh (a round trip each, once more)."""


class ArchivedGames:
    def __init__(self, client: redis.Redis | RedisCluster, layout: Layout) -> None:
        self._redis = client
        self._layout = layout
        self._in_play: set[str] = set()
        self._lock = threading.Lock()

    def holds(self, game_id: str) -> bool:
        """Whether `game_id` is an imported game."""
        if game_id in self._in_play:
            return False
        pipe = self._redis.pipeline(transaction=False)
        # In this order: events seen first, then no header, means no import can come.
        pipe.exists(stream_key(game_id, layout=self._layout))
        pipe.exists(archive_key(game_id, self._layout))
        events, header = pipe.execute()
        if events and not header:
            with self._lock:
                if len(self._in_play) >= REMEMBERED:
                    self._in_play.clear()
                self._in_play.add(game_id)
        return bool(header)
