"""Undo over HTTP: a seat's own undo, takebacks between seats, the organizer's corrections.

Each is a command like those of /commands (If-Match, Idempotency-Key, the same answer):
Undo, RequestTakeback and AnswerTakeback may be posted there as well; the routes here name
them. What may be taken back is the undo policy's to say (domain/undo.py, docs/undo.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import url_for

from service.api.auth import BEARER_SECURITY, HEADER_FORM, presented_token, with_seat
from service.api.blueprint import Blueprint
from service.api.context import game_service
from service.api.games import IDEMPOTENCY_KEY, IF_MATCH, SIGNATURE, executed_answer, run_command
from service.api.preconditions import idempotency_key, if_match_version, version_headers
from service.api.schemas import (
    CorrectionSchema,
    CurrentTakebackSchema,
    ExecutedSchema,
    TakebackAnswerSchema,
    TakebackRequestSchema,
    UndoSchema,
)
from service.errors import Forbidden, GameNotFound, Unauthorized
from service.loaded import takeback_view

blp = Blueprint("undo", __name__, description="Undo, takebacks and organizer corrections.")


@blp.post("/games/<game_id>/undo")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY, SIGNATURE])
@blp.response(200, ExecutedSchema)
@with_seat(required=True)
@blp.arguments(UndoSchema)
def post_undo(body: dict[str, Any], game_id: str, seat: int) -> Any:
    """Take back your own commands of this turn at once: the last one, or all ("turn")."""
    return run_command(game_id, seat, {"type": "Undo", "scope": body["scope"]})


@blp.post("/games/<game_id>/takebacks")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY, SIGNATURE])
@blp.response(201, ExecutedSchema)
@with_seat(required=True)
@blp.arguments(TakebackRequestSchema)
def request_takeback(body: dict[str, Any], game_id: str, seat: int) -> Any:
    """Ask the other seats to take the game back to `to_version`; it lapses when play goes on."""
    request = {"type": "RequestTakeback", "to_version": body["to_version"]}
    answer, headers = run_command(game_id, seat, request)
    return answer, {**headers, "Location": url_for(".current_takeback", game_id=game_id)}


@blp.get("/games/<game_id>/takebacks/current")
@blp.response(200, CurrentTakebackSchema)
def current_takeback(game_id: str) -> Any:
    """The takeback waiting for answers (null when none): who asked, to which version, who accepted."""
    loaded = game_service().load(game_id)
    body = {"version": loaded.version, "takeback": takeback_view(loaded)}
    return body, version_headers(loaded.version)


@blp.post("/games/<game_id>/takebacks/current")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY, SIGNATURE])
@blp.response(200, ExecutedSchema)
@with_seat(required=True)
@blp.arguments(TakebackAnswerSchema)
def answer_takeback(body: dict[str, Any], game_id: str, seat: int) -> Any:
    """Accept or decline the pending takeback; the last acceptance takes the game back (Undone)."""
    return run_command(game_id, seat, {"type": "AnswerTakeback", "accept": body["accept"]})


def with_organizer(view: Callable[..., Any]) -> Callable[..., Any]:
    """Let the view run only with the game's organizer token (tournament games have one)."""

    @functools.wraps(view)
    def wrapper(*args: Any, game_id: str, **kwargs: Any) -> Any:
        service = game_service()
        token = presented_token()
        if token is not None and service.tokens.is_organizer(game_id, token):
            return view(*args, game_id=game_id, **kwargs)
        if not service.store.exists(game_id):
            raise GameNotFound(game_id)
        if token is None:
            raise Unauthorized("token_required", f"this needs the organizer's token: {HEADER_FORM}")
        if service.tokens.seat_of(game_id, token) is not None:
            raise Forbidden("organizer_only", "only the organizer corrects a game; seats ask for takebacks")
        raise Unauthorized("invalid_token", "this token is not this game's organizer token")

    return wrapper


@blp.post("/games/<game_id>/corrections")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY])
@blp.response(200, ExecutedSchema)
@with_organizer
@blp.arguments(CorrectionSchema)
def post_correction(body: dict[str, Any], game_id: str) -> Any:
    """Organizer only: set a tournament game back to `to_version`, with the reason (audited)."""
    executed = game_service().correct(
        game_id,
        body["to_version"],
        body["reason"],
        expected_version=if_match_version(),
        key=idempotency_key(),
    )
    return executed_answer(executed, None)
