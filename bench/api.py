"""HTTP latency against a real server: embedded Redis, gunicorn (deploy/gunicorn.conf.py), RQ worker.

Concurrent clients (threads, one persistent `http.client` connection each) each
create their own Kahuna games and play them to the end with their own seat
tokens: GET /games/{id} (the seat's view), GET /games/{id}/legal, then POST one
random legal command to /games/{id}/commands. A 409 `waiting_for_scoring` is
retried after a short pause (the worker scores the round). Every request is
timed; those started during the warm-up are not counted. Everything started is
stopped at the end, also on Ctrl-C, SIGTERM or an error.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import Figure, bench_tmpdir, percentile, say, temp_redis
from service.embedded_cluster import start_cluster
from service.embedded_redis import EmbeddedRedis, free_port
from service.launcher import die_with_parent_hook

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
APP = "service.app:create_app()"
SETUP = {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}]}

READY_TIMEOUT = 60.0
STOP_TIMEOUT = 15.0
STUCK_TIMEOUT = 30.0  # no legal command for this long: the game (or the worker) is stuck
SCORING_PAUSE = 0.01

GET_GAME = "GET /games/{id}"
GET_LEGAL = "GET /games/{id}/legal"
POST_COMMAND = "POST /games/{id}/commands"
POST_GAME = "POST /games"
ENDPOINTS = (GET_GAME, POST_COMMAND, GET_LEGAL, POST_GAME)
IN_TABLE = (GET_GAME, POST_COMMAND, GET_LEGAL)


class BenchError(Exception):
    """The server answered something the contract does not allow, or did not start."""


@dataclass(frozen=True)
class Timing:
    clients: int
    warmup_seconds: float
    seconds: float


FULL = Timing(clients=4, warmup_seconds=3.0, seconds=30.0)
QUICK = Timing(clients=4, warmup_seconds=0.5, seconds=3.0)


# --- the processes --------------------------------------------------------------------


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    def alive(self) -> bool:
        """Whether it still runs; does not reap it, so its group id stays reserved."""
        if self.popen.returncode is not None:
            return False
        try:
            info = os.waitid(os.P_PID, self.popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return False
        return info is None

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """SIGTERM, then SIGKILL to its whole group (gunicorn workers, RQ work horses)."""
        if self.popen.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.popen.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while self.alive() and time.monotonic() < deadline:
                time.sleep(0.05)
            # The leader is not reaped yet, so the group id is still ours to signal.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait()

    def kill(self) -> None:
        """SIGKILL its whole group at once and reap it."""
        if self.popen.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait()

    def tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def _spawn(name: str, cmd: list[str], env: Mapping[str, str], logs: Path) -> Process:
    log = logs / f"{name}.log"
    with open(log, "ab") as out:
        popen = subprocess.Popen(
            cmd,
            env=dict(env),
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C reaches the bench only; it stops them in order
            preexec_fn=die_with_parent_hook(),  # no client threads run yet
        )
    return Process(name, popen, log)


def _wait_ready(port: int, processes: list[Process]) -> None:
    """Until the app answers HTTP at all (any status): a gunicorn worker has booted it."""
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        for process in processes:
            if not process.alive():
                raise BenchError(
                    f"{process.name} exited with {process.popen.poll()} while starting; "
                    f"its log ({process.log}):\n{process.tail()}"
                )
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            conn.request("GET", "/")
            conn.getresponse().read()
            return
        except (OSError, http.client.HTTPException):
            time.sleep(0.1)
        finally:
            conn.close()
    raise BenchError(f"the app did not answer on port {port} within {READY_TIMEOUT:.0f} s")


@dataclass(frozen=True)
class Served:
    port: int
    redis_url: str
    """RQ's Redis, and the events' too unless a cluster holds them."""
    events_url: str
    """A node of the Redis that holds the events: the plain Redis or a primary of the cluster."""
    web_pid: int = 0
    """gunicorn's master: it and its web processes are the web tier whose CPU time is counted."""


@contextmanager
def running_service(
    app: str = APP,
    web: int | None = None,
    workers: int = 1,
    appendfsync: str = "everysec",
    cluster: bool = False,
) -> Iterator[Served]:
    """Redis, gunicorn with `web` processes (default: the conf's) and `workers` RQ workers,
    torn down in reverse order; with `cluster`, the events on a local 3-primary Redis Cluster
    and RQ on the plain Redis."""
    logs = Path(tempfile.mkdtemp(prefix="archipelago-bench-api-", dir=bench_tmpdir()))
    processes: list[Process] = []
    failed = True
    try:
        with (
            temp_redis(appendfsync, label="api") as server,
            _events_store(server, appendfsync, cluster) as events,
        ):
            port = free_port()
            env = dict(os.environ)
            if web is not None:
                env["WEB_CONCURRENCY"] = str(web)
            env.pop("REDIS_CLUSTER_URL", None)
            if cluster:
                env["REDIS_CLUSTER_URL"] = events
            env.update(
                REDIS_URL=server.url,
                PORT=str(port),
                GUNICORN_ACCESS_LOG="",  # no access log: its writes are not what we measure
                ARCHIPELAGO_LOG_LEVEL="warning",
                PYTHONUNBUFFERED="1",
                # Four clients from one address would hit the per-address limits at once.
                ARCHIPELAGO_RATE_LIMITS="off",
            )
            env.pop("RQ_REDIS_URL", None)
            try:
                command = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF)]
                command += ["--bind", f"127.0.0.1:{port}", app]
                processes.append(_spawn("gunicorn", command, env, logs))
                for n in range(workers):
                    worker = [sys.executable, "-m", "service.worker"]
                    processes.append(_spawn(f"worker-{n}", worker, env, logs))
                _wait_ready(port, processes)
                processes_of = "the conf's" if web is None else str(web)
                on_cluster = f", the events on a 3-primary cluster (node {events})" if cluster else ""
                say(
                    f"   server: gunicorn -c deploy/gunicorn.conf.py {app} on 127.0.0.1:{port} "
                    f"({processes_of} web processes), {workers} RQ worker(s), "
                    f"redis-server (appendfsync {appendfsync}) at {server.url}{on_cluster}; logs in {logs}"
                )
                yield Served(port, server.url, events, processes[0].popen.pid)
                failed = False
            finally:
                for process in reversed(processes):  # the web app and worker before Redis
                    try:
                        process.stop()
                    except KeyboardInterrupt:  # a second Ctrl-C: no more waiting
                        for rest in processes:
                            rest.kill()
                        raise
                dead = [p for p in processes if p.popen.returncode not in (0, -signal.SIGTERM)]
                for process in dead:
                    say(f"   note: {process.name} stopped with {process.popen.returncode}")
    except KeyboardInterrupt:
        failed = False  # stopped on purpose: the logs tell nothing
        raise
    finally:
        if failed:
            say(f"   logs kept in {logs}")
        else:
            shutil.rmtree(logs, ignore_errors=True)


@contextmanager
def _events_store(plain: EmbeddedRedis, appendfsync: str, cluster: bool) -> Iterator[str]:
    """The URL of the events' Redis: `plain`'s, or a node of a fresh local cluster, stopped and
    deleted afterwards."""
    if not cluster:
        yield plain.url
        return
    data = tempfile.mkdtemp(prefix="archipelago-bench-cluster-", dir=bench_tmpdir())
    nodes = None
    try:
        nodes = start_cluster(data, appendfsync=appendfsync)
        yield nodes.url
    finally:
        if nodes is not None:
            nodes.stop()
        shutil.rmtree(data, ignore_errors=True)


# --- the clients ----------------------------------------------------------------------


class ConnectionLost(Exception):
    pass


def find_key(answer: Any, key: str) -> Any:
    """`answer[key]`, or the first `key` in a nested object (the view may be wrapped)."""
    queue = [answer]
    while queue:
        item = queue.pop(0)
        if isinstance(item, dict):
            if key in item:
                return item[key]
            queue += [v for v in item.values() if isinstance(v, dict)]
    return None


def problem_code(answer: Any) -> str | None:
    return answer.get("code") if isinstance(answer, dict) else None


@dataclass
class ClientStats:
    samples: dict[str, list[float]] = field(default_factory=lambda: {e: [] for e in ENDPOINTS})
    games_created: int = 0
    games_finished: int = 0
    commands: int = 0
    scoring_waits: int = 0
    scoring_ms: list[float] = field(default_factory=list)  # phase scoring seen -> play again
    reconnects: int = 0


class Client(threading.Thread):
    """Plays its own games as both seats, timing each request in the measured window."""

    def __init__(self, number: int, port: int, seed: int, measure_from: float, stop: threading.Event) -> None:
        super().__init__(name=f"bench-client-{number}", daemon=True)
        self.port = port
        self.rng = random.Random(seed * 1000 + number)
        self.measure_from = measure_from
        self.stop_event = stop
        self.stats = ClientStats()
        self.error: BaseException | None = None
        self.conn = self._connect()

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def run(self) -> None:
        try:
            while not self.stop_event.is_set():
                self.play_game()
        except BaseException as exc:  # reported by the main thread
            self.error = exc
            self.stop_event.set()
        finally:
            self.conn.close()

    def request(
        self, endpoint: str, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (ConnectionError, http.client.HTTPException) as exc:
            # E.g. the server closed an idle keep-alive connection. Start afresh from a
            # GET: a command that did reach the server is then simply seen in the state.
            self.conn.close()
            self.conn = self._connect()
            self.stats.reconnects += 1
            raise ConnectionLost(f"{method} {path}: {exc!r}") from exc
        elapsed_ms = (time.perf_counter() - started) * 1000
        if started >= self.measure_from and not self.stop_event.is_set():
            self.stats.samples[endpoint].append(elapsed_ms)
        try:
            answer = json.loads(raw) if raw else None
        except ValueError:
            answer = raw[:200]
        return response.status, answer

    def play_game(self) -> None:
        status, created = self.request(POST_GAME, "POST", "/games", SETUP)
        if status != 201:
            raise BenchError(f"POST /games -> {status} {created!r}")
        game_id = created["game_id"]
        tokens = {int(s["seat"]): s["token"] for s in created["seats"]}
        self.stats.games_created += 1
        seat = min(tokens)
        last_progress = time.monotonic()
        scoring_since: float | None = None
        while not self.stop_event.is_set():
            if time.monotonic() - last_progress > STUCK_TIMEOUT:
                raise BenchError(f"game {game_id}: no legal command for {STUCK_TIMEOUT:.0f} s")
            try:
                status, view = self.request(GET_GAME, "GET", f"/games/{game_id}", token=tokens[seat])
                if status != 200:
                    raise BenchError(f"GET /games/{game_id} -> {status} {view!r}")
                phase = find_key(view, "phase")
                if phase in ("scoring", "setup"):
                    scoring_since = scoring_since or time.perf_counter()
                    time.sleep(SCORING_PAUSE)  # the worker scores the round
                    continue
                if scoring_since is not None:
                    if scoring_since >= self.measure_from:
                        self.stats.scoring_ms.append((time.perf_counter() - scoring_since) * 1000)
                    scoring_since = None
                if phase == "ended":
                    self.stats.games_finished += 1
                    return
                active = find_key(view, "active")
                if isinstance(active, int) and active in tokens:
                    seat = active
                status, legal = self.request(GET_LEGAL, "GET", f"/games/{game_id}/legal", token=tokens[seat])
                if status != 200:
                    raise BenchError(f"GET /games/{game_id}/legal -> {status} {legal!r}")
                commands = legal.get("commands") or []
                if not commands:
                    if phase is None:  # no hint in the view: ask the other seat
                        seat = (seat + 1) % len(tokens)
                    time.sleep(SCORING_PAUSE)
                    continue
                self.post_command(game_id, self.rng.choice(commands), tokens[seat])
                last_progress = time.monotonic()
            except ConnectionLost:
                continue

    def post_command(self, game_id: str, body: Any, token: str) -> None:
        path = f"/games/{game_id}/commands"
        deadline = time.monotonic() + STUCK_TIMEOUT
        while not self.stop_event.is_set():
            status, answer = self.request(POST_COMMAND, "POST", path, body, token)
            if status == 200:
                self.stats.commands += 1
                return
            if status == 409 and problem_code(answer) == "waiting_for_scoring":
                self.stats.scoring_waits += 1
                if time.monotonic() > deadline:
                    raise BenchError(f"game {game_id}: the round was not scored within {STUCK_TIMEOUT:.0f} s")
                time.sleep(SCORING_PAUSE)
                continue
            raise BenchError(f"POST {path} {body!r} -> {status} {answer!r}")


# --- the run --------------------------------------------------------------------------


def app_available(app: str = APP) -> bool:
    module = app.split(":", 1)[0]
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM stops the bench like Ctrl-C does, so the servers are stopped too."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run(quick: bool = False, seed: int = 1, seconds: float | None = None, app: str = APP) -> list[Figure]:
    timing = QUICK if quick else FULL
    if seconds is not None:
        timing = Timing(timing.clients, timing.warmup_seconds, seconds)
    say("== api: HTTP latency, real gunicorn + RQ worker + Redis ==")
    if not app_available(app):
        say(f"   not run: {app.split(':', 1)[0]} cannot be imported (service/app.py missing?)")
        return []
    say(
        f"   {timing.clients} client threads, one keep-alive connection each, own kahuna games "
        f"played to the end with random legal commands (seed {seed}); {timing.warmup_seconds:g} s "
        f"warm-up not counted, then {timing.seconds:g} s measured"
    )
    stop = threading.Event()
    clients: list[Client] = []
    with _sigterm_as_interrupt(), running_service(app) as served:
        port = served.port
        try:
            started = time.perf_counter()
            measure_from = started + timing.warmup_seconds
            clients = [Client(n, port, seed, measure_from, stop) for n in range(timing.clients)]
            for client in clients:
                client.start()
            end = measure_from + timing.seconds
            while not stop.is_set() and time.perf_counter() < end:
                time.sleep(0.05)
            measured = time.perf_counter() - measure_from
        finally:
            stop.set()
            for client in clients:
                client.join(timeout=35)
    errors = [c.error for c in clients if c.error is not None]
    if errors:
        raise BenchError(f"a client failed: {errors[0]!r}") from errors[0]
    return _report(clients, measured)


def _report(clients: list[Client], seconds: float) -> list[Figure]:
    merged: dict[str, list[float]] = {e: [] for e in ENDPOINTS}
    for client in clients:
        for endpoint, samples in client.stats.samples.items():
            merged[endpoint] += samples
    total = sum(len(s) for s in merged.values())
    totals = {
        name: sum(getattr(c.stats, name) for c in clients)
        for name in ("games_created", "games_finished", "commands", "scoring_waits", "reconnects")
    }
    say(
        f"   {total} requests measured in {seconds:.1f} s ({total / seconds:,.0f} requests/s); "
        f"all clients: {totals['games_created']} games created, {totals['games_finished']} "
        f"played to the end, {totals['commands']} commands, {totals['scoring_waits']} 409 "
        f"waiting_for_scoring retries, {totals['reconnects']} reconnects"
    )
    scoring = [ms for c in clients for ms in c.stats.scoring_ms]
    if scoring:
        say(
            f"   rounds scored by the worker, as the clients saw it (polling every "
            f"{SCORING_PAUSE * 1000:.0f} ms): {len(scoring)}, p50 {percentile(scoring, 50):.0f} ms, "
            f"max {max(scoring):.0f} ms"
        )
    figures = []
    for endpoint in ENDPOINTS:
        samples = merged[endpoint]
        if not samples:
            say(f"   {endpoint}: no samples")
            continue
        p50, p90, p99 = (percentile(samples, p) for p in (50, 90, 99))
        say(
            f"   {endpoint}: {len(samples)} requests, p50 {p50:.2f} ms, p90 {p90:.2f} ms, "
            f"p99 {p99:.2f} ms, max {max(samples):.2f} ms"
        )
        if endpoint in IN_TABLE:
            figures += [
                Figure("api", f"{endpoint} p50", p50, "ms"),
                Figure("api", f"{endpoint} p99", p99, "ms"),
            ]
    return figures
