"""Passwords, kept only as argon2id hashes (argon2-cffi's defaults: RFC 9106's low-memory
profile)."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_PASSWORD = 8
MAX_PASSWORD = 256
"""Long enough for a pass phrase; bounded so that hashing one costs what any other does."""

_HASHER = PasswordHasher()


def hashed(password: str) -> str:
    """The argon2id hash of `password`, with its salt and parameters."""
    return _HASHER.hash(password)


def matches(stored: str, password: str) -> bool:
    """Whether `password` is the one `stored` was made from."""
    try:
        return _HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def outdated(stored: str) -> bool:
    """Whether `stored` was made with weaker parameters than today's: hashed again at sign-in."""
    return _HASHER.check_needs_rehash(stored)


def problem_with(password: str) -> str | None:
    """Why `password` cannot be an account's, or None when it can."""
    if len(password) < MIN_PASSWORD:
        return f"a password is at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password is at most {MAX_PASSWORD} characters"
    return None
