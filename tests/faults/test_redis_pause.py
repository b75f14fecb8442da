"""A network pause between the service and Redis (SIGSTOP of redis-server): every request made
while it lasts is answered 503 problem+json within a few seconds, none hangs; once Redis resumes
the service answers at once, a command refused during the pause goes through when retried with
its Idempotency-Key, and every acknowledged command is recorded exactly once.

`make test` pauses once for 3 s; `make faults` five times for 6 s.
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from service.app import create_app
from service.embedded_redis import EmbeddedRedis, start_redis
from service.store import EventStore, verify_chain
from tests.api.helpers import bearer, choose, create_game

TIMEOUT = 1.0
"""ARCHIPELAGO_REDIS_TIMEOUT_SECONDS of the app under test: short, yet long enough for a
machine busy with other work."""
ANSWER_WITHIN = 4 * TIMEOUT + 1.0
"""A request during the pause: the command, its one retry, their backoff, the app's own work."""
RESUMED_WITHIN = 1.0


@dataclass
class Run:
    server: EmbeddedRedis
    client: FlaskClient
    game: dict[str, Any]
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    keys: int = 0
    acknowledged: dict[str, list[int]] = field(default_factory=dict)  # key -> event versions
    refused: list[float] = field(default_factory=list)  # seconds each 503 took

    def next_command(self) -> tuple[dict[str, str], dict[str, Any]] | None:
        """A legal command of the seat to act, with its headers (a fresh Idempotency-Key)."""
        for seat, token in enumerate(self.game["tokens"]):
            answer = self.client.get(f"/games/{self.game['game_id']}/legal", headers=bearer(token))
            assert answer.status_code == 200, answer.json
            if answer.json["commands"]:
                self.keys += 1
                headers = {**bearer(token), "Idempotency-Key": f"k-{self.keys}-{seat}"}
                return headers, choose(self.rng, answer.json["commands"])
        return None  # the round waits for its scoring: no worker runs here

    def send(self, headers: dict[str, str], body: dict[str, Any]) -> Any:
        started = time.monotonic()
        answer = self.client.post(f"/games/{self.game['game_id']}/commands", json=body, headers=headers)
        took = time.monotonic() - started
        if answer.status_code == 200:
            self.acknowledged[headers["Idempotency-Key"]] = [e["version"] for e in answer.json["events"]]
        else:
            self.refused_503(answer, took)
        return answer

    def refused_503(self, answer: Any, took: float) -> None:
        assert answer.status_code == 503, (answer.status_code, answer.json)
        assert answer.mimetype == "application/problem+json"
        # outcome_unknown when the pause caught the append itself: sent, its answer lost.
        assert answer.json["code"] in ("store_unavailable", "outcome_unknown")
        assert answer.headers["Retry-After"]
        assert took < ANSWER_WITHIN, f"a request took {took:.1f} s to fail"
        self.refused.append(took)


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Run]:
    server = start_redis(tmp_path / "redis", appendfsync="always")
    monkeypatch.setenv("ARCHIPELAGO_REDIS_TIMEOUT_SECONDS", str(TIMEOUT))
    config = {
        "REDIS_URL": server.url,
        "RQ_REDIS_URL": server.url,
        "TESTING": True,
        "RATE_LIMITS_ENABLED": False,
    }
    app = create_app(config)
    client = app.test_client()
    try:
        yield Run(server, client, create_game(client))
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
        server.stop()


def pause_and_resume(run: Run, seconds: float) -> None:
    """Play, pause Redis for `seconds` while a reader and a writer keep trying, resume, retry."""
    for _ in range(3):
        ready = run.next_command()
        if ready is not None:
            assert run.send(*ready).status_code == 200
    during = run.next_command()
    assert during is not None, "the game waits for a scoring already"
    os.kill(run.server.process.pid, signal.SIGSTOP)
    try:
        resume_at = time.monotonic() + seconds
        run.send(*during)
        while time.monotonic() + 2.5 * TIMEOUT < resume_at:
            started = time.monotonic()
            answer = run.client.get(f"/games/{run.game['game_id']}")
            run.refused_503(answer, time.monotonic() - started)
        time.sleep(max(0.0, resume_at - time.monotonic()))
    finally:
        os.kill(run.server.process.pid, signal.SIGCONT)
    started = time.monotonic()
    assert run.client.get(f"/games/{run.game['game_id']}").status_code == 200
    assert time.monotonic() - started < RESUMED_WITHIN
    retried = run.send(*during)
    assert retried.status_code == 200, retried.json


def check_nothing_lost(run: Run) -> None:
    check_recorded(run, EventStore(redis.Redis.from_url(run.server.url)))


def check_recorded(run: Run, store: EventStore) -> None:
    """Every acknowledged command's events, once each, in a gapless intact chain."""
    events = store.read(run.game["game_id"])
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert verify_chain(events) is None
    by_seats = {e.command_id for e in events if e.actor.startswith("seat:")}
    assert len(by_seats) == len(run.acknowledged), "a command recorded twice, or one lost"
    for versions in run.acknowledged.values():
        assert len({events[v - 1].command_id for v in versions}) == 1


def test_a_paused_redis_gets_503s_that_do_not_hang_then_full_recovery_and_nothing_lost(run: Run) -> None:
    pause_and_resume(run, seconds=3.0)
    check_nothing_lost(run)
    assert run.refused


@pytest.mark.faults
def test_five_pauses_of_redis_of_six_seconds_each(run: Run) -> None:
    for _ in range(5):
        if run.next_command() is None:
            break  # the first round is played out
        pause_and_resume(run, seconds=6.0)
    check_nothing_lost(run)
    print(
        f"\n{len(run.refused)} requests refused with 503 during the pauses, "
        f"slowest in {max(run.refused):.2f} s"
    )
