"""GET /health/ready: 200 once Redis has its data; 503 while it loads its append-only file."""

from __future__ import annotations

from pathlib import Path

from flask.testing import FlaskClient

from service.app import create_app
from service.embedded_redis import Loading, start_redis
from service.refusals import RETRY_AFTER_SECONDS, StoreState
from tests.api.contract import ValidatingClient
from tests.slow_loading import slow_loading_data


def test_ready_answers_200_when_redis_has_its_data(client: FlaskClient) -> None:
    answer = client.get("/health/ready")

    assert answer.status_code == 200
    assert answer.json == {"status": "ok"}


def test_ready_answers_503_while_redis_loads_its_data(tmp_path: Path) -> None:
    slow = slow_loading_data(tmp_path, seconds=8, cycle=0.25)
    seen: list[Loading] = []
    # Returned as soon as the server says it is loading.
    server = start_redis(tmp_path, extra_args=slow, on_loading=seen.append, cancelled=lambda: bool(seen))
    try:
        assert seen and seen[-1].percent < 100
        app = create_app(
            {
                "REDIS_URL": server.url,
                "RQ_REDIS_URL": server.url,
                "TESTING": True,
                "RATE_LIMITS_ENABLED": False,
            }
        )
        app.test_client_class = ValidatingClient

        answer = app.test_client().get("/health/ready")
        live = app.test_client().get("/health/live")

        assert server.process.poll() is None
        assert answer.status_code == 503, answer.json
        assert answer.mimetype == "application/problem+json"
        assert answer.json["code"] == "store_unavailable"
        assert "loading" in answer.json["detail"] and answer.json["store"] == "loading"
        assert answer.headers["Retry-After"] == str(RETRY_AFTER_SECONDS[StoreState.LOADING])
        assert live.status_code == 200
    finally:
        server.stop(kill=True)
