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
import json
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from bench.common import Figure, filesystem_of, say, temp_redis
from bench.domain import play_game
from domain.actor import SYSTEM, Actor
from domain.core import Command, Event
from domain.games import GAMES
from record.chain import ZERO_HASH, seal
from record.envelope import NewEvent, to_fields
from service.games import GameService
from service.store import EventStore

CORPUS_GAME = "kahuna"
FSYNC_POLICIES = ("everysec", "always")
FOLD_EVENTS = 300


@dataclass(frozen=True)
class Batch:
    """One append: the events, and the same envelopes serialized for the raw XADD."""

    events: tuple[NewEvent, ...]
    payload: bytes


def corpus(games: int, seed: int) -> list[list[Batch]]:
    """`games` random games' events, each game as its list of 1-3 event batches."""
    rng = random.Random(seed)
    rules = GAMES[CORPUS_GAME]
    setup = {"game": CORPUS_GAME, "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0}
    played: list[list[Batch]] = []
    for _ in range(games):
        decided = [(Command("CreateGame", None), Event("GameCreated", setup))]
        decided += _decisions(rules, setup, rng)
        batches, position, number = [], 0, 0
        while position < len(decided):
            size = rng.randint(1, 3)
            chunk = decided[position : position + size]
            batches.append(_batch(chunk, f"cmd-{number}", position))
            position += size
            number += 1
        played.append(batches)
    return played


def _decisions(rules: Any, setup: dict[str, Any], rng: random.Random) -> list[tuple[Command, Event]]:
    """Every event of one random game, each with the command that caused it."""
    decided: list[tuple[Command, Event]] = []
    play_game(rules, setup, rng, lambda command, events: decided.extend((command, e) for e in events))
    return decided


def _actor(command: Command) -> Actor:
    return SYSTEM if command.seat is None else Actor.of_seat(command.seat)


def _batch(chunk: Sequence[tuple[Command, Event]], command_id: str, version: int) -> Batch:
    events = tuple(
        NewEvent.recording(event, i, str(_actor(command)), command_id)
        for i, (command, event) in enumerate(chunk)
    )
    sealed = seal(events, version, "2025-01-01T00:00:00.000000Z", ZERO_HASH)
    payload = json.dumps([to_fields(envelope) for envelope in sealed]).encode()
    return Batch(events, payload)


Append = Callable[[str, int, Batch], None]


def appends(games: list[list[Batch]], prefix: str) -> Iterator[tuple[str, int, Batch]]:
    """(game id, expected version, batch) for ever: the corpus replayed under fresh game ids."""
    for number in itertools.count():
        game_id = f"{prefix}-{number}"
        version = 0
        for batch in games[number % len(games)]:
            yield game_id, version, batch
            version += len(batch.events)


@dataclass
class Measured:
    appends: int = 0
    events: int = 0
    payload_bytes: int = 0
    seconds: float = 0.0

    @property
    def per_second(self) -> float:
        return self.appends / self.seconds


def measure(op: Append, source: Iterator[tuple[str, int, Batch]], seconds: float) -> Measured:
    """Call `op` on the next appends from `source` for `seconds` (whole appends)."""
    done = Measured()
    start = time.perf_counter()
    while done.seconds < seconds:
        game_id, version, batch = next(source)
        op(game_id, version, batch)
        done.appends += 1
        done.events += len(batch.events)
        done.payload_bytes += len(batch.payload)
        done.seconds = time.perf_counter() - start
    return done


@dataclass(frozen=True)
class Timing:
    warmup_appends: int
    seconds: float  # per loop, split into `rounds` alternating slices
    rounds: int


FULL = Timing(warmup_appends=500, seconds=6.0, rounds=3)
QUICK = Timing(warmup_appends=50, seconds=0.4, rounds=1)


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
        decided += _decisions(GAMES[CORPUS_GAME], setup, rng)
    by_command = itertools.groupby(decided[:FOLD_EVENTS], key=lambda pair: id(pair[0]))
    return [
        tuple(NewEvent.recording(e, i, str(_actor(c)), f"cmd-{n}") for i, (c, e) in enumerate(group))
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
    # Imported here: append_cost measures with this module's corpus and loops.
    from bench import append_cost

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
