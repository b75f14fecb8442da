"""kill -9 of a worker while its job runs, then a fresh worker: the job is done again and its
result is recorded exactly once.

The killed worker's job stops for good before its work (nothing written: the job must be done
again) or after it (all written, the job never reported done: nothing may be written twice).
`make test` runs the first, `make faults` both. A job record lapses after three missed
heartbeats (ARCHIPELAGO_JOB_HEARTBEAT_SECONDS, 1 here), then the new worker's sweeper runs it.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service import analysis, jobs
from service.api.context import game_service
from service.embedded_redis import EmbeddedRedis
from service.queues import ANALYSIS_AWAITING
from service.store import EventStore, verify_chain
from tests.api.helpers import create_game, play, view

ROOT = Path(__file__).resolve().parents[2]
WITHIN = 45.0
BOT_FIRST = {"game": "kahuna", "seats": [{"name": "Bot", "ai": "random"}, {"name": "Ann"}], "first_seat": 0}
TWO_BOTS = {"game": "kahuna", "seats": [{"name": "R1", "ai": "random"}, {"name": "R2", "ai": "random"}]}

WHERE = [
    pytest.param("before", id="before-its-work"),
    pytest.param("after", id="after-its-work", marks=pytest.mark.faults),
]


@pytest.fixture(autouse=True)
def quick_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Heartbeats each second; short analyses in several slices; no stray bytecode writes."""
    monkeypatch.setenv("ARCHIPELAGO_JOB_HEARTBEAT_SECONDS", "1")
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")
    monkeypatch.setenv("ARCHIPELAGO_AI_SLICE_SECONDS", "0.05")
    monkeypatch.setenv("ARCHIPELAGO_ANALYSIS_SECONDS", "0.01")


def _worker(redis_server: EmbeddedRedis, *module: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, REDIS_URL=redis_server.url, RQ_REDIS_URL=redis_server.url)
    command = [sys.executable, "-m", *module, "--sweep-interval", "1"]
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)


def _until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WITHIN
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {WITHIN:.0f} s")
        time.sleep(0.1)


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


@contextmanager
def _fresh_worker(redis_server: EmbeddedRedis) -> Iterator[subprocess.Popen[bytes]]:
    process = _worker(redis_server, "service.worker")
    try:
        yield process
        assert process.poll() is None, "the fresh worker still runs"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def kill_worker_in(redis_server: EmbeddedRedis, tmp_path: Path, job: str, where: str) -> tuple[int, int]:
    """Start a worker whose `job` stops `where`; kill -9 it (and so its work horse) there.
    The pids of the worker and of the process that ran the job."""
    marker = tmp_path / f"{job}-{where}.pid"
    process = _worker(redis_server, "tests.faults.paused_worker", job, where, str(marker))
    horse = 0
    try:
        _until(lambda: marker.exists() and marker.read_text() != "", f"the worker did not reach {job}")
        horse = int(marker.read_text())
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        _until(lambda: _gone(horse), "the work horse did not die with its worker")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if horse and not _gone(horse):
            os.kill(horse, signal.SIGKILL)
    return process.pid, horse


def test_a_worker_scores_a_round_itself_and_runs_a_computer_move_in_a_forked_work_horse(
    client: FlaskClient, run_worker: Callable[[], None], redis_server: EmbeddedRedis, tmp_path: Path
) -> None:
    # A fork per scoring, with its fresh connections, kept rounds waiting for seconds under load.
    game = create_game(client)
    play(client, game, random.Random(3), run_worker, until=lambda v: v["phase"] == "scoring")
    worker, ran = kill_worker_in(redis_server, tmp_path, "score_round", "before")
    assert ran == worker

    assert client.post("/games", json=BOT_FIRST).status_code == 201
    worker, ran = kill_worker_in(redis_server, tmp_path, "ai_move", "before")
    assert ran != worker


def _events(redis_client: redis.Redis, game_id: str) -> list[Any]:
    events = EventStore(redis_client).read(game_id)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert verify_chain(events) is None
    ids = [e.event_id for e in events]
    assert len(ids) == len(set(ids)), "an event recorded twice"
    return events


@pytest.mark.parametrize("where", WHERE)
def test_a_worker_killed_in_score_round_leaves_the_round_scored_exactly_once(
    client: FlaskClient,
    run_worker: Callable[[], None],
    redis_client: redis.Redis,
    redis_server: EmbeddedRedis,
    tmp_path: Path,
    where: str,
) -> None:
    game = create_game(client)
    waiting = play(client, game, random.Random(3), run_worker, until=lambda v: v["phase"] == "scoring")
    kill_worker_in(redis_server, tmp_path, "score_round", where)

    with _fresh_worker(redis_server):
        _until(lambda: view(client, game)["phase"] == "play", "the round was not scored")

    events = _events(redis_client, game["game_id"])
    after = events[waiting["version"] :]
    assert [e.type for e in after].count("RoundScored") == 1
    assert after[0].type == "RoundScored" and after[0].actor == "worker"


@pytest.mark.parametrize("where", WHERE)
def test_a_worker_killed_in_ai_move_leaves_exactly_one_command_of_the_computer_seat(
    client: FlaskClient, redis_client: redis.Redis, redis_server: EmbeddedRedis, tmp_path: Path, where: str
) -> None:
    created = client.post("/games", json=BOT_FIRST)
    assert created.status_code == 201, created.json
    game_id, version = created.json["game_id"], created.json["version"]
    kill_worker_in(redis_server, tmp_path, "ai_move", where)

    with _fresh_worker(redis_server):
        # The computer plays its whole turn, one job a command, until the person's seat acts.
        _until(lambda: client.get(f"/games/{game_id}").json["active"] == 1, "the computer did not move")

    events = _events(redis_client, game_id)
    moved = events[version]
    assert moved.actor == "seat:0"
    # One command at `version`: its events are one block, and no later command reuses its id.
    block = [e.version for e in events if e.command_id == moved.command_id]
    assert block == list(range(version + 1, version + 1 + len(block)))


def _ended_game_waiting_for_its_analysis(
    app: Flask, client: FlaskClient, run_jobs: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> str:
    """Two computers' casual game played to its end in this process; its analysis queued afresh."""
    real = jobs.analyse
    monkeypatch.setattr(jobs, "analyse", lambda *args, **kwargs: 0)
    created = client.post("/games", json={**TWO_BOTS, "first_seat": 0})
    game_id = str(created.json["game_id"])
    for _ in range(40):
        run_jobs()
        if client.get(f"/games/{game_id}").json["phase"] == "ended":
            break
    monkeypatch.setattr(jobs, "analyse", real)
    with app.app_context():
        game_service().ai.continue_analysis(game_id, 0)
    return game_id


@pytest.mark.parametrize("where", WHERE)
def test_a_worker_killed_in_an_analysis_slice_leaves_each_decision_analysed_exactly_once(
    app: Flask,
    client: FlaskClient,
    run_jobs: Callable[[], None],
    redis_client: redis.Redis,
    redis_server: EmbeddedRedis,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
) -> None:
    game_id = _ended_game_waiting_for_its_analysis(app, client, run_jobs, monkeypatch)
    kill_worker_in(redis_server, tmp_path, "analyse", where)

    with _fresh_worker(redis_server):
        _until(lambda: not redis_client.hexists(ANALYSIS_AWAITING, game_id), "the analysis did not end")

    notes = client.get(f"/games/{game_id}/annotations?layer=analysis").json["annotations"]
    versions = [n["version"] for n in notes if n["kind"] == "comment"]
    with app.app_context():
        whole, rest = analysis.analysis_notes(game_service().load(game_id), analysis.analysis_budget())
    assert rest is None
    assert sorted(versions) == [n["version"] for n in whole if n["kind"] == "comment"]
