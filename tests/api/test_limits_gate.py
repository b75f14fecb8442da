"""With the app's limits off, the limiter's hooks stand aside and every answer passes through them
as the view made it; with the limits on they count as before (tests/api/test_rate_limits.py)."""

from __future__ import annotations

import werkzeug.wrappers

from service.api.context import EXTENSION
from service.app import create_app
from service.embedded_redis import EmbeddedRedis


def test_with_the_limits_off_any_response_passes_the_limiters_hooks(
    redis_server: EmbeddedRedis, redis_client: object
) -> None:
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True, "RATE_LIMITS_ENABLED": False})

    @app.get("/plain-werkzeug-answer")
    def plain() -> werkzeug.wrappers.Response:
        return werkzeug.wrappers.Response("as made", status=203)

    answer = app.test_client().get("/plain-werkzeug-answer")
    assert (answer.status_code, answer.get_data(as_text=True)) == (203, "as made")
    app.extensions[EXTENSION].redis.close()
