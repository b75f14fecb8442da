"""`make run` starts a part that dies again: kill -9 of the RQ worker, of Redis, of a web
worker process and of the gunicorn master; the service answers again within 30 s and every
acknowledged command is still there."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
import redis

from service.queues import QUEUE_DEFAULT, queue
from tests.service.launcher_run import STARTED_WITHIN, Run, call, running, wait_until

BACK_WITHIN = 30.0
KILLS = ("RQ worker", "Redis", "a web worker process", "the gunicorn master")
#: How the launcher names what it starts again.
LAUNCHER_NAMES = {"RQ worker": "RQ worker", "Redis": "Redis", "the gunicorn master": "web server (gunicorn)"}


def create_game(run: Run) -> dict[str, Any]:
    body = {"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}], "first_seat": 0}
    status, created = call("POST", f"{run.url}/games", body)
    assert status == 201, created
    created["tokens"] = [seat["token"] for seat in created["seats"]]
    return created


def move(run: Run, game: dict[str, Any]) -> int:
    """Play the first legal command of the first seat that has one; the acknowledged version."""
    base = f"{run.url}/games/{game['game_id']}"
    for token in game["tokens"]:
        status, legal = call("GET", f"{base}/legal", token=token)
        assert status == 200, legal
        if legal["commands"]:
            status, answer = call("POST", f"{base}/commands", legal["commands"][0], token=token)
            assert status == 200, answer
            return int(answer["version"])
    raise AssertionError("no seat may move")


def stored(run: Run, game: dict[str, Any]) -> list[dict[str, Any]]:
    status, answer = call("GET", f"{run.url}/games/{game['game_id']}/events?after=0")
    assert status == 200, answer
    return list(answer["events"])


def answers(run: Run, game: dict[str, Any]) -> bool:
    return call("GET", f"{run.url}/games/{game['game_id']}")[0] == 200


def runs_a_job(run: Run) -> bool:
    connection = redis.Redis(port=run.redis_port, socket_timeout=5)
    try:
        job = queue(QUEUE_DEFAULT, connection).enqueue("os.getpid")
        deadline = time.monotonic() + 10
        while job.get_status(refresh=True) != "finished":
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)
        return True
    except redis.exceptions.RedisError:
        return False
    finally:
        connection.close()


def target(run: Run, kill: str) -> int:
    if kill == "RQ worker":
        return run.pid_of("service.worker")
    if kill == "Redis":
        return run.pid_of("redis-server")
    master = run.pid_of("gunicorn")
    if kill == "the gunicorn master":
        return master
    workers = psutil.Process(master).children()
    assert workers, "gunicorn has no worker"
    return workers[0].pid


def kill_each_part(tmp_path: Path, rounds: int) -> None:
    # `always`: an acknowledged append survives the kill of Redis (everysec may lose the last one).
    with running(tmp_path, REDIS_APPENDFSYNC="always", ARCHIPELAGO_RATE_LIMITS="off") as run:
        run.wait_for("Archipelago is running", STARTED_WITHIN)
        game = create_game(run)
        for _ in range(3):
            move(run, game)
        killed_names: list[str] = []
        times = []
        for kill in KILLS * rounds:
            before = stored(run, game)
            pid = target(run, kill)
            os.kill(pid, signal.SIGKILL)
            killed = time.monotonic()
            name = LAUNCHER_NAMES.get(kill)
            if name is not None:  # (gunicorn itself starts a web worker process again)
                run.wait_for(f"{name} (pid {pid}) stopped unexpectedly", BACK_WITHIN)
                assert "killed by SIGKILL" in run.said().rpartition(f"(pid {pid})")[2]
                killed_names.append(name)

            # The web app answers again, with every acknowledged event, and takes new commands.
            wait_until(lambda: answers(run, game), BACK_WITHIN, f"the game is served after {kill} died")
            served = time.monotonic() - killed
            assert stored(run, game) == before
            version = move(run, game)
            assert [e["version"] for e in stored(run, game)][-1] == version
            # The worker runs jobs again (after Redis, it has reconnected by itself).
            wait_until(lambda: runs_a_job(run), BACK_WITHIN, f"a job runs after {kill} died")
            if name is not None:
                run.wait_for(f"{name} is back", BACK_WITHIN, count=killed_names.count(name))
            times.append((kill, served, time.monotonic() - killed, os.getloadavg()[0]))
        print()
        for kill, served, worked, load in times:
            print(
                f"kill -9 of {kill}: served after {served:.1f}s, a job run after {worked:.1f}s",
                f"(load average {load:.1f})",
            )
        assert run.stop() == 0
        assert "stopping (SIGTERM)" in run.said()


def test_each_part_killed_is_started_again_and_nothing_acknowledged_is_lost(tmp_path: Path) -> None:
    kill_each_part(tmp_path, rounds=1)


@pytest.mark.faults
def test_three_rounds_of_kills_each_part_started_again_and_nothing_acknowledged_lost(tmp_path: Path) -> None:
    kill_each_part(tmp_path, rounds=3)
