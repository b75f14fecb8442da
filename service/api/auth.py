"""Seat authentication: the bearer token alone decides which seat a request speaks for."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import request

from service import read_ahead
from service.api.context import game_service
from service.errors import Forbidden, GameNotFound, Unauthorized
from service.games import GameService

BEARER_SECURITY: list[dict[str, list[str]]] = [{"bearerAuth": []}]
"""The OpenAPI security requirement of the views that take a seat token."""
HEADER_FORM = "Authorization: Bearer <token>"


def presented_token() -> str | None:
    """The token of `Authorization: Bearer <token>`; None when the header is absent."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("invalid_token", f"send the seat's token as '{HEADER_FORM}'")
    return token.strip()


def resolve_seat(service: GameService, game_id: str, required: bool) -> int | None:
    """The seat of the presented token, None for a spectator (only when not `required`).

    A token that holds no seat of this game is refused, never taken for a spectator; the
    organizer's token of a tournament game is that spectator (403 where a seat is required).
    """
    token = presented_token()
    if token is None and not required:
        return None
    seat = None if token is None else read_ahead.seat_reading_ahead(service, game_id, token)
    if seat is not None:
        return seat
    if not service.store.exists(game_id):
        raise GameNotFound(game_id)
    if token is None:
        raise Unauthorized("token_required", f"this needs a seat's token: {HEADER_FORM}")
    if service.tokens.is_organizer(game_id, token):
        # The organizer referees but holds no seat: it reads what a spectator reads, no hand.
        if not required:
            return None
        raise Forbidden("not_a_seat", "the organizer holds no seat: only a seat's token sends its commands")
    raise Unauthorized("invalid_token", "this token holds no seat in this game")


def with_seat(*, required: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Resolve the seat before the body is read and pass it to the view as `seat`."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def wrapper(*args: Any, game_id: str, **kwargs: Any) -> Any:
            try:
                seat = resolve_seat(game_service(), game_id, required)
                return view(*args, game_id=game_id, seat=seat, **kwargs)
            finally:
                read_ahead.drop()

        return wrapper

    return decorate
