"""Load: many clients against 1, 2 or 4 web processes and 1 or 2 RQ workers on one Redis.

For each pair, CLIENTS client threads (bench.api's, each playing its own Kahuna games to the
end with keep-alive connections) load a fresh service for the measured seconds. Printed:
commands/s, p50/p99 of GET /games/{id} and POST /games/{id}/commands, each also as a ratio to
a raw Redis round trip (PING on one connection, measured on the same server just before the
clients start), and how long a round's scoring kept its clients waiting (phase `scoring` seen
-> `play` again, polled every 10 ms), p50/p99/max. Everything shares the machine's cores.

Stores (STORES), each run in turn: one Redis (`redis`), and a local 3-primary Redis Cluster
holding the events (`cluster`) with RQ on a plain Redis beside it, whose raw round trip is a PING
to one of its primaries. BENCH_LOAD_STORES (e.g. `cluster`) picks some.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass

import psutil
import redis
from rq import Worker
from rq.job import Job
from rq.serializers import JSONSerializer

from bench import api
from bench.common import Figure, percentile, say
from service.queues import QUEUE_DEFAULT, queue

CLIENTS = 64
PAIRS = ((1, 1), (2, 1), (4, 1), (1, 2), (2, 2), (4, 2))
"""(web processes, RQ workers)."""
QUICK_PAIRS = ((1, 1),)
RAW_SECONDS = 1.0
WARMUP_SECONDS = 5.0
SECONDS = 20.0

StoreStarter = Callable[[int, int], AbstractContextManager[api.Served]]


def _one_redis(web: int, workers: int) -> AbstractContextManager[api.Served]:
    return api.running_service(web=web, workers=workers)


def _cluster(web: int, workers: int) -> AbstractContextManager[api.Served]:
    return api.running_service(web=web, workers=workers, cluster=True)


STORES: dict[str, StoreStarter] = {"redis": _one_redis, "cluster": _cluster}
"""How each store kind starts the service."""


@dataclass(frozen=True)
class Raw:
    p50_ms: float
    p99_ms: float
    per_second: float


def raw_round_trip(url: str, seconds: float = RAW_SECONDS) -> Raw:
    """PING on one connection, one after the other, for `seconds`."""
    client = redis.Redis.from_url(url)
    samples: list[float] = []
    try:
        client.ping()
        end = time.perf_counter() + seconds
        while (now := time.perf_counter()) < end:
            client.ping()
            samples.append((time.perf_counter() - now) * 1000)
    finally:
        client.close()
    return Raw(percentile(samples, 50), percentile(samples, 99), len(samples) / seconds)


@dataclass(frozen=True)
class Load:
    web: int
    workers: int
    raw: Raw
    commands_per_second: float
    get_ms: tuple[float, float]
    post_ms: tuple[float, float]
    scoring_ms: tuple[float, float, float]
    rounds_scored: int
    job_queued_ms: tuple[float, float]
    job_running_ms: tuple[float, float]
    worker_cpu_ms_per_job: float
    commands_per_web_cpu_second: float
    """Commands answered per CPU second the web processes spent: commands per core, whatever the
    machine's other work leaves them."""


def measure(
    start: StoreStarter, web: int, workers: int, clients: int, warmup: float, seconds: float, seed: int
) -> Load:
    stop = threading.Event()
    players: list[api.Client] = []
    with start(web, workers) as served:
        raw = raw_round_trip(served.events_url)
        jobs_from = time.time()
        try:
            measure_from = time.perf_counter() + warmup
            players = [api.Client(n, served.port, seed, measure_from, stop) for n in range(clients)]
            for player in players:
                player.start()
            cpu_from: dict[int, float] | None = None
            web_from: dict[int, float] = {}
            while not stop.is_set() and time.perf_counter() < measure_from + seconds:
                if cpu_from is None and time.perf_counter() >= measure_from:
                    cpu_from, web_from = workers_cpu(served.redis_url), web_cpu(served.web_pid)
                time.sleep(0.05)
            measured = time.perf_counter() - measure_from
            cpu = _spent(cpu_from or {}, workers_cpu(served.redis_url))
            web_seconds = _spent(web_from, web_cpu(served.web_pid))
        finally:
            stop.set()
            for player in players:
                player.join(timeout=35)
        queued, running = scoring_jobs(served.redis_url, jobs_from + warmup)
    errors = [p.error for p in players if p.error is not None]
    if errors:
        raise api.BenchError(f"a client failed: {errors[0]!r}") from errors[0]
    return _tally(web, workers, raw, players, measured, queued, running, (cpu, web_seconds))


def workers_cpu(url: str) -> dict[int, float]:
    """CPU seconds each RQ worker process (and the work horses it reaped) has used, by pid."""
    connection = redis.Redis.from_url(url)
    try:
        pids = [w.pid for w in Worker.all(connection=connection) if w.pid]
    finally:
        connection.close()
    spent = {}
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.Error:
            continue
        spent[pid] = times.user + times.system + times.children_user + times.children_system
    return spent


def web_cpu(master: int) -> dict[int, float]:
    """CPU seconds gunicorn's master and each of its web processes have used, by pid."""
    spent = {}
    try:
        tier = psutil.Process(master)
        processes = [tier, *tier.children(recursive=True)]
    except psutil.Error:
        return {}
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        spent[process.pid] = times.user + times.system
    return spent


def _spent(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(after[pid] - before[pid] for pid in after if pid in before)


def scoring_jobs(url: str, since: float) -> tuple[list[float], list[float]]:
    """Of the scoring jobs enqueued after `since` (epoch seconds) and done: ms each waited in
    the queue, and ms each ran (from its worker taking it to its end)."""
    connection = redis.Redis.from_url(url)
    try:
        done = queue(QUEUE_DEFAULT, connection).finished_job_registry
        jobs = Job.fetch_many(done.get_job_ids(), connection=connection, serializer=JSONSerializer)
    finally:
        connection.close()
    queued, running = [], []
    for job in jobs:
        if job is None or not (job.enqueued_at and job.started_at and job.ended_at):
            continue
        if job.enqueued_at.timestamp() < since:
            continue
        queued.append((job.started_at - job.enqueued_at).total_seconds() * 1000)
        running.append((job.ended_at - job.started_at).total_seconds() * 1000)
    return queued, running


def _tally(
    web: int,
    workers: int,
    raw: Raw,
    players: list[api.Client],
    seconds: float,
    queued: list[float],
    running: list[float],
    cpu: tuple[float, float],
) -> Load:
    def merged(endpoint: str) -> list[float]:
        return [ms for p in players for ms in p.stats.samples[endpoint]]

    gets, posts = merged(api.GET_GAME), merged(api.POST_COMMAND)
    scoring = [ms for p in players for ms in p.stats.scoring_ms]
    return Load(
        web,
        workers,
        raw,
        len(posts) / seconds,
        (percentile(gets, 50), percentile(gets, 99)),
        (percentile(posts, 50), percentile(posts, 99)),
        (percentile(scoring, 50), percentile(scoring, 99), max(scoring, default=float("nan"))),
        len(scoring),
        (percentile(queued, 50), percentile(queued, 99)),
        (percentile(running, 50), percentile(running, 99)),
        cpu[0] * 1000 / len(running) if running else float("nan"),
        len(posts) / cpu[1] if cpu[1] > 0 else float("nan"),
    )


def _report(store: str, clients: int, load: Load) -> list[Figure]:
    raw = load.raw
    get50, get99 = load.get_ms
    post50, post99 = load.post_ms
    wait50, wait99, wait_max = load.scoring_ms
    say(
        f"   {store}, {load.web} web x {load.workers} worker(s), {clients} clients: "
        f"{load.commands_per_second:,.0f} commands/s; GET p50 {get50:.1f} ms ({get50 / raw.p50_ms:.0f}x raw) "
        f"p99 {get99:.1f} ms ({get99 / raw.p99_ms:.0f}x); POST p50 {post50:.1f} ms "
        f"({post50 / raw.p50_ms:.0f}x) p99 {post99:.1f} ms ({post99 / raw.p99_ms:.0f}x); raw PING p50 "
        f"{raw.p50_ms:.3f} ms p99 {raw.p99_ms:.3f} ms ({raw.per_second:,.0f}/s); scoring wait "
        f"p50 {wait50:.0f} ms p99 {wait99:.0f} ms max {wait_max:.0f} ms ({load.rounds_scored} rounds), "
        f"of it in the queue p50 {load.job_queued_ms[0]:.0f} ms p99 {load.job_queued_ms[1]:.0f} ms, "
        f"the job itself p50 {load.job_running_ms[0]:.0f} ms p99 {load.job_running_ms[1]:.0f} ms; "
        f"the workers' CPU time per scoring job {load.worker_cpu_ms_per_job:.1f} ms; "
        f"{load.commands_per_web_cpu_second:,.0f} commands per web-CPU second"
    )
    label = f"{store} {load.web}w/{load.workers}q"
    return [
        Figure("load", f"{label} commands/s", load.commands_per_second, "/s"),
        Figure("load", f"{label} commands per web-CPU s", load.commands_per_web_cpu_second, "/CPU s"),
        Figure("load", f"{label} GET p50 / raw", get50 / raw.p50_ms, "x"),
        Figure("load", f"{label} POST p50 / raw", post50 / raw.p50_ms, "x"),
        Figure("load", f"{label} POST p99", post99, "ms"),
        Figure("load", f"{label} scoring wait p99", wait99, "ms"),
    ]


def run(quick: bool = False, seed: int = 1, seconds: float | None = None) -> list[Figure]:
    """BENCH_LOAD_PAIRS (e.g. `1x2,2x2`) picks the (web x workers) pairs to run, BENCH_LOAD_STORES
    (e.g. `cluster`) the stores."""
    chosen = os.environ.get("BENCH_LOAD_PAIRS")
    pairs = tuple(pairs_of(chosen)) if chosen else QUICK_PAIRS if quick else PAIRS
    stores = stores_of(os.environ.get("BENCH_LOAD_STORES") or ",".join(STORES))
    clients = 8 if quick else CLIENTS
    warmup = 0.5 if quick else WARMUP_SECONDS
    measured = seconds if seconds is not None else (2.0 if quick else SECONDS)
    figures: list[Figure] = []
    for store in stores:
        say(f"== load: {clients} clients, web processes x RQ workers, on {store} ==")
        say(
            f"   each pair on a fresh service; {warmup:g} s warm-up not counted, then {measured:g} s "
            f"measured; ratios are to a raw PING round trip on the same store (p50 to p50, p99 to p99)"
        )
        for web, workers in pairs:
            load = measure(STORES[store], web, workers, clients, warmup, measured, seed)
            figures += _report(store, clients, load)
    return figures


def stores_of(text: str) -> list[str]:
    """`redis,cluster` -> ["redis", "cluster"]; ValueError naming an unknown one."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in STORES]
    if unknown:
        raise ValueError(
            f"unknown store {unknown[0]!r} in BENCH_LOAD_STORES; choose from {', '.join(STORES)}"
        )
    return names


def pairs_of(text: str) -> Iterator[tuple[int, int]]:
    """`1x1,2x2` -> (1, 1), (2, 2)."""
    for part in text.split(","):
        web, _, workers = part.partition("x")
        yield int(web), int(workers)
