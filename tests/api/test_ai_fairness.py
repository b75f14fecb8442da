"""Fairness on the "ai" queue (P5 B.9): a long search or analysis runs in slices, and another
game's move waits for at most one slice of it. Orders of execution are asserted, never times."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq import SimpleWorker
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from service import analysis, jobs
from service.api.context import game_service
from service.queues import QUEUE_AI, QUEUE_DEFAULT, queue
from service.store import annotations_key


@pytest.fixture(autouse=True)
def slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Level 5 searches 0.25 s and level 1 0.02 s, in slices of 0.05 s; no iteration cap."""
    monkeypatch.delenv("ARCHIPELAGO_AI_MAX_ITERATIONS", raising=False)
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=0.02,5=0.25")
    monkeypatch.setenv("ARCHIPELAGO_AI_SLICE_SECONDS", "0.05")
    monkeypatch.setenv("ARCHIPELAGO_ANALYSIS_SECONDS", "0.01")
    monkeypatch.setattr(analysis, "ANALYSIS_SLICE_SECONDS", 0.05)


def _run(redis_client: redis.Redis) -> None:
    queues = [queue(QUEUE_DEFAULT, redis_client), queue(QUEUE_AI, redis_client)]
    SimpleWorker(queues, connection=redis_client, serializer=JSONSerializer).work(burst=True)
    for each in queues:
        assert FailedJobRegistry(queue=each).get_job_ids() == [], "a job failed"


def _create(client: FlaskClient, seats: list[dict[str, Any]], first: int) -> str:
    answer = client.post("/games", json={"game": "kahuna", "seats": seats, "first_seat": first})
    assert answer.status_code == 201, answer.json
    return str(answer.json["game_id"])


def _ended_game_waiting_for_its_analysis(
    app: Flask, client: FlaskClient, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> str:
    """A casual game of two random players played to its end, its analysis queued and not yet run."""
    real_analyse = jobs.analyse
    monkeypatch.setattr(jobs, "analyse", lambda *args, **kwargs: 0)  # played, not analysed yet
    game = _create(client, [{"name": "R1", "ai": "random"}, {"name": "R2", "ai": "random"}], 0)
    for _ in range(20):
        _run(redis_client)
        if client.get(f"/games/{game}").json["phase"] == "ended":
            break
    monkeypatch.setattr(jobs, "analyse", real_analyse)
    with app.app_context():
        game_service().ai.continue_analysis(game, 0)
    return game


def test_a_level_1_move_waits_for_one_slice_of_a_level_5_search_and_for_no_analysis(
    app: Flask,
    client: FlaskClient,
    redis_client: redis.Redis,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reviewed = _ended_game_waiting_for_its_analysis(app, client, redis_client, monkeypatch)
    strong = _create(client, [{"name": "Ann"}, {"name": "Deep", "ai": "ismcts", "level": 5}], 1)
    quick = _create(client, [{"name": "Ben"}, {"name": "Quick", "ai": "ismcts", "level": 1}], 1)

    order: list[tuple[str, int, int]] = []  # (game, slice of its search, analysis notes by then)
    real_move: Callable[..., str] = jobs.ai_move

    def traced(game_id: str, seat: int, version: int, tally: dict | None = None) -> str:
        done = 0 if tally is None else int(tally["slices"])
        order.append((game_id, done, int(redis_client.xlen(annotations_key(reviewed)))))
        return real_move(game_id, seat, version, tally)

    monkeypatch.setattr(jobs, "ai_move", traced)
    _run(redis_client)

    first_quick = next(n for n, (game, _, _) in enumerate(order) if game == quick)
    before = order[:first_quick]
    assert [(game, done) for game, done, _ in before] == [(strong, 0)], "one slice of the level-5 search"
    assert order[first_quick][2] == 0, "no slice of the analysis ran before the level-1 move"
    strong_first_move = [done for game, done, _ in order if game == strong][:5]
    assert strong_first_move == [0, 1, 2, 3, 4], "the level-5 search took five slices"
    assert redis_client.xlen(annotations_key(reviewed)) > 0, "the analysis ran once no move waited"


def test_a_flood_of_computer_games_from_one_address_delays_another_move_by_one_slice_each(
    client: FlaskClient, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The incident: one address queued hundreds of AI jobs and a new game waited 90 s."""
    flood = {"REMOTE_ADDR": "192.0.2.66"}
    deep = [{"name": f"Deep {n}", "ai": "ismcts", "level": 5} for n in range(2)]
    body = {"game": "kahuna", "seats": deep, "first_seat": 0}
    answers = [client.post("/games", json=body, environ_base=flood) for _ in range(10)]
    admitted = [a.json["game_id"] for a in answers if a.status_code == 201]
    assert len(admitted) == 4, "the default cap of open computer games per address"
    assert {a.json["code"] for a in answers if a.status_code != 201} == {"too_many_ai_games"}
    quick = _create(client, [{"name": "Ben"}, {"name": "Quick", "ai": "ismcts", "level": 1}], 1)

    order: list[tuple[str, int]] = []
    real_move: Callable[..., str] = jobs.ai_move

    def traced(game_id: str, seat: int, version: int, tally: dict | None = None) -> str:
        order.append((game_id, 0 if tally is None else int(tally["slices"])))
        return real_move(game_id, seat, version, tally)

    monkeypatch.setattr(jobs, "ai_move", traced)
    queues = [queue(QUEUE_DEFAULT, redis_client), queue(QUEUE_AI, redis_client)]
    worker = SimpleWorker(queues, connection=redis_client, serializer=JSONSerializer)
    worker.work(burst=True, max_jobs=8)

    first_quick = order.index((quick, 0))
    assert sorted(order[:first_quick]) == sorted((game, 0) for game in admitted), (
        "one slice of each admitted game's search, then the other address's move"
    )
