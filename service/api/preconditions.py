"""Conditional requests: ETag is the game version; If-None-Match, If-Match, Idempotency-Key."""

from __future__ import annotations

from flask import Response, request

from service.errors import BadRequest, PreconditionFailed

MAX_IDEMPOTENCY_KEY = 255


def version_headers(version: int) -> dict[str, str]:
    """ETag of a game answer; the body also depends on the token, hence Vary."""
    return {"ETag": f'"{version}"', "Vary": "Authorization"}


def not_modified(version: int) -> Response | None:
    """304 when If-None-Match already names `version`."""
    if request.if_none_match.contains_weak(str(version)):
        return Response(status=304, headers=version_headers(version))
    return None


def if_match_version() -> int | None:
    """The version If-Match names; None when absent or `*` (which names no version)."""
    if "If-Match" not in request.headers or request.if_match.star_tag:
        return None
    versions = {int(tag) for tag in request.if_match.as_set() if tag.isdigit()}
    if not versions:
        raise PreconditionFailed("version_mismatch", "If-Match names no version of this game")
    if len(versions) > 1:
        raise BadRequest("bad_if_match", "If-Match must name exactly one version")
    return versions.pop()


def idempotency_key() -> str | None:
    """The Idempotency-Key header, if sent."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 0 < len(key) <= MAX_IDEMPOTENCY_KEY:
        raise BadRequest(
            "bad_idempotency_key", f"Idempotency-Key must be 1-{MAX_IDEMPOTENCY_KEY} characters"
        )
    return key
