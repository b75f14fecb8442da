"""A computer seat whose ai_move job was lost or failed still moves: the sweeper re-enqueues it."""

from __future__ import annotations

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq import SimpleWorker
from rq.job import Job
from rq.serializers import JSONSerializer

from service import queues, sweeper
from service.api.context import game_service
from service.queues import QUEUE_AI, QUEUE_DEFAULT, queue
from service.store import EventStore


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")


def _run_jobs(redis_client: redis.Redis) -> None:
    queues = [queue(QUEUE_DEFAULT, redis_client), queue(QUEUE_AI, redis_client)]
    SimpleWorker(queues, connection=redis_client, serializer=JSONSerializer).work(burst=True)


def _computer_first(client: FlaskClient) -> dict:
    body = {"game": "kahuna", "seats": [{"name": "Bot", "ai": "random"}, {"name": "Ann"}], "first_seat": 0}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.json
    return dict(response.json)


def _sweep(app: Flask) -> int:
    with app.app_context():
        return sweeper.sweep(game_service())


def _actors(redis_client: redis.Redis, game: dict) -> list[str]:
    return [e.actor for e in EventStore(redis_client).read(game["game_id"])]


@pytest.mark.parametrize("how", ["lost", "failed"])
def test_a_computer_seat_whose_move_job_was_lost_or_failed_moves_after_one_sweep(
    app: Flask, client: FlaskClient, redis_client: redis.Redis, how: str
) -> None:
    game = _computer_first(client)
    job = Job.fetch(queues.move_job_id(game["game_id"], 0, game["version"]), connection=redis_client)
    if how == "lost":
        job.delete()
    else:
        queue(QUEUE_AI, redis_client).remove(job)
        job.set_status("failed")

    assert _sweep(app) == 1
    assert _sweep(app) == 0, "queued again: nothing more to do"
    _run_jobs(redis_client)

    assert "seat:0" in _actors(redis_client, game)
    assert _sweep(app) == 0, "the human's turn: no computer waits"
    assert not redis_client.sismember(queues.AI_AWAITING, game["game_id"])


def test_a_computer_seat_whose_move_job_is_queued_is_left_alone(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = _computer_first(client)
    assert redis_client.sismember(queues.AI_AWAITING, game["game_id"])
    assert _sweep(app) == 0
    _run_jobs(redis_client)
    assert _actors(redis_client, game).count("seat:0") >= 1
