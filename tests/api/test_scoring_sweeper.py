"""A round whose scoring job was lost or failed is re-enqueued by the sweeper, and scored once."""

from __future__ import annotations

import random
from collections.abc import Callable

import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.job import Job

from service.api.context import game_service
from service.scoring import AWAITING, job_id
from service.store import EventStore
from tests.api.helpers import create_game, play, view


def _scoring(current: dict) -> bool:
    return bool(current["phase"] == "scoring")


def test_a_lost_scoring_job_is_re_enqueued_by_the_sweeper(
    app: Flask, client: FlaskClient, run_worker: Callable[[], None], redis_client: redis.Redis
) -> None:
    game = create_game(client)
    waiting = play(client, game, random.Random(5), run_worker, until=_scoring)
    assert redis_client.sismember(AWAITING, game["game_id"])
    Job.fetch(job_id(game["game_id"], waiting["version"]), connection=redis_client).delete()

    with app.app_context():
        service = game_service()
        assert service.scoring.sweep(service) == 1
        assert service.scoring.sweep(service) == 0  # queued again: nothing more to do
    run_worker()

    assert view(client, game)["phase"] == "play"
    types = [e.type for e in EventStore(redis_client).read(game["game_id"])]
    assert types.count("RoundScored") == 1
    assert not redis_client.sismember(AWAITING, game["game_id"])
    with app.app_context():
        assert game_service().scoring.sweep(game_service()) == 0


def test_a_failed_scoring_job_is_replaced_by_a_fresh_one(
    app: Flask, client: FlaskClient, run_worker: Callable[[], None], redis_client: redis.Redis
) -> None:
    game = create_game(client)
    waiting = play(client, game, random.Random(6), run_worker, until=_scoring)
    job = Job.fetch(job_id(game["game_id"], waiting["version"]), connection=redis_client)
    job.set_status("failed")

    with app.app_context():
        service = game_service()
        assert service.scoring.sweep(service) == 1
    run_worker()

    assert view(client, game)["phase"] == "play"
