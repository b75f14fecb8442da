"""Conditional requests: ETag is the game version; If-None-Match, If-Match, Idempotency-Key;
and the seat's signature of a command (Archipelago-Signature)."""

from __future__ import annotations

import re

from flask import Response, request

from record.seat_keys import SIGNATURE_HEADER
from service.errors import BadRequest

MAX_IDEMPOTENCY_KEY = 255
MAX_CONDITION = 1024
"""The longest If-Match or If-None-Match read (400 beyond): a few ETags, never a page of them."""
#: A game's ETag: its version in quotes. Weak tags never match (If-Match compares strongly),
#: and 18 digits keep any version far below what int() refuses to read.
VERSION_TAG = re.compile(r'"(\d{1,18})"')
MAX_SIGNATURE = 128
"""A raw signature of 64 bytes is 86 base64url characters; room for longer schemes to come."""
SIGNATURE_PATTERN = r"^[A-Za-z0-9_-]+$"
IF_MATCH_PATTERN = r'^ *(\*|"\d{1,18}") *$'
"""What the document allows: * or one version's ETag (the service also reads a list naming one)."""


def version_headers(version: int) -> dict[str, str]:
    """ETag of a game answer; the body also depends on the token, hence Vary."""
    return {"ETag": f'"{version}"', "Vary": "Authorization"}


def not_modified(version: int) -> Response | None:
    """304 when If-None-Match already names `version`; 400 bad_if_none_match when it is over
    MAX_CONDITION characters."""
    header = request.headers.get("If-None-Match")
    if header is None:  # most reads: nothing to parse
        return None
    if len(header) > MAX_CONDITION:
        raise BadRequest("bad_if_none_match", f"If-None-Match is at most {MAX_CONDITION} characters")
    if request.if_none_match.contains_weak(str(version)):
        return Response(status=304, headers=version_headers(version))
    return None


def if_match_version() -> int | None:
    """The version If-Match names; None when absent or `*` (which names no version)."""
    header = request.headers.get("If-Match")
    if header is not None and len(header) > MAX_CONDITION:
        raise BadRequest("bad_if_match", f"If-Match is at most {MAX_CONDITION} characters")
    if header is None or header.strip() == "*":
        return None
    tags = [VERSION_TAG.fullmatch(tag.strip()) for tag in header.split(",")]
    if not all(tags):
        raise BadRequest("bad_if_match", 'If-Match must be * or the game\'s ETag, e.g. "12"')
    versions = {int(tag.group(1)) for tag in tags if tag}
    if len(versions) > 1:
        raise BadRequest("bad_if_match", "If-Match must name exactly one version")
    return versions.pop()


def idempotency_key() -> str | None:
    """The Idempotency-Key header, if sent."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 0 < len(key) <= MAX_IDEMPOTENCY_KEY:
        raise BadRequest("bad_idempotency_key", f"Idempotency-Key must be 1-{MAX_IDEMPOTENCY_KEY} characters")
    return key


def command_signature() -> str | None:
    """The Archipelago-Signature header, if sent: base64url, at most MAX_SIGNATURE characters
    (400 bad_signature_header otherwise). Whether it verifies is the service's to say."""
    signature = request.headers.get(SIGNATURE_HEADER)
    if signature is not None and (
        not 0 < len(signature) <= MAX_SIGNATURE or re.fullmatch(SIGNATURE_PATTERN, signature) is None
    ):
        raise BadRequest(
            "bad_signature_header", f"{SIGNATURE_HEADER} is 1-{MAX_SIGNATURE} base64url characters"
        )
    return signature
