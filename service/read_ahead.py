"""A game's events read ahead, in the round trip that looks up a seat's token, for the load that
follows in the same request: a seat's GET of its view, of its legal commands and its POST of a
command each cost one round trip less.

The read is the one the fold cache would make next (service.loading.Loader.read_plan). It is
kept for the current request only (a context variable: a thread's or a greenlet's own), taken
at most once, and only by a read of that very store, game and starting version; the request
drops whatever is left when its view returns. A read taken a few microseconds after it was
made answers as a request that arrived those microseconds earlier would have been answered.
"""

from __future__ import annotations

import contextvars
from collections.abc import Sequence
from typing import Any

_AHEAD: contextvars.ContextVar[tuple[object, str, int, Sequence[Any]] | None] = contextvars.ContextVar(
    "read_ahead", default=None
)


def keep(store: object, game_id: str, after: int, replies: Sequence[Any]) -> None:
    """Hold the replies of `store.queue_read(pipe, game_id, after)` for this request's next read."""
    _AHEAD.set((store, game_id, after, replies))


def take(store: object, game_id: str, after: int) -> Sequence[Any] | None:
    """The held replies when they are of this store, game and starting version; None otherwise.
    Whatever was held is gone after the first read asks."""
    held = _AHEAD.get()
    if held is None:
        return None
    _AHEAD.set(None)
    held_store, held_game, held_after, replies = held
    if held_store is store and held_game == game_id and held_after == after:
        return replies
    return None


def drop() -> None:
    """Forget what is held (the request is over)."""
    _AHEAD.set(None)


def seat_reading_ahead(service: Any, game_id: str, token: str) -> int | None:
    """The seat of `token` in the game (None when it holds none), its lookup sharing the round
    trip with the read of the game's events that the request's load will make."""
    store, tokens = service.store, service.tokens
    if not hasattr(store, "queue_read") or not tokens.shares_client(store):
        seat: int | None = tokens.seat_of(game_id, token)  # e.g. an in-memory store in tests
        return seat
    after = service.loader.read_plan(game_id)
    pipe = tokens.pipeline()
    tokens.queue_lookup(pipe, game_id)
    store.queue_read(pipe, game_id, after)
    stored, *read = pipe.execute()
    keep(store, game_id, after, read)
    found: int | None = tokens.seat_in(stored, token)
    return found
