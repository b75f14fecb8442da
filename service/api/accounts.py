"""Accounts, sessions and passkeys over HTTP. A session travels in the archipelago_session
cookie (service/accounts/sessions.py); seats keep their bearer tokens, which an account only
holds for its person, so a guest still plays by token alone."""

from __future__ import annotations

from typing import Any

from flask import Response, after_this_request, request, url_for

import service.api.account_context as current
from service.accounts.sessions import COOKIE, clear_cookie, set_cookie
from service.accounts.store import Account
from service.api.account_context import SESSION_SECURITY
from service.api.account_schemas import (
    AccountSchema,
    BindSeatSchema,
    BoundSeatSchema,
    CeremonySchema,
    CredentialAnswerSchema,
    CredentialsSchema,
    HeldSeatsSchema,
    PasskeyAddedSchema,
)
from service.api.blueprint import Blueprint
from service.api.context import game_service
from service.api.rate_limits import creation_limit
from service.errors import Unprocessable

blp = Blueprint("accounts", __name__, description="Accounts: a name, a password, passkeys and a session.")


def shown(account: Account) -> dict[str, Any]:
    return {
        "name": account.name,
        "player": account.player,
        "passkeys": len(current.passkeys().credential_ids(account)),
        "page": url_for("web.player", name=account.name),
    }


def open_session(account: Account) -> None:
    """Open a session of `account` and send its cookie with the answer (ending the one before)."""
    before = request.cookies.get(COOKIE)
    if before:
        current.sessions().end(before)
    session_id = current.sessions().open(account.key)

    @after_this_request
    def with_cookie(response: Response) -> Response:
        set_cookie(response, request, session_id)
        return response


@blp.post("/accounts")
@creation_limit
@blp.response(201, AccountSchema)
@blp.arguments(CredentialsSchema)
def sign_up(body: dict[str, Any]) -> Any:
    """Create an account and sign in: the answer sets the session cookie. 409 name_taken for a
    name an account holds (ignoring case and width); 422 bad_name, bad_password."""
    account = current.accounts().create(body["name"], body["password"])
    open_session(account)
    return shown(account)


@blp.post("/session")
@creation_limit
@blp.response(200, AccountSchema)
@blp.arguments(CredentialsSchema)
def sign_in(body: dict[str, Any]) -> Any:
    """Sign in by name and password: the answer sets the session cookie. 401 wrong_credentials
    (the same for an unknown name); 429 too_many_attempts after 10 wrong passwords for one name
    within 15 minutes."""
    account = current.accounts().signed_in(body["name"], body["password"])
    open_session(account)
    return shown(account)


@blp.delete("/session")
@blp.response(204)
def sign_out() -> Any:
    """Sign out: the session ends on the server at once and the cookie is cleared. Answers 204
    without a session too."""
    session_id = request.cookies.get(COOKIE)
    if session_id:
        current.sessions().end(session_id)

    @after_this_request
    def without_cookie(response: Response) -> Response:
        clear_cookie(response, request)
        return response

    return None


@blp.get("/account")
@blp.doc(security=SESSION_SECURITY)
@blp.response(200, AccountSchema)
def account() -> Any:
    """The signed-in account; 401 not_signed_in."""
    return shown(current.required())


@blp.post("/session/passkey/options")
@creation_limit
@blp.response(200, CeremonySchema)
def passkey_sign_in_options() -> Any:
    """Start signing in with a passkey: the options for navigator.credentials.get()."""
    ceremony, options = current.passkeys().authentication_options(current.relying_party())
    return {"ceremony": ceremony, "options": options}


@blp.post("/session/passkey")
@creation_limit
@blp.response(200, AccountSchema)
@blp.arguments(CredentialAnswerSchema)
def passkey_sign_in(body: dict[str, Any]) -> Any:
    """Sign in with the passkey's answer: the session cookie is set. 422 ceremony_unknown (expired
    after 5 minutes, or used); 401 passkey_invalid."""
    found = current.passkeys().authenticate(body["ceremony"], body["credential"], current.relying_party())
    open_session(found)
    return shown(found)


@blp.post("/account/passkeys/options")
@blp.doc(security=SESSION_SECURITY)
@blp.response(200, CeremonySchema)
def passkey_options() -> Any:
    """Start adding a passkey to the signed-in account: the options for
    navigator.credentials.create()."""
    ceremony, options = current.passkeys().registration_options(current.required(), current.relying_party())
    return {"ceremony": ceremony, "options": options}


@blp.post("/account/passkeys")
@blp.doc(security=SESSION_SECURITY)
@blp.response(201, PasskeyAddedSchema)
@blp.arguments(CredentialAnswerSchema)
def add_passkey(body: dict[str, Any]) -> Any:
    """Keep the new passkey. 422 ceremony_unknown, passkey_invalid, too_many_passkeys."""
    added = current.passkeys().register(
        current.required(), body["ceremony"], body["credential"], current.relying_party()
    )
    return {"credential_id": added}


@blp.post("/account/seats")
@blp.doc(security=SESSION_SECURITY)
@blp.response(200, BoundSeatSchema)
@blp.arguments(BindSeatSchema)
def bind_seat(body: dict[str, Any]) -> Any:
    """Keep a seat with the signed-in account: the account gets it back in any browser where it
    signs in, and the seat's games show on its page. 422 invalid_token for a token that holds no
    seat of the game."""
    holder = current.required()
    seat = game_service().tokens.seat_of(body["game_id"], body["token"])
    if seat is None:
        message = "this token holds no seat of this game"
        raise Unprocessable("invalid_token", message, errors={"token": [message]})
    current.accounts().bind_seat(holder, body["game_id"], seat, body["token"])
    return {"game_id": body["game_id"], "seat": seat}


@blp.get("/account/seats/<game_id>")
@blp.doc(security=SESSION_SECURITY)
@blp.response(200, HeldSeatsSchema)
def held_seats(game_id: str) -> Any:
    """The seats of the game the signed-in account holds, with their tokens (none: an empty
    list)."""
    held = current.accounts().seat_tokens(current.required(), game_id)
    return {"game_id": game_id, "seats": [{"seat": seat, "token": token} for seat, token in held]}
