"""Round scoring on the worker: enqueue once per waiting round, and re-enqueue a stuck one."""

from __future__ import annotations

import logging
import threading

import redis
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus

from service.errors import ChainBroken
from service.worker import QUEUE_DEFAULT, queue

log = logging.getLogger("archipelago.scoring")

AWAITING = "scoring:awaiting"
"""Set of game ids whose round waits for its scoring job; the sweeper's to-do list."""

ALIVE = {JobStatus.QUEUED, JobStatus.STARTED, JobStatus.DEFERRED, JobStatus.SCHEDULED}


def job_id(game_id: str, version: int) -> str:
    return f"score-{game_id}-{version}"


class ScoringQueue:
    """Enqueues `service.jobs.score_round` with a deterministic id (a duplicate is refused)."""

    def __init__(self, connection: redis.Redis) -> None:
        self.connection = connection

    def schedule(self, game_id: str, round_: int, version: int) -> None:
        self.connection.sadd(AWAITING, game_id)
        try:
            queue(QUEUE_DEFAULT, self.connection).enqueue(
                "service.jobs.score_round",
                game_id,
                round_,
                job_id=job_id(game_id, version),
                unique=True,
            )
        except DuplicateJobError:
            pass  # already enqueued; the job itself is idempotent too

    def done(self, game_id: str) -> None:
        self.connection.srem(AWAITING, game_id)

    def sweep(self, service) -> int:  # type: ignore[no-untyped-def]
        """Re-enqueue every waiting round whose job is gone or failed; the number re-enqueued."""
        again = 0
        for raw in self.connection.smembers(AWAITING):
            game_id = raw.decode() if isinstance(raw, bytes) else raw
            try:
                loaded = service.load(game_id)
            except ChainBroken:
                continue  # a changed record is scored by no one until it is repaired
            if loaded.broken is not None:
                continue
            pending = loaded.rules.pending_system(loaded.state)
            if pending is None or pending["kind"] != "score":
                self.done(game_id)
                continue
            if self._alive(job_id(game_id, loaded.version)):
                continue
            log.warning("re-enqueueing the stuck scoring of %s round %s", game_id, pending["round"])
            self.schedule(game_id, pending["round"], loaded.version)
            again += 1
        return again

    def _alive(self, ident: str) -> bool:
        try:
            job = Job.fetch(ident, connection=self.connection)
        except NoSuchJobError:
            return False
        if job.get_status(refresh=True) in ALIVE:
            return True
        job.delete()  # failed or lost: make room for a fresh job under the same id
        return False


def sweep_forever(interval: float, stop: threading.Event) -> None:
    """Sweep now and then every `interval` seconds until `stop` is set (a worker's thread)."""
    from service.wiring import build_service

    service = build_service()
    while True:
        try:
            service.scoring.sweep(service)
        except redis.exceptions.RedisError as exc:
            log.warning("scoring sweep skipped: %s", exc)
        if stop.wait(interval):
            return
