"""Scale-out: two web processes (gunicorn with deploy/gunicorn.conf.py) and two RQ workers
(`python -m service.worker`) on one store, on one Redis and on the Redis Cluster. Games are
played through both web processes in turn, every command sent to one and retried with the same
Idempotency-Key on the other: both give the same answers, no round is scored twice, and every
game folds, in a process that never saw it, to the state the players were shown."""

from __future__ import annotations

import http.client
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from service.embedded_cluster import EmbeddedCluster
from service.embedded_redis import EmbeddedRedis, free_port
from service.store import EventStore
from service.wiring import event_client
from tests.api.game_checks import check_stored_game, fresh_client, fresh_view
from tests.api.helpers import NAMES, choose
from tests.backends import store_backend  # noqa: F401  (on one Redis and on the cluster)

ROOT = Path(__file__).resolve().parents[2]
READY_WITHIN = 60.0
SCORED_WITHIN = 30.0
GAMES = (("kahuna", {}), ("arabana-ikibiti", {}))


@dataclass
class Answer:
    status: int
    json: Any


class Web:
    """HTTP to one web process."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Answer:
        sent = {**(headers or {}), **({"Content-Type": "application/json"} if body is not None else {})}
        self._conn.request(method, path, None if body is None else json.dumps(body), sent)
        response = self._conn.getresponse()
        raw = response.read()
        return Answer(response.status, json.loads(raw) if raw else None)

    def close(self) -> None:
        self._conn.close()


def _answers(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", "/health")
        return conn.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to all at once (each finishes its request or job), SIGKILL to any still there after 15 s."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def webs(
    store_backend: str,  # noqa: F811
    redis_server: EmbeddedRedis,
    redis_client: redis.Redis,
    cluster: EmbeddedCluster | None,
    tmp_path: Path,
) -> Iterator[list[Web]]:
    """Two gunicorn processes and two forking RQ workers on the test's store; [Web, Web]."""
    env = dict(
        os.environ,
        REDIS_URL=redis_server.url,
        RQ_REDIS_URL=redis_server.url,
        WEB_CONCURRENCY="1",
        GUNICORN_THREADS="4",
        GUNICORN_ACCESS_LOG="",
        GUNICORN_GRACEFUL_TIMEOUT="2",
        ARCHIPELAGO_RATE_LIMITS="off",
        PYTHONUNBUFFERED="1",
    )
    env.pop("REDIS_CLUSTER_URL", None)
    if cluster is not None:
        env["REDIS_CLUSTER_URL"] = cluster.url
    ports = [free_port() for _ in range(2)]
    log = (tmp_path / "processes.log").open("wb")
    gunicorn = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
    processes = [
        *(
            subprocess.Popen(gunicorn, cwd=ROOT, env={**env, "PORT": str(port)}, stdout=log, stderr=log)
            for port in ports
        ),
        *(
            subprocess.Popen(
                [sys.executable, "-m", "service.worker"], cwd=ROOT, env=env, stdout=log, stderr=log
            )
            for _ in range(2)
        ),
    ]
    clients = [Web(port) for port in ports]
    try:
        deadline = time.monotonic() + READY_WITHIN
        while not all(_answers(port) for port in ports):
            exited = [p.args for p in processes if p.poll() is not None]
            assert not exited and time.monotonic() < deadline, f"not up ({exited}): see {log.name}"
            time.sleep(0.1)
        yield clients
    finally:
        for client in clients:
            client.close()
        _stop(processes)
        log.close()


def _seat_headers(game: dict[str, Any], seat: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][seat]}"}


def _same_view(webs: list[Web], game_id: str) -> dict[str, Any]:
    """The spectator view, asked of both processes: at the same version they must agree. A worker
    may score a round between the two questions; then both are asked again."""
    for _ in range(50):
        first, second = (web.call("GET", f"/games/{game_id}") for web in webs)
        assert first.status == second.status == 200, (first, second)
        if first.json["version"] == second.json["version"]:
            assert first.json == second.json
            return dict(first.json)
    raise AssertionError(f"the processes kept answering different versions of {game_id}")


def _play(webs: list[Web], game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Random legal commands until the end, alternating the processes; a round's scoring is
    left to whichever worker takes it."""
    game_id, turn = game["game_id"], 0
    while True:
        current = _same_view(webs, game_id)
        if current["phase"] == "ended":
            return current
        if current["phase"] == "scoring":
            deadline = time.monotonic() + SCORED_WITHIN
            while _same_view(webs, game_id)["phase"] == "scoring":
                assert time.monotonic() < deadline, "no worker scored the round"
                time.sleep(0.02)
            continue
        asked = webs[turn % 2]
        legal = {
            seat: asked.call("GET", f"/games/{game_id}/legal", headers=_seat_headers(game, seat)).json[
                "commands"
            ]
            for seat in range(len(game["tokens"]))
        }
        movers = [seat for seat, commands in legal.items() if commands]
        seat = current["active"] if current["active"] in movers else rng.choice(movers)
        command = choose(rng, legal[seat])
        headers = {**_seat_headers(game, seat), "Idempotency-Key": f"{game_id}-{turn}"}
        sent, retried = (
            web.call("POST", f"/games/{game_id}/commands", command, headers)
            for web in (asked, webs[(turn + 1) % 2])
        )
        assert sent.status == 200, sent.json
        assert sent.json["duplicate"] is False
        assert (retried.status, retried.json) == (200, {**sent.json, "duplicate": True}), "the other process"
        turn += 1


def test_two_web_processes_and_two_workers_give_the_same_answers_and_score_each_round_once(
    webs: list[Web], cluster: EmbeddedCluster | None, redis_server: EmbeddedRedis
) -> None:
    games = []
    for index, (name, options) in enumerate(GAMES):
        body = {"game": name, "seats": [{"name": n} for n in NAMES[:2]], "first_seat": 0, "options": options}
        created = webs[index % 2].call("POST", "/games", body)
        assert created.status == 201, created.json
        games.append({**created.json, "tokens": [s["token"] for s in created.json["seats"]]})

    finals = {game["game_id"]: _play(webs, game, random.Random(5)) for game in games}

    urls = {"REDIS_URL": redis_server.url, "RQ_REDIS_URL": redis_server.url}
    if cluster is not None:
        urls["REDIS_CLUSTER_URL"] = cluster.url
    client = event_client(redis_server.url, urls.get("REDIS_CLUSTER_URL"))
    store = EventStore(client)
    with fresh_client(**urls) as fresh:
        for game_id, final in finals.items():
            check_stored_game(store, game_id, final)
            assert fresh_view(fresh, game_id) == final
    client.close()
