"""Idempotency-Key: a retried request is the same command, recognised by its command id."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from typing import Any

import redis
from redis.cluster import RedisCluster

from service.errors import IdempotencyMismatch
from service.keys import GAME, SINGLE, Layout


def idempotency_key(game_id: str, layout: Layout = SINGLE) -> str:
    """The hash of a game's Idempotency-Keys, beside its other keys (the same hash tag)."""
    return layout.key(GAME, game_id, "idempotency")


def command_id_for(
    client: redis.Redis | RedisCluster, keys: str, who: int | str, body: Mapping[str, Any], key: str | None
) -> str:
    """The command id of a request: random, or fixed by its Idempotency-Key `key` (scoped to
    `who`, remembered with the body's fingerprint in the hash `keys`); IdempotencyMismatch
    when the key came before with another body."""
    if key is None:
        return secrets.token_hex(12)
    fingerprint = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    scoped = hashlib.sha256(f"{who}\0{key}".encode()).hexdigest()[:32]
    client.hsetnx(keys, scoped, fingerprint)
    stored = client.hget(keys, scoped)
    stored_text = stored.decode() if isinstance(stored, bytes) else stored
    if stored_text != fingerprint:
        raise IdempotencyMismatch(
            "idempotency_key_reused",
            "this Idempotency-Key was used with a different request",
        )
    return f"idem-{scoped}"


def game_command_id(
    client: redis.Redis | RedisCluster,
    layout: Layout,
    game_id: str,
    who: int | str,
    body: Mapping[str, Any],
    key: str | None,
) -> str:
    """The command id of a request to the game `game_id` (command_id_for in its hash of keys)."""
    return command_id_for(client, idempotency_key(game_id, layout), who, body, key)
