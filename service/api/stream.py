"""Server-Sent Events: a game's events for one viewer, live from the store's XREAD BLOCK."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator, Sequence

import redis

from record.envelope import Envelope, EventStorePort
from record.redaction import redact
from service.api.schemas import EventSchema
from service.errors import ChainBroken
from service.games import Loaded, chains_onto, extended

log = logging.getLogger("archipelago.api")

_EVENT = EventSchema()


def follow(
    store: EventStorePort,
    loaded: Loaded,
    viewer: int | None,
    after: int,
    idle_seconds: float,
    heartbeat_seconds: float,
) -> Iterator[str]:
    """SSE frames of the events after `after`, then of each new one as it is appended.

    Ends when the game ends, or after `idle_seconds` without a new event, so a
    watcher never pins a server thread for ever (EventSource reconnects with
    Last-Event-ID). A comment line every `heartbeat_seconds` notices gone clients.
    """
    pending = loaded.envelopes[after:]
    deadline = time.monotonic() + idle_seconds
    try:
        while True:
            for envelope in pending:
                if envelope.version > after:
                    yield frame(envelope, viewer, loaded.revealed)
            # A broken chain takes no command: nothing more will come to wait for.
            if loaded.rules.is_terminal(loaded.state) or loaded.broken is not None:
                return
            now = time.monotonic()
            if pending:
                deadline = now + idle_seconds
            if now >= deadline:
                return
            wait_ms = max(1, int(min(deadline - now, heartbeat_seconds) * 1000))
            pending = store.wait(loaded.game_id, loaded.version, wait_ms)
            if pending and not chains_onto(loaded.envelopes[-1], pending):
                log.warning("event stream of %s ended: the new events do not chain", loaded.game_id)
                return
            if pending:
                loaded = advanced(loaded, pending)
            elif time.monotonic() < deadline:
                yield ": keep-alive\n\n"
    except (redis.exceptions.RedisError, ChainBroken) as error:
        log.warning("event stream of %s ended: %s", loaded.game_id, error)


def advanced(loaded: Loaded, envelopes: Sequence[Envelope]) -> Loaded:
    """`loaded` with `envelopes` (the next ones) folded in, undos included."""
    return extended(loaded, envelopes)


def frame(envelope: Envelope, viewer: int | None, revealed: bool) -> str:
    """One SSE message: `id` is the version, so Last-Event-ID resumes after it."""
    data = json.dumps(_EVENT.dump(redact(envelope, viewer, revealed)), separators=(",", ":"))
    return f"id: {envelope.version}\ndata: {data}\n\n"
