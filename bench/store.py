"""Appends per second through EventStore.append, against raw XADD on the same Redis.

The payloads are real: the events of random Kahuna self-play games (see
bench.domain), regrouped into batches of 1-3 events, each batch one append with
its expected version, as a command would write it (event ids, actor, command id,
secrets). `EventStore.append` seals the batch (hash chain), reads the previous
hash and runs the append script; the baseline is one XADD per batch of the same
serialized envelopes as a single field. Both loops are pipeline-free on one
connection, so each append pays its own round trips. A fresh embedded
redis-server (AOF on) is started per fsync policy in a temp dir.

Also the cost of a load with an empty cache: a stored FOLD_EVENTS-event game read, its
chain checked and folded through GameService.load, as the first request after a restart
(or a job in a new worker) pays it.
"""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

import redis

from bench import append_cost
from bench.appends import (
    CORPUS_GAME,
    FULL,
    QUICK,
    Batch,
    Measured,
    Timing,
    actor_of,
    appends,
    corpus,
    decisions,
    measure,
)
from bench.common import Figure, filesystem_of, say, temp_redis
from domain.decider import Command, Event
from domain.games import GAMES
from record.chain import ZERO_HASH, seal
from record.envelope import NewEvent, to_fields
from service.games import GameService
from service.store import EventStore

FSYNC_POLICIES = ("everysec", "always")
FOLD_EVENTS = 300


def bench_policy(appendfsync: str, games: list[list[Batch]], timing: Timing) -> tuple[Measured, Measured]:
    """(store, raw) on a fresh Redis with `appendfsync`; slices alternate to share any drift."""
    with temp_redis(appendfsync, label=appendfsync) as server:
        client = redis.Redis.from_url(server.url)
        try:
            store = EventStore(client)
            version = client.info("server")["redis_version"]
            fs = filesystem_of(server.data_dir)
            say(f"   appendfsync {appendfsync}: redis-server {version}, AOF in a temp dir on {fs}")

            def store_append(game_id: str, expected: int, batch: Batch) -> None:
                store.append(game_id, expected, batch.events)

            def raw_xadd(game_id: str, _expected: int, batch: Batch) -> None:
                client.xadd(f"raw:{{{game_id}}}", {"payload": batch.payload})

            store_source = appends(games, f"store-{appendfsync}")
            raw_source = appends(games, f"raw-{appendfsync}")
            for op, source in ((store_append, store_source), (raw_xadd, raw_source)):
                for _ in range(timing.warmup_appends):
                    op(*next(source))
            totals = Measured(), Measured()
            for _ in range(timing.rounds):
                for total, op, source in zip(
                    totals, (store_append, raw_xadd), (store_source, raw_source), strict=True
                ):
                    part = measure(op, source, timing.seconds / timing.rounds)
                    total.appends += part.appends
                    total.events += part.events
                    total.payload_bytes += part.payload_bytes
                    total.seconds += part.seconds
            return totals
        finally:
            client.close()


def seal_cost(batches: Sequence[Batch]) -> float:
    """Mean microseconds to seal and serialize one batch, as EventStore.append does."""
    start = time.perf_counter()
    for batch in batches:
        for envelope in seal(batch.events, 0, "2025-01-01T00:00:00.000000Z", ZERO_HASH):
            to_fields(envelope)
    return (time.perf_counter() - start) / len(batches) * 1e6


@dataclass(frozen=True)
class Folded:
    """Median milliseconds to read a stored game, and to load it (read, chain check, fold);
    `load_cpu_ms` is this process's CPU time of a load, which other work on the machine
    (and the Redis server's share) leaves out."""

    events: int
    folded_version: int
    read_ms: float
    load_ms: float
    load_cpu_ms: float


def fold_batches(seed: int) -> list[tuple[NewEvent, ...]]:
    """The first FOLD_EVENTS events of a random game that has them, one batch per command."""
    rng = random.Random(seed)
    setup = {"game": CORPUS_GAME, "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0}
    decided: list[tuple[Command, Event]] = []
    while len(decided) < FOLD_EVENTS:
        decided = [(Command("CreateGame", None), Event("GameCreated", setup))]
        decided += decisions(GAMES[CORPUS_GAME], setup, rng)
    by_command = itertools.groupby(decided[:FOLD_EVENTS], key=lambda pair: id(pair[0]))
    return [
        tuple(NewEvent.recording(e, i, str(actor_of(c)), f"cmd-{n}") for i, (c, e) in enumerate(group))
        for n, (_, group) in enumerate(by_command)
    ]


def fold_cost(store: EventStore, client: redis.Redis, repeats: int, seed: int = 1) -> Folded:
    """Store a FOLD_EVENTS-event game, then time `repeats` loads of it with an empty cache."""
    game_id = f"fold-{seed}"
    version = 0
    for batch in fold_batches(seed):
        store.append(game_id, version, batch)
        version += len(batch)
    service = GameService(store, client)
    reads, loads, cpu = [], [], []
    loaded = service.load(game_id)  # warm-up: imports, the rules' first-use caches
    for _ in range(repeats):
        start = time.perf_counter()
        store.read(game_id)
        reads.append(time.perf_counter() - start)
        service.forget(game_id)
        start, start_cpu = time.perf_counter(), time.process_time()
        loaded = service.load(game_id)
        loads.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return Folded(
        events=version,
        folded_version=loaded.version,
        read_ms=statistics.median(reads) * 1000,
        load_ms=statistics.median(loads) * 1000,
        load_cpu_ms=statistics.median(cpu) * 1000,
    )


def run(quick: bool = False, seed: int = 1, seconds: float | None = None) -> list[Figure]:
    timing = QUICK if quick else FULL
    if seconds is not None:
        timing = Timing(timing.warmup_appends, seconds, timing.rounds)
    games = corpus(4 if quick else 12, seed)
    batches = [b for game in games for b in game]
    events = sum(len(b.events) for b in batches)
    say("== store: EventStore.append vs raw XADD, one round trip at a time ==")
    say(
        f"   payloads: {len(games)} random {CORPUS_GAME} games, {len(batches)} batches of 1-3 "
        f"events (mean {events / len(batches):.2f}, {sum(len(b.payload) for b in batches) // len(batches)} "
        f"bytes serialized), replayed under fresh game ids"
    )
    say(
        f"   per policy: {timing.warmup_appends} warm-up appends of each kind not counted, then "
        f"{timing.seconds:g} s of each in {timing.rounds} alternating slice(s); "
        "store = EventStore.append (read prev hash + Lua script: XADD each event, event ids, "
        "events:$all), raw = one XADD of the batch's serialized envelopes"
    )
    say(f"   of which Python-side sealing alone (hash chain, JSON): {seal_cost(batches):.0f} us per append")
    figures = []
    for policy in FSYNC_POLICIES:
        store, raw = bench_policy(policy, games, timing)
        ratio = store.per_second / raw.per_second
        say(
            f"   appendfsync {policy}: store {store.appends} appends ({store.events} events) in "
            f"{store.seconds:.2f} s = {store.per_second:,.0f}/s "
            f"({store.seconds / store.appends * 1e6:.0f} us each); raw {raw.appends} XADDs in "
            f"{raw.seconds:.2f} s = {raw.per_second:,.0f}/s "
            f"({raw.seconds / raw.appends * 1e6:.0f} us each); store/raw = {ratio:.2f}"
        )
        figures += [
            Figure("store", f"appendfsync {policy}: EventStore.append", store.per_second, "commands/s"),
            Figure("store", f"appendfsync {policy}: raw XADD", raw.per_second, "XADD/s"),
            Figure("store", f"appendfsync {policy}: store/raw", ratio, "ratio"),
        ]
    figures += append_cost.run(games, timing)
    with temp_redis("everysec", label="fold") as server:
        client = redis.Redis.from_url(server.url)
        try:
            folded = fold_cost(EventStore(client), client, repeats=5 if quick else 50, seed=seed)
        finally:
            client.close()
    say(
        f"   load of a stored {folded.events}-event {CORPUS_GAME} game, empty cache (GameService.load: "
        f"read, chain check, fold): {folded.load_ms:.2f} ms median ({folded.load_cpu_ms:.2f} ms "
        f"CPU), of which the read {folded.read_ms:.2f} ms"
    )
    figures += [
        Figure("store", f"load of a {folded.events}-event game (empty cache)", folded.load_ms, "ms"),
        Figure("store", "CPU time of that load (this process)", folded.load_cpu_ms, "ms"),
        Figure("store", f"read of a {folded.events}-event game", folded.read_ms, "ms"),
    ]
    return figures
