"""The accounts of the current app and request: its stores, the signed-in account (from the
session cookie) and the relying party of its passkeys."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, g, request

from service.accounts.passkeys import Passkeys, RelyingParty
from service.accounts.sessions import COOKIE, Sessions
from service.accounts.store import Account, Accounts
from service.api.context import game_service
from service.errors import Conflict, Unauthorized

SESSION_SECURITY: list[dict[str, list[str]]] = [{"sessionCookie": []}]
"""The OpenAPI security of an operation that reads the session cookie."""


def accounts() -> Accounts:
    return Accounts(game_service().redis)


def sessions() -> Sessions:
    return Sessions(game_service().redis)


def passkeys() -> Passkeys:
    return Passkeys(game_service().redis, accounts())


def signed_in() -> Account | None:
    """The account whose session cookie came with the request, or None (read once per request)."""
    if "account" not in g:
        session_id = request.cookies.get(COOKIE, "")
        key = sessions().account_key(session_id) if session_id else None
        g.account = None if key is None else accounts().by_key(key)
    found: Account | None = g.account
    return found


def required() -> Account:
    """The signed-in account; 401 not_signed_in without one."""
    account = signed_in()
    if account is None:
        raise Unauthorized("not_signed_in", "sign in first (POST /session), with the session cookie")
    return account


def relying_party() -> RelyingParty:
    """WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS when set (behind a proxy that changes the Host), else
    the requested host and its origin, plus TRUSTED_ORIGINS."""
    origin = f"{request.scheme}://{request.host}"
    rp_id = str(current_app.config.get("WEBAUTHN_RP_ID") or urlsplit(origin).hostname or "")
    listed = str(
        current_app.config.get("WEBAUTHN_ORIGINS") or current_app.config.get("TRUSTED_ORIGINS") or ""
    )
    origins = [o.strip().rstrip("/") for o in listed.split(",") if o.strip()]
    if not current_app.config.get("WEBAUTHN_ORIGINS"):
        origins.append(origin)
    return RelyingParty(rp_id, tuple(origins))


def seat_holder(name: str) -> Account | None:
    """Who takes a seat under `name`: the signed-in account (None for a guest). 409
    name_of_account when `name` is another account's name, so that nobody plays as an account
    without being signed in as it."""
    owner = accounts().get(name)
    me = signed_in()
    if owner is not None and (me is None or me.key != owner.key):
        raise Conflict(
            "name_of_account",
            f"{owner.name!r} is an account's name: sign in as {owner.name}, or choose another",
        )
    return me
