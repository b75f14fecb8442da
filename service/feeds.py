"""One reader per watched event stream, its new events handed to every viewer in the process.

A thousand viewers of one game then cost one XREAD BLOCK loop and one Redis connection, not
a thousand. The reader starts with the first viewer of a stream and ends when no viewer has
asked for a whole turn; it keeps the last BACKLOG events, and a viewer further behind reads
its own catch-up from the store. Under gunicorn's gevent workers `threading` is patched: the
readers and the viewers are greenlets, and a waiting viewer holds no thread.
"""

from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import Protocol

from record.envelope import Envelope

#: Envelopes a feed keeps for viewers a little behind its reader.
BACKLOG = 256
#: How long one XREAD BLOCK of a reader lasts before it looks whether anyone still watches.
TURN_MS = 5_000


class Source(Protocol):
    """The store's blocking read (EventStore.wait)."""

    def wait(self, game_id: str, after: int, timeout_ms: int) -> list[Envelope]: ...


@dataclass
class _Feed:
    base: int  # the version just before recent[0]
    changed: threading.Condition = field(default_factory=threading.Condition)
    recent: list[Envelope] = field(default_factory=list)
    error: Exception | None = None
    waiting: int = 0
    last_asked: float = field(default_factory=time.monotonic)

    @property
    def version(self) -> int:
        return self.base + len(self.recent)


class Feeds:
    """`wait` as the store's, shared: each stream is read by one reader whatever its viewers."""

    def __init__(self, source: Source, turn_ms: int = TURN_MS, backlog: int = BACKLOG) -> None:
        self._source = source
        self._turn_ms = turn_ms
        self._backlog = backlog
        self._lock = threading.Lock()
        self._feeds: dict[str, _Feed] = {}

    def readers(self) -> int:
        """How many streams have a reader now."""
        with self._lock:
            return len(self._feeds)

    def watching(self, stream_id: str) -> int:
        """How many viewers wait on the stream now."""
        with self._lock:
            feed = self._feeds.get(stream_id)
        if feed is None:
            return 0
        with feed.changed:
            return feed.waiting

    def wait(self, stream_id: str, after: int, timeout_ms: int) -> list[Envelope]:
        """The events after `after`, waiting up to `timeout_ms` for the first; [] on timeout.

        Raises what the stream's reader met (a Redis error) to the viewers waiting then.
        """
        feed = self._join(stream_id, after)
        deadline = time.monotonic() + timeout_ms / 1000
        try:
            with feed.changed:
                while True:
                    if feed.error is not None:
                        raise feed.error
                    if feed.version > after and after >= feed.base:
                        return feed.recent[after - feed.base :]
                    if feed.version > after:
                        break  # behind the backlog: caught up from the store below
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return []
                    feed.changed.wait(left)
        finally:
            with feed.changed:
                feed.waiting -= 1
                feed.last_asked = time.monotonic()
        return self._source.wait(stream_id, after, 0)

    def _join(self, stream_id: str, after: int) -> _Feed:
        with self._lock:
            feed = self._feeds.get(stream_id)
            if feed is None:
                feed = self._feeds[stream_id] = _Feed(base=after)
                reader = threading.Thread(
                    target=self._read, args=(stream_id, feed), name=f"feed-{stream_id}", daemon=True
                )
                reader.start()
            with feed.changed:
                feed.waiting += 1
        return feed

    def _read(self, stream_id: str, feed: _Feed) -> None:
        while not self._leave_if_unwatched(stream_id, feed):
            try:
                new = self._source.wait(stream_id, feed.version, self._turn_ms)
            except Exception as error:  # handed to the viewers, who end their streams with it
                with self._lock, feed.changed:
                    self._feeds.pop(stream_id, None)
                    feed.error = error
                    feed.changed.notify_all()
                return
            if new:
                with feed.changed:
                    feed.recent.extend(new)
                    extra = len(feed.recent) - self._backlog
                    if extra > 0:
                        del feed.recent[:extra]
                        feed.base += extra
                    feed.changed.notify_all()

    def _leave_if_unwatched(self, stream_id: str, feed: _Feed) -> bool:
        # Under the map's lock, so a viewer joining now either finds this feed still listed
        # (and it keeps reading) or finds none and starts a new one.
        with self._lock, feed.changed:
            idle = time.monotonic() - feed.last_asked
            if feed.waiting or idle * 1000 < self._turn_ms:
                return False
            self._feeds.pop(stream_id, None)
            return True


_FEEDS: weakref.WeakKeyDictionary[Source, Feeds] = weakref.WeakKeyDictionary()
_FEEDS_LOCK = threading.Lock()


def feeds_of(store: Source) -> Feeds:
    """The one Feeds of `store` in this process."""
    with _FEEDS_LOCK:
        feeds = _FEEDS.get(store)
        if feeds is None:
            feeds = _FEEDS[store] = Feeds(store)
        return feeds
