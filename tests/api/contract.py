"""Every answer the API tests get is checked against the served OpenAPI document (openapi-core).

`ValidatingClient` is the test client of the `app` fixture: each answer to a path the document
describes must have a documented status, media type, body and required headers. A live stream
is checked by its status and headers only (its body is read by the test, frame by frame).

Checking costs about as much as answering, so an answer whose shape was checked already is not
checked again: the shape is the operation, status, media type and the body's structure (keys,
JSON types, and the values of the keys that choose a schema: `type`, `game`, ...).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_core.validation.response.validators import V30ResponseHeadersValidator
from werkzeug.datastructures import Headers
from werkzeug.exceptions import HTTPException
from werkzeug.test import TestResponse

from domain.games import GAMES
from service.api import games, listings, replays, system, tournament_reports, tournaments, undo

API_BLUEPRINTS = frozenset(
    m.blp.name for m in (games, listings, replays, system, tournament_reports, tournaments, undo)
)

_DOCUMENTS: dict[Any, tuple[OpenAPI, OpenAPI]] = {}
_CHECKED: set[Any] = set()
CHOOSERS = frozenset(
    {"type", "game", "phase", "kind", "code", "source", "reason", "mode", "cause", "author_kind"}
)
"""Keys whose values pick a schema (discriminators) or an enum: part of an answer's shape."""
MAPS = frozenset({"control", "gods", "stones", "gifts", "errors", "games"})
"""Keys whose objects are maps (island -> seat, ...): their keys are data, not structure."""
ID_SEGMENT = re.compile(r"/[^/]*[0-9][^/]*")


def text(data: bytes | str, **parameters: str) -> str:
    """A text answer as the string its schema says it is."""
    return data.decode(parameters.get("charset", "utf-8")) if isinstance(data, bytes) else data


TEXTS = {media: text for media in ("application/x-ndjson", "text/plain", "text/csv")}


def document_of(app: Flask) -> tuple[OpenAPI, OpenAPI]:
    """The app's served document, read once per set of registered games: as a whole, and for
    the status and headers alone (a live stream's body is the test's to read)."""
    key = tuple(sorted((name, id(module)) for name, module in GAMES.items()))
    if key not in _DOCUMENTS:
        # The checker's own read is not the test's traffic: a test that counts the request log
        # lines must not find it there, whichever test happened to read the document first.
        requests_log = logging.getLogger("archipelago.requests")
        was_disabled, requests_log.disabled = requests_log.disabled, True
        try:
            served = FlaskClient(app).get("/openapi.json").json
        finally:
            requests_log.disabled = was_disabled
        # openapi-core reads only application/json as JSON and other media types as bytes.
        config = Config(extra_media_type_deserializers={"application/problem+json": json.loads, **TEXTS})
        heads = Config(response_validator_cls=V30ResponseHeadersValidator)
        _DOCUMENTS[key] = (OpenAPI.from_dict(served, config=config), OpenAPI.from_dict(served, config=heads))
    return _DOCUMENTS[key]


@dataclass
class Answer:
    """The parts of an answer openapi-core reads (a stream's body left out)."""

    data: bytes
    status_code: int
    content_type: str
    headers: Headers


def shapes(value: Any, found: set[Any], key: str = "") -> Any:
    """The structure of a JSON value (what decides which schemas check it); each object's
    structure inside it is added to `found`."""
    if isinstance(value, dict) and key in MAPS:
        return ("map", frozenset(shapes(v, found) for v in value.values()))
    if isinstance(value, dict):
        inner = tuple(sorted((k, shapes(v, found, k)) for k, v in value.items()))
        found.add(inner)
        return inner
    if isinstance(value, list):
        return ("list", frozenset(shapes(item, found) for item in value))
    if isinstance(value, str) and key in CHOOSERS:
        return value
    return type(value).__name__


def seen_before(response: TestResponse, document: Any) -> bool:
    """Whether the answer's operation, status and media type, and every object structure in
    its body, were checked already (and remember them)."""
    if not response.is_json:
        return False
    request = response.request
    found: set[Any] = set()
    shapes(response.get_json(silent=True), found)
    found.add(
        (
            document,
            request.method,
            ID_SEGMENT.sub("/*", request.path),
            response.status_code,
            response.mimetype,
        )
    )
    if found <= _CHECKED:
        return True
    _CHECKED.update(found)
    return False


def api_answer(app: Flask, request: Any) -> bool:
    """Whether an API view (or no view at all: a 404, a 405) answered `request`, not a web page
    whose path looks like an operation's (/games/new)."""
    try:
        endpoint, _ = app.url_map.bind_to_environ(request.environ).match(request.path, method=request.method)
    except HTTPException:
        return True
    return str(endpoint).split(".")[0] in API_BLUEPRINTS


def check_answer(app: Flask, response: TestResponse) -> None:
    """Raise when `response` is not an answer the document describes for its request."""
    request = response.request
    if request.path == "/openapi.json" or not api_answer(app, request):
        return
    streaming = response.mimetype == "text/event-stream"
    if not streaming and seen_before(response, id(document_of(app)[0])):
        return
    answer = Answer(
        b"" if streaming else response.get_data(),
        response.status_code,
        response.content_type or "",
        Headers(response.headers),
    )
    try:
        whole, heads = document_of(app)
        (heads if streaming else whole).validate_response(Asked(request), answer)
    except (PathNotFound, OperationNotFound):
        return  # the web pages and unknown paths: not the API's operations
    except Exception as error:
        raise AssertionError(
            f"{request.method} {request.full_path} -> {response.status_code}: the answer is not "
            f"what /openapi.json says: {error!r} {repr(getattr(error, '__cause__', None))[-1500:]}"
        ) from error


class Asked(WerkzeugOpenAPIRequest):
    """The request, for finding its operation; its body was read by the app already."""

    @property
    def body(self) -> bytes | None:
        return None


class ValidatingClient(FlaskClient):
    """The test client that checks every answer against the document."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        check_answer(self.application, response)
        return response
