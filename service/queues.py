"""RQ's side of the service: the queues, their Redis, and what enqueues the jobs of service.jobs.

Where RQ keeps its queues: `RQ_REDIS_URL`, else `REDIS_URL`. Anything that enqueues must
resolve the URL the same way (`rq_redis_url()`), use RQ's JSONSerializer, and use a client
without `decode_responses`. Jobs are enqueued by function object; the serializer stores their
import path, which the worker imports when it runs them.

Every job has a deterministic id (unique: a second enqueue is refused), and each enqueuer
keeps a set of the games that wait for its jobs: the sweeper (service.sweeper) re-enqueues
a job that was lost or failed.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping
from typing import Any

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError
from rq.serializers import JSONSerializer

from domain.turns import Score
from service.ai_games import OpenAiGames, has_computer, limits_from
from service.computer_seats import ai_seats, must_act
from service.errors import ChainBroken
from service.jobs import ai_move, analyse, score_round
from service.redis_clients import connect
from service.sweeper import each_game, job_alive

log = logging.getLogger("archipelago.queues")

#: Round scoring, standings and other bookkeeping that play waits for.
QUEUE_DEFAULT = "default"
#: AI moves: may search for seconds, so they never hold up scoring.
QUEUE_AI = "ai"
#: Listened to in this order: a free worker always takes scoring first.
QUEUES: tuple[str, ...] = (QUEUE_DEFAULT, QUEUE_AI)

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

SCORING_AWAITING = "scoring:awaiting"
"""Set of game ids whose round waits for its scoring job; the sweeper's to-do list."""
AI_AWAITING = "ai:awaiting"
"""Set of game ids where a computer seat must act; the sweeper's to-do list."""
ANALYSIS_AWAITING = "analysis:awaiting"
"""Hash of game id -> JSON [job id, after, waits] of the slice of its analysis now due; the
sweeper's to-do list (a worker killed in a slice would otherwise end the analysis there)."""
SEARCH_MARK_SECONDS = 300
"""How long a move's search in slices is taken to be alive after its last slice was queued."""
MOVE_TIMEOUT = 120
ANALYSIS_TIMEOUT = 1800


def rq_redis_url(environ: Mapping[str, str] | None = None) -> str:
    """The Redis that holds RQ's queues: RQ_REDIS_URL, else REDIS_URL.

    RQ cannot run on Redis Cluster, so a clustered deployment points
    RQ_REDIS_URL at a separate, plain Redis (see deploy/CLUSTER.md).
    """
    env = os.environ if environ is None else environ
    return env.get("RQ_REDIS_URL") or env.get("REDIS_URL") or DEFAULT_REDIS_URL


def rq_connection(url: str | None = None) -> redis.Redis:
    """A client for RQ. RQ stores bytes, so no decode_responses here. A worker raises its
    timeout above its blocking wait for jobs (rq's Worker does so itself)."""
    return connect(url or rq_redis_url())


def queue(name: str, connection: redis.Redis) -> Queue:
    """The named queue with the serializer every Archipelago job uses."""
    return Queue(name, connection=connection, serializer=JSONSerializer)


def scoring_job_id(game_id: str, version: int) -> str:
    return f"score-{game_id}-{version}"


def move_job_id(game_id: str, seat: int, version: int) -> str:
    return f"ai-{game_id}-{seat}-{version}"


def analysis_job_id(game_id: str) -> str:
    return f"analysis-{game_id}"


class ScoringQueue:
    """Enqueues `score_round` with a deterministic id (a duplicate is refused)."""

    def __init__(self, connection: redis.Redis) -> None:
        self.connection = connection

    def schedule(self, game_id: str, round_: int, version: int) -> None:
        self.connection.sadd(SCORING_AWAITING, game_id)
        try:
            queue(QUEUE_DEFAULT, self.connection).enqueue(
                score_round, game_id, round_, job_id=scoring_job_id(game_id, version), unique=True
            )
        except DuplicateJobError:
            pass  # already enqueued; the job itself is idempotent too

    def done(self, game_id: str) -> None:
        self.connection.srem(SCORING_AWAITING, game_id)

    def sweep(self, service: Any) -> int:
        """Re-enqueue every waiting round whose job is gone or failed; the number re-enqueued."""
        return each_game(
            self.connection, SCORING_AWAITING, lambda game_id: self._sweep_game(service, game_id), "scoring"
        )

    def _sweep_game(self, service: Any, game_id: str) -> int:
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
        if job_alive(self.connection, scoring_job_id(game_id, loaded.version)):
            return 0
        log.warning("re-enqueueing the stuck scoring of %s round %s", game_id, pending.round)
        self.schedule(game_id, pending.round, loaded.version)
        return 1


class AiQueue:
    """Enqueues the jobs of computer seats (ai_move) and of the analysis after a casual game."""

    def __init__(self, connection: redis.Redis, open_games: OpenAiGames | None = None) -> None:
        self.connection = connection
        self.open_games = open_games or OpenAiGames(connection, limits_from())

    def admit(self, game_id: str, setup: Mapping[str, Any], client: str | None) -> None:
        """Count a new game with computer seats under the caps, before it is written (TooManyAiGames)."""
        if has_computer(setup):
            self.open_games.reserve(game_id, client or "unknown")

    def schedule(self, loaded: Any) -> list[str]:
        """Enqueue what `loaded` (the newest version of a game) waits for; the new job ids."""
        queued = []
        if has_computer(loaded.setup):
            if loaded.over:
                self.open_games.release(loaded.game_id)
            else:
                self.open_games.touch(loaded.game_id)
        if loaded.over:
            # The analysis is a search: only a game that gives the AI hooks is analysed.
            if loaded.setup.get("mode", "casual") == "casual" and loaded.rules.ai is not None:
                ident = analysis_job_id(loaded.game_id)
                if self._enqueue_analysis(loaded.game_id, 0, 0, ident, first=True):
                    queued.append(ident)
            return queued
        for seat in ai_seats(loaded.setup):
            if must_act(loaded, seat):
                self.connection.sadd(AI_AWAITING, loaded.game_id)
                ident = move_job_id(loaded.game_id, seat, loaded.version)
                if self._enqueue(ai_move, (loaded.game_id, seat, loaded.version), ident, MOVE_TIMEOUT):
                    queued.append(ident)
        return queued

    def sweep(self, service: Any) -> int:
        """Re-enqueue every computer move and analysis slice whose job is gone or failed; the
        number re-enqueued."""
        moves = each_game(
            self.connection, AI_AWAITING, lambda game_id: self._sweep_game(service, game_id), "AI"
        )
        analyses = each_game(
            self.connection,
            ANALYSIS_AWAITING,
            self._sweep_analysis,
            "analysis",
            ids=self.connection.hkeys(ANALYSIS_AWAITING),
        )
        return moves + analyses

    def _sweep_analysis(self, game_id: str) -> int:
        raw = self.connection.hget(ANALYSIS_AWAITING, game_id)
        if raw is None:
            return 0
        ident, after, waits = json.loads(raw)
        if job_alive(self.connection, ident):
            return 0
        log.warning("re-enqueueing the lost analysis of %s after version %s", game_id, after)
        self._enqueue(analyse, (game_id, after, waits), ident, ANALYSIS_TIMEOUT)
        return 1

    def _sweep_game(self, service: Any, game_id: str) -> int:
        loaded = service.load(game_id)
        waiting = [seat for seat in ai_seats(loaded.setup) if must_act(loaded, seat)]
        if not waiting:
            self.connection.srem(AI_AWAITING, game_id)
            return 0
        # Every seat's job is checked, so each dead one is deleted before the schedule below.
        dead = [s for s in waiting if not job_alive(self.connection, move_job_id(game_id, s, loaded.version))]
        if not dead:
            return 0
        log.warning("re-enqueueing the lost moves of seat(s) %s in %s", dead, game_id)
        return len([j for j in self.schedule(loaded) if j.startswith("ai-")])

    def continue_analysis(self, game_id: str, after: int) -> None:
        """Enqueue the next slice of a game's analysis, after version `after`."""
        self._enqueue_analysis(game_id, after, 0, f"{analysis_job_id(game_id)}-{after}")

    def defer_analysis(self, game_id: str, after: int, waits: int) -> None:
        """Put a slice of an analysis back at the end of the queue, behind the moves queued now."""
        self._enqueue_analysis(game_id, after, waits, f"{analysis_job_id(game_id)}-{after}-wait{waits}")

    def analysis_done(self, game_id: str, after: int, waits: int) -> None:
        """The slice (`after`, `waits`) of the analysis ended it: the sweeper forgets the game,
        unless a later slice is due (the job was a late re-run)."""
        raw = self.connection.hget(ANALYSIS_AWAITING, game_id)
        if raw is not None and json.loads(raw)[1:] == [after, waits]:
            self.connection.hdel(ANALYSIS_AWAITING, game_id)

    def _enqueue_analysis(
        self, game_id: str, after: int, waits: int, ident: str, first: bool = False
    ) -> bool:
        """Note the slice as the one due (before the enqueue: its job may end at once), then
        enqueue it. The first slice never replaces a later one already due."""
        due = json.dumps([ident, after, waits])
        if first:
            self.connection.hsetnx(ANALYSIS_AWAITING, game_id, due)
        else:
            self.connection.hset(ANALYSIS_AWAITING, game_id, due)
        return self._enqueue(analyse, (game_id, after, waits), ident, ANALYSIS_TIMEOUT)

    def moves_queued(self) -> bool:
        """Whether a computer move (or a slice of one) waits in the queue."""
        return any(i.startswith("ai-") for i in queue(QUEUE_AI, self.connection).get_job_ids())

    def continue_move(self, game_id: str, seat: int, version: int, tally: Any) -> None:
        """Enqueue the next slice of a move's search (an ai.slices.Tally) at the end of the queue."""
        ident = f"{move_job_id(game_id, seat, version)}-{tally.slices}"
        self.connection.set(_search_mark(game_id, seat, version), ident, ex=SEARCH_MARK_SECONDS)
        self._enqueue(ai_move, (game_id, seat, version, tally.to_json()), ident, MOVE_TIMEOUT)

    def searching(self, game_id: str, seat: int, version: int) -> bool:
        """Whether a search in slices for this move is under way (a re-enqueued first job then
        leaves it alone instead of starting a second one)."""
        return bool(self.connection.exists(_search_mark(game_id, seat, version)))

    def _enqueue(self, job: Callable[..., Any], args: tuple[Any, ...], ident: str, timeout: int) -> bool:
        try:
            queue(QUEUE_AI, self.connection).enqueue(
                job, *args, job_id=ident, unique=True, job_timeout=timeout
            )
        except DuplicateJobError:
            return False  # already enqueued; the job is idempotent too
        return True


def _search_mark(game_id: str, seat: int, version: int) -> str:
    return f"ai-search:{{{game_id}}}:{seat}:{version}"
