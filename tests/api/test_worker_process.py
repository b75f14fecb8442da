"""The real, forking worker (`python -m service.worker`) as `make run` starts it."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient

from service.embedded_redis import EmbeddedRedis, free_port
from service.queues import QUEUE_AI, QUEUE_DEFAULT, queue
from tests.api.helpers import create_game, play, view

ROOT = Path(__file__).resolve().parents[2]
DONE_WITHIN = 20.0


def start_worker(
    redis_server: EmbeddedRedis, cache: Path, *args: str, events_url: str | None = None
) -> subprocess.Popen[bytes]:
    """The worker as on a fresh install: an empty bytecode cache makes its imports slow."""
    env = dict(
        os.environ,
        REDIS_URL=events_url or redis_server.url,
        RQ_REDIS_URL=redis_server.url,
        PYTHONPYCACHEPREFIX=str(cache),
    )
    return subprocess.Popen([sys.executable, "-m", "service.worker", *args], cwd=ROOT, env=env)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _queued(redis_client: redis.Redis) -> int:
    return sum(queue(name, redis_client).count for name in (QUEUE_DEFAULT, QUEUE_AI))


@pytest.fixture
def ai_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")


def _queue_scoring_and_ai_jobs(
    client: FlaskClient, run_worker: Callable[[], None], redis_client: redis.Redis, seed: int
) -> tuple[list[dict], list[dict]]:
    """Two rounds waiting for their scoring, three computer seats to move: six queued jobs."""
    scoring = []
    for n in range(2):
        game = create_game(client)
        play(client, game, random.Random(seed + n), run_worker, until=lambda v: v["phase"] == "scoring")
        scoring.append(game)
    body = {"game": "kahuna", "seats": [{"name": "Bot", "ai": "random"}, {"name": "Ann"}], "first_seat": 0}
    computer_first = [client.post("/games", json=body).json for _ in range(4)]
    assert _queued(redis_client) == len(scoring) + len(computer_first)
    return scoring, computer_first


@pytest.mark.parametrize("start", [1, 2, 3])
def test_a_worker_started_with_queued_scoring_and_ai_jobs_does_them_within_seconds(
    client: FlaskClient,
    run_worker: Callable[[], None],
    redis_client: redis.Redis,
    redis_server: EmbeddedRedis,
    ai_budget: None,
    tmp_path: Path,
    start: int,
) -> None:
    # Several starts: a horse forked while the sweeper thread imports hangs only when
    # the fork falls inside that import.
    scoring, computer_first = _queue_scoring_and_ai_jobs(client, run_worker, redis_client, 40 + 2 * start)
    worker = start_worker(redis_server, tmp_path, "--sweep-interval", "1")
    try:
        deadline = time.monotonic() + DONE_WITHIN
        while time.monotonic() < deadline:
            if all(view(client, g)["phase"] == "play" for g in scoring) and all(
                view(client, g)["version"] > g["version"] for g in computer_first
            ):
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"the jobs were not done within {DONE_WITHIN}s (a work horse hangs)")
        assert worker.poll() is None, "the worker is still running"
    finally:
        stop(worker)


def test_a_worker_whose_sweeper_dies_exits_non_zero(redis_server: EmbeddedRedis, tmp_path: Path) -> None:
    # RQ's Redis answers, the events' Redis does not: the sweeper cannot even start.
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    worker = start_worker(redis_server, tmp_path, "--sweep-interval", "1", events_url=nowhere)
    try:
        code = worker.wait(timeout=DONE_WITHIN)
    except subprocess.TimeoutExpired:
        pytest.fail("the worker ran on without its sweeper")
    finally:
        stop(worker)
    assert code == 1
