"""The jobs of one process share one service: built once (connections, Redis version check),
its cache of folded games kept, so a job on a game seen before folds only the newer events."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq import SimpleWorker, Worker

from service import games, jobs, wiring
from service.store import EventStore
from service.worker import make_worker
from tests.api.helpers import choose, legal_commands, post, view


def _counted(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[object]:
    calls: list[object] = []
    real: Callable[..., Any] = getattr(module, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def test_the_jobs_of_one_process_build_their_service_and_check_the_redis_version_once(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = client.post("/games", json={"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}]}).json
    checks = _counted(monkeypatch, wiring, "check_server")

    answers = [jobs.score_round(game["game_id"], 9) for _ in range(3)]

    assert answers == [False, False, False]  # round 9 is not due: nothing appended
    assert len(checks) == 1


def test_an_ai_move_job_on_a_game_its_process_has_seen_does_not_fold_it_from_the_start(
    client: FlaskClient, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {"game": "kahuna", "seats": [{"name": "Bot", "ai": "random"}, {"name": "Ann"}], "first_seat": 0}
    game = client.post("/games", json=body).json
    game_id, game["tokens"] = game["game_id"], [None, game["seats"][1]["token"]]
    store = EventStore(redis_client)
    assert jobs.ai_move(game_id, 0, store.version(game_id)) == "played"
    rng = random.Random(3)
    while view(client, game)["active"] == 1:  # Ann plays until the computer must act again
        command = choose(rng, legal_commands(client, game, 1)["commands"])
        assert post(client, game, 1, command).status_code == 200
    folds = _counted(monkeypatch, games, "fold_envelopes")

    assert jobs.ai_move(game_id, 0, store.version(game_id)) == "played"

    assert folds == []


def test_a_forking_worker_folds_a_jobs_game_itself_before_it_forks_the_horse(
    client: FlaskClient, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {"game": "kahuna", "seats": [{"name": "Bot", "ai": "random"}, {"name": "Ann"}], "first_seat": 0}
    game_id = client.post("/games", json=body).json["game_id"]
    horses: list[str] = []
    monkeypatch.setattr(Worker, "execute_job", lambda self, job, queue: horses.append(job.id))
    worker = make_worker(redis_client, simple=False)
    assert isinstance(worker, Worker) and not isinstance(worker, SimpleWorker)

    worker.work(burst=True)

    assert len(horses) == 1  # the job went to a (here stubbed) horse
    folds = _counted(monkeypatch, games, "fold_envelopes")
    jobs.worker_service().load(game_id)  # what the horse, a copy of the worker, starts from
    assert folds == []
