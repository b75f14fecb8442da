"""The RQ worker entry point (`archipelago-worker`).

Runs the jobs of service.jobs from the queues of service.queues. `main()` builds the
service jobs run with once, in the main thread, before it starts the sweeper thread or
forks a work horse: every horse inherits it (and every module a job imports, so a horse
never imports while another thread holds an import lock, which would hang it).
"""

from __future__ import annotations

import _thread
import argparse
import logging
import logging.config
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence

import redis
from rq import Queue, SimpleWorker, Worker
from rq.exceptions import InvalidJobOperation
from rq.job import Job
from rq.serializers import JSONSerializer
from rq.worker import BaseWorker, WorkerStatus

from service import jobs, worker_http
from service.game_plugins import load_game_plugins
from service.logs import job_context, logging_config
from service.metrics import observe_job
from service.queues import QUEUE_DEFAULT, QUEUES, queue, rq_connection, rq_redis_url
from service.sweeper import sweep_forever
from service.wiring import build_service
from service.worker_loop import work_until_stopped

log = logging.getLogger("archipelago.worker")

HTTP_PORT_VARIABLE = "ARCHIPELAGO_WORKER_PORT"

JOB_HEARTBEAT_SECONDS = 5
"""How often a forking worker renews the record of the job its horse runs. The record lapses
after three missed renewals, and the sweeper then runs a job whose worker was killed again:
within seconds instead of RQ's own minute and a half (ARCHIPELAGO_JOB_HEARTBEAT_SECONDS)."""


INLINE_QUEUES = frozenset({QUEUE_DEFAULT})
"""Queues whose jobs a worker runs itself instead of in a forked work horse (WarmWorker)."""


def heartbeat_seconds() -> int:
    return max(1, int(os.environ.get("ARCHIPELAGO_JOB_HEARTBEAT_SECONDS") or JOB_HEARTBEAT_SECONDS))


def make_worker(
    connection: redis.Redis,
    queues: Sequence[str] = QUEUES,
    *,
    simple: bool = False,
    name: str | None = None,
) -> BaseWorker:
    """An RQ worker on `queues` (in priority order) with the JSON serializer.

    `simple=True` runs jobs in this process (SimpleWorker), which is what the
    tests use in burst mode; the default forks a work horse per job of the `ai` queue.
    """
    if simple:
        return ObservedSimpleWorker(
            [queue(q, connection) for q in queues],
            connection=connection,
            serializer=JSONSerializer,
            name=name,
        )
    return WarmWorker(
        [queue(q, connection) for q in queues],
        connection=connection,
        serializer=JSONSerializer,
        name=name,
        job_monitoring_interval=heartbeat_seconds(),
    )


class ObservedJobs:
    """Times every job into the metrics (service.metrics) and names its id on every log line
    written while it runs. In the worker's own process: a forked horse inherits the job id
    and leaves the timing to the worker, which waits for it."""

    def execute_job(self, job: Job, queue: Queue) -> None:
        started = time.perf_counter()
        with job_context(job.id):
            try:
                super().execute_job(job, queue)  # type: ignore[misc]
            finally:
                observe_job(job.func_name or "", queue.name, _status(job), time.perf_counter() - started)


class ObservedSimpleWorker(ObservedJobs, SimpleWorker):
    """RQ's SimpleWorker (jobs in this process), observed."""


class InlineOrFork(Worker):
    """Runs the jobs of INLINE_QUEUES (round scoring, standings) itself, as a SimpleWorker
    does: each takes milliseconds, and a fork per job with its fresh connections cost more
    than the job (under load, rounds queued for seconds behind the forks: bench load, 64
    clients, 2 workers, a queue wait p50 of 1.2 s). Forks a work horse for the others, after
    folding the job's game into its own cache, so the horse (a copy of it) reads only what
    was appended since (service.jobs.warm)."""

    def execute_job(self, job: Job, queue: Queue) -> None:
        if queue.name in INLINE_QUEUES:
            self.perform_job(job, queue, self.prepare_execution(job))
            self.set_state(WorkerStatus.IDLE)
            return
        jobs.warm(job.args)
        super().execute_job(job, queue)


class WarmWorker(ObservedJobs, InlineOrFork):
    """The service's worker: InlineOrFork, observed, with short-lived job records."""

    # RQ tries a lost Redis again after 1, 2, 4... up to 60 s: after a long outage (a restarted
    # Redis loading a large file) the worker would sleep on for up to a minute with Redis back.
    max_connection_wait_time = 2.0

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        # RQ adds a minute to each renewal; a horse's job limit is kept by the worker anyway.
        # Nothing renews the record of a job the worker runs itself: one that outlived it
        # would be run again, which every job of service.jobs recognises and makes a no-op.
        return 3 * int(self.job_monitoring_interval)


def _status(job: Job) -> str:
    """The job's status once run (finished, failed, ...): what its duration is counted under."""
    try:
        status = job.get_status(refresh=True)
    except (redis.exceptions.RedisError, InvalidJobOperation):
        return "unknown"
    return str(getattr(status, "value", status) or "unknown")


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="archipelago-worker",
        description="Run Archipelago's background jobs (RQ worker).",
    )
    parser.add_argument(
        "queues",
        nargs="*",
        default=None,
        help=f"queues to listen on, in priority order (default: {' '.join(QUEUES)})",
    )
    parser.add_argument("--url", help="Redis URL for RQ (default: $RQ_REDIS_URL, else $REDIS_URL)")
    parser.add_argument("--burst", action="store_true", help="exit once the queues are empty")
    parser.add_argument("--simple", action="store_true", help="run jobs in this process instead of forking")
    parser.add_argument(
        "--sweep-interval",
        type=float,
        default=30.0,
        help="seconds between sweeps that re-enqueue lost scorings, computer moves and tournament "
        "results, and forfeit seats past a move time limit (0: never; default 30)",
    )
    parser.add_argument(
        "--no-scheduler",
        dest="scheduler",
        action="store_false",
        help="do not run RQ's scheduler (needed for delayed jobs and retry intervals)",
    )
    parser.add_argument("--name", help="worker name (default: RQ's, from host and pid)")
    parser.add_argument(
        "--http-port",
        type=int,
        default=int(os.environ.get(HTTP_PORT_VARIABLE) or 0),
        help=f"serve /metrics, /health and /health/live on this port (default: ${HTTP_PORT_VARIABLE}; "
        "0 or unset: no port)",
    )
    parser.add_argument(
        "--http-host",
        default=os.environ.get("ARCHIPELAGO_HOST") or "127.0.0.1",
        help="address of that port (default: $ARCHIPELAGO_HOST or 127.0.0.1)",
    )
    parser.add_argument(
        "--log-level",
        default=os.environ.get("ARCHIPELAGO_LOG_LEVEL", "INFO").upper(),
        help="logging level (default: $ARCHIPELAGO_LOG_LEVEL or INFO)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(argv)
    logging.config.dictConfig(logging_config(args.log_level))
    url = args.url or rq_redis_url()
    connection = rq_connection(url)
    queues = args.queues or list(QUEUES)
    load_game_plugins()  # before the first fork: every work horse knows the same games
    jobs.worker_service()
    _forks_die_with_worker()
    sweeper = Sweeper(args.sweep_interval) if args.sweep_interval > 0 and not args.burst else None
    if args.http_port:
        _serve_http(args.http_host, args.http_port, sweeper)
    try:
        if sweeper is not None:
            sweeper.start()
        work_until_stopped(
            lambda: make_worker(connection, queues, simple=args.simple, name=args.name),
            burst=args.burst,
            with_scheduler=args.scheduler,
            logging_level=args.log_level,
        )
    except KeyboardInterrupt:
        if sweeper is None or not sweeper.died:
            raise
    except redis.exceptions.ConnectionError as exc:
        log.error("cannot reach Redis for RQ at %s: %s", _redact(url), exc)
        return 1
    finally:
        if sweeper is not None:
            sweeper.stop.set()
    if sweeper is not None and sweeper.died:
        log.error("the worker stopped because its sweeper died (see above)")
        return 1
    return 0


def _serve_http(host: str, port: int, sweeper: Sweeper | None) -> None:
    """The worker's port for Prometheus and probes (service.worker_http), on a service of its
    own, built here in the main thread as the sweeper's is."""
    main = threading.main_thread()

    def alive() -> bool:
        return main.is_alive() and (sweeper is None or (sweeper.is_alive() and not sweeper.died))

    app = worker_http.make_app(build_service(), alive)
    server = worker_http.serve(host, port, app)
    log.info("metrics and probes on http://%s:%s", host, server.server_port)


def _forks_die_with_worker() -> None:
    """Every process this worker forks (work horses, RQ's scheduler) is killed when it dies.

    RQ puts a horse in a process group of its own, so stopping the worker's group misses
    it; without this, a horse whose worker was killed runs on to its job's timeout.
    """
    from service.launcher import die_with_parent_hook

    hook = die_with_parent_hook(signal.SIGKILL)
    if hook is None:
        return
    worker_pid = os.getpid()
    forking = [0]  # the pid that forks, as the child finds it in its copy of memory

    def note_parent() -> None:
        forking[0] = os.getpid()

    def in_child() -> None:
        if forking[0] == worker_pid:  # not what a job's own code forks, nor its children
            hook()

    os.register_at_fork(before=note_parent, after_in_child=in_child)


class Sweeper(threading.Thread):
    """Re-enqueues stuck scorings and computer moves (service.sweeper) every `interval` seconds.

    Should it die, the worker stops and exits non-zero: a worker without its sweeper would
    leave every lost job lost for the rest of its life, which nobody would notice.
    """

    def __init__(self, interval: float) -> None:
        super().__init__(name="sweeper", daemon=True)
        # Its own service, built here in the main thread: the one of the jobs is never in use
        # by another thread when a horse is forked, so no lock of it is copied held.
        self.service = build_service()
        self.interval = interval
        self.stop = threading.Event()
        self.died = False

    def run(self) -> None:
        try:
            sweep_forever(self.service, self.interval, self.stop)
        except BaseException:
            log.exception("the sweeper died; stopping the worker")
            self.died = True
            # As a Ctrl-C would: RQ's warm shutdown once it runs (the job in hand finishes),
            # a KeyboardInterrupt in main() before.
            _thread.interrupt_main(signal.SIGINT)


def _redact(url: str) -> str:
    """The URL without its password, for log lines."""
    scheme, sep, rest = url.partition("://")
    if sep and "@" in rest:
        creds, _, host = rest.rpartition("@")
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}" if ":" in creds else url
    return url


if __name__ == "__main__":
    sys.exit(main())
