"""Operational endpoints: readiness, liveness and the Prometheus metrics."""

from __future__ import annotations

from typing import Any

import redis
from flask import Response

from service.api.blueprint import Blueprint
from service.api.context import game_service
from service.api.problems import problem
from service.api.rate_limits import limiter
from service.api.schemas import HealthSchema
from service.scrape import CONTENT_TYPE, exposition, live_collectors

blp = Blueprint("system", __name__, description="Health and metrics of the service.")

METRICS_RESPONSE = {
    "200": {
        "description": "Prometheus' text exposition format (version 0.0.4): requests by route "
        "template and status, latencies, events appended, job durations, RQ queue lengths "
        "and events stored (docs/operations.md lists them)",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    }
}


@blp.get("/health")
@blp.response(200, HealthSchema)
def health() -> Any:
    """Readiness: 200 when Redis answers a PING (503 problem otherwise)."""
    game_service().redis.ping()
    return {"status": "ok"}


@blp.get("/health/ready")
@limiter.exempt
@blp.response(200, HealthSchema)
def ready() -> Any:
    """Readiness: 200 once Redis has loaded its data; 503 store_unavailable otherwise.

    While Redis loads its append-only file (it answers LOADING), or cannot be reached, the
    answer is a 503 problem with Retry-After. It reads no game and no listing, and counts
    against no rate limit (kept in Redis too), so its cost does not grow with the store:
    `make run` waits on it before it says the service is running; a load balancer may poll it.
    """
    try:
        game_service().redis.ping()
    except redis.exceptions.BusyLoadingError:
        return problem(
            503,
            "store_unavailable",
            "the game store is loading its data; try again shortly",
            headers={"Retry-After": "1"},
        )
    return {"status": "ok"}


@blp.get("/health/live")
@limiter.exempt
@blp.response(200, HealthSchema)
def live() -> Any:
    """Liveness: 200 whenever this process answers. It asks nothing of Redis (nor of the rate
    limits kept there), so an outage of Redis does not get every web process restarted."""
    return {"status": "ok"}


@blp.get("/metrics")
@limiter.exempt
@blp.doc(responses=METRICS_RESPONSE)
def metrics() -> Response:
    """The metrics of every web process of this host (multiprocess mode) and RQ's queues."""
    return Response(exposition(*live_collectors(game_service())), content_type=CONTENT_TYPE)
