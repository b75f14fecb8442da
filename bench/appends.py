"""The appends the store benches replay: batches of 1-3 events cut from random Kahuna self-play
games (bench.domain), each with its expected version as a command would write it, and the loop
that times one way of appending them for a while (bench.store, bench.append_cost)."""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bench.domain import play_game
from domain.actor import SYSTEM, Actor
from domain.decider import Command, Event
from domain.games import GAMES
from record.chain import ZERO_HASH, seal
from record.envelope import NewEvent, to_fields

CORPUS_GAME = "kahuna"


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
        decided += decisions(rules, setup, rng)
        batches, position, number = [], 0, 0
        while position < len(decided):
            size = rng.randint(1, 3)
            chunk = decided[position : position + size]
            batches.append(_batch(chunk, f"cmd-{number}", position))
            position += size
            number += 1
        played.append(batches)
    return played


def decisions(rules: Any, setup: dict[str, Any], rng: random.Random) -> list[tuple[Command, Event]]:
    """Every event of one random game, each with the command that caused it."""
    decided: list[tuple[Command, Event]] = []
    play_game(rules, setup, rng, lambda command, events: decided.extend((command, e) for e in events))
    return decided


def actor_of(command: Command) -> Actor:
    return SYSTEM if command.seat is None else Actor.of_seat(command.seat)


def _batch(chunk: Sequence[tuple[Command, Event]], command_id: str, version: int) -> Batch:
    events = tuple(
        NewEvent.recording(event, i, str(actor_of(command)), command_id)
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
