"""JSON log lines: one per request with its id, the job id on a job's lines, and never a token,
a salt or a hidden card."""

from __future__ import annotations

import io
import json
import logging
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.api.context import game_service
from service.logs import ContextFilter, json_formatter, logging_config
from service.queues import QUEUE_DEFAULT
from service.store import EventStore
from service.worker import make_worker
from tests.api.helpers import bearer, create_game, play, post


class Lines:
    """Everything logged while a test runs, formatted as the service formats it."""

    def __init__(self, buffer: io.StringIO) -> None:
        self.buffer = buffer

    def text(self) -> str:
        return self.buffer.getvalue()

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text().splitlines()]

    def requests(self) -> list[dict[str, Any]]:
        return [r for r in self.records() if r["logger"] == "archipelago.requests"]


@pytest.fixture
def logged() -> Iterator[Lines]:
    """Every logger at DEBUG into one JSON handler, as logging_config sets it up."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(json_formatter())
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield Lines(buffer)
    root.removeHandler(handler)
    root.setLevel(level)


def test_every_request_logs_one_json_line_with_route_status_duration_and_request_id(
    client: FlaskClient, logged: Lines
) -> None:
    game = create_game(client)
    answer = client.get(f"/games/{game['game_id']}/legal", headers=bearer(game["tokens"][0]))
    client.get("/no/such/route")

    lines = logged.requests()
    assert [(r["method"], r["route"], r["status"]) for r in lines] == [
        ("POST", "/games", 201),
        ("GET", "/games/<game_id>/legal", 200),
        ("GET", "unmatched", 404),
    ]
    assert all(r["duration_ms"] >= 0 and r["level"] == "INFO" and r["time"] for r in lines)
    assert lines[1]["request_id"] == answer.headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", lines[1]["request_id"])
    assert len({r["request_id"] for r in lines}) == 3


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("edge-7f3a:1", True),
        ("3b241101-e2bb-4255-8caf-4136c566a962", True),
        ("two words", False),
        ("tab\tid", False),
        ("id<script>", False),
        ('quote"s', False),
        ("x" * 129, False),
        ("", False),
    ],
)
def test_a_sane_incoming_request_id_is_kept_any_other_replaced(
    client: FlaskClient, logged: Lines, sent: str, kept: bool
) -> None:
    answer = client.get("/health", headers={"X-Request-ID": sent})

    returned = answer.headers["X-Request-ID"]
    assert (returned == sent) is kept
    if not kept:
        assert re.fullmatch(r"[0-9a-f]{32}", returned)
    assert logged.requests()[-1]["request_id"] == returned


def test_a_line_logged_while_a_request_is_served_carries_its_id(
    app: Flask, client: FlaskClient, logged: Lines, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(*args: object, **kwargs: object) -> None:
        raise redis.exceptions.ConnectionError("Redis is away")

    with app.app_context():
        monkeypatch.setattr(game_service().redis, "execute_command", unreachable)
    answer = client.get("/health", headers={"X-Request-ID": "probe-1"})
    assert answer.status_code == 503

    during = [r for r in logged.records() if r.get("request_id") == "probe-1"]

    assert [(r["logger"], r["level"]) for r in during] == [
        ("archipelago.api", "ERROR"),
        ("archipelago.requests", "INFO"),
    ]
    assert client.get("/health/live").headers["X-Request-ID"] != "probe-1"


def test_a_jobs_lines_carry_its_job_id(
    client: FlaskClient, run_worker: Callable[[], None], redis_client: redis.Redis, logged: Lines
) -> None:
    game = create_game(client)
    waiting = play(client, game, random.Random(5), run_worker, until=lambda v: v["phase"] == "scoring")
    job_id = f"score-{game['game_id']}-{waiting['version']}"

    make_worker(redis_client, [QUEUE_DEFAULT], simple=True).work(burst=True)

    tagged = [r for r in logged.records() if r.get("job_id") == job_id]
    assert any(r["logger"].startswith("rq.") and "Job OK" in r["message"] for r in tagged)
    assert not any(r.get("job_id") for r in logged.requests())


def test_the_logging_config_writes_json_and_keeps_gunicorns_access_lines_off() -> None:
    config = logging_config("debug", environ={})
    text = logging_config(environ={"ARCHIPELAGO_LOG_FORMAT": "text"})

    assert config["root"]["level"] == "DEBUG"
    assert config["formatters"]["line"]["()"] is json_formatter
    assert text["formatters"]["line"]["()"] is not json_formatter
    assert config["loggers"]["gunicorn.access"]["propagate"] is False
    assert logging_config(access_log=True, environ={})["loggers"]["gunicorn.access"]["propagate"] is True


def test_no_token_salt_or_hidden_card_is_ever_logged(
    client: FlaskClient, run_jobs: Callable[[], None], redis_client: redis.Redis, logged: Lines
) -> None:
    """Plays a game through the API (tokens sent, refused, forged), runs its jobs, then reads
    every line logged at DEBUG for the tokens, the salts and the secret parts of the events."""
    game = create_game(client, mode="tournament")
    tokens = list(game["tokens"]) + [game["organizer_token"]]
    for seat in (0, 1):
        client.get(f"/games/{game['game_id']}", headers=bearer(game["tokens"][seat]))
    client.get(f"/games/{game['game_id']}", headers=bearer("forged-" + tokens[0]))
    client.get(f"/games/{game['game_id']}/legal", headers={"Authorization": tokens[1]})
    legal = client.get(f"/games/{game['game_id']}/legal", headers=bearer(tokens[0])).json["commands"]
    post(client, game, 0, legal[0])  # no If-Match: refused (428)
    version = client.get(f"/games/{game['game_id']}", headers=bearer(tokens[0])).json["version"]
    post(client, game, 0, legal[0], **{"If-Match": f'"{version}"', "Idempotency-Key": "k-1"})
    run_jobs()

    text = logged.text()
    envelopes = EventStore(redis_client).read(game["game_id"])
    salts = [e.salt for e in envelopes if e.salt]
    secrets = [json.dumps(e.secret, sort_keys=True) for e in envelopes if e.secret]
    assert salts and secrets and len(logged.requests()) >= 7
    assert not [t for t in tokens if t in text]
    assert not [s for s in salts if s in text]
    assert not [s for s in secrets if s in text]
    assert "Bearer" not in text
