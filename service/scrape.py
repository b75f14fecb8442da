"""What a Prometheus scrape reads (`GET /metrics`, the worker's port): the counts of
service.metrics, summed over this host's web processes in multiprocess mode, and what is
read from Redis at the moment of the scrape, the same whichever process answers: the events
stored and RQ's queues."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from rq import Queue
from rq.registry import FailedJobRegistry

from service.metrics import multiprocess
from service.queues import QUEUES, queue

#: Prometheus' classic text format.
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4


class QueueLengths(Collector):
    """RQ's queue lengths and failed jobs."""

    def __init__(self, queues: Sequence[Queue]) -> None:
        self.queues = queues

    def collect(self) -> Iterator[GaugeMetricFamily]:
        waiting = GaugeMetricFamily(
            "archipelago_rq_queue_length", "Jobs waiting in an RQ queue", labels=["queue"]
        )
        failed = GaugeMetricFamily(
            "archipelago_rq_failed_jobs", "Jobs in an RQ queue's failed registry", labels=["queue"]
        )
        for jobs in self.queues:
            waiting.add_metric([jobs.name], jobs.count)
            failed.add_metric([jobs.name], FailedJobRegistry(queue=jobs).count)
        yield waiting
        yield failed


class StoredEvents(Collector):
    """How many events the store holds, by kind: every process's appends (the web's, the
    workers' jobs', imports), where a process's own counter sees only its own."""

    def __init__(self, counts: Mapping[str, Callable[[], int]]) -> None:
        self.counts = counts

    def collect(self) -> Iterator[CounterMetricFamily]:
        stored = CounterMetricFamily(
            "archipelago_events_stored", "Events in the store (appended by any process)", labels=["kind"]
        )
        for kind, count in self.counts.items():
            stored.add_metric([kind], count())
        yield stored


def live_collectors(service: Any) -> list[Collector]:
    """The collectors read from Redis for a GameService: its stored events and its RQ queues."""
    counts = {"game": service.store.stored}
    tournaments = getattr(service, "tournaments", None)
    if tournaments is not None:
        counts["tournament"] = tournaments.store.stored
    found: list[Collector] = [StoredEvents(counts)]
    connection = getattr(service.scoring, "connection", None)
    if connection is not None:
        found.append(QueueLengths([queue(name, connection) for name in QUEUES]))
    return found


def exposition(*extra: Collector) -> bytes:
    """The text of a scrape: every process's counts (or this one's) and the `extra` collectors."""
    if multiprocess():
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        text = generate_latest(registry)
    else:
        text = generate_latest(REGISTRY)
    live = CollectorRegistry()
    for collector in extra:
        live.register(collector)
    return text + generate_latest(live)
