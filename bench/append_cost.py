"""Redis CPU per appended event: what the server spends on EventStore.append against a raw XADD of
the same bytes, on one Redis and on a 3-primary cluster (`everysec`), from the servers' own books.

INFO commandstats times each command inside the server: the append script's EVALSHA includes
the commands it calls (XADD, HSET, ... are also booked under their own names, so they are shown
apart, never added again), and the previous hash's XRANGE when the store's cache misses. INFO
cpu's main-thread figure adds what commandstats leaves out (reading the request, writing the
answer and the AOF buffer). Appends and raw XADDs alternate in slices, so load from other work
on the machine falls on both; commandstats counts wall time inside a command, so a loaded
machine inflates it (a slice in which the server was preempted mid-command reads high: the
figures are medians of the slices), while the main thread's CPU time is what it really spent.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import redis
from redis.cluster import RedisCluster

from bench.appends import Batch, Timing, appends, measure
from bench.common import Figure, bench_tmpdir, say, temp_redis
from service.embedded_cluster import start_cluster
from service.store import EventStore

SCRIPT = "evalsha"
BESIDE_SCRIPT = ("script", "xrange")
"""What EventStore.append sends besides the script: SCRIPT LOAD once (the first EVALSHA of a new
server answers NOSCRIPT), the previous event's hash on a cache miss."""
RAW = "xadd"
SLICES_A_ROUND = 4
"""More, shorter slices than the throughput's: each is a sample for the medians."""

Client = redis.Redis | RedisCluster


@dataclass
class Books:
    """Sums of the servers' books: per command (calls, µs) and the main threads' CPU seconds."""

    commands: dict[str, tuple[int, float]]
    cpu_seconds: float

    def minus(self, before: Books) -> Books:
        commands = {}
        for name, (calls, usec) in self.commands.items():
            calls0, usec0 = before.commands.get(name, (0, 0.0))
            if calls > calls0:
                commands[name] = (calls - calls0, usec - usec0)
        return Books(commands, self.cpu_seconds - before.cpu_seconds)


@dataclass
class Cost:
    """What the servers booked for a run of appends (or raw XADDs) of `events` events."""

    appends: int = 0
    events: int = 0
    command_us: float = 0.0  # the top-level commands: the script (nested calls included), reads
    nested_us: float = 0.0  # of which the commands the script called
    nested_calls: int = 0
    cpu_us: float = 0.0
    slices: list[tuple[float, float]] = field(default_factory=list)  # per event: commands, CPU

    def per_event(self, us: float) -> float:
        return us / self.events if self.events else float("nan")

    def median_command_us(self) -> float:
        """Per event, the median slice's: a slice whose server was preempted mid-command by
        other work on the machine weighs no more than any other."""
        return statistics.median(c for c, _ in self.slices) if self.slices else float("nan")

    def median_cpu_us(self) -> float:
        return statistics.median(c for _, c in self.slices) if self.slices else float("nan")


def books(client: Client) -> Books:
    """The commandstats and main-thread CPU of `client`'s server, summed over a cluster's primaries."""
    if isinstance(client, RedisCluster):
        stats = list(client.info("commandstats", target_nodes=RedisCluster.PRIMARIES).values())
        cpus = list(client.info("cpu", target_nodes=RedisCluster.PRIMARIES).values())
    else:
        stats, cpus = [client.info("commandstats")], [client.info("cpu")]
    commands: dict[str, tuple[int, float]] = {}
    for node in stats:
        for key, value in node.items():
            name = key.removeprefix("cmdstat_")
            calls, usec = commands.get(name, (0, 0.0))
            commands[name] = (calls + int(value["calls"]), usec + float(value["usec"]))
    cpu = sum(float(c["used_cpu_user_main_thread"]) + float(c["used_cpu_sys_main_thread"]) for c in cpus)
    return Books(commands, cpu)


def book(cost: Cost, spent: Books, appends: int, events: int, top_level: tuple[str, ...]) -> None:
    """Add one slice's books to `cost`: `top_level` are the commands the client sent itself."""
    cost.appends += appends
    cost.events += events
    cost.cpu_us += spent.cpu_seconds * 1e6
    command_us = 0.0
    for name, (calls, usec) in spent.commands.items():
        if name in top_level:
            command_us += usec
        elif name not in ("info", "cluster", "command"):
            cost.nested_us += usec
            cost.nested_calls += calls
    cost.command_us += command_us
    if events:
        cost.slices.append((command_us / events, spent.cpu_seconds * 1e6 / events))


def compare(client: Client, games: list[list[Batch]], timing: Timing, label: str) -> tuple[Cost, Cost]:
    """(append, raw XADD) costs on the server(s) behind `client`, in alternating slices."""
    store = EventStore(client)

    def store_append(game_id: str, expected: int, batch: Batch) -> None:
        store.append(game_id, expected, batch.events)

    def raw_xadd(game_id: str, _expected: int, batch: Batch) -> None:
        client.xadd(f"raw:{{{game_id}}}", {"payload": batch.payload})

    kinds: list[tuple[Callable[[str, int, Batch], None], Iterator[Any], tuple[str, ...], Cost]] = [
        (store_append, appends(games, f"cost-{label}"), (SCRIPT, *BESIDE_SCRIPT), Cost()),
        (raw_xadd, appends(games, f"raw-{label}"), (RAW,), Cost()),
    ]
    for op, source, _, _ in kinds:
        for _ in range(timing.warmup_appends):
            op(*next(source))
    for _ in range(timing.rounds * SLICES_A_ROUND):
        for op, source, top_level, cost in kinds:
            before = books(client)
            done = measure(op, source, timing.seconds / timing.rounds / SLICES_A_ROUND)
            book(cost, books(client).minus(before), done.appends, done.events, top_level)
    return kinds[0][3], kinds[1][3]


@contextmanager
def one_redis() -> Iterator[Client]:
    with temp_redis("everysec", label="cost") as server:
        client = redis.Redis.from_url(server.url)
        try:
            yield client
        finally:
            client.close()


@contextmanager
def cluster() -> Iterator[Client]:
    data = tempfile.mkdtemp(prefix="archipelago-bench-cost-cluster-", dir=bench_tmpdir())
    started = start_cluster(data, appendfsync="everysec")
    client = started.client()
    try:
        yield client
    finally:
        client.close()
        started.stop()
        shutil.rmtree(data, ignore_errors=True)


SERVERS: dict[str, Callable[[], AbstractContextManager[Client]]] = {
    "one Redis": one_redis,
    "3-primary cluster": cluster,
}


def run(games: list[list[Batch]], timing: Timing) -> list[Figure]:
    say(
        "   Redis CPU per appended event (INFO commandstats: the script's EVALSHA, its nested calls "
        "included, plus the store's XRANGE reads; INFO cpu: the main threads), beside one raw XADD "
        "of the same bytes per batch, alternating, appendfsync everysec:"
    )
    figures = []
    for label, start in SERVERS.items():
        with start() as client:
            store, raw = compare(client, games, timing, label.split()[0])
        script, xadd = store.median_command_us(), raw.median_command_us()
        nested = store.per_event(store.nested_us)
        say(
            f"   {label}: append {script:.1f} us/event in commands (of which {nested:.1f} us in "
            f"{store.nested_calls / store.events:.1f} nested calls), main thread "
            f"{store.median_cpu_us():.1f} us/event; raw XADD {xadd:.1f} us/event in commands, main "
            f"thread {raw.median_cpu_us():.1f} us/event; medians of {len(store.slices)} slices "
            f"({store.events} and {raw.events} events); load average {os.getloadavg()[0]:.2f}"
        )
        figures += [
            Figure("store", f"{label}: Redis CPU per appended event (commandstats)", script, "us"),
            Figure("store", f"{label}: of which nested calls", nested, "us"),
            Figure("store", f"{label}: raw XADD per event (commandstats)", xadd, "us"),
            Figure("store", f"{label}: append/raw XADD (commandstats)", script / xadd, "ratio"),
            Figure("store", f"{label}: append, main thread CPU per event", store.median_cpu_us(), "us"),
            Figure("store", f"{label}: raw XADD, main thread CPU per event", raw.median_cpu_us(), "us"),
        ]
    return figures
