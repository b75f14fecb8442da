"""Whether an answer's cost stays flat as the store grows: N finished games stored by bulk import
through the store (service.game_files.store_imported: the import script, listed as each is
stored), then the server time of the answers a visitor asks for most, at each N.

One Kahuna game is played through the GameService on a fresh embedded Redis (random legal
commands) and copied N times under new ids, as an import of its file would store it; a
tournament of four people with its first round paired and a few ongoing games sit beside them.
Each answer is timed in the app's process (Flask's test client: the server's time, no network),
the median of REQUESTS after WARMUP, as wall time and as the process's CPU time. The goal: at the
largest N, each within 1.5x of its time at the first N and under 20 ms, judged on the CPU time,
which other work on a shared machine does not inflate as it does the wall time. Redis memory
per stored game is the growth of `used_memory` over the games added, also shown per 300 events.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Sequence

from flask import Flask
from flask.testing import FlaskClient

from bench.common import Figure, say, temp_redis
from domain.turns import Score
from service.app import create_app
from service.game_files import store_imported
from service.games import GameService
from service.wiring import build_service

SIZES = (100, 1_000, 10_000)
HUGE = 100_000
QUICK_SIZES = (100, 300)
WARMUP, REQUESTS = 5, 31
GOAL_RATIO, GOAL_MS = 1.5, 20.0
PER_GAME_EVENTS = 300


def played_game(service: GameService, rng: random.Random) -> str:
    """A Kahuna game of two people played to its end with random legal commands; its id."""
    game_id = service.create({"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}]}).game_id
    for _ in range(5000):
        loaded = service.load(game_id)
        if loaded.rules.is_terminal(loaded.state):
            return game_id
        pending = loaded.rules.pending_system(loaded.state)
        if isinstance(pending, Score):
            service.score_round(game_id, pending.round)
            continue
        seat, command = rng.choice(
            [(s, c) for s in range(2) for c in loaded.rules.legal_commands(loaded.state, s)]
        )
        service.execute(game_id, seat, command.to_json())
    raise RuntimeError("the random game did not end")


def tournament(client: FlaskClient) -> str:
    """A Swiss of four people, its first round paired: its id."""
    body = {"name": "Growth Cup", "game": "kahuna", "format": "swiss", "rounds": 3}
    created = client.post("/tournaments", json=body).json
    auth = {"Authorization": f"Bearer {created['organizer_token']}"}
    for name in ("Kim", "Lou", "Max", "Ned"):
        client.post(f"/tournaments/{created['tournament_id']}/entrants", json={"name": name})
    for step in ("StartTournament", "PairRound"):
        answer = client.post(
            f"/tournaments/{created['tournament_id']}/commands", json={"type": step}, headers=auth
        )
        assert answer.status_code == 200, answer.json
    return str(created["tournament_id"])


def server_ms(client: FlaskClient, path: str) -> tuple[float, float]:
    """The median wall and CPU time in ms the app takes to answer GET `path`. The CPU time
    (this process's) leaves out Redis's share and the waits other work on the machine causes."""
    for _ in range(WARMUP):
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.status_code)
    wall, cpu = [], []
    for _ in range(REQUESTS):
        start, start_cpu = time.perf_counter(), time.process_time()
        client.get(path)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def run(quick: bool = False, seed: int = 1, seconds: float | None = None) -> list[Figure]:
    huge = os.environ.get("BENCH_GROWTH_HUGE") == "1"
    sizes: Sequence[int] = QUICK_SIZES if quick else (*SIZES, HUGE) if huge else SIZES
    counts = ", ".join(f"{n:,}" for n in sizes)
    say(f"== growth: answer times as the store grows to {counts} finished games ==")
    with temp_redis("everysec", label="growth") as server:
        service = build_service(server.url, server.url)
        app = create_app({"GAME_SERVICE": service, "TESTING": True, "RATE_LIMITS_ENABLED": False})
        return measure(app, service, sizes, random.Random(seed))


def measure(app: Flask, service: GameService, sizes: Sequence[int], rng: random.Random) -> list[Figure]:
    client = app.test_client()
    template = played_game(service, rng)
    loaded = service.load(template)
    events = len(loaded.envelopes)
    t = tournament(client)
    for _ in range(3):
        service.create({"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Cai"}]})
    paths = {
        "lobby /": "/",
        "GET /games?limit=30": "/games?limit=30",
        "GET /games?game=kahuna&status=finished&limit=30": "/games?game=kahuna&status=finished&limit=30",
        "GET /games/{id}": f"/games/{template}",
        "GET /ratings/kahuna": "/ratings/kahuna",
        "/t": "/t",
        "GET /tournaments/{id}/standings": f"/tournaments/{t}/standings",
    }
    say(f"   template: a random Kahuna game of {events} events, stored again under a new id per game")
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in paths}
    memory: list[float] = []
    stored, used = 1, int(service.redis.info("memory")["used_memory"])
    for size in sizes:
        started = time.monotonic()
        for _ in range(size - stored):
            store_imported(service, f"copy-{rng.getrandbits(64):016x}", loaded.envelopes, loaded.state, "{}")
        now_used = int(service.redis.info("memory")["used_memory"])
        per_game = (now_used - used) / max(1, size - stored)
        memory.append(per_game)
        per_300 = per_game / events * PER_GAME_EVENTS
        say(
            f"   N={size:,}: stored {size - stored:,} games in {time.monotonic() - started:.0f} s; "
            f"{per_game / 1024:.0f} KiB of Redis memory each ({per_300 / 1024:.0f} KiB per "
            f"{PER_GAME_EVENTS}-event game); load average {os.getloadavg()[0]:.2f}"
        )
        stored, used = size, now_used
        for label, path in paths.items():
            times[label].append(server_ms(client, path))
    return report(sizes, times, memory[-1], events)


def report(
    sizes: Sequence[int], times: dict[str, list[tuple[float, float]]], per_game: float, events: int
) -> list[Figure]:
    """The table: wall (CPU) median ms per N, the ratios of the largest N to the first, the goal
    (judged on the CPU time: on a shared machine the wall time mostly measures the neighbours)."""
    say(
        "   answer: median ms, wall (CPU)".ljust(54)
        + "".join(f"{f'N={n:,}':>16}" for n in sizes)
        + "  ratio wall (CPU)  goal"
    )
    figures = []
    for label, row in times.items():
        wall_ratio, cpu_ratio = row[-1][0] / row[0][0], row[-1][1] / row[0][1]
        met = "met" if cpu_ratio <= GOAL_RATIO and row[-1][1] < GOAL_MS else "MISSED"
        cells = "".join(f"{f'{wall:.2f} ({cpu:.2f})':>16}" for wall, cpu in row)
        say(f"   {label:<51}{cells}  {wall_ratio:5.2f} ({cpu_ratio:4.2f})  {met}")
        figures.append(Figure("growth", f"{label} at N={sizes[-1]:,}", row[-1][0], "ms"))
        figures.append(Figure("growth", f"{label} at N={sizes[-1]:,}, CPU", row[-1][1], "ms"))
        figures.append(
            Figure("growth", f"{label}: N={sizes[-1]:,} / N={sizes[0]:,}, CPU", cpu_ratio, "ratio")
        )
    per_300 = per_game / events * PER_GAME_EVENTS
    say(f"   Redis memory per stored {PER_GAME_EVENTS}-event game: {per_300 / 1024:.0f} KiB")
    figures.append(
        Figure("growth", f"Redis memory per stored {PER_GAME_EVENTS}-event game", per_300 / 1024, "KiB")
    )
    return figures
