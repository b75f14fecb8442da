"""Request size limits, checked before any view reads the request (rate limits: limits.py).

Each is a `create_app` setting (and an environment variable, see the README): a URL of
MAX_URL_BYTES (414), all headers together MAX_HEADER_BYTES (431), a body
MAX_CONTENT_LENGTH (Flask's own setting, 413), or MAX_IMPORT_BYTES for a game file. The
body's declared length is refused at once, whether the endpoint reads a body or not;
a body without a declared length is cut when read past the limit (Flask, 413).
"""

from __future__ import annotations

from typing import Any

import flask
from flask import Flask, current_app
from werkzeug.exceptions import RequestEntityTooLarge, RequestHeaderFieldsTooLarge, RequestURITooLarge

#: Endpoints that take a game file: a long game's export weighs about 200 KB.
LARGE_BODY_ENDPOINTS = frozenset({"replays.import_game"})


def install(app: Flask) -> None:
    app.before_request(check_request)


def check_request() -> None:
    config = current_app.config
    request = asked()
    environ = request.environ
    url = environ.get("RAW_URI") or environ.get("PATH_INFO", "") + "?" + environ.get("QUERY_STRING", "")
    if len(url) > config["MAX_URL_BYTES"]:
        raise RequestURITooLarge(f"a URL has at most {config['MAX_URL_BYTES']} bytes")
    if header_bytes(environ) > config["MAX_HEADER_BYTES"]:
        raise RequestHeaderFieldsTooLarge(f"the headers have at most {config['MAX_HEADER_BYTES']} bytes")
    if request.endpoint in LARGE_BODY_ENDPOINTS:
        request.max_content_length = config["MAX_IMPORT_BYTES"]
    limit = request.max_content_length
    if limit is not None and (request.content_length or 0) > limit:
        raise RequestEntityTooLarge(f"a request body has at most {limit} bytes here")


def asked() -> Any:
    """The request itself: each read through the `request` proxy looks it up again."""
    return flask.request._get_current_object()  # type: ignore[attr-defined]


def header_bytes(environ: dict[str, Any]) -> int:
    """The request's headers as sent (`Name: value` and CRLF each), counted from the WSGI environ
    as werkzeug names them (HTTP_X_Y is X-Y; Content-Type and -Length only when not empty),
    without building each name."""
    total = 0
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            if key not in _BODY_HEADERS_AS_HTTP:
                total += len(key) - 5 + len(value) + 4
        elif key in _BODY_HEADERS and value:
            total += len(key) + len(value) + 4
    return total


_BODY_HEADERS = frozenset({"CONTENT_TYPE", "CONTENT_LENGTH"})
_BODY_HEADERS_AS_HTTP = frozenset({"HTTP_CONTENT_TYPE", "HTTP_CONTENT_LENGTH"})
