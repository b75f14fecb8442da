"""Operational endpoints: readiness, liveness and the Prometheus metrics.

The metrics name the service's routes, queue lengths and traffic: only the addresses of
METRICS_ALLOW read them (loopback by default; a deployment adds its Prometheus' network),
others get 403 `metrics_not_allowed`. The address is the client's as the rate limits see it:
behind a proxy of FORWARDED_ALLOW_IPS the one it forwards, so a proxy in front never lends
its own address to the public.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app

from service.api.blueprint import Blueprint
from service.api.context import game_service
from service.api.problems import problem
from service.api.rate_limits import client_address, in_networks, limiter
from service.api.schemas import HealthSchema
from service.refusals import probe
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
    """Readiness: 200 when Redis answers, with `store` saying whether it takes writes now (ok,
    full, read_only); a 503 problem (`store`: loading or unreachable) when it cannot serve."""
    return {"status": "ok", "store": probe(game_service().redis)}


@blp.get("/health/ready")
@limiter.exempt
@blp.response(200, HealthSchema)
def ready() -> Any:
    """Readiness: 200 once Redis has loaded its data; 503 store_unavailable otherwise.

    While Redis loads its append-only file (it answers LOADING), or cannot be reached, the
    answer is the store's 503 problem with Retry-After and `store` (loading, unreachable). It
    reads no game and no listing, and counts against no rate limit (kept in Redis too), so its
    cost does not grow with the store: `make run` waits on it before it says the service is
    running; a load balancer may poll it.
    """
    game_service().redis.ping()
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
    """The metrics of every web process of this host (multiprocess mode) and RQ's queues,
    for the addresses of METRICS_ALLOW."""
    if not in_networks(client_address(), str(current_app.config["METRICS_ALLOW"])):
        return problem(403, "metrics_not_allowed", "this address may not read the metrics (METRICS_ALLOW)")
    return Response(exposition(*live_collectors(game_service())), content_type=CONTENT_TYPE)
