"""The worker's own small HTTP port (`archipelago-worker --http-port`): its Prometheus metrics
and the probes of an orchestrator. The web app's routes of the same names answer alike."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import redis

from service.games import GameService
from service.scrape import CONTENT_TYPE, exposition, live_collectors

#: What the port answers: path -> what it tells.
ROUTES = {
    "/metrics": "job durations, events stored, RQ's queue lengths (text/plain)",
    "/health": "readiness: 200 when the events' Redis and RQ's Redis answer a PING, else 503",
    "/health/live": "liveness: 200 while the worker's main loop and its sweeper run, else 503",
}

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def make_app(service: GameService, alive: Callable[[], bool]) -> WsgiApp:
    """The WSGI app of ROUTES on a service of its own; `alive` says whether the worker works."""
    jobs = service.scoring.connection if service.scoring is not None else service.redis

    def ready() -> bool:
        try:
            return bool(service.redis.ping() and jobs.ping())
        except redis.exceptions.RedisError:
            return False

    def app(request_env: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = request_env.get("PATH_INFO", "")
        if path == "/metrics":
            body = exposition(*live_collectors(service))
            start_response("200 OK", [("Content-Type", CONTENT_TYPE)])
            return [body]
        if path in ("/health", "/health/live"):
            ok = ready() if path == "/health" else alive()
            start_response(
                "200 OK" if ok else "503 Service Unavailable", [("Content-Type", "application/json")]
            )
            return [b'{"status": "ok"}' if ok else b'{"status": "unavailable"}']
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found\n"]

    return app


class _Threading(ThreadingMixIn, WSGIServer):
    """One thread a request, so a slow scrape never holds up a probe."""

    daemon_threads = True


class _Quiet(WSGIRequestHandler):
    """Probes every few seconds would fill the worker's log."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(host: str, port: int, app: WsgiApp) -> WSGIServer:
    """Serve `app` on host:port from a daemon thread; the server (its port: server_port)."""
    server = make_server(host, port, app, server_class=_Threading, handler_class=_Quiet)
    threading.Thread(target=server.serve_forever, name="worker-http", daemon=True).start()
    return server
