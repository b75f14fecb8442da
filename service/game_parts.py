"""What the rooms of the game service (service.game_creation, service.game_commands,
service.game_system) use of it, as a Protocol: they are handed the service and work through
these parts, so that they need not import service.games, which imports them."""

from __future__ import annotations

from typing import Any, Protocol

import redis
from redis.cluster import RedisCluster

from record.envelope import AppendResult, EventStorePort
from service.archived_games import ArchivedGames
from service.chance import Dice
from service.games_index import GamesIndex
from service.keys import Layout
from service.loaded import Loaded
from service.seats import SeatTokens


class GameParts(Protocol):
    store: EventStorePort
    redis: redis.Redis | RedisCluster
    layout: Layout
    tokens: SeatTokens
    scoring: Any
    tournaments: Any
    move_clock: Any
    ai: Any
    listings: GamesIndex
    archived: ArchivedGames
    dice: Dice

    def load(self, game_id: str, upto: int | None = None, fresh: bool = False) -> Loaded: ...

    def after_append(self, loaded: Loaded, result: AppendResult) -> Loaded: ...

    def follow_up(self, loaded: Loaded) -> None: ...

    def appended(self, game_id: str) -> None: ...
