"""The Flask application factory: `create_app(config)`; gunicorn runs `service.app:create_app()`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from service.api import init_api
from service.api.context import EXTENSION
from service.api.rate_limits import init_limits
from service.api.rate_limits import settings as limit_settings
from service.wiring import build_service, redis_url
from service.worker import rq_redis_url

DEFAULTS: Mapping[str, Any] = {
    # An event stream closes after this many seconds without a new event.
    "SSE_MAX_SECONDS": 300,
    # A comment line this often on a quiet stream notices clients that went away.
    "SSE_HEARTBEAT_SECONDS": 15,
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The web app. `config` may give REDIS_URL, RQ_REDIS_URL (else from the environment,
    as the worker reads them) or a ready GAME_SERVICE, plus any Flask setting."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(limit_settings())
    if os.environ.get("ARCHIPELAGO_SSE_MAX_SECONDS"):
        app.config["SSE_MAX_SECONDS"] = float(os.environ["ARCHIPELAGO_SSE_MAX_SECONDS"])
    app.config.update(config or {})
    service = app.config.get("GAME_SERVICE")
    if service is None:
        urls = {k: app.config[k] for k in ("REDIS_URL", "RQ_REDIS_URL") if app.config.get(k)}
        environ = {**os.environ, **urls}
        service = build_service(redis_url(environ), rq_redis_url(environ))
        app.config.setdefault("RATELIMIT_STORAGE_URI", redis_url(environ))
    app.extensions[EXTENSION] = service
    # A ready GAME_SERVICE names no Redis: its limits count in memory unless the config says.
    init_limits(app, "memory://")
    init_api(app)
    return app
