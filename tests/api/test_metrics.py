"""GET /metrics: requests by route template and status, latencies, appends, queues, job durations;
nothing in it names a game, a token or a requested path."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families
from werkzeug.test import Client

from service.api.context import EXTENSION, game_service
from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from service.queues import QUEUE_AI, QUEUE_DEFAULT, queue
from service.scrape import CONTENT_TYPE
from service.store import GLOBAL_STREAM
from service.wiring import build_service
from service.worker import make_worker
from service.worker_http import ROUTES, make_app
from tests.api.helpers import bearer, create_game, play, post

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: FlaskClient | Client) -> tuple[str, Samples]:
    """The text of /metrics and its samples by (name, labels)."""
    answer = client.get("/metrics")
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    samples = {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    return text, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_metrics_count_requests_by_route_template_and_status(client: FlaskClient) -> None:
    _, before = scrape(client)
    game = create_game(client)
    for _ in range(3):
        assert client.get(f"/games/{game['game_id']}").status_code == 200
    assert client.get("/games/no-such-game").status_code == 404
    assert client.get("/no/such/route").status_code == 404

    _, after = scrape(client)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    requests = "archipelago_http_requests_total"
    assert delta(requests, method="POST", route="/games", status="201") == 1
    assert delta(requests, method="GET", route="/games/<game_id>", status="200") == 3
    assert delta(requests, method="GET", route="/games/<game_id>", status="404") == 1
    assert delta(requests, method="GET", route="unmatched", status="404") == 1
    latency = "archipelago_http_request_duration_seconds"
    assert delta(f"{latency}_count", method="GET", route="/games/<game_id>") == 4
    assert delta(f"{latency}_bucket", method="GET", route="/games/<game_id>", le="+Inf") == 4
    assert delta(f"{latency}_sum", method="GET", route="/games/<game_id>") > 0


def test_metrics_count_the_events_a_command_appended_and_those_stored(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = create_game(client)
    _, before = scrape(client)
    legal = client.get(f"/games/{game['game_id']}/legal", headers=bearer(game["tokens"][0])).json
    answer = post(client, game, 0, legal["commands"][0])
    assert answer.status_code == 200, answer.json

    _, after = scrape(client)

    appended = "archipelago_events_appended_total"
    written = len(answer.json["events"])
    assert value(after, appended, kind="game") - value(before, appended, kind="game") == written
    assert value(after, "archipelago_events_stored_total", kind="game") == redis_client.xlen(GLOBAL_STREAM)


def test_metrics_read_rq_queue_lengths_and_failed_jobs(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    for n in range(3):
        queue(QUEUE_AI, redis_client).enqueue("service.jobs.ai_move", f"missing-{n}", 0, 1)

    _, samples = scrape(client)

    assert value(samples, "archipelago_rq_queue_length", queue=QUEUE_AI) == 3
    assert value(samples, "archipelago_rq_queue_length", queue=QUEUE_DEFAULT) == 0
    make_worker(redis_client, [QUEUE_AI], simple=True).work(burst=True)  # unknown games: they fail
    _, samples = scrape(client)
    assert value(samples, "archipelago_rq_queue_length", queue=QUEUE_AI) == 0
    assert value(samples, "archipelago_rq_failed_jobs", queue=QUEUE_AI) == 3


def test_worker_port_shows_job_durations_by_job_and_status(
    app: Flask, client: FlaskClient, run_worker: Callable[[], None], redis_client: redis.Redis
) -> None:
    """The worker's own port (archipelago-worker --http-port) shows what its jobs took."""
    port = Client(make_app(build_service(), alive=lambda: True))
    _, before = scrape(port)
    game = create_game(client)
    play(client, game, random.Random(5), run_worker, until=lambda v: v["phase"] == "scoring")
    queue(QUEUE_DEFAULT, redis_client).enqueue("service.jobs.score_round", "no-such-game", 1)

    make_worker(redis_client, [QUEUE_DEFAULT], simple=True).work(burst=True)

    _, after = scrape(port)
    durations = "archipelago_job_duration_seconds_count"
    for status in ("finished", "failed"):
        labels = {"job": "score_round", "queue": QUEUE_DEFAULT, "status": status}
        assert value(after, durations, **labels) - value(before, durations, **labels) == 1
    assert value(after, "archipelago_events_stored_total", kind="game") == redis_client.xlen(GLOBAL_STREAM)
    assert set(ROUTES) == {"/metrics", "/health", "/health/live"}
    assert port.get("/health").status_code == 200
    assert port.get("/health/live").status_code == 200
    assert port.get("/nothing").status_code == 404
    assert Client(make_app(build_service(), alive=lambda: False)).get("/health/live").status_code == 503


def test_metrics_name_no_game_token_or_requested_path(client: FlaskClient) -> None:
    game = create_game(client)
    token = game["tokens"][0]
    client.get(f"/games/{game['game_id']}?token={token}", headers=bearer(token))
    client.get(f"/games/{game['game_id']}/legal", headers=bearer(token))
    client.get(f"/{token}/leaked-path")
    client.get(f"/games/{game['game_id']}", headers=bearer("not-a-token-" + token[:6]))

    text, _ = scrape(client)

    assert game["game_id"] not in text
    assert token not in text and token[:6] not in text
    assert "leaked-path" not in text
    assert 'route="/games/<game_id>/legal"' in text


def test_metrics_are_plain_text_and_documented_in_the_openapi_document(client: FlaskClient) -> None:
    answer = client.get("/metrics")
    document = client.get("/openapi.json").json

    assert answer.content_type == CONTENT_TYPE
    assert answer.content_type.startswith("text/plain")
    documented = document["paths"]["/metrics"]["get"]["responses"]["200"]["content"]
    assert list(documented) == ["text/plain"]
    assert "/health/live" in document["paths"]


def test_liveness_answers_without_redis(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Redis outage must not get the web processes restarted: /health/live asks nothing of it."""

    def unreachable(*args: object, **kwargs: object) -> None:
        raise redis.exceptions.ConnectionError("Redis is away")

    with app.app_context():
        monkeypatch.setattr(game_service().redis, "execute_command", unreachable)

    assert client.get("/health/live").status_code == 200
    refused = client.get("/health")
    assert refused.status_code == 503
    assert refused.json["code"] == "store_unavailable"


def test_scrapes_and_liveness_probes_are_never_rate_limited(
    redis_server: EmbeddedRedis, redis_client: redis.Redis
) -> None:
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True, "RATE_LIMIT_DEFAULT": "2 per hour"})
    client = app.test_client()
    try:
        assert [client.get("/metrics").status_code for _ in range(4)] == [200] * 4
        assert [client.get("/health/live").status_code for _ in range(4)] == [200] * 4
        assert [client.get("/health").status_code for _ in range(3)] == [200, 200, 429]
    finally:
        app.extensions[EXTENSION].redis.close()
