"""The worker's loop that outlives a store refusing writes.

RQ quits its work loop on any error it did not expect, and a full Redis (OOM, MISCONF), a
replica (READONLY) or one loading its data (LOADING) refuses the writes RQ itself makes: the
worker's registration, its heartbeat, a job's status. Here the worker is started again after
a back-off instead, so it works again by itself once the store takes writes; a job cut short
meanwhile is run again by the sweeper (service.sweeper), and every job recognises a re-run.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from threading import Thread
from typing import Any, cast

import redis
from rq.exceptions import NoSuchJobError
from rq.worker import BaseWorker

from service.refusals import StoreState, refusal

log = logging.getLogger("archipelago.worker")

FIRST_BACKOFF_SECONDS = 1.0
MAX_BACKOFF_SECONDS = 30.0


def work_until_stopped(
    make: Callable[[], BaseWorker],
    *,
    burst: bool = False,
    sleep: Callable[[float], None] = time.sleep,
    **work: Any,
) -> BaseWorker:
    """Run a worker made by `make` until it is asked to stop (or, in `burst`, until its queues
    are empty); a loop that quits on an error, or a refusal of the store, starts a new worker
    after a back-off that doubles up to MAX_BACKOFF_SECONDS. An unreachable Redis is raised."""
    delay = FIRST_BACKOFF_SECONDS
    unburied: list[BaseWorker] = []
    while True:
        worker = make()
        try:
            worker.work(burst=burst, **work)
        except (redis.exceptions.RedisError, ValueError) as error:
            if _stopping(worker) and isinstance(error, redis.exceptions.RedisError):
                # Stopping anyway; Redis went first (Ctrl-C reaches it at the same time).
                log.info("Redis went away while the worker was stopping: %s", error)
                return worker
            if not _passing(error):
                raise
            reason = f"the store refuses ({error})"
        else:
            if burst or _stopping(worker):
                return worker
            reason = "its loop quit on an error (logged above)"
        log.warning("the worker stopped working: %s; starting it again in %.0f s", reason, delay)
        sleep(delay)
        unburied = [w for w in [*unburied, worker] if not _bury(w)]
        delay = min(delay * 2, MAX_BACKOFF_SECONDS)


def _stopping(worker: BaseWorker) -> bool:
    return bool(worker._stop_requested or worker._shutdown_requested_date is not None)


def _passing(error: Exception) -> bool:
    """Whether `error` passes by itself: a refusal of a store that answers, or the record of the
    previous worker of this name, whose death the full store could not take."""
    if isinstance(error, ValueError):
        return str(error).startswith("There exists an active worker")
    state = refusal(error)
    return state is not None and state != StoreState.UNREACHABLE


def _bury(worker: BaseWorker) -> bool:
    """Record the death its teardown could not (else a worker of the same name cannot start),
    and end the executions of the jobs it had in hand: a job still "started" with a live
    execution is one the sweeper leaves alone, for minutes."""
    try:
        for execution in list(worker.executions.values()):
            _end(worker, execution)
        if worker.connection.exists(worker.key) and not worker.connection.hexists(worker.key, "death"):
            worker.register_death()  # type: ignore[no-untyped-call]
        # rq declares the thread None, but its subscribe() starts one.
        thread = cast(Thread | None, worker.pubsub_thread)
        if thread is not None and thread.is_alive():
            # The teardown's last step, after the one that was refused.
            worker.unsubscribe()  # type: ignore[no-untyped-call]
    except redis.exceptions.RedisError as error:
        log.warning("could not yet record the end of worker %s: %s", worker.name, error)
        return False
    return True


def _end(worker: BaseWorker, execution: Any) -> None:
    try:
        job = execution.job
    except NoSuchJobError:
        return
    with worker.connection.pipeline() as pipeline:
        execution.delete(job=job, pipeline=pipeline)
        pipeline.execute()
    worker.executions.pop(execution.id, None)
    log.warning("job %s was cut short by the store's refusal; the sweeper runs it again", job.id)
