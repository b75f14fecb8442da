"""A tournament's bearer tokens: the organizer's and one per entrant, kept only as sha256 hashes.

An entrant's seat token in a game of the tournament is derived from its entrant token
(HMAC-SHA256 of the game and seat under the entrant token): only the holder of the entrant
token can present it, the service stores only its hash, like every seat token, and asking
again (GET /tournaments/{id}/me) gives the same token, not a new one that would lock out a
client still holding the first.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

import redis
from redis.cluster import RedisCluster

from service.keys import SINGLE, TOURNAMENT, Layout, layout_of
from service.seats import digest, seats_key


def organizer_key(tournament_id: str, layout: Layout = SINGLE) -> str:
    return layout.key(TOURNAMENT, tournament_id, "organizer")


def entrants_key(tournament_id: str, layout: Layout = SINGLE) -> str:
    """Hash entrant id -> the digest of its token."""
    return layout.key(TOURNAMENT, tournament_id, "entrants")


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


class TournamentTokens:
    """Issues the organizer's and the entrants' tokens and tells whose a presented token is."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self._redis = client
        self._layout = layout_of(client)

    def issue_organizer(self, tournament_id: str) -> str:
        token = secrets.token_urlsafe(32)
        self._redis.set(organizer_key(tournament_id, self._layout), digest(token))
        return token

    def is_organizer(self, tournament_id: str, token: str) -> bool:
        stored = self._redis.get(organizer_key(tournament_id, self._layout))
        return stored is not None and hmac.compare_digest(_text(stored), digest(token))

    def issue_entrant(self, tournament_id: str, entrant_id: str) -> str:
        """A new token for the entrant; a former one stops working."""
        token = secrets.token_urlsafe(32)
        self._redis.hset(entrants_key(tournament_id, self._layout), entrant_id, digest(token))
        return token

    def entrant_of(self, tournament_id: str, token: str) -> str | None:
        """The entrant whose token this is, or None."""
        presented = digest(token)
        for entrant, stored in self._redis.hgetall(entrants_key(tournament_id, self._layout)).items():
            if hmac.compare_digest(_text(stored), presented):
                return _text(entrant)
        return None

    def seat_token(self, entrant_token: str, game_id: str, seat: int) -> str:
        """The entrant's token for `seat` of `game_id`, now valid in that game."""
        mac = hmac.new(entrant_token.encode(), f"{game_id}\0{seat}".encode(), hashlib.sha256)
        token = base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")
        self._redis.hset(seats_key(game_id, self._layout), str(seat), digest(token))
        return token
