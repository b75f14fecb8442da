"""What each operation's answers carry beyond its body: statuses, headers, parameters, media types.

An apispec plugin fills them in as each view is registered, from what the operation declares
(its path parameters, security, body, headers) and the few tables below, so that the served
document names every status, header and limit the service really answers with. The contract
tests (tests/api/conftest.py, tests/api/test_contract_*.py) hold it to that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apispec import BasePlugin

from record.seat_keys import SIGNATURE_HEADER
from service.api.preconditions import (
    IF_MATCH_PATTERN,
    MAX_CONDITION,
    MAX_IDEMPOTENCY_KEY,
    MAX_SIGNATURE,
    SIGNATURE_PATTERN,
)
from service.api.problems import PROBLEM_JSON
from service.api.stream_document import STREAM_ITEMS, register_items
from service.api.stream_document import answer_schema as stream_answer

API_VERSION = "4.1.0"
"""The contract's version (docs/api-changelog.md): major for a change that breaks a client."""

HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {
        "description": "The game's (or tournament's) version, quoted: \"12\". Send it back in "
        "If-Match (commands) or If-None-Match (reads).",
        "schema": {"type": "string", "pattern": r'^"\d+"$'},
    },
    "Vary": {"description": "Authorization: the answer depends on the token.", "schema": {"type": "string"}},
    "Location": {"description": "Where the created resource is read.", "schema": {"type": "string"}},
    "Cache-Control": {"description": "no-cache: a live stream.", "schema": {"type": "string"}},
    "WWW-Authenticate": {
        "description": 'Bearer realm="archipelago" (with error="invalid_token" for a wrong token).',
        "schema": {"type": "string"},
    },
    "Retry-After": {
        "description": "Seconds until a retry may pass (rate_limited), or is worth trying "
        "(store_unavailable, outcome_unknown).",
        "schema": {"type": "integer", "minimum": 1},
    },
    "Content-Disposition": {"description": "attachment; filename=...", "schema": {"type": "string"}},
}

PARAMETERS: dict[str, dict[str, Any]] = {
    "If-None-Match": {
        "in": "header",
        "name": "If-None-Match",
        "schema": {"type": "string", "maxLength": MAX_CONDITION},
        "description": "The ETag of the copy the client holds: 304 when the game is still at it "
        "(400 bad_if_none_match when longer).",
    },
    "If-Match": {
        "in": "header",
        "name": "If-Match",
        "schema": {"type": "string", "pattern": IF_MATCH_PATTERN, "maxLength": MAX_CONDITION},
        "description": 'The version the command expects, as the ETag: "12" (or *). 412 version_mismatch '
        "when the game has moved on; tournament games require it (428 if_match_required).",
    },
    "Idempotency-Key": {
        "in": "header",
        "name": "Idempotency-Key",
        "schema": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_IDEMPOTENCY_KEY,
            "pattern": r"^\S(.*\S)?$",
        },
        "description": "Retry-safe key: the same key and body answer the first answer again (`duplicate`); "
        "the same key with another body is 422 idempotency_key_reused.",
    },
    SIGNATURE_HEADER: {
        "in": "header",
        "name": SIGNATURE_HEADER,
        "schema": {"type": "string", "maxLength": MAX_SIGNATURE, "pattern": SIGNATURE_PATTERN},
        "description": "The seat's signature of this command, base64url without padding: required once the "
        "seat holds a key (POST /games/{game_id}/key, or its tournament entrant's), refused 403 "
        "signature_required without it and signature_invalid when it does not verify. It signs the "
        'UTF-8 bytes of the canonical JSON (sorted keys, no spaces) of {"game_id", "version": the '
        'If-Match version, "command": {"type", "seat", "args": the body less its type}}: ECDSA '
        "P-256 with SHA-256 as r || s (64 bytes, as WebCrypto gives it) or Ed25519. Ignored for a seat "
        "without a key; recorded with the command, so the referee replay checks it again.",
    },
    "Last-Event-ID": {
        "in": "header",
        "name": "Last-Event-ID",
        "schema": {"type": "string", "pattern": r"^\s*[0-9]{1,18}\s*$"},
        "description": "Resume after this version (EventSource sends it on reconnect); wins over ?after.",
    },
    "after": {
        "in": "query",
        "name": "after",
        "schema": {"type": "integer", "minimum": 0, "default": 0},
        "description": "Only events with a version above this one.",
    },
}

PROBLEMS: Mapping[int, str] = {
    304: "Not modified: the game is still at the version If-None-Match names (no body)",
    400: "Malformed: the body is not JSON, or a header is wrong (malformed_json, bad_if_match, "
    "bad_if_none_match, bad_last_event_id, bad_idempotency_key, bad_signature_header)",
    401: "No token where one is needed, or a token that holds nothing here (token_required, invalid_token); "
    "no session where one is needed (not_signed_in); a wrong name or password (wrong_credentials) or a "
    "passkey that does not verify (passkey_invalid)",
    403: "A token without the right here: the organizer's where a seat's is needed, or the reverse "
    "(not_a_seat, organizer_only, not_an_entrant), an entrant's naming another entrant "
    "(not_your_entrant); a browser's request from another site that would change something "
    "(cross_site_request); an address outside METRICS_ALLOW asking for the metrics "
    "(metrics_not_allowed); a command of a seat holding a key without its signature or with one that "
    "does not verify (signature_required, signature_invalid)",
    404: "No such game, tournament, entrant, game kind or seat (game_not_found, tournament_not_found, "
    "not_found, seat_not_found)",
    409: "Refused now: the rules (not_your_turn, hand_full, ...), a concurrent append (version_conflict), "
    "an archived game (game_archived), a game its tournament forfeited or a seat resigned or aborted "
    "(game_over), a seat that is not open to take (seat_not_open), a command while a seat is open "
    "(seats_open), an account's name taken (name_taken), an abort after the second seat moved or "
    "in a tournament (abort_too_late, "
    "abort_not_allowed_in_tournament), a rematch before the end or of a tournament game (game_not_over, "
    "rematch_not_in_tournament), a game of a closed tournament (tournament_closed), a broken hash "
    "chain (chain_broken), or a stream that "
    "lost its tail in the store (chain_truncated, with `stored_version`, the last event it holds, "
    "and `vouched_version`, the last one the store vouches for): every read of it answers so",
    412: "If-Match names a version the game is no longer at (version_mismatch)",
    413: "The body is over the size limit (body_too_large)",
    414: "The URL is over the size limit (uri_too_long)",
    415: "The body is not of a media type this operation takes (unsupported_media_type)",
    422: "The body or query does not fit, or the rules find the command or setup malformed "
    "(invalid_request, bad_command, unknown_island, bad_option, idempotency_key_reused, name_required, "
    "open_seat_with_player, open_seat_in_tournament, move_time_in_tournament, bad_name, bad_password, "
    "ceremony_unknown, passkey_invalid, too_many_passkeys, invalid_token, ...)",
    428: "A command without If-Match where one is required: in a tournament game, or from a seat "
    "that signs its commands (if_match_required)",
    429: "Too many requests from this address (rate_limited, with Retry-After), too many open games "
    "with computer seats (too_many_ai_games), or too many wrong passwords for one name lately "
    "(too_many_attempts, with Retry-After)",
    431: "The request headers are over the size limit (headers_too_large)",
    500: "Unexpected error, logged (internal_error)",
    503: "The store cannot serve now, with Retry-After: store_unavailable, its `store` member saying why "
    "(full: out of memory or disk; read_only; loading; unreachable); a command's events may "
    "have been stored before a later step was refused, so retry a command with the same "
    "Idempotency-Key (a stored one answers duplicate: true). Or, on a command, outcome_unknown: "
    "the write was sent and its answer lost, so send the request again with the same "
    "Idempotency-Key (a recorded command is answered again, never applied twice)",
}
RESPONSE_HEADERS: Mapping[int, tuple[str, ...]] = {
    304: ("ETag", "Vary"),
    401: ("WWW-Authenticate",),
    429: ("Retry-After",),
    503: ("Retry-After",),
}
EVERY_OPERATION = (413, 414, 429, 431, 500, 503)

# Success headers, by operation ("method path"): what the view sets.
VERSIONED = frozenset(
    {
        "post /games",
        "get /games/{game_id}",
        "get /games/{game_id}/legal",
        "post /games/{game_id}/commands",
        "get /games/{game_id}/events",
        "post /games/{game_id}/undo",
        "post /games/{game_id}/takebacks",
        "get /games/{game_id}/takebacks/current",
        "post /games/{game_id}/takebacks/current",
        "post /games/{game_id}/corrections",
        "post /games/{game_id}/resign",
        "post /games/{game_id}/abort",
        "post /games/{game_id}/entropy",
        "get /games/{game_id}/replay",
        "get /games/{game_id}/notation",
        "post /games/import",
        "post /tournaments",
        "get /tournaments/{tournament_id}",
        "post /tournaments/{tournament_id}/entrants",
        "post /tournaments/{tournament_id}/entrants/{entrant}/withdraw",
        "post /tournaments/{tournament_id}/commands",
        "get /tournaments/{tournament_id}/events",
        "get /tournaments/{tournament_id}/standings",
        "get /tournaments/{tournament_id}/crosstable",
        "get /tournaments/{tournament_id}/pairings",
    }
)
"""ETag and Vary: the answers built from one version of a game or tournament."""
LOCATED = frozenset(
    {"post /games", "post /games/import", "post /games/{game_id}/takebacks", "post /tournaments"}
)
VARY_ONLY = frozenset({"get /games/{game_id}/export", "get /tournaments/{tournament_id}/me"})
CONDITIONAL = frozenset({"get /games/{game_id}", "get /tournaments/{tournament_id}"})
"""Reads that answer 304 to If-None-Match."""
FORBIDDING = frozenset({"post /tournaments/{tournament_id}/entrants"})
"""Operations with an optional token that still refuse some tokens with 403 (AI entrants)."""
CONFLICTING = frozenset({"post /accounts"})
"""Operations without a game or tournament in their path that answer 409 (name_taken)."""
SIGNING_IN = frozenset({"post /session", "post /session/passkey"})
"""Operations that answer 401 to wrong credentials without being authenticated themselves."""
ADDRESS_BOUND = frozenset({"get /metrics"})
"""Operations only some client addresses may use (METRICS_ALLOW)."""
STREAMS = frozenset({"get /games/{game_id}/stream", "get /tournaments/{tournament_id}/stream"})
MEDIA: Mapping[str, tuple[str, str]] = {
    "get /games/{game_id}/stream": (
        "text/event-stream",
        "Server-Sent Events: per event `id: <version>`, `data: <the Event as JSON>`. Ends when the "
        "game ends or after SSE_MAX_SECONDS without events.",
    ),
    "get /tournaments/{tournament_id}/stream": (
        "text/event-stream",
        "Server-Sent Events: per event `id: <version>`, `event: <type>`, `data: <the TournamentEvent "
        "as JSON>`; after a result an `event: standings` message. Ends when the tournament is closed.",
    ),
    "get /games/{game_id}/export": (
        "application/x-ndjson",
        "JSON Lines: a header line, one line per event (as GET /games/{game_id}/events gives it, "
        "with its hashes), then one per annotation (docs/replays.md).",
    ),
    "get /games/{game_id}/notation": ("text/plain", "One line per turn (docs/notation.md), UTF-8."),
}
"""The non-JSON answers: media type and what the text holds."""
ATTACHMENTS = frozenset({"get /games/{game_id}/export", "get /tournaments/{tournament_id}/export"})


def closed_mapping(converter: Any, field: Any, **kwargs: Any) -> dict[str, Any]:
    """A mapping field whose metadata lists its only keys (`closed`) takes no other key: OpenAPI
    3.0 has no propertyNames, so its keys are stated as properties."""
    return {"additionalProperties": False} if field.metadata.get("closed") else {}


def response_name(status: int) -> str:
    return f"Status{status}"


def register_components(spec: Any, converter: Any) -> None:
    """The shared headers, parameters and error answers every operation refers to."""
    converter.add_attribute_function(closed_mapping)
    for name, header in HEADERS.items():
        spec.components.header(name, header)
    for status, description in PROBLEMS.items():
        answer: dict[str, Any] = {"description": description}
        if status != 304:
            answer["content"] = {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}}
        headers = RESPONSE_HEADERS.get(status, ())
        if headers:
            answer["headers"] = {h: {"$ref": f"#/components/headers/{h}"} for h in headers}
        spec.components.response(response_name(status), answer)
    register_items(spec)


class ContractPlugin(BasePlugin):
    """Completes each operation as it is registered (see the module's docstring)."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for method, operation in (operations or {}).items():
            complete(f"{method} {path}", str(path), operation)


def complete(key: str, path: str, operation: dict[str, Any]) -> None:
    """Add the statuses, headers and parameters `operation` (named `key`) answers with."""
    parameters = operation.setdefault("parameters", [])
    names = {p.get("name") for p in parameters if isinstance(p, dict)}
    if key in CONDITIONAL:
        parameters.append(dict(PARAMETERS["If-None-Match"]))
    if "Last-Event-ID" in names and "after" not in names:
        parameters.append(dict(PARAMETERS["after"]))
    for i, parameter in enumerate(parameters):
        if (
            isinstance(parameter, dict)
            and parameter.get("in") == "header"
            and parameter.get("name") in PARAMETERS
        ):
            parameters[i] = dict(PARAMETERS[parameter["name"]])
    if not parameters:
        del operation["parameters"]
    headers = {p.get("name") for p in parameters if isinstance(p, dict) and p.get("in") == "header"}
    security = operation.get("security") or []
    bearer = any("bearerAuth" in s or "sessionCookie" in s for s in security)
    statuses = set(EVERY_OPERATION)
    if "{" in path:
        statuses.add(404)
    if "{game_id}" in path or "{tournament_id}" in path:
        statuses.add(409)
    if bearer:
        statuses.add(401)
    if bearer and {} not in security or key in FORBIDDING or key in ADDRESS_BOUND:
        statuses.add(403)
    if not key.startswith(("get ", "head ", "options ")):
        statuses.add(403)  # cross_site_request (service/web/cross_site.py)
    if "requestBody" in operation:
        statuses |= {400, 415, 422}
    if key.startswith("post "):
        statuses.add(422)
    if headers:
        statuses.add(400)
    if any(isinstance(p, dict) and p.get("in") == "query" for p in parameters):
        statuses.add(422)
    if "If-Match" in headers:
        statuses |= {412, 428}
    if key in CONDITIONAL:
        statuses.add(304)
    if key == "post /games/import" or key in CONFLICTING:
        statuses.add(409)
    if key in SIGNING_IN:
        statuses.add(401)
    responses = {str(status): answer for status, answer in operation.get("responses", {}).items()}
    operation["responses"] = responses
    responses.pop("default", None)
    for status in sorted(statuses):
        responses[str(status)] = response_name(status)
    _success_headers(key, responses)


def _success_headers(key: str, responses: dict[str, Any]) -> None:
    for status, answer in responses.items():
        if not status.startswith("2") or not isinstance(answer, dict):
            continue
        if key in MEDIA:
            media, description = MEDIA[key]
            schema = {"type": "string", "description": description}
            if key in STREAM_ITEMS:
                schema = stream_answer(key, description)
            answer["content"] = {media: {"schema": schema}}
        names = []
        if key in VERSIONED:
            names += ["ETag", "Vary"]
        if key in LOCATED:
            names.append("Location")
        if key in VARY_ONLY:
            names.append("Vary")
        if key in STREAMS:
            names.append("Cache-Control")
        if key in ATTACHMENTS:
            names.append("Content-Disposition")
        if names:
            answer.setdefault("headers", {}).update({h: {"$ref": f"#/components/headers/{h}"} for h in names})
