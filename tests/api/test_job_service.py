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
from rq.serializers import JSONSerializer

from service import jobs, loading, wiring
from service.queues import QUEUE_AI, QUEUE_DEFAULT, queue
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
    folds = _counted(monkeypatch, loading, "fold_envelopes")

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
    folds = _counted(monkeypatch, loading, "fold_envelopes")
    jobs.worker_service().load(game_id)  # what the horse, a copy of the worker, starts from
    assert folds == []


def test_an_ismcts_move_searched_in_slices_loads_the_game_from_the_processs_fold_in_every_slice(
    client: FlaskClient, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=0.06")
    monkeypatch.setenv("ARCHIPELAGO_AI_SLICE_SECONDS", "0.02")  # three slices per move
    monkeypatch.delenv("ARCHIPELAGO_AI_MAX_ITERATIONS")  # a search of seconds, so that it is sliced
    bot = {"name": "Bot", "ai": "ismcts", "level": 1}
    body = {"game": "kahuna", "seats": [bot, {"name": "Ann"}], "first_seat": 0}
    game = client.post("/games", json=body).json
    game_id, game["tokens"] = game["game_id"], [None, game["seats"][1]["token"]]
    store = EventStore(redis_client)
    worker = SimpleWorker(
        [queue(QUEUE_AI, redis_client), queue(QUEUE_DEFAULT, redis_client)],
        connection=redis_client,
        serializer=JSONSerializer,
    )
    worker.work(burst=True)  # the computer's first turn: this process folds the game once
    assert view(client, game)["active"] == 1
    seen = store.version(game_id)
    rng = random.Random(3)
    while view(client, game)["active"] == 1:
        command = choose(rng, legal_commands(client, game, 1)["commands"])
        assert post(client, game, 1, command).status_code == 200
    played = store.version(game_id)
    folds = _counted(monkeypatch, loading, "fold_envelopes")
    catch_ups = _counted(monkeypatch, loading, "extended")
    slices = _counted(monkeypatch, jobs, "ai_move")

    worker.work(burst=True)

    assert store.version(game_id) > played, "the computer moved"
    assert any(len(args) == 4 for args in slices), "a move's search went on in a later slice"
    assert folds == [], "no job folded the game from its first event"
    assert catch_ups and all(loaded.version >= seen for loaded, _ in catch_ups), (
        "every load went on from the fold this process held"
    )
