"""When the session cookie may go without Secure: plain http to this machine only."""

from __future__ import annotations

import pytest
from flask import Flask

from service.accounts.sessions import loopback_http


@pytest.mark.parametrize(
    ("base_url", "plain"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://localhost", True),
        ("http://LOCALHOST:5000", True),
        ("http://[::1]", True),
        ("http://[::1]:8000", True),
        ("http://127.0.0.2", True),
        ("https://localhost", False),
        ("http://example.org", False),
        ("http://192.168.1.20:8000", False),
        ("http://localhost.example.org", False),
    ],
)
def test_only_plain_http_to_a_loopback_host_goes_without_secure(base_url: str, plain: bool) -> None:
    with Flask(__name__).test_request_context("/", base_url=base_url) as context:
        assert loopback_http(context.request) is plain
