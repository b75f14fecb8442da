"""Server-Sent Events of a tournament: each event as it is appended, and the standings after
each result, live from its stream's one shared reader (service.feeds)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict

from flask import Response

from domain.tournament_rules import rules, standings
from record.convert import to_event
from record.deal import tournament_revealed
from record.envelope import Envelope
from record.redaction import redact
from service.api.schemas import EventSchema
from service.api.stream import live
from service.feeds import feeds_of
from service.loading import chains_onto
from service.tournaments import LoadedTournament, TournamentService

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
    tournament_id = loaded.tournament_id
    feeds = feeds_of(service.store)
    return live(
        loaded,
        loaded.envelopes[after:],
        frames=_frames,
        finished=lambda now: rules.is_terminal(now.state) or now.broken is not None,
        wait=lambda now, wait_ms: feeds.wait(tournament_id, now.version, wait_ms),
        fold=_folded,
        name=f"tournament {tournament_id}",
        kind="tournament",
        idle_seconds=idle_seconds,
        heartbeat_seconds=heartbeat_seconds,
    )


def _folded(loaded: LoadedTournament, pending: Sequence[Envelope]) -> LoadedTournament | None:
    """`loaded` with `pending` folded in; None when they do not chain onto it."""
    if not chains_onto(loaded.envelopes[-1], pending):
        return None
    state = loaded.state
    for envelope in pending:
        state = rules.evolve(state, to_event(envelope))
    return LoadedTournament(loaded.tournament_id, state, [*loaded.envelopes, *pending])


def _frames(loaded: LoadedTournament, pending: Sequence[Envelope]) -> Iterator[str]:
    revealed = tournament_revealed(loaded.envelopes)  # the lots' seed, once closed
    for envelope in pending:
        data = json.dumps(_EVENT.dump(redact(envelope, None, revealed)), separators=(",", ":"))
        yield f"id: {envelope.version}\nevent: {envelope.type}\ndata: {data}\n\n"
    if any(e.type in STANDINGS_AFTER for e in pending):
        lines = [asdict(line) for line in standings(loaded.state)]
        data = json.dumps({"version": loaded.version, "standings": lines}, separators=(",", ":"))
        yield f"id: {loaded.version}\nevent: standings\ndata: {data}\n\n"


def sse_response(frames: Iterator[str]) -> Response:
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(frames, mimetype="text/event-stream", headers=headers)
