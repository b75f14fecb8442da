"""The Flask application factory: `create_app(config)`; gunicorn runs `service.app:create_app()`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from service.ai_games import limits_from
from service.api import allowed, init_api, json_answers, telemetry
from service.api.context import EXTENSION, SIGNER
from service.api.rate_limits import init_limits
from service.api.rate_limits import settings as limit_settings
from service.flask_app import ServiceFlask
from service.game_plugins import load_game_plugins
from service.queues import rq_redis_url
from service.signing import signer_from
from service.web import cross_site, headers, init_web
from service.wiring import build_service, cluster_url, plain_rq_url, redis_url

DEFAULTS: Mapping[str, Any] = {
    # An event stream closes after this many seconds without a new event.
    "SSE_MAX_SECONDS": 300,
    # A comment line this often on a quiet stream notices clients that went away.
    "SSE_HEARTBEAT_SECONDS": 15,
    # Request size limits (service/api/sizes.py): the largest JSON body of the API is a few KB;
    # a long game's file about 200 KB, which 4 MiB leaves twenty times over.
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "MAX_IMPORT_BYTES": 4 * 1024 * 1024,
    "MAX_URL_BYTES": 2048,
    "MAX_HEADER_BYTES": 8 * 1024,
    # Who may read /metrics: comma-separated addresses or CIDR networks (* = anyone), matched
    # against the client's address (behind a proxy of FORWARDED_ALLOW_IPS, the forwarded one).
    "METRICS_ALLOW": "127.0.0.1/32,::1/128",
    # Origins (scheme://host[:port]) besides the requested host whose pages may post here
    # (service/web/cross_site.py): e.g. when a proxy hands the app another Host header.
    "TRUSTED_ORIGINS": "",
}
#: Settings that may come from the environment: the variable names the setting.
ENVIRONMENT: Mapping[str, tuple[str, type]] = {
    "ARCHIPELAGO_SSE_MAX_SECONDS": ("SSE_MAX_SECONDS", float),
    "ARCHIPELAGO_SSE_HEARTBEAT_SECONDS": ("SSE_HEARTBEAT_SECONDS", float),
    "ARCHIPELAGO_MAX_BODY_BYTES": ("MAX_CONTENT_LENGTH", int),
    "ARCHIPELAGO_MAX_IMPORT_BYTES": ("MAX_IMPORT_BYTES", int),
    "ARCHIPELAGO_MAX_URL_BYTES": ("MAX_URL_BYTES", int),
    "ARCHIPELAGO_MAX_HEADER_BYTES": ("MAX_HEADER_BYTES", int),
    "ARCHIPELAGO_METRICS_ALLOW": ("METRICS_ALLOW", str),
    "ARCHIPELAGO_TRUSTED_ORIGINS": ("TRUSTED_ORIGINS", str),
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The web app. `config` may give REDIS_URL, REDIS_CLUSTER_URL, RQ_REDIS_URL (else from the
    environment, as the worker reads them) or a ready GAME_SERVICE, plus any Flask setting."""
    load_game_plugins()
    app = ServiceFlask(__name__)
    json_answers.install(app)
    app.config.update(DEFAULTS)
    app.config.update(limit_settings())
    for variable, (setting, kind) in ENVIRONMENT.items():
        if os.environ.get(variable):
            app.config[setting] = kind(os.environ[variable])
    app.config.update(config or {})
    service = app.config.get("GAME_SERVICE")
    if service is None:
        names = ("REDIS_URL", "REDIS_CLUSTER_URL", "RQ_REDIS_URL")
        urls = {k: app.config[k] for k in names if app.config.get(k)}
        environ = {**os.environ, **urls}
        cluster = cluster_url(environ)
        queues = plain_rq_url(environ) if cluster else rq_redis_url(environ)
        service = build_service(redis_url(environ), queues, cluster)
        # AI_GAMES_PER_CLIENT, AI_GAMES_OVERALL, AI_GAMES_IDLE_SECONDS: the caps on open AI games.
        service.ai.open_games.limits = limits_from(config=app.config)
        # Flask-Limiter's keys share no hash tag: on a cluster they go to RQ's plain Redis.
        app.config.setdefault("RATELIMIT_STORAGE_URI", queues if cluster else redis_url(environ))
    app.extensions[EXTENSION] = service
    # SIGNER: a ready service.signing.Signer; else the key of ARCHIPELAGO_SIGNING_KEY or the key folder.
    app.extensions[SIGNER] = app.config.get("SIGNER") or signer_from()
    telemetry.install(app)
    headers.install(app)
    cross_site.install(app)
    # A ready GAME_SERVICE names no Redis: its limits count in memory unless the config says.
    init_limits(app, "memory://")
    init_api(app)
    init_web(app)
    allowed.install(app)
    return app
