"""The RQ worker entry point (`archipelago-worker`).

Runs jobs such as `service.jobs.score_round` from the queues below. Jobs are
named by their dotted path, so importing this module needs only redis and rq.
`main()` imports the job modules (JOB_MODULES) in the main thread before it
starts the sweeper thread or forks a work horse: a horse forked while another
thread holds an import lock inherits the lock and hangs on its first import.

Where RQ keeps its queues: `RQ_REDIS_URL`, else `REDIS_URL`. Anything that
enqueues must resolve the URL the same way (`rq_redis_url()`), use RQ's
JSONSerializer, and use a client without `decode_responses`.
"""

from __future__ import annotations

import _thread
import argparse
import importlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Mapping, Sequence

import redis
from rq import Queue, SimpleWorker, Worker
from rq.serializers import JSONSerializer

log = logging.getLogger("archipelago.worker")

#: Round scoring, standings and other bookkeeping that play waits for.
QUEUE_DEFAULT = "default"
#: AI moves: may search for seconds, so they never hold up scoring.
QUEUE_AI = "ai"
#: Listened to in this order: a free worker always takes scoring first.
QUEUES: tuple[str, ...] = (QUEUE_DEFAULT, QUEUE_AI)

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

#: Everything a job or the sweeper imports when it runs (see the module's docstring).
JOB_MODULES: tuple[str, ...] = (
    "service.wiring",
    "service.jobs",
    "service.ai_jobs",
    "service.annotations",
    "service.sweeper",
)


def rq_redis_url(environ: Mapping[str, str] | None = None) -> str:
    """The Redis that holds RQ's queues: RQ_REDIS_URL, else REDIS_URL.

    RQ cannot run on Redis Cluster, so a clustered deployment points
    RQ_REDIS_URL at a separate, plain Redis (see deploy/CLUSTER.md).
    """
    env = os.environ if environ is None else environ
    return env.get("RQ_REDIS_URL") or env.get("REDIS_URL") or DEFAULT_REDIS_URL


def rq_connection(url: str | None = None) -> redis.Redis:
    """A client for RQ. RQ stores bytes, so no decode_responses here."""
    return redis.Redis.from_url(url or rq_redis_url())


def queue(name: str, connection: redis.Redis) -> Queue:
    """The named queue with the serializer every Archipelago job uses."""
    return Queue(name, connection=connection, serializer=JSONSerializer)


def make_worker(
    connection: redis.Redis,
    queues: Sequence[str] = QUEUES,
    *,
    simple: bool = False,
    name: str | None = None,
) -> Worker:
    """An RQ worker on `queues` (in priority order) with the JSON serializer.

    `simple=True` runs jobs in this process (SimpleWorker), which is what the
    tests use in burst mode; the default forks a work horse per job.
    """
    cls = SimpleWorker if simple else Worker
    return cls(
        [queue(q, connection) for q in queues],
        connection=connection,
        serializer=JSONSerializer,
        name=name,
    )


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
        help="seconds between sweeps that re-enqueue lost scorings and computer moves (0: never; default 30)",
    )
    parser.add_argument(
        "--no-scheduler",
        dest="scheduler",
        action="store_false",
        help="do not run RQ's scheduler (needed for delayed jobs and retry intervals)",
    )
    parser.add_argument("--name", help="worker name (default: RQ's, from host and pid)")
    parser.add_argument(
        "--log-level",
        default=os.environ.get("ARCHIPELAGO_LOG_LEVEL", "INFO").upper(),
        help="logging level (default: $ARCHIPELAGO_LOG_LEVEL or INFO)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    url = args.url or rq_redis_url()
    connection = rq_connection(url)
    queues = args.queues or list(QUEUES)
    worker: Worker | None = None
    import_job_modules()
    _forks_die_with_worker()
    sweeper = Sweeper(args.sweep_interval) if args.sweep_interval > 0 and not args.burst else None
    try:
        if sweeper is not None:
            sweeper.start()
        worker = make_worker(connection, queues, simple=args.simple, name=args.name)
        worker.work(
            burst=args.burst,
            with_scheduler=args.scheduler,
            logging_level=args.log_level,
        )
    except KeyboardInterrupt:
        if sweeper is None or not sweeper.died:
            raise
    except redis.exceptions.ConnectionError as exc:
        if worker is not None and worker._shutdown_requested_date is not None:
            # Stopping anyway; Redis went first (Ctrl-C reaches it at the same time).
            log.info("Redis went away while the worker was stopping: %s", exc)
            return 0
        log.error("cannot reach Redis for RQ at %s: %s", _redact(url), exc)
        return 1
    finally:
        if sweeper is not None:
            sweeper.stop.set()
    if sweeper is not None and sweeper.died:
        log.error("the worker stopped because its sweeper died (see above)")
        return 1
    return 0


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


def import_job_modules() -> None:
    for name in JOB_MODULES:
        importlib.import_module(name)


class Sweeper(threading.Thread):
    """Re-enqueues stuck scorings and computer moves (service.sweeper) every `interval` seconds.

    Should it die, the worker stops and exits non-zero: a worker without its sweeper would
    leave every lost job lost for the rest of its life, which nobody would notice.
    """

    def __init__(self, interval: float) -> None:
        super().__init__(name="sweeper", daemon=True)
        # Imported here, in the main thread, never in the sweeper's (see the module docstring).
        from service.sweeper import sweep_forever

        self._sweep_forever = sweep_forever
        self.interval = interval
        self.stop = threading.Event()
        self.died = False

    def run(self) -> None:
        try:
            self._sweep_forever(self.interval, self.stop)
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
