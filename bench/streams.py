"""`python -m bench streams`: ordinary requests while idle viewers and slow clients hold sockets.

Starts the service as `make run` does (`python -m service.launcher`, default settings: its
gunicorn, RQ worker and embedded Redis; only the data directory and the ports are its own),
creates games and tournaments, opens STREAMS event streams over them (game and tournament
streams mixed, raw sockets that read nothing after the answer's head) and keeps SLOW
slowloris connections going (a request head sent a byte a second, a new one as soon as the
server closes one). Meanwhile another client address asks ordinary questions (a game's view,
its events, a tournament, /health) one after another, each on a new connection, and the
latencies are reported as p50/p99, with how many timed out and how long the server let a
slowloris connection live.

Every client binds its own loopback address (127.0.x.y), as clients elsewhere would come from
addresses of their own: the per-address rate limits stay on, as `make run` has them.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import resource
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import Figure, percentile, say

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
#: The ordinary client's own address; streams, slow clients and creators use others.
ORDINARY_SOURCE = "127.0.0.2"
READY_WITHIN = 90.0


class SiegeError(Exception):
    """The service did not start or a stream did not open."""


@dataclass
class Service:
    port: int
    process: subprocess.Popen[bytes]
    log: Path


@dataclass
class Result:
    """What the ordinary client saw while the streams and slow clients were open."""

    latencies: list[float]  # seconds, answered requests
    timeouts: int
    errors: int
    streams_opened: int
    streams_open_after: int
    slow_cut: int  # slowloris connections the server closed
    slow_lifetimes: list[float] = field(default_factory=list)
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def p50_ms(self) -> float:
        return percentile(self.latencies, 50) * 1000

    @property
    def p99_ms(self) -> float:
        return percentile(self.latencies, 99) * 1000

    @property
    def slowest_ms(self) -> float:
        return max(self.latencies, default=float("nan")) * 1000


def raise_open_files(needed: int) -> None:
    """Raise this process's soft limit of open files to hold `needed` sockets (within the hard one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_service(directory: Path, **environ: str) -> Iterator[Service]:
    """The launcher with its default settings on free ports, its data and output in `directory`."""
    port = _free_port()
    env = dict(
        os.environ,
        ARCHIPELAGO_DATA=str(directory / "var"),
        PORT=str(port),
        REDIS_PORT=str(_free_port()),
        PYTHONUNBUFFERED="1",
        **environ,
    )
    for name in ("REDIS_URL", "RQ_REDIS_URL", "REDIS_CLUSTER_URL", "PROMETHEUS_MULTIPROC_DIR"):
        env.pop(name, None)
    log = directory / "service.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "service.launcher"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    service = Service(port, process, log)
    try:
        deadline = time.monotonic() + READY_WITHIN
        while b"Archipelago is running at" not in log.read_bytes():
            if process.poll() is not None or time.monotonic() > deadline:
                raise SiegeError(f"the service did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.1)
        yield service
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _request(
    port: int, method: str, path: str, source: str, body: object = None, timeout: float = 10.0
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout, source_address=(source, 0))
    try:
        payload = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=payload, headers=headers)
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def create_targets(port: int, games: int, tournaments: int) -> list[str]:
    """Paths of the event streams of new games and tournaments, each created from its own address
    (creation is rate limited per address)."""
    paths = []
    seats = [{"name": "Ana"}, {"name": "Ben"}]
    for n in range(games):
        status, text = _request(
            port, "POST", "/games", f"127.0.2.{n % 250 + 1}", {"game": "kahuna", "seats": seats}
        )
        if status != 201:
            raise SiegeError(f"creating a game answered {status}: {text[:300]!r}")
        paths.append(f"/games/{json.loads(text)['game_id']}")
    for n in range(tournaments):
        body = {"name": f"Cup {n}", "game": "kahuna", "format": "swiss", "rounds": 3}
        status, text = _request(port, "POST", "/tournaments", f"127.0.4.{n % 250 + 1}", body)
        if status != 201:
            raise SiegeError(f"creating a tournament answered {status}: {text[:300]!r}")
        paths.append(f"/tournaments/{json.loads(text)['tournament_id']}")
    return paths


def open_stream(
    port: int, path: str, source: str, timeout: float = 30.0, confirm: bool = True
) -> socket.socket:
    """A socket whose GET of `path`/stream has been answered 200 with an event stream's head
    (unless not `confirm`: then only sent, as a server that queues it would not answer yet)."""
    sock = socket.create_connection((HOST, port), timeout=timeout, source_address=(source, 0))
    try:
        request = f"GET {path}/stream HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n\r\n"
        sock.sendall(request.encode())
        if not confirm:
            return sock
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                raise SiegeError(f"{path}/stream closed before its head")
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        if b" 200 " not in status or b"text/event-stream" not in head:
            raise SiegeError(f"{path}/stream answered {status!r}")
        return sock
    except BaseException:
        sock.close()
        raise


def open_streams(port: int, paths: list[str], count: int, confirm: bool = True) -> list[socket.socket]:
    """`count` open streams spread over `paths`, from 250 client addresses."""

    def one(n: int) -> socket.socket:
        return open_stream(port, paths[n % len(paths)], f"127.0.1.{n % 250 + 1}", confirm=confirm)

    with ThreadPoolExecutor(16) as pool:
        return list(pool.map(one, range(count)))


def still_open(sockets: list[socket.socket]) -> int:
    """How many of the streams the server has not closed (a heartbeat may wait to be read)."""
    alive = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    return alive


class Slowloris(threading.Thread):
    """`count` connections sending a request head a byte every `interval` seconds; each one the
    server closes is replaced by a new one at once, and its lifetime noted."""

    HEAD = b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 4000

    def __init__(self, port: int, count: int, interval: float = 1.0) -> None:
        super().__init__(name="slowloris", daemon=True)
        self.port = port
        self.count = count
        self.interval = interval
        self.stop = threading.Event()
        self.lifetimes: list[float] = []
        self.failures = 0
        self._selector = selectors.DefaultSelector()
        self._open_since: dict[socket.socket, tuple[float, int]] = {}
        self._serial = 0

    def _open(self) -> None:
        self._serial += 1
        source = f"127.0.3.{self._serial % 250 + 1}"
        try:
            sock = socket.create_connection((HOST, self.port), timeout=5, source_address=(source, 0))
        except OSError:
            self.failures += 1
            return
        sock.setblocking(False)
        self._selector.register(sock, selectors.EVENT_READ)
        self._open_since[sock] = (time.monotonic(), 0)

    def _close(self, sock: socket.socket) -> None:
        started, _sent = self._open_since.pop(sock)
        self.lifetimes.append(time.monotonic() - started)
        self._selector.unregister(sock)
        sock.close()

    def run(self) -> None:
        for _ in range(self.count):
            self._open()
        next_byte = time.monotonic()
        while not self.stop.is_set():
            for key, _ in self._selector.select(timeout=max(0.0, next_byte - time.monotonic())):
                self._close(key.fileobj)  # type: ignore[arg-type]  # readable: closed or answered
                self._open()
            if time.monotonic() >= next_byte:
                next_byte += self.interval
                for sock, (started, sent) in list(self._open_since.items()):
                    try:
                        sock.send(self.HEAD[sent % len(self.HEAD) : sent % len(self.HEAD) + 1])
                        self._open_since[sock] = (started, sent + 1)
                    except OSError:
                        self._close(sock)
                        self._open()
        for sock in list(self._open_since):
            self._selector.unregister(sock)
            sock.close()
        self._open_since.clear()


def ordinary(port: int, paths: list[str], seconds: float, ceiling: float) -> tuple[list[float], int, int]:
    """Ordinary requests one after another for `seconds`: latencies, timeouts, errors (5xx, resets)."""
    asks = ["/health"]
    for path in paths:
        asks += [path, f"{path}/events?after=0"] if path.startswith("/games/") else [path]
    latencies: list[float] = []
    timeouts = errors = 0
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        path = asks[n % len(asks)]
        n += 1
        started = time.perf_counter()
        try:
            status, _ = _request(port, "GET", path, ORDINARY_SOURCE, timeout=ceiling)
        except TimeoutError:
            timeouts += 1
            continue
        except (OSError, http.client.HTTPException):
            errors += 1
            continue
        if status >= 500 or status == 429:
            errors += 1
            continue
        latencies.append(time.perf_counter() - started)
        time.sleep(0.05)  # a person's pace, not a flood: ~15 questions a second
    return latencies, timeouts, errors


def siege(
    port: int,
    streams: int,
    slow: int,
    seconds: float,
    ceiling: float = 5.0,
    games: int = 40,
    tournaments: int = 10,
    confirm: bool = True,
) -> Result:
    """Open the streams and slow clients on the service at `port`, then time ordinary requests."""
    raise_open_files(streams + slow + 1024)
    paths = create_targets(port, games, tournaments)
    crowd = Slowloris(port, slow)
    crowd.start()
    sockets: list[socket.socket] = []
    try:
        sockets = open_streams(port, paths, streams, confirm)
        latencies, timeouts, errors = ordinary(port, paths, seconds, ceiling)
        load = os.getloadavg()
        open_after = still_open(sockets)
    finally:
        crowd.stop.set()
        crowd.join(timeout=10)
        for sock in sockets:
            sock.close()
    return Result(
        latencies=latencies,
        timeouts=timeouts,
        errors=errors,
        streams_opened=len(sockets),
        streams_open_after=open_after,
        slow_cut=len(crowd.lifetimes),
        slow_lifetimes=crowd.lifetimes,
        load=load,
    )


def report(result: Result, streams: int, slow: int) -> None:
    say(
        f"{streams} streams ({result.streams_open_after} still open at the end) + {slow} slowloris: "
        f"{len(result.latencies)} ordinary requests, p50 {result.p50_ms:.1f} ms, "
        f"p99 {result.p99_ms:.1f} ms, slowest {result.slowest_ms:.1f} ms, "
        f"{result.timeouts} timed out, {result.errors} failed; load average "
        f"{' '.join(f'{x:.2f}' for x in result.load)}"
    )
    if result.slow_lifetimes:
        lives = result.slow_lifetimes
        say(
            f"slowloris connections closed by the server: {result.slow_cut}, after "
            f"{percentile(lives, 50):.1f} s (median), {max(lives):.1f} s at most"
        )


def run(quick: bool = False, seed: int = 1, seconds: float | None = None) -> list[Figure]:
    """The bench part: STREAMS=1000 and SLOW=200 (--quick: 300 and 50)."""
    streams, slow = (300, 50) if quick else (1000, 200)
    measured = seconds if seconds is not None else (8.0 if quick else 30.0)
    say(f"== streams: {streams} open event streams + {slow} slowloris under `make run` defaults ==")
    with tempfile.TemporaryDirectory(prefix="bench-streams-") as directory:
        with running_service(Path(directory)) as service:
            result = siege(service.port, streams, slow, measured)
    report(result, streams, slow)
    part = f"streams {streams}+{slow}"
    return [
        Figure("streams", f"{part}: ordinary request p50", result.p50_ms, "ms"),
        Figure("streams", f"{part}: ordinary request p99", result.p99_ms, "ms"),
        Figure("streams", f"{part}: ordinary requests timed out", float(result.timeouts), "requests"),
        Figure("streams", f"{part}: streams still open", float(result.streams_open_after), "streams"),
    ]
