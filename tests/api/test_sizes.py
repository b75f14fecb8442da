"""Size limits (P5 B.8): the app answers 413, 414 and 431 as problem+json before reading more,
and gunicorn's own limits sit above them, so its HTML answers are only for what the app never sees."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.app import DEFAULTS, create_app
from service.embedded_redis import EmbeddedRedis
from tests.api.helpers import create_game
from tests.api.test_errors import assert_problem

ROOT = Path(__file__).resolve().parents[2]


def test_a_body_over_the_json_limit_is_413_and_writes_nothing(
    client: FlaskClient, app: Flask, redis_client: redis.Redis
) -> None:
    limit = app.config["MAX_CONTENT_LENGTH"]
    body = json.dumps({"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Ben"}], "x": "a" * limit})
    before = set(redis_client.keys("*"))
    assert_problem(client.post("/games", data=body, content_type="application/json"), 413, "body_too_large")
    assert set(redis_client.keys("*")) == before


def test_every_endpoint_refuses_a_body_over_the_limit_even_one_it_would_not_read(
    client: FlaskClient, app: Flask
) -> None:
    game = create_game(client)
    big = b"{" + b" " * app.config["MAX_CONTENT_LENGTH"] + b"}"
    for path in (f"/games/{game['game_id']}", "/health", f"/games/{game['game_id']}/commands"):
        method = "POST" if path.endswith("commands") else "GET"
        answer = client.open(path, method=method, data=big, content_type="application/json")
        assert_problem(answer, 413, "body_too_large")


def test_an_import_may_be_larger_than_a_json_body_up_to_its_own_limit(
    client: FlaskClient, app: Flask
) -> None:
    assert app.config["MAX_IMPORT_BYTES"] > app.config["MAX_CONTENT_LENGTH"]
    file = b'{"format":"nothing"}\n' + b"\n" * (app.config["MAX_CONTENT_LENGTH"] * 2)
    answer = client.post("/games/import", data=file, content_type="application/x-ndjson")
    assert_problem(answer, 422, "verify_failed")
    huge = b"\n" * (app.config["MAX_IMPORT_BYTES"] + 1)
    answer = client.post("/games/import", data=huge, content_type="application/x-ndjson")
    assert_problem(answer, 413, "body_too_large")


def test_a_long_url_is_a_414_problem(client: FlaskClient, app: Flask) -> None:
    answer = client.get("/games/" + "a" * app.config["MAX_URL_BYTES"])
    assert_problem(answer, 414, "uri_too_long")
    answer = client.get("/games/g1/events?after=" + "1" * app.config["MAX_URL_BYTES"])
    assert_problem(answer, 414, "uri_too_long")


def test_headers_over_the_limit_are_a_431_problem(client: FlaskClient, app: Flask) -> None:
    answer = client.get("/health", headers={"X-Padding": "a" * app.config["MAX_HEADER_BYTES"]})
    assert_problem(answer, 431, "headers_too_large")


def test_the_limits_are_settable_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, redis_server: EmbeddedRedis
) -> None:
    monkeypatch.setenv("ARCHIPELAGO_MAX_BODY_BYTES", "1000")
    monkeypatch.setenv("ARCHIPELAGO_MAX_IMPORT_BYTES", "5000")
    monkeypatch.setenv("ARCHIPELAGO_MAX_URL_BYTES", "300")
    monkeypatch.setenv("ARCHIPELAGO_MAX_HEADER_BYTES", "2000")
    app = create_app({"REDIS_URL": redis_server.url})
    names = ("MAX_CONTENT_LENGTH", "MAX_IMPORT_BYTES", "MAX_URL_BYTES", "MAX_HEADER_BYTES")
    limits = [app.config[name] for name in names]
    assert limits == [1000, 5000, 300, 2000]


def test_gunicorn_reads_more_than_the_app_allows_so_the_app_answers_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The settings file puts its process in Prometheus' multiprocess mode when no directory is
    # named; given one, and the variable restored after, the tests after this one count as before.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    settings = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    # The request line is "METHOD <url> HTTP/1.1"; one header alone may fill the app's whole allowance.
    assert settings["limit_request_line"] >= DEFAULTS["MAX_URL_BYTES"] + len("OPTIONS  HTTP/1.1")
    assert settings["limit_request_field_size"] > DEFAULTS["MAX_HEADER_BYTES"]
