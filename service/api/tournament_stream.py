"""Server-Sent Events of a tournament: each event as it is appended, and the standings after
each result, live from the store's XREAD BLOCK."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from dataclasses import asdict

import redis
from flask import Response

from domain.tournaments import rules, standings
from record.convert import to_event
from record.envelope import Envelope
from record.redaction import redact
from service.api.schemas import EventSchema
from service.errors import ChainBroken
from service.games import chains_onto
from service.tournaments import LoadedTournament, TournamentService

log = logging.getLogger("archipelago.api")

_EVENT = EventSchema()
#: After these, the standings may have changed: a `standings` message follows them.
STANDINGS_AFTER = frozenset(
    {"ResultRecorded", "ResultCorrected", "SeatForfeited", "ByeGiven", "EntrantWithdrawn"}
)


def follow_tournament(
    service: TournamentService,
    loaded: LoadedTournament,
    after: int,
    idle_seconds: float,
    heartbeat_seconds: float,
) -> Iterator[str]:
    """SSE frames of the events after `after`, then of each new one; ends when the tournament
    is closed (or its chain breaks), or after `idle_seconds` without a new event."""
    pending = loaded.envelopes[after:]
    deadline = time.monotonic() + idle_seconds
    tournament_id = loaded.tournament_id
    try:
        while True:
            yield from _frames(loaded, pending)
            if rules.is_terminal(loaded.state) or loaded.broken is not None:
                return
            now = time.monotonic()
            if pending:
                deadline = now + idle_seconds
            if now >= deadline:
                return
            wait_ms = max(1, int(min(deadline - now, heartbeat_seconds) * 1000))
            pending = service.store.wait(tournament_id, loaded.version, wait_ms)
            if pending and not chains_onto(loaded.envelopes[-1], pending):
                log.warning("event stream of tournament %s ended: the new events do not chain", tournament_id)
                return
            if pending:
                state = loaded.state
                for envelope in pending:
                    state = rules.evolve(state, to_event(envelope))
                loaded = LoadedTournament(tournament_id, state, [*loaded.envelopes, *pending])
            elif time.monotonic() < deadline:
                yield ": keep-alive\n\n"
    except (redis.exceptions.RedisError, ChainBroken) as error:
        log.warning("event stream of tournament %s ended: %s", tournament_id, error)


def _frames(loaded: LoadedTournament, pending: list[Envelope]) -> Iterator[str]:
    for envelope in pending:
        data = json.dumps(_EVENT.dump(redact(envelope, None, True)), separators=(",", ":"))
        yield f"id: {envelope.version}\nevent: {envelope.type}\ndata: {data}\n\n"
    if any(e.type in STANDINGS_AFTER for e in pending):
        lines = [asdict(line) for line in standings(loaded.state)]
        data = json.dumps({"version": loaded.version, "standings": lines}, separators=(",", ":"))
        yield f"id: {loaded.version}\nevent: standings\ndata: {data}\n\n"


def sse_response(frames: Iterator[str]) -> Response:
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(frames, mimetype="text/event-stream", headers=headers)
