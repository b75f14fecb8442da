"""The service's Prometheus metrics, counted where things happen (service.scrape exposes them).

Under gunicorn each worker process counts in files of its own in PROMETHEUS_MULTIPROC_DIR
(deploy/gunicorn.conf.py sets one up and drops a dead worker's live gauges); a scrape of any
process sums them all. Without that directory a process shows only its own counts.

Labels name route templates (`/games/<game_id>`), never a requested path: a path holds ids a
spectator may not list, and an unmatched one is whatever a client typed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

# The `_created` series say when a process first counted a label set: noise beside the
# counts, and absent from the multiprocess exposition anyway.
disable_created_metrics()  # type: ignore[no-untyped-call]

MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"
#: Methods named in labels; any other is counted as "other", so a client cannot mint series.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: The route label of a request no route matched (404, 405, or refused before routing).
UNMATCHED = "unmatched"

REQUESTS = Counter(
    "archipelago_http_requests_total",
    "HTTP requests answered, by method, route template and status",
    ["method", "route", "status"],
)
LATENCY = Histogram(
    "archipelago_http_request_duration_seconds",
    "Seconds from a request's arrival to its answer's headers (an event stream's first byte)",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
EVENTS_APPENDED = Counter(
    "archipelago_events_appended_total",
    "Events this process (the web processes together) wrote to the store; a recognised retry writes none",
    ["kind"],
)
OPEN_STREAMS = Gauge(
    "archipelago_event_streams_open",
    "Event streams (Server-Sent Events) open now, by what they follow",
    ["kind"],
    # Summed over the live web processes; a dead one's streams are gone with it.
    multiprocess_mode="livesum",
)
JOB_DURATION = Histogram(
    "archipelago_job_duration_seconds",
    "Seconds an RQ job took on a worker, by job function, queue and final status",
    ["job", "queue", "status"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
)


_LABELLED: dict[tuple[str, str | None, int], tuple[Any, Any]] = {}
"""Each label set's counter and histogram, as `labels` gives them (it validates and locks on
every call). Bounded: routes and statuses are few, and an unknown method counts as "other"."""
LABELLED_MOST = 4096


def observe_request(method: str, route: str | None, status: int, seconds: float) -> None:
    """Count one answered request under its route template (UNMATCHED when none)."""
    key = (method, route, status)
    labelled = _LABELLED.get(key)
    if labelled is None:
        name = method if method in METHODS else "other"
        template = route or UNMATCHED
        labelled = (REQUESTS.labels(name, template, str(status)), LATENCY.labels(name, template))
        if len(_LABELLED) < LABELLED_MOST:
            _LABELLED[key] = labelled
    labelled[0].inc()
    labelled[1].observe(seconds)


def observe_appended(kind: str, events: int) -> None:
    EVENTS_APPENDED.labels(kind).inc(events)


def stream_opened(kind: str) -> None:
    OPEN_STREAMS.labels(kind).inc()


def stream_closed(kind: str) -> None:
    OPEN_STREAMS.labels(kind).dec()


def observe_job(function: str, queue: str, status: str, seconds: float) -> None:
    """One job's run; `function` is the job's import path, of which the last name is kept."""
    JOB_DURATION.labels(function.rpartition(".")[2], queue, status).observe(seconds)


def multiprocess() -> bool:
    return bool(os.environ.get(MULTIPROC_DIR))


def clear_counts() -> None:
    """Empty PROMETHEUS_MULTIPROC_DIR (creating it if need be) before the processes that count
    in it start: the files of an earlier run would be summed into this one's."""
    directory = Path(os.environ[MULTIPROC_DIR])
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob("*.db"):
        stale.unlink()
