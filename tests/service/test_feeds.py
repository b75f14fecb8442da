"""One reader per watched stream: however many viewers wait, the store sees one blocking read."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis

from service.feeds import Feeds

WITHIN = 10.0  # seconds: a generous ceiling for what should take milliseconds


class Stream:
    """A store's `wait` over one list of events, counting the blocking reads in flight."""

    def __init__(self, events: int = 0) -> None:
        self.changed = threading.Condition()
        self.events: list[str] = [f"e{n}" for n in range(1, events + 1)]
        self.failure: Exception | None = None
        self.blocked = 0
        self.most_blocked = 0
        self.catch_ups = 0

    def wait(self, game_id: str, after: int, timeout_ms: int) -> list[Any]:
        with self.changed:
            if timeout_ms <= 0:
                self.catch_ups += 1
                return self.events[after:]
            self.blocked += 1
            self.most_blocked = max(self.most_blocked, self.blocked)
            try:
                self.changed.wait_for(
                    lambda: len(self.events) > after or self.failure is not None, timeout_ms / 1000
                )
                if self.failure is not None:
                    raise self.failure
                return self.events[after:]
            finally:
                self.blocked -= 1

    def append(self, *events: str) -> None:
        with self.changed:
            self.events += events
            self.changed.notify_all()

    def fail(self, error: Exception) -> None:
        with self.changed:
            self.failure = error
            self.changed.notify_all()


def eventually(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WITHIN
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def watch(feeds: Feeds, viewers: int, after: int, got: list[Any]) -> list[threading.Thread]:
    def viewer() -> None:
        try:
            got.append(feeds.wait("g", after, int(WITHIN * 1000)))
        except Exception as error:
            got.append(error)

    threads = [threading.Thread(target=viewer) for _ in range(viewers)]
    for thread in threads:
        thread.start()
    eventually(lambda: feeds.watching("g") == viewers)
    return threads


def test_fifty_viewers_of_one_stream_share_one_blocking_read() -> None:
    stream = Stream(events=3)
    feeds = Feeds(stream)
    got: list[Any] = []
    viewers = watch(feeds, 50, after=3, got=got)

    stream.append("e4", "e5")
    for viewer in viewers:
        viewer.join(WITHIN)

    assert got == [["e4", "e5"]] * 50
    assert stream.most_blocked == 1 and stream.catch_ups == 0
    assert feeds.readers() == 1


def test_a_viewer_behind_the_backlog_catches_up_from_the_store() -> None:
    stream = Stream(events=5)
    feeds = Feeds(stream, backlog=3)
    first: list[Any] = []
    for viewer in watch(feeds, 1, after=5, got=first):
        stream.append("e6", "e7", "e8")
        viewer.join(WITHIN)
    stream.append("e9")

    assert first == [["e6", "e7", "e8"]]
    assert feeds.wait("g", 8, int(WITHIN * 1000)) == ["e9"]
    assert feeds.wait("g", 6, 1000) == ["e7", "e8", "e9"]  # the feed keeps the last three
    assert stream.catch_ups == 0
    assert feeds.wait("g", 1, 1000) == ["e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"]
    assert stream.catch_ups == 1


def test_a_quiet_wait_ends_empty_after_its_timeout() -> None:
    feeds = Feeds(Stream(events=2))
    started = time.monotonic()
    assert feeds.wait("g", 2, 200) == []
    assert time.monotonic() - started >= 0.19


def test_the_reader_ends_when_nobody_has_watched_for_a_turn() -> None:
    stream = Stream(events=1)
    feeds = Feeds(stream, turn_ms=50)
    assert feeds.wait("g", 1, 10) == []
    eventually(lambda: feeds.readers() == 0 and stream.blocked == 0)

    # A new viewer starts a new reader, which still sees what came meanwhile.
    stream.append("e2")
    assert feeds.wait("g", 1, int(WITHIN * 1000)) == ["e2"]


def test_a_failed_read_reaches_every_waiting_viewer_and_the_next_one_starts_afresh() -> None:
    stream = Stream(events=1)
    feeds = Feeds(stream)
    got: list[Any] = []
    viewers = watch(feeds, 3, after=1, got=got)
    stream.fail(redis.ConnectionError("gone"))
    for viewer in viewers:
        viewer.join(WITHIN)

    assert [type(error) for error in got] == [redis.ConnectionError] * 3
    assert feeds.readers() == 0
    stream.failure = None
    stream.append("e2")
    assert feeds.wait("g", 1, int(WITHIN * 1000)) == ["e2"]


@pytest.mark.parametrize("viewers", [1, 20])
def test_viewers_of_different_streams_have_a_reader_each(viewers: int) -> None:
    stream = Stream(events=0)
    feeds = Feeds(stream)
    done = [threading.Thread(target=feeds.wait, args=(f"g{n}", 0, 300)) for n in range(viewers)]
    for thread in done:
        thread.start()
    eventually(lambda: feeds.readers() == viewers)
    for thread in done:
        thread.join(WITHIN)
