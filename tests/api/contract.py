"""Every answer the API tests get is checked against the served OpenAPI document (openapi-core).

`ValidatingClient` is the test client of the `app` fixture: each answer to a path the document
describes must have a documented status, media type, body and required headers. A live stream
is checked by its status and headers only (its body is read by the test, frame by frame).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_core.validation.response.validators import V30ResponseHeadersValidator
from werkzeug.datastructures import Headers
from werkzeug.test import TestResponse

from domain.games import GAMES

_DOCUMENTS: dict[Any, tuple[OpenAPI, OpenAPI]] = {}


def text(data: bytes | str, **parameters: str) -> str:
    """A text answer as the string its schema says it is."""
    return data.decode(parameters.get("charset", "utf-8")) if isinstance(data, bytes) else data


TEXTS = {media: text for media in ("application/x-ndjson", "text/plain", "text/csv")}


def document_of(app: Flask) -> tuple[OpenAPI, OpenAPI]:
    """The app's served document, read once per set of registered games: as a whole, and for
    the status and headers alone (a live stream's body is the test's to read)."""
    key = tuple(sorted((name, id(module)) for name, module in GAMES.items()))
    if key not in _DOCUMENTS:
        served = FlaskClient(app).get("/openapi.json").json
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


def check_answer(app: Flask, response: TestResponse) -> None:
    """Raise when `response` is not an answer the document describes for its request."""
    request = response.request
    if request.path == "/openapi.json":
        return
    streaming = response.mimetype == "text/event-stream"
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
