"""Round scoring on the worker: enqueue once per waiting round, and re-enqueue a stuck one
(the sweep, run by service.sweeper)."""

from __future__ import annotations

import logging

import redis
from rq.exceptions import DuplicateJobError

from domain.core import Score
from service.errors import ChainBroken
from service.sweeper import each_game, job_alive
from service.worker import QUEUE_DEFAULT, queue

log = logging.getLogger("archipelago.scoring")

AWAITING = "scoring:awaiting"
"""Set of game ids whose round waits for its scoring job; the sweeper's to-do list."""


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
        return each_game(
            self.connection, AWAITING, lambda game_id: self._sweep_game(service, game_id), "scoring"
        )

    def _sweep_game(self, service, game_id: str) -> int:  # type: ignore[no-untyped-def]
        try:
            loaded = service.load(game_id)
        except ChainBroken:
            return 0  # a changed record is scored by no one until it is repaired
        if loaded.broken is not None:
            return 0
        pending = loaded.rules.pending_system(loaded.state)
        if not isinstance(pending, Score):
            self.done(game_id)
            return 0
        if self._alive(job_id(game_id, loaded.version)):
            return 0
        log.warning("re-enqueueing the stuck scoring of %s round %s", game_id, pending.round)
        self.schedule(game_id, pending.round, loaded.version)
        return 1

    def _alive(self, ident: str) -> bool:
        return job_alive(self.connection, ident)
