"""The fuzz runs' own check: a request the document calls valid gets past the service's schemas.

The rules refuse what JSON Schema cannot state (a card not in the hand, an organizer without a
tournament, a cursor no page gave) with 422 and the rules' code, or 409: those are answers.
What the service's own schemas refuse (400, 415, or 422 `invalid_request`) is not.
"""

from __future__ import annotations

import json
from typing import Any

MALFORMED = (400, 415)
"""Statuses that say the request itself is malformed (as 422 `invalid_request` does)."""


def valid_requests_are_not_refused_as_malformed(ctx: Any, response: Any, case: Any) -> bool | None:
    """A request generated valid from the document is not refused by the service's schemas."""
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return None
    code = None
    if response.headers.get("content-type", [""])[0].startswith("application/problem+json"):
        code = json.loads(response.content).get("code")
    if response.status_code in MALFORMED or (response.status_code == 422 and code == "invalid_request"):
        errors = json.loads(response.content).get("errors") if code else None
        raise AssertionError(f"Schema-valid request refused: {response.status_code} {code} {errors}")
    return None
