"""The one place where errors become HTTP answers: application/problem+json (RFC 9457).

Every answer carries `type`, `title`, `status`, a stable machine `code` and a `detail`;
invalid input adds `errors` (field -> messages). Nothing here ever shows a traceback.
"""

from __future__ import annotations

import http
import logging
from collections.abc import Mapping
from typing import Any

import redis
from flask import Flask, Response, json
from werkzeug.exceptions import HTTPException

from domain.decider import DomainError
from service.accounts.errors import TooManyAttempts
from service.ai_games import TooManyAiGames
from service.api.allowed import allowed_methods
from service.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    GameExists,
    GameNotFound,
    IdempotencyMismatch,
    OutcomeUnknown,
    PartialRetry,
    PreconditionFailed,
    PreconditionRequired,
    ServiceError,
    TournamentNotFound,
    Unauthorized,
    UnknownGame,
    Unprocessable,
    UnsupportedServer,
    VersionConflict,
)
from service.refusals import DETAILS, RETRY_AFTER_SECONDS, StoreState, refusal

log = logging.getLogger("archipelago.api")

PROBLEM_JSON = "application/problem+json"

#: The rules' codes that mean "this request is malformed", not "the game refuses it now".
UNPROCESSABLE_CODES = frozenset(
    {
        "bad_command",
        "bad_undo_target",
        "reason_required",
        "unknown_command",
        "unknown_island",
        "unknown_line",
        "unknown_sea",
    }
)
#: Setup refusals, by the field of POST /games they are about.
SETUP_FIELDS: Mapping[str, str] = {
    "unknown_game": "game",
    "bad_seat_count": "seats",
    "bad_first_seat": "first_seat",
    "bad_mode": "mode",
    "bad_option": "options",
}

SERVICE_STATUS: Mapping[type[ServiceError], int] = {
    BadRequest: 400,
    Unauthorized: 401,
    Forbidden: 403,
    GameNotFound: 404,
    TournamentNotFound: 404,
    UnknownGame: 404,
    VersionConflict: 409,
    PartialRetry: 409,
    GameExists: 409,
    Conflict: 409,
    Unprocessable: 422,
    PreconditionFailed: 412,
    IdempotencyMismatch: 422,
    PreconditionRequired: 428,
    TooManyAiGames: 429,
    TooManyAttempts: 429,
    UnsupportedServer: 503,
}

#: Codes of the HTTP-level refusals, fixed here: the phrases they were once derived from
#: differ between Python versions (413 is "Request Entity Too Large", later "Content Too Large").
HTTP_CODES: Mapping[int, str] = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    429: "too_many_requests",
    431: "headers_too_large",
}

#: An answer names at most this many invalid fields, each cut to FIELD_NAME_CHARS: a body
#: of thousands of unknown keys must not be echoed back whole.
MAX_FIELD_ERRORS = 20
FIELD_NAME_CHARS = 64

BEARER_CHALLENGE = 'Bearer realm="archipelago"'


def problem(
    status: int,
    code: str,
    detail: str,
    errors: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    members: Mapping[str, Any] | None = None,
) -> Response:
    """A problem+json response; `members` are extension members (e.g. the event version)."""
    body: dict[str, Any] = {
        **(members or {}),
        "type": "about:blank",
        "title": http.HTTPStatus(status).phrase,
        "status": status,
        "code": code,
        "detail": detail,
    }
    if errors:
        body["errors"] = dict(errors)
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    response.headers.update(headers or {})
    return response


def domain_error(error: DomainError) -> Response:
    """The rules' refusal: 422 for a malformed command or setup, else 409 (not now)."""
    field = error.field or SETUP_FIELDS.get(error.code)
    if field is not None:
        return problem(422, error.code, error.message, {field: [error.message]})
    status = 422 if error.code in UNPROCESSABLE_CODES else 409
    return problem(status, error.code, error.message)


def service_error(error: ServiceError) -> Response:
    """The service's own refusals, by class."""
    status = next((SERVICE_STATUS[cls] for cls in type(error).__mro__ if cls in SERVICE_STATUS), 500)
    if status >= 500:
        log.error("service error %s: %s", error.code, error.message)
    headers = {"WWW-Authenticate": _challenge(error.code)} if status == 401 else None
    if isinstance(error, TooManyAttempts):
        headers = {"Retry-After": str(error.retry_after)}
    members = getattr(error, "members", None)
    return problem(status, error.code, error.message, headers=headers, members=members)


def http_error(error: HTTPException) -> Response:
    """werkzeug's errors (404, 405, ...) and webargs' (invalid JSON, schema validation)."""
    status = error.code or 500
    code = HTTP_CODES.get(status) or http.HTTPStatus(status).phrase.lower().replace(" ", "_")
    detail = error.description or http.HTTPStatus(status).description
    data = getattr(error, "data", None) or {}  # webargs puts its messages here
    errors = None
    if status == 400 and data.get("messages"):
        code, detail = "malformed_json", "the request body is not valid JSON"
    elif data.get("messages"):
        code, detail = "invalid_request", "the request does not match the schema: see errors"
        errors = _field_errors(data["messages"])
    headers = dict(data.get("headers") or {})
    allowed = getattr(error, "valid_methods", None)
    if allowed:
        allowed = allowed_methods() or allowed
        headers["Allow"] = ", ".join(allowed)
    return problem(status, code, detail, errors, headers)


def store_unavailable(error: redis.exceptions.RedisError) -> Response:
    """503 with Retry-After for a write (or read) Redis refused or could not answer, naming why
    in `store`; any other Redis error is the service's own fault (500)."""
    state = refusal(error)
    if state is None:
        return unexpected(error)
    log.error("the store refused (%s): %s", state.value, error)
    return refused(state)


def refused(state: StoreState) -> Response:
    retry = RETRY_AFTER_SECONDS[state]
    return problem(
        503,
        "store_unavailable",
        DETAILS[state],
        headers={"Retry-After": str(retry)},
        members={"store": state.value},
    )


def outcome_unknown(error: OutcomeUnknown) -> Response:
    """503: the append was sent and its answer lost; only a retry with the same key can tell."""
    log.error("outcome unknown: %s (%s)", error.message, error.__cause__)
    retry = RETRY_AFTER_SECONDS[StoreState.UNREACHABLE]
    return problem(503, error.code, error.message, headers={"Retry-After": str(retry)})


def unexpected(error: Exception) -> Response:
    """Anything else: logged with its traceback, answered with a generic 500."""
    log.exception("unhandled error", exc_info=error)
    return problem(500, "internal_error", "an unexpected error occurred; it has been logged")


def register(app: Flask) -> None:
    """Install the handlers; the most specific class wins."""
    app.register_error_handler(DomainError, domain_error)
    app.register_error_handler(ServiceError, service_error)
    app.register_error_handler(OutcomeUnknown, outcome_unknown)
    app.register_error_handler(HTTPException, http_error)
    # Unreachable, full (OOM, MISCONF), read-only, loading, a cluster failing over: 503.
    app.register_error_handler(redis.exceptions.RedisError, store_unavailable)
    app.register_error_handler(Exception, unexpected)


def _challenge(code: str) -> str:
    if code == "invalid_token":
        return f'{BEARER_CHALLENGE}, error="invalid_token"'
    return BEARER_CHALLENGE


def _field_errors(messages: Any) -> dict[str, Any] | None:
    """webargs' {location: {field: [..]}} as {field: [..]}; the location only when ambiguous."""
    if not isinstance(messages, Mapping):
        return None
    if len(messages) == 1:
        (inner,) = messages.values()
        return _bounded(inner) if isinstance(inner, Mapping) else {"_schema": inner}
    return _bounded(messages)


def _bounded(errors: Mapping[Any, Any]) -> dict[str, Any]:
    """The first MAX_FIELD_ERRORS fields, names cut short, and how many more there were."""
    shown = {str(field)[:FIELD_NAME_CHARS]: errors[field] for field in list(errors)[:MAX_FIELD_ERRORS]}
    if len(errors) > MAX_FIELD_ERRORS:
        shown["_truncated"] = [f"{len(errors) - MAX_FIELD_ERRORS} more fields are not listed"]
    return shown
