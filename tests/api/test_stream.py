"""Server-Sent Events: redacted events live from XREAD BLOCK, resumable, and bounded in time."""

from __future__ import annotations

import threading
import time

from flask.testing import FlaskClient

from service.api.stream import live
from tests.api.helpers import bearer, create_game, events, parse_sse, post, sse_events
from tests.backends import store_backend  # noqa: F401  (on one Redis and on a cluster)

DRAW = {"type": "DrawCard", "source": "stack"}


def test_the_stream_sends_the_past_then_wakes_for_new_events(client: FlaskClient) -> None:
    client.application.config["SSE_MAX_SECONDS"] = 30  # closed below, once the move arrived
    game = create_game(client)
    response = client.get(f"/games/{game['game_id']}/stream", headers=bearer(game["tokens"][1]))
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    frames = response.iter_encoded()
    past = [next(frames).decode() for _ in range(game["version"])]

    answers = []
    mover = threading.Timer(
        0.2, lambda: answers.append(post(client.application.test_client(), game, 0, DRAW))
    )
    mover.start()
    started = time.monotonic()
    live = next(frames).decode()  # blocks in XREAD until the move is appended
    mover.join()
    expected_live = answers[0].json["version"] - game["version"]
    live += "".join(next(frames).decode() for _ in range(expected_live - 1))
    response.close()

    assert time.monotonic() - started >= 0.15
    streamed = parse_sse("".join(past) + live)
    assert streamed == events(client, game, 1)["events"]
    assert [e["version"] for e in parse_sse(live)] == list(
        range(game["version"] + 1, answers[0].json["version"] + 1)
    )


def test_last_event_id_resumes_after_that_version(client: FlaskClient) -> None:
    game = create_game(client)
    post(client, game, 0, DRAW)
    path = f"/games/{game['game_id']}/stream"

    resumed = sse_events(client.get(path, headers={"Last-Event-ID": str(game["version"])}))
    by_query = sse_events(client.get(f"{path}?after={game['version']}"))

    assert resumed == by_query == events(client, game, after=game["version"])["events"]


def test_an_idle_stream_closes_after_sse_max_seconds(client: FlaskClient) -> None:
    game = create_game(client)
    started = time.monotonic()
    body = client.get(f"/games/{game['game_id']}/stream?after={game['version']}").get_data()
    assert body == b"" and 0.25 < time.monotonic() - started < 30


def test_a_quiet_stream_sends_keep_alive_comments(client: FlaskClient) -> None:
    """The first wait is a heartbeat's (0.1 s of the 1 s allowed), whatever the machine's load."""
    client.application.config.update(SSE_MAX_SECONDS=1.0, SSE_HEARTBEAT_SECONDS=0.1)
    game = create_game(client)
    body = client.get(f"/games/{game['game_id']}/stream?after={game['version']}").get_data()
    assert body.startswith(b": keep-alive\n\n")
    assert set(body.split(b"\n\n")) == {b": keep-alive", b""}


class _Quiet:
    """A stream with no new events, on a clock that each wait moves by the time it waited."""

    version = 3
    envelopes: tuple[()] = ()

    def __init__(self) -> None:
        self.now = 100.0
        self.waits: list[int] = []

    def wait(self, _loaded: object, wait_ms: int) -> list[object]:
        self.waits.append(wait_ms)
        self.now += wait_ms / 1000
        return []


def _quiet_frames(quiet: _Quiet, idle: float, heartbeat: float) -> list[str]:
    return list(
        live(
            quiet,
            [],
            frames=lambda _loaded, pending: [],
            finished=lambda _loaded: False,
            wait=quiet.wait,
            fold=lambda loaded, _pending: loaded,
            name="g",
            kind="game",
            idle_seconds=idle,
            heartbeat_seconds=heartbeat,
            clock=lambda: quiet.now,
        )
    )


def test_a_quiet_stream_sends_a_heartbeat_per_interval_and_none_at_its_idle_end() -> None:
    quiet = _Quiet()
    assert _quiet_frames(quiet, idle=5.0, heartbeat=1.0) == [": keep-alive\n\n"] * 4
    assert quiet.waits == [1000] * 5


def test_a_stream_idle_for_less_than_a_heartbeat_ends_without_one() -> None:
    """The last wait runs to the idle deadline: its end closes the stream, even when Redis's block
    timer and this process's clock disagree about whether the deadline has passed."""
    quiet = _Quiet()
    assert _quiet_frames(quiet, idle=0.3, heartbeat=15.0) == []
    assert quiet.waits == [300]


def test_metrics_count_the_streams_open_now(client: FlaskClient) -> None:
    client.application.config["SSE_MAX_SECONDS"] = 30  # closed below
    game = create_game(client)

    def open_streams() -> float:
        text = client.get("/metrics").get_data(as_text=True)
        line = next(
            (x for x in text.splitlines() if x.startswith('archipelago_event_streams_open{kind="game"}')), ""
        )
        return float(line.rsplit(" ", 1)[1]) if line else 0.0

    before = open_streams()
    response = client.get(f"/games/{game['game_id']}/stream")
    next(response.iter_encoded())  # the stream has started: its first event went out
    during = open_streams()
    response.close()

    assert (during - before, open_streams() - before) == (1, 0)
