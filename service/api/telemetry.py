"""Every request gets an id (X-Request-ID, sent back), one log line, and its count and latency in
the metrics (service.metrics), all under the route template, never the requested path."""

from __future__ import annotations

import logging
import time
import uuid

from flask import Flask, Response, g, request

from service.logs import REQUEST_ID, request_id
from service.metrics import UNMATCHED, observe_request

HEADER = "X-Request-ID"
ENVIRON_KEY = "HTTP_X_REQUEST_ID"
"""Where WSGI puts the header (werkzeug's headers read it there too)."""

log = logging.getLogger("archipelago.requests")


def install(app: Flask) -> None:
    """Before every other hook, so that a request refused by one (a size, a rate limit) is
    counted and logged too."""
    app.before_request_funcs.setdefault(None, []).insert(0, start)
    app.after_request(finish)
    app.teardown_request(forget)


def start() -> None:
    g.request_started = time.perf_counter()
    environ = request.environ
    g.request_id = request_id(environ.get(ENVIRON_KEY), uuid.uuid4().hex)
    REQUEST_ID.set(g.request_id)


def finish(response: Response) -> Response:
    seconds = time.perf_counter() - g.get("request_started", time.perf_counter())
    ident = g.get("request_id") or uuid.uuid4().hex
    asked = request._get_current_object()  # type: ignore[attr-defined]  # one proxy lookup, not five
    rule = asked.url_rule
    route = rule.rule if rule is not None else None
    status = response.status_code
    observe_request(asked.method, route, status, seconds)
    response.headers[HEADER] = ident
    if log.isEnabledFor(logging.INFO):
        fields = {
            "method": asked.method,
            "route": route or UNMATCHED,
            "status": status,
            "duration_ms": round(seconds * 1000, 2),
            "request_id": ident,
        }
        log.info("%s %s %s", fields["method"], fields["route"], fields["status"], extra=fields)
    return response


def forget(_error: BaseException | None) -> None:
    """The thread's next request starts without this one's id."""
    REQUEST_ID.set(None)
