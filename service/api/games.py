"""Games over HTTP: create, view, legal moves, commands, the event feed and its live stream.

Each view reads its input with a schema, calls the GameService once and dumps with a schema;
every answer about a game is built for the token's seat (or a spectator) and redacted for it.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Response, current_app, request, url_for

from domain import undo
from record.open_seats import open_seats, seat_names
from record.receipts import GAME
from record.redaction import redact
from record.seat_keys import SIGNATURE_HEADER
from service import game_files
from service.api.auth import BEARER_SECURITY, with_seat
from service.api.blueprint import Blueprint
from service.api.context import game_service, signer
from service.api.preconditions import (
    IF_MATCH_PATTERN,
    MAX_IDEMPOTENCY_KEY,
    command_signature,
    idempotency_key,
    if_match_version,
    not_modified,
    version_headers,
)
from service.api.rate_limits import client_address, command_limit, creation_limit
from service.api.replays import refuse_archived
from service.api.schemas import (
    AfterSchema,
    AtSchema,
    CommandSchema,
    CreatedSchema,
    CreateGameSchema,
    EventsSchema,
    ExecutedSchema,
    GameViewSchema,
    LegalSchema,
)
from service.api.stream import follow
from service.computer_seats import ai_seats
from service.errors import BadRequest, Unprocessable
from service.finishing import ending_view, finish_options
from service.game_commands import Executed
from service.loaded import takeback_answers, takeback_view
from service.move_clock import clock_view

blp = Blueprint("games", __name__, description="Create, watch and play games.")

IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "schema": {"type": "string", "pattern": IF_MATCH_PATTERN},
    "description": 'The version the command expects, as the ETag: "12". Required in tournaments.',
}
IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY},
    "description": "Retry-safe key: the same key and body answer the first answer again.",
}
SIGNATURE = {"in": "header", "name": SIGNATURE_HEADER, "schema": {"type": "string"}}
"""Completed from service.api.openapi.PARAMETERS, as every shared header is."""
LAST_EVENT_ID_FORM = re.compile(r"\s*[0-9]{1,18}\s*")
"""ASCII digits only: str.isdigit() also takes "²", which int() then refuses."""
LAST_EVENT_ID = {
    "in": "header",
    "name": "Last-Event-ID",
    "schema": {"type": "integer"},
    "description": "Resume after this version (EventSource sends it on reconnect).",
}


@blp.post("/games")
@creation_limit
@blp.arguments(CreateGameSchema)
@blp.response(201, CreatedSchema)
def create_game(setup: dict[str, Any]) -> Any:
    """Create a game; the answer holds each seat's token (shown only once), none for computer seats."""
    refuse_unstated_relations(setup)
    created = game_service().create(setup, client=client_address())
    seats = [
        {"seat": seat, **entry, **({"token": token} if token is not None else {})}
        for seat, (entry, token) in enumerate(zip(setup["seats"], created.tokens, strict=True))
    ]
    headers = {
        "Location": url_for(".get_game", game_id=created.game_id),
        **version_headers(created.version),
    }
    body = {"game_id": created.game_id, "version": created.version, "seats": seats}
    if created.organizer_token is not None:
        body["organizer_token"] = created.organizer_token
    return body, headers


def refuse_unstated_relations(setup: dict[str, Any]) -> None:
    """The setup's rules between fields, which the document's JSON Schema does not state: each
    refusal has a code of its own, as the rules' refusals have (invalid_request is the schema's)."""
    if "organizer" in setup and setup["mode"] != "tournament":
        message = "only a tournament game has an organizer"
        raise Unprocessable("organizer_needs_tournament", message, errors={"organizer": [message]})
    if "move_time" in setup and setup["mode"] == "tournament":
        message = "a tournament sets its own move time limit"
        raise Unprocessable("move_time_in_tournament", message, errors={"move_time": [message]})
    for n, seat in enumerate(setup["seats"]):
        if "level" in seat and "ai" not in seat:
            message = "a level is given to a computer seat only (with ai)"
            errors = {"seats": {str(n): {"level": [message]}}}  # as the schema names a seat's field
            raise Unprocessable("level_needs_ai", message, errors=errors)


@blp.get("/games/<game_id>")
@blp.doc(security=[{}, *BEARER_SECURITY])
@blp.response(200, GameViewSchema)
@with_seat(required=False)
@blp.arguments(AtSchema, location="query")
def get_game(query: dict[str, Any], game_id: str, seat: int | None) -> Any:
    """The game as the token's seat sees it; the spectator's view without a token.

    With ?at=N, the game as that viewer saw it at version N (a replay); once the game has
    ended with its log revealed, every seat's hand is shown too (`hands`)."""
    loaded = game_service().load(game_id)
    # A break found since the client's copy changes the answer though the version did not.
    unchanged = not_modified(loaded.version) if loaded.broken is None else None
    if unchanged is not None:
        return unchanged
    if query.get("at") is not None:
        past = game_files.view_at(game_service(), loaded, query["at"], seat)
        return past, version_headers(loaded.version)
    view = loaded.rules.view(loaded.state, seat)
    for computer, (kind, level) in ai_seats(loaded.setup).items():
        view["seats"][computer].update(ai=kind, level=level)
    keyed = loaded.seat_keys
    names, waiting = seat_names(loaded.envelopes), open_seats(loaded.envelopes)
    for n, shown in enumerate(view.get("seats", [])):
        shown["signs"] = n in keyed
        if n < len(names):
            shown["name"] = names[n]  # a taken open seat is its taker's; the rules keep the setup's
        shown["open"] = n in waiting
    body = {**view, "game_id": game_id, "version": loaded.version, "takeback": takeback_view(loaded)}
    body["undo"] = {"takeback_across_reveal": undo.practice(loaded.envelopes)}
    body["chain_broken"] = None if loaded.broken is None else {"version": loaded.broken}
    body["ending"] = ending_view(loaded)
    body["finish"] = finish_options(loaded, seat)
    body["move_clock"] = clock_view(loaded)
    return body, version_headers(loaded.version)


@blp.get("/games/<game_id>/legal")
@blp.doc(security=BEARER_SECURITY)
@blp.response(200, LegalSchema)
@with_seat(required=True)
def legal_commands(game_id: str, seat: int) -> Any:
    """Every command the token's seat may send now, each a body ready to POST; [] when waiting
    (for its turn, or for an open seat to be taken; and for good when the game has ended, a
    forfeit included, or its stored chain is broken).

    While a takeback waits for this seat's answer, both AnswerTakeback bodies are listed too."""
    loaded = game_service().load(game_id)
    commands = []
    if loaded.broken is None and not loaded.over and not open_seats(loaded.envelopes):
        commands = [c.to_json() for c in loaded.rules.legal_commands(loaded.state, seat)]
        commands += takeback_answers(loaded, seat)
    body = {"version": loaded.version, "commands": commands}
    return body, version_headers(loaded.version)


@blp.post("/games/<game_id>/commands")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY, SIGNATURE])
@blp.response(200, ExecutedSchema)
@command_limit
@refuse_archived
@with_seat(required=True)
@blp.arguments(CommandSchema)
def post_command(command: dict[str, Any], game_id: str, seat: int) -> Any:
    """Play one command as the token's seat; the answer holds the events it caused."""
    return run_command(game_id, seat, command)


def run_command(game_id: str, seat: int, command: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Execute `command` for `seat` with the request's If-Match, Idempotency-Key and signature."""
    executed = game_service().execute(
        game_id,
        seat,
        command,
        expected_version=if_match_version(),
        key=idempotency_key(),
        signature=command_signature(),
    )
    return executed_answer(executed, seat)


def executed_answer(executed: Executed, viewer: int | None) -> tuple[dict[str, Any], dict[str, str]]:
    """The answer to any command: the events it caused, redacted for `viewer`, the service's signed
    receipt of the version they reach, and the new ETag."""
    revealed = executed.loaded.revealed
    body = {
        "version": executed.version,
        "events": [redact(e, viewer, revealed) for e in executed.envelopes],
        "duplicate": executed.duplicate,
        "receipt": signer().receipt(GAME, executed.loaded.game_id, executed.envelopes[-1]),
    }
    return body, version_headers(executed.version)


@blp.get("/games/<game_id>/events")
@blp.doc(security=[{}, *BEARER_SECURITY])
@blp.response(200, EventsSchema)
@with_seat(required=False)
@blp.arguments(AfterSchema, location="query")
def get_events(query: dict[str, Any], game_id: str, seat: int | None) -> Any:
    """The events after `after`, as the token's seat (or a spectator) may see them."""
    loaded = game_service().load(game_id)
    revealed = loaded.revealed
    events = [redact(e, seat, revealed) for e in loaded.envelopes[query["after"] :]]
    return {"version": loaded.version, "events": events}, version_headers(loaded.version)


@blp.get("/games/<game_id>/stream")
@blp.doc(security=[{}, *BEARER_SECURITY], parameters=[LAST_EVENT_ID])
@blp.response(
    200,
    content_type="text/event-stream",
    description="One message per event (id: version, data: the redacted event as JSON); "
    "closes when the game ends or after SSE_MAX_SECONDS without events.",
)
@with_seat(required=False)
@blp.arguments(AfterSchema, location="query")
def stream_events(query: dict[str, Any], game_id: str, seat: int | None) -> Any:
    """Server-Sent Events of the game, live; resumes after Last-Event-ID."""
    after = _last_event_id(query["after"])
    service = game_service()
    loaded = service.load(game_id)
    frames = follow(
        service.loader,
        loaded,
        seat,
        after,
        idle_seconds=float(current_app.config["SSE_MAX_SECONDS"]),
        heartbeat_seconds=float(current_app.config["SSE_HEARTBEAT_SECONDS"]),
    )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(frames, mimetype="text/event-stream", headers=headers)


def _last_event_id(after: int) -> int:
    """Last-Event-ID (sent by a reconnecting EventSource) wins over ?after."""
    raw = request.headers.get("Last-Event-ID")
    if raw is None:
        return after
    if LAST_EVENT_ID_FORM.fullmatch(raw) is None:
        raise BadRequest("bad_last_event_id", "Last-Event-ID must be an event version")
    return int(raw)
