"""Players: who a person's entrants are across tournaments, so that ratings rest on a key and
never on a name.

Until the service has accounts, a player is an id the service draws and a secret token the
person holds; `POST /players` hands both out, the token only then. The token reads
`<player id>.<secret>`: the id finds the one record to check, and the secret is kept only as
an HMAC-SHA256 under a salt of its own, so the stored value neither reveals the token nor
lets a leaked copy of Redis be searched for it in bulk. A seat's or an entrant's token never
holds a ".", so a presented token that does is a player's.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets

import redis
from redis.cluster import RedisCluster

from domain.tournament_rules import PLAYER_ID
from service.keys import PLAYER, SINGLE, Layout, layout_of

SEPARATOR = "."
SALT_BYTES = 16
ID_RETRIES = 5


def player_key(player_id: str, layout: Layout = SINGLE) -> str:
    """The JSON {salt, mac} of the player's secret."""
    return layout.key(PLAYER, player_id, "secret")


def is_player_token(token: str) -> bool:
    return SEPARATOR in token


def _mac(salt: bytes, secret: str) -> str:
    return hmac.new(salt, secret.encode("utf-8"), hashlib.sha256).hexdigest()


class Players:
    """Creates players and tells whose a presented player token is."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self._redis = client
        self._layout = layout_of(client)

    def create(self) -> tuple[str, str]:
        """A new player: its id and its token, which is stored only as a salted HMAC."""
        for _ in range(ID_RETRIES):
            player_id = f"p{secrets.token_hex(8)}"
            secret = secrets.token_urlsafe(32)
            salt = secrets.token_bytes(SALT_BYTES)
            record = json.dumps({"salt": salt.hex(), "mac": _mac(salt, secret)})
            # NX: an id drawn twice must never take over the first player's record.
            if self._redis.set(player_key(player_id, self._layout), record, nx=True):
                return player_id, f"{player_id}{SEPARATOR}{secret}"
        raise RuntimeError("no free player id in several draws")

    def player_of(self, token: str) -> str | None:
        """The id of the player whose token this is, or None."""
        player_id, _, secret = token.partition(SEPARATOR)
        if not PLAYER_ID.match(player_id) or not secret:
            return None
        raw = self._redis.get(player_key(player_id, self._layout))
        if raw is None:
            return None
        record = json.loads(raw)
        presented = _mac(bytes.fromhex(record["salt"]), secret)
        return player_id if hmac.compare_digest(presented, record["mac"]) else None
