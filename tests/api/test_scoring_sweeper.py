"""A round whose scoring job was lost or failed is re-enqueued by the sweeper, and scored once."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.job import Job

from service.api.context import game_service
from service.queues import QUEUE_DEFAULT, SCORING_AWAITING, queue, scoring_job_id
from service.store import EventStore
from tests.api.helpers import create_game, play, view


def _scoring(current: dict) -> bool:
    return bool(current["phase"] == "scoring")


def test_a_lost_scoring_job_is_re_enqueued_by_the_sweeper(
    app: Flask, client: FlaskClient, run_worker: Callable[[], None], redis_client: redis.Redis
) -> None:
    game = create_game(client)
    waiting = play(client, game, random.Random(5), run_worker, until=_scoring)
    assert redis_client.sismember(SCORING_AWAITING, game["game_id"])
    Job.fetch(scoring_job_id(game["game_id"], waiting["version"]), connection=redis_client).delete()

    with app.app_context():
        service = game_service()
        assert service.scoring.sweep(service) == 1
        assert service.scoring.sweep(service) == 0  # queued again: nothing more to do
    run_worker()

    assert view(client, game)["phase"] == "play"
    types = [e.type for e in EventStore(redis_client).read(game["game_id"])]
    assert types.count("RoundScored") == 1
    assert not redis_client.sismember(SCORING_AWAITING, game["game_id"])
    with app.app_context():
        assert game_service().scoring.sweep(game_service()) == 0


def test_a_failed_scoring_job_is_replaced_by_a_fresh_one(
    app: Flask, client: FlaskClient, run_worker: Callable[[], None], redis_client: redis.Redis
) -> None:
    game = create_game(client)
    waiting = play(client, game, random.Random(6), run_worker, until=_scoring)
    job = Job.fetch(scoring_job_id(game["game_id"], waiting["version"]), connection=redis_client)
    job.set_status("failed")

    with app.app_context():
        service = game_service()
        assert service.scoring.sweep(service) == 1
    run_worker()

    assert view(client, game)["phase"] == "play"


def _left_by_a_killed_run(job: Job, redis_client: redis.Redis) -> None:
    """What a killed worker leaves: the job failed (by RQ's cleanup) and an execution listed
    in the job's execution registry whose own record has expired."""
    job.set_status("failed")
    redis_client.zadd(job.execution_registry.key, {"gone-with-the-worker": 9_999_999_999})


def test_a_job_left_by_a_killed_run_is_replaced_and_the_sweep_goes_on(
    app: Flask, client: FlaskClient, run_worker: Callable[[], None], redis_client: redis.Redis
) -> None:
    killed, lost = create_game(client), create_game(client)
    for n, game in enumerate((killed, lost)):
        game["waiting"] = play(client, game, random.Random(7 + n), run_worker, until=_scoring)
    _left_by_a_killed_run(
        Job.fetch(scoring_job_id(killed["game_id"], killed["waiting"]["version"]), connection=redis_client),
        redis_client,
    )
    Job.fetch(scoring_job_id(lost["game_id"], lost["waiting"]["version"]), connection=redis_client).delete()

    with app.app_context():
        service = game_service()
        assert service.scoring.sweep(service) == 2
    run_worker()

    assert [view(client, g)["phase"] for g in (killed, lost)] == ["play", "play"]


def test_one_game_s_error_is_logged_and_the_sweep_goes_on(
    app: Flask,
    client: FlaskClient,
    run_worker: Callable[[], None],
    redis_client: redis.Redis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = create_game(client)
    waiting = play(client, game, random.Random(9), run_worker, until=_scoring)
    Job.fetch(scoring_job_id(game["game_id"], waiting["version"]), connection=redis_client).delete()
    redis_client.sadd(SCORING_AWAITING, "no-such-game")

    with app.app_context(), caplog.at_level(logging.ERROR, logger="archipelago.sweeper"):
        service = game_service()
        assert service.scoring.sweep(service) == 1
    run_worker()

    assert view(client, game)["phase"] == "play"
    assert any("no-such-game" in r.getMessage() for r in caplog.records)


def test_a_job_still_started_by_a_killed_run_is_replaced_once_its_execution_expired(
    app: Flask, client: FlaskClient, run_worker: Callable[[], None], redis_client: redis.Redis
) -> None:
    game = create_game(client)
    waiting = play(client, game, random.Random(10), run_worker, until=_scoring)
    job = Job.fetch(scoring_job_id(game["game_id"], waiting["version"]), connection=redis_client)
    queue(QUEUE_DEFAULT, redis_client).remove(job)
    job.set_status("started")  # RQ's own cleanup marks it failed only minutes later
    redis_client.zadd(job.execution_registry.key, {"gone-with-the-worker": 9_999_999_999})

    with app.app_context():
        service = game_service()
        assert service.scoring.sweep(service) == 1
    run_worker()

    assert view(client, game)["phase"] == "play"
