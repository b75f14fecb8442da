"""A store of many finished games, written fast: each golden game file imported verbatim
(service.store.EventStore.import_verbatim, as POST /games/import does) under new ids."""

from __future__ import annotations

import secrets
from pathlib import Path

import redis

from record.canonical import canonical_json
from replays import archive
from service.store import EventStore

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = ("kahuna.jsonl", "kahuna-computers.jsonl", "nanuuk-2.jsonl", "arabana-ikibiti.jsonl")


def fill(client: redis.Redis, games: int) -> int:
    """Import `games` finished games (the golden files in turn); the number of events written."""
    store = EventStore(client)
    files = [archive.read((GOLDEN / name).read_text()) for name in FILES]
    written = 0
    for n in range(games):
        game = files[n % len(files)]
        store.import_verbatim(
            secrets.token_hex(8),
            game.envelopes,
            canonical_json(game.header),
            [canonical_json(record) for record in game.annotations],
        )
        written += len(game.envelopes)
    return written
