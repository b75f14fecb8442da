"""Gunicorn settings for Archipelago (`gunicorn -c deploy/gunicorn.conf.py`).

`make run` (service/launcher.py) passes --bind and the app on the command line;
run directly, this file alone is enough. Every setting can be tuned by env var.
"""

import os
import shutil
import tempfile

from service.logs import logging_config

# Each worker process counts its metrics in files of its own in this directory, and /metrics
# sums them all (service.metrics). It must be set before a worker imports prometheus_client.
# (prometheus_client reads it at import, so this file leaves that import to the hooks.)
_own_metrics_dir = None
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _own_metrics_dir = tempfile.mkdtemp(prefix="archipelago-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _own_metrics_dir

# The WSGI app; a command-line app argument wins over this.
wsgi_app = os.environ.get("ARCHIPELAGO_WSGI_APP", "service.app:create_app()")

bind = [f"{os.environ.get('ARCHIPELAGO_HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"]

# Server-Sent Events hold a connection open for as long as a client watches a game or a
# tournament (up to SSE_MAX_SECONDS without an event). Under gthread each one pinned one of
# workers x threads threads, and 40 watchers took every ordinary request down. gevent serves
# each connection in a greenlet: an open stream costs a socket and some memory, and all the
# viewers of one stream share one Redis reader (service/feeds.py). The worker patches the
# standard library (sockets, threading) before it loads the app; redis-py, RQ's enqueue,
# Flask-Limiter, prometheus_client and logging all run on the patched library.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Open connections per worker, streams and slow clients included; a full worker stops
# accepting and the other takes the next ones. Each needs a file descriptor: the launcher
# raises its soft limit (RLIMIT_NOFILE) to the hard one.
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "4000"))
# Each worker listens on a socket of its own (SO_REUSEPORT), and the kernel spreads new
# connections over them. With one shared socket the first gevent worker to wake took every
# connection of a burst: under a few keep-alive clients one worker worked, the other idled.
reuse_port = True
# Used only by GUNICORN_WORKER_CLASS=gthread.
threads = int(os.environ.get("GUNICORN_THREADS", "16"))

# The app factory runs in each worker, after the fork: no Redis connection or
# pool is shared between processes.
preload_app = False

timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# How long a stop waits for in-flight requests (and open event streams).
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "5"))
# Also the header read timeout of the gevent worker: a request's line and headers must have
# arrived within this many seconds of the connection (or of the previous answer), else the
# connection is closed. A slowloris client sending a byte a second is cut off after 5 s.
# At least 1: gunicorn reads a request head without any time limit when keep-alive is off (0).
keepalive = max(1, int(os.environ.get("GUNICORN_KEEPALIVE", "5")))

# The app logs one JSON line per request (method, route template, status, duration, request
# id: service/api/telemetry.py); gunicorn's own access line, with the raw path, only on demand.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "") or None
errorlog = "-"
loglevel = os.environ.get("ARCHIPELAGO_LOG_LEVEL", "info").lower()
logconfig_dict = logging_config(access_log=accesslog is not None)
# Without an access log, gunicorn would still format every request's access line to drop it.
logger_class = "service.access_log.AccessOnDemandLogger"
proc_name = "archipelago-web"
# Gunicorn 24+ opens a control socket in ~/.gunicorn by default, shared by every
# instance of the user; Archipelago does not use it. (Older gunicorns ignore this.)
control_socket_disable = True

# Above the app's own limits (MAX_URL_BYTES, MAX_HEADER_BYTES: service/api/sizes.py), so
# that the app answers an oversized request with its problem+json 414 or 431. Only what
# exceeds these (a request line over 8190 bytes, gunicorn's maximum; one header over 16 KiB;
# more than 100 headers) gets gunicorn's own 400, 414 or 431, as a small HTML page.
limit_request_line = 8190
limit_request_field_size = 16 * 1024
limit_request_fields = 100

# Trust X-Forwarded-* only from a proxy on this host unless told otherwise.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def on_starting(server):
    """Counts of an earlier run in the directory would be summed into this one's."""
    from service.metrics import clear_counts

    clear_counts()


def child_exit(server, worker):
    """A dead worker's live gauges leave the sums; its counters stay, as Prometheus expects."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _own_metrics_dir is not None:
        shutil.rmtree(_own_metrics_dir, ignore_errors=True)
