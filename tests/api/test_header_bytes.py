"""The headers' size the limit counts (MAX_HEADER_BYTES) is what werkzeug's headers of the request
add up to, counted from the WSGI environ without building each name."""

from __future__ import annotations

from typing import Any

import pytest
from werkzeug.datastructures import EnvironHeaders

from service.api.sizes import header_bytes

BASE = {"REQUEST_METHOD": "POST", "PATH_INFO": "/games", "QUERY_STRING": "a=1", "SERVER_NAME": "h"}


def as_werkzeug_counts(environ: dict[str, Any]) -> int:
    return sum(len(name) + len(value) + 4 for name, value in EnvironHeaders(environ).items())


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"HTTP_HOST": "127.0.0.1:8000", "HTTP_ACCEPT": "application/json"},
        {
            "HTTP_AUTHORIZATION": "Bearer " + "x" * 43,
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": "17",
        },
        {"CONTENT_TYPE": "", "CONTENT_LENGTH": ""},  # empty: no header at all
        {"HTTP_CONTENT_TYPE": "text/plain", "HTTP_CONTENT_LENGTH": "3", "HTTP_X_A_B": "é" * 5},
        {"HTTP_X_REQUEST_ID": "id-1", "HTTP_IF_MATCH": '"12"', "HTTP_IDEMPOTENCY_KEY": "k" * 200},
    ],
)
def test_header_bytes_are_the_sum_over_werkzeugs_headers(headers: dict[str, str]) -> None:
    environ = {**BASE, "wsgi.input": None, **headers}
    assert header_bytes(environ) == as_werkzeug_counts(environ)
