"""The cap on open games with computer seats, per client address and overall (P5 B.9)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from service.ai_games import AiGameLimits, OpenAiGames
from service.api.context import EXTENSION
from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from service.queues import QUEUES, queue

ANN = {"REMOTE_ADDR": "192.0.2.1"}
BEN = {"REMOTE_ADDR": "192.0.2.2"}
AGAINST_BOT = {
    "game": "kahuna",
    "seats": [{"name": "Ann"}, {"name": "Bot", "ai": "random"}],
    "first_seat": 0,
}
BOTS_ONLY = {
    "game": "kahuna",
    "seats": [{"name": "A", "ai": "random"}, {"name": "B", "ai": "random"}],
    "first_seat": 0,
}
PEOPLE = {"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}], "first_seat": 0}


@pytest.fixture
def capped(
    redis_server: EmbeddedRedis, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., Flask]]:
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("RQ_REDIS_URL", redis_server.url)
    monkeypatch.setenv("ARCHIPELAGO_DICE_SEED", "20261122")
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")  # the analysis after a game, quickly
    apps: list[Flask] = []

    def build(**config: Any) -> Flask:
        base = {"REDIS_URL": redis_server.url, "TESTING": True, "RATE_LIMITS_ENABLED": False}
        app = create_app({**base, **config})
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.extensions[EXTENSION].redis.close()


def _run_jobs(redis_client: redis.Redis) -> None:
    queues = [queue(name, redis_client) for name in QUEUES]
    SimpleWorker(queues, connection=redis_client, serializer=JSONSerializer).work(burst=True)


def test_a_client_over_its_cap_of_open_computer_games_gets_429_too_many_ai_games(
    capped: Callable[..., Flask], redis_client: redis.Redis
) -> None:
    client = capped(AI_GAMES_PER_CLIENT=2).test_client()
    for _ in range(2):
        assert client.post("/games", json=AGAINST_BOT, environ_base=ANN).status_code == 201
    written = redis_client.xlen("events:$all")

    refused = client.post("/games", json=AGAINST_BOT, environ_base=ANN)

    assert refused.status_code == 429
    assert refused.mimetype == "application/problem+json"
    assert refused.json["code"] == "too_many_ai_games"
    assert redis_client.xlen("events:$all") == written, "a refused creation writes nothing"
    assert client.post("/games", json=PEOPLE, environ_base=ANN).status_code == 201, "people only: no cap"
    assert client.post("/games", json=AGAINST_BOT, environ_base=BEN).status_code == 201, "another address"


def test_the_overall_cap_holds_across_addresses(capped: Callable[..., Flask]) -> None:
    client = capped(AI_GAMES_PER_CLIENT=2, AI_GAMES_OVERALL=3).test_client()
    who = (ANN, ANN, BEN)
    answers = [client.post("/games", json=AGAINST_BOT, environ_base=w).status_code for w in who]
    assert answers == [201, 201, 201]
    refused = client.post("/games", json=AGAINST_BOT, environ_base=BEN)
    assert (refused.status_code, refused.json["code"]) == (429, "too_many_ai_games")


def test_a_finished_game_frees_its_place(capped: Callable[..., Flask], redis_client: redis.Redis) -> None:
    app = capped(AI_GAMES_PER_CLIENT=1)
    client = app.test_client()
    game = client.post("/games", json=BOTS_ONLY, environ_base=ANN).json
    assert client.post("/games", json=BOTS_ONLY, environ_base=ANN).status_code == 429
    for _ in range(20):
        _run_jobs(redis_client)
        if client.get(f"/games/{game['game_id']}").json["phase"] == "ended":
            break
    assert client.get(f"/games/{game['game_id']}").json["phase"] == "ended"
    assert client.post("/games", json=BOTS_ONLY, environ_base=ANN).status_code == 201


def test_a_game_idle_for_longer_than_the_idle_time_stops_counting(redis_client: redis.Redis) -> None:
    now = [1000.0]
    games = OpenAiGames(redis_client, AiGameLimits(per_client=1, overall=10, idle_seconds=60), lambda: now[0])
    games.reserve("g1", "192.0.2.1")
    now[0] += 50
    games.touch("g1")  # a move: counted from now on
    now[0] += 50
    with pytest.raises(Exception, match="unfinished games"):
        games.reserve("g2", "192.0.2.1")
    now[0] += 11
    games.reserve("g2", "192.0.2.1")
    assert games.count("192.0.2.1") == 1 and games.count() == 1


def test_concurrent_creations_never_overshoot_the_cap(redis_client: redis.Redis) -> None:
    games = OpenAiGames(redis_client, AiGameLimits(per_client=3, overall=100))
    admitted: list[str] = []

    def create(n: int) -> None:
        try:
            games.reserve(f"g{n}", "192.0.2.1")
        except Exception:
            return
        admitted.append(f"g{n}")

    threads = [threading.Thread(target=create, args=(n,)) for n in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(admitted) == 3
    assert games.count("192.0.2.1") == 3


def test_behind_a_trusted_proxy_the_cap_counts_the_forwarded_client(capped: Callable[..., Flask]) -> None:
    client = capped(AI_GAMES_PER_CLIENT=1, FORWARDED_ALLOW_IPS="10.0.0.5").test_client()
    proxy = {"REMOTE_ADDR": "10.0.0.5"}

    def create(forwarded_for: str) -> int:
        headers = {"X-Forwarded-For": forwarded_for}
        return client.post("/games", json=AGAINST_BOT, environ_base=proxy, headers=headers).status_code

    assert [create("198.51.100.7"), create("198.51.100.7"), create("198.51.100.8")] == [201, 429, 201]


def test_a_resigned_or_aborted_game_frees_its_place_at_once(capped: Callable[..., Flask]) -> None:
    client = capped(AI_GAMES_PER_CLIENT=2).test_client()
    games = [client.post("/games", json=AGAINST_BOT, environ_base=ANN).json for _ in range(2)]
    assert client.post("/games", json=AGAINST_BOT, environ_base=ANN).status_code == 429
    tokens = [{"Authorization": f"Bearer {g['seats'][0]['token']}"} for g in games]

    resigned = client.post(f"/games/{games[0]['game_id']}/resign", headers=tokens[0], environ_base=ANN)
    assert resigned.status_code == 200, resigned.json
    assert client.post("/games", json=AGAINST_BOT, environ_base=ANN).status_code == 201
    assert client.post("/games", json=AGAINST_BOT, environ_base=ANN).status_code == 429

    aborted = client.post(f"/games/{games[1]['game_id']}/abort", headers=tokens[1], environ_base=ANN)
    assert aborted.status_code == 200, aborted.json
    assert client.post("/games", json=AGAINST_BOT, environ_base=ANN).status_code == 201
