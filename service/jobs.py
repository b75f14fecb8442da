"""RQ jobs: thin module-level functions taking ids; a re-run is recognised and does nothing.

service.queues enqueues them. Each process builds its GameService once (`worker_service`):
its connections, the Redis version check and its cache of folded games serve every job the
process runs, so a job on a game the process has seen folds only the newer events. A work
horse forked from a worker inherits the worker's service with fresh connection pools, and
the worker's cache: the worker folds each job's game (`warm`) before it forks the horse.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ai.slices import Tally
from service import analysis, computer_seats
from service.annotations import Annotations, Author
from service.errors import PreconditionFailed, VersionConflict
from service.games import GameService

log = logging.getLogger("archipelago.jobs")

_factory: Callable[[], GameService] | None = None
_built: tuple[int, GameService] | None = None  # (the pid that uses it, the service)


def serve_with(factory: Callable[[], GameService]) -> None:
    """How this process builds its service (service.wiring hands over `build_service`); the one
    built before is dropped."""
    global _factory, _built
    _factory, _built = factory, None


def worker_service() -> GameService:
    """The service of this process, built on first use and kept for every later job."""
    global _built
    if _built is None:
        if _factory is None:
            raise RuntimeError("no service to run jobs with: import service.wiring first")
        _built = (os.getpid(), _factory())
    elif _built[0] != os.getpid():
        # A forked child must not share its parent's sockets: each pool opens its own.
        for client in _clients(_built[1]):
            for pool in _pools(client):
                pool.reset()
        _built = (os.getpid(), _built[1])
    return _built[1]


def _clients(service: GameService) -> list[Any]:
    parts = [
        service.redis,
        getattr(service.scoring, "connection", None),
        getattr(service.ai, "connection", None),
    ]
    return [client for client in parts if client is not None]


def _pools(client: Any) -> list[Any]:
    """The connection pools of a client: its own, or each node's of a cluster client."""
    if hasattr(client, "connection_pool"):
        return [client.connection_pool]
    nodes = [node.redis_connection for node in client.get_nodes()]
    return [node.connection_pool for node in nodes if node is not None]


def warm(args: Sequence[Any]) -> None:
    """Fold the game a job is about (its first argument) into this process's cache.

    A forking worker calls this before it forks the job's horse: the horse, a copy of the
    worker, then finds the game folded and reads only the events appended since.
    """
    if not args or not isinstance(args[0], str):
        return
    try:
        worker_service().load(args[0])
    except Exception:  # the job itself meets the same trouble and reports it
        log.debug("could not fold game %s ahead of its job", args[0], exc_info=True)


def score_round(game_id: str, round_: int) -> bool:
    """Append the scoring of `round_` of `game_id`; False when it was already scored."""
    service = worker_service()
    scored = service.score_round(game_id, round_)
    if service.scoring is not None:
        service.scoring.done(game_id)
    return scored


def ai_move(game_id: str, seat: int, version: int, tally: Mapping[str, Any] | None = None) -> str:
    """Send the AI seat's command at `version`: "played", or why nothing was appended
    ("searching": the search goes on in the next slice, a job queued behind the others)."""
    service = worker_service()
    loaded = service.load(game_id)
    if loaded.version != version:
        return "stale"
    player = computer_seats.player_at(loaded.setup, seat)
    if player is None:
        return "not_an_ai_seat"
    if tally is None and service.ai is not None and service.ai.searching(game_id, seat, version):
        return "searching"
    body = computer_seats.next_step(loaded, player, None if tally is None else Tally.from_json(tally))
    if isinstance(body, Tally):
        if service.ai is None:
            raise RuntimeError("a search in slices needs the AI queue")
        service.ai.continue_move(game_id, seat, version, body)
        return "searching"
    if body is None:
        return "nothing_to_do"
    try:
        service.execute(game_id, seat, body, expected_version=version)
    except (PreconditionFailed, VersionConflict):
        return "stale"
    return "played"


def analyse(game_id: str, after: int = 0, waits: int = 0) -> int:
    """Write the analysis of an ended casual game's decisions after `after`; the notes written.

    One job analyses about ANALYSIS_SLICE_SECONDS of decisions, then enqueues the next
    slice: a single worker then never keeps a round's scoring waiting behind a review.
    A slice that finds computer moves queued goes back behind them first (`waits` counts
    how often): a review never delays a move by more than the slice already running.
    """
    service = worker_service()
    if service.ai is not None and service.ai.moves_queued():
        service.ai.defer_analysis(game_id, after, waits + 1)
        return 0
    written, over = _analysis_slice(service, game_id, after)
    if over and service.ai is not None:
        service.ai.analysis_done(game_id, after, waits)
    return written


def _analysis_slice(service: GameService, game_id: str, after: int) -> tuple[int, bool]:
    """Write one slice of the analysis: the notes written, and whether no slice follows."""
    loaded = service.load(game_id)
    if not loaded.over or loaded.setup.get("mode", "casual") != "casual":
        return 0, True
    notes_store = Annotations(service.redis)
    layer = analysis.layer_name(loaded)
    if any(n.get("layer") == layer and n["version"] > after for n in notes_store.list(game_id)):
        return 0, True  # a re-run: this slice is written already
    seconds = computer_seats.slice_seconds(analysis.ANALYSIS_SLICE_SECONDS)
    notes, rest = analysis.analysis_notes(loaded, analysis.analysis_budget(), after, seconds)
    author = Author("analysis", layer)
    for note in notes:
        notes_store.add(loaded, author, note)
    if rest is not None and service.ai is not None:
        service.ai.continue_analysis(game_id, rest)
    return len(notes), rest is None
