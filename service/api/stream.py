"""Server-Sent Events: a game's events for one viewer, live from its stream's one shared reader
(service.feeds: one XREAD BLOCK per game in a process, however many watch it)."""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol, TypeVar

import redis

from record.envelope import Envelope
from record.redaction import redact
from service import metrics
from service.api.schemas import EventSchema
from service.errors import ChainBroken
from service.feeds import feeds_of
from service.loaded import Loaded
from service.loading import Loader

log = logging.getLogger("archipelago.api")

_EVENT = EventSchema()


class Followed(Protocol):
    """What the live loop reads of a loaded stream: its envelopes so far and its version."""

    @property
    def envelopes(self) -> Sequence[Envelope]: ...

    @property
    def version(self) -> int: ...


F = TypeVar("F", bound=Followed)


def live(
    loaded: F,
    first: Sequence[Envelope],
    *,
    frames: Callable[[F, Sequence[Envelope]], Iterable[str]],
    finished: Callable[[F], bool],
    wait: Callable[[F, int], Sequence[Envelope]],
    fold: Callable[[F, Sequence[Envelope]], F | None],
    name: str,
    kind: str,
    idle_seconds: float,
    heartbeat_seconds: float,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[str]:
    """SSE frames of `first`, then of each batch `wait` brings, folded in as it comes (`fold`
    answers None for a batch that does not chain onto the events so far).

    Ends when `finished` says so, after `idle_seconds` without a new event (so a watcher
    never holds a connection for ever: EventSource reconnects with Last-Event-ID), when
    new events do not chain onto the last one, or when Redis fails. A comment line every
    `heartbeat_seconds` notices gone clients. Games and tournaments both stream through it.
    """
    pending = first
    deadline = clock() + idle_seconds
    metrics.stream_opened(kind)  # `kind` labels /metrics' count of open streams
    try:
        while True:
            yield from frames(loaded, pending)
            if finished(loaded):
                return
            now = clock()
            if pending:
                deadline = now + idle_seconds
            if now >= deadline:
                return
            # Whether this wait runs to the idle deadline is decided here, before it: Redis's
            # block timer and this process's clock may disagree by a millisecond either way,
            # so a quiet wait to the deadline ends the stream rather than sending a heartbeat.
            last_wait = deadline - now <= heartbeat_seconds
            wait_ms = max(1, math.ceil(min(deadline - now, heartbeat_seconds) * 1000))
            pending = wait(loaded, wait_ms)
            if pending:
                folded = fold(loaded, pending)
                if folded is None:
                    log.warning("event stream of %s ended: the new events do not chain", name)
                    return
                loaded = folded
            elif last_wait:
                return
            else:
                yield ": keep-alive\n\n"
    except (redis.exceptions.RedisError, ChainBroken) as error:
        log.warning("event stream of %s ended: %s", name, error)
    finally:
        metrics.stream_closed(kind)


def follow(
    loader: Loader,
    loaded: Loaded,
    viewer: int | None,
    after: int,
    idle_seconds: float,
    heartbeat_seconds: float,
) -> Iterator[str]:
    """SSE frames of a game's events after `after` for `viewer`, then of each new one as it is
    appended; ends when the game ends (a broken chain takes no command: nothing more comes).

    New events are folded through `loader`, whose cache usually holds them folded already (by
    the command that appended them, or by another watcher of the game in this process)."""

    feeds = feeds_of(loader.store)

    def frames(now: Loaded, pending: Sequence[Envelope]) -> Iterator[str]:
        for envelope in pending:
            if envelope.version > after:
                yield frame(envelope, viewer, now.revealed)

    return live(
        loaded,
        loaded.envelopes[after:],
        frames=frames,
        finished=lambda now: now.over or now.broken is not None,
        wait=lambda now, wait_ms: feeds.wait(now.game_id, now.version, wait_ms),
        fold=loader.advanced,
        name=loaded.game_id,
        kind="game",
        idle_seconds=idle_seconds,
        heartbeat_seconds=heartbeat_seconds,
    )


def frame(envelope: Envelope, viewer: int | None, revealed: bool) -> str:
    """One SSE message: `id` is the version, so Last-Event-ID resumes after it."""
    data = json.dumps(_EVENT.dump(redact(envelope, viewer, revealed)), separators=(",", ":"))
    return f"id: {envelope.version}\ndata: {data}\n\n"
