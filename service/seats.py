"""Seat and organizer tokens: random bearer secrets handed out once, kept only as sha256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.typing import EncodableT, FieldT

from service.keys import GAME, SINGLE, Layout, layout_of


def seats_key(game_id: str, layout: Layout = SINGLE) -> str:
    return layout.key(GAME, game_id, "seats")


def organizer_key(game_id: str, layout: Layout = SINGLE) -> str:
    return layout.key(GAME, game_id, "organizer")


def digest(token: str) -> str:
    """What is stored of a token: its sha256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class SeatTokens:
    """Issues one token per seat (and one for a tournament game's organizer) and tells whose a
    presented token is."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self._redis = client
        self._layout = layout_of(client)

    def issue(self, game_id: str, seats: int) -> list[str]:
        """New tokens for seats 0..seats-1; only their hashes are stored."""
        tokens = [secrets.token_urlsafe(32) for _ in range(seats)]
        digests: dict[FieldT, EncodableT] = {str(seat): digest(token) for seat, token in enumerate(tokens)}
        self._redis.hset(seats_key(game_id, self._layout), mapping=digests)
        return tokens

    def reissue(self, game_id: str, seat: int) -> str:
        """A fresh token for `seat`, retiring the one before (a rematch's hand-over)."""
        token = secrets.token_urlsafe(32)
        self._redis.hset(seats_key(game_id, self._layout), str(seat), digest(token))
        return token

    def seat_of(self, game_id: str, token: str) -> int | None:
        """The seat whose token this is, or None."""
        return self.seat_in(self._redis.hgetall(seats_key(game_id, self._layout)), token)

    def shares_client(self, other: object) -> bool:
        """Whether `other` (an event store) talks to the Redis these tokens are kept in."""
        return getattr(other, "_client", None) is self._redis

    def pipeline(self) -> Any:
        """A pipeline (no transaction) of the tokens' client."""
        return self._redis.pipeline(transaction=False)

    def queue_lookup(self, pipe: Any, game_id: str) -> None:
        """Queue on `pipe` the read `seat_in` looks a token up in."""
        pipe.hgetall(seats_key(game_id, self._layout))

    @staticmethod
    def seat_in(stored: dict[Any, Any], token: str) -> int | None:
        """The seat whose token this is among the `stored` digests (the seats' hash), or None."""
        presented = digest(token)
        for seat, stored_digest in stored.items():
            digest_text = stored_digest.decode() if isinstance(stored_digest, bytes) else stored_digest
            if hmac.compare_digest(digest_text, presented):
                return int(seat)
        return None

    def issue_organizer(self, game_id: str) -> str:
        """A new organizer token for the game; only its hash is stored."""
        token = secrets.token_urlsafe(32)
        self._redis.set(organizer_key(game_id, self._layout), digest(token))
        return token

    def is_organizer(self, game_id: str, token: str) -> bool:
        """Whether `token` is the organizer token of the game (False when it has none)."""
        stored = self._redis.get(organizer_key(game_id, self._layout))
        if stored is None:
            return False
        digest_text = stored.decode() if isinstance(stored, bytes) else str(stored)
        return hmac.compare_digest(digest_text, digest(token))
