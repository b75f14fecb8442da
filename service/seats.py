"""Seat tokens: random bearer secrets handed out once, kept only as sha256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

import redis


def seats_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:seats"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class SeatTokens:
    """Issues one token per seat and tells which seat a presented token belongs to."""

    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def issue(self, game_id: str, seats: int) -> list[str]:
        """New tokens for seats 0..seats-1; only their hashes are stored."""
        tokens = [secrets.token_urlsafe(32) for _ in range(seats)]
        digests = {str(seat): _digest(token) for seat, token in enumerate(tokens)}
        self._redis.hset(seats_key(game_id), mapping=digests)
        return tokens

    def seat_of(self, game_id: str, token: str) -> int | None:
        """The seat whose token this is, or None."""
        presented = _digest(token)
        stored = self._redis.hgetall(seats_key(game_id))
        for seat, digest in stored.items():
            digest_text = digest.decode() if isinstance(digest, bytes) else digest
            if hmac.compare_digest(digest_text, presented):
                return int(seat)
        return None
