"""Sessions: a random id in a cookie, and in Redis only its SHA-256 beside the account's key,
so that a copy of Redis holds no cookie anyone could present.

The cookie is HttpOnly (no page script reads it), SameSite=Lax (another site's form or script
sends it on no POST, the first guard against cross-site requests; service/web/cross_site.py is
the second) and Secure, except on plain http to a loopback address (`make run` on
127.0.0.1 or localhost), where a browser would otherwise never send it back.
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
from urllib.parse import urlsplit

import redis
from flask import Request
from redis.cluster import RedisCluster
from werkzeug.wrappers import Response

COOKIE = "archipelago_session"
LIFETIME = 30 * 24 * 3600
"""Seconds a session lasts after it was opened; signing out ends it at once."""
LOOPBACK_NAMES = frozenset({"localhost"})


def session_key(session_id: str) -> str:
    return f"session:{{{hashlib.sha256(session_id.encode()).hexdigest()}}}"


class Sessions:
    """Opens, reads and ends sessions."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self._redis = client

    def open(self, account_key: str) -> str:
        """A new session of the account: its id, to be sent only in the cookie."""
        session_id = secrets.token_urlsafe(32)
        self._redis.set(session_key(session_id), account_key, ex=LIFETIME)
        return session_id

    def account_key(self, session_id: str) -> str | None:
        """The key of the account whose session this is, or None (unknown, ended or expired)."""
        if not session_id or len(session_id) > 128:
            return None
        raw = self._redis.get(session_key(session_id))
        if raw is None:
            return None
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    def end(self, session_id: str) -> None:
        self._redis.delete(session_key(session_id))


def loopback_http(request: Request) -> bool:
    """Whether the request is plain http to this machine: the one case without Secure."""
    if request.scheme != "http":
        return False
    host = (urlsplit("//" + (request.host or "")).hostname or "").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def set_cookie(response: Response, request: Request, session_id: str) -> None:
    response.set_cookie(
        COOKIE,
        session_id,
        max_age=LIFETIME,
        httponly=True,
        samesite="Lax",
        secure=not loopback_http(request),
        path="/",
    )


def clear_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="Lax", secure=not loopback_http(request))
