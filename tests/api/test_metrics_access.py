"""Who reads GET /metrics: the addresses of METRICS_ALLOW (loopback by default), each as the
rate limits see the client; everyone else gets 403 metrics_not_allowed."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from tests.api.contract import ValidatingClient


def scrape(client: FlaskClient, address: str, **headers: str) -> int:
    answer = client.get("/metrics", environ_base={"REMOTE_ADDR": address}, headers=headers)
    if answer.status_code != 200:
        assert answer.mimetype == "application/problem+json"
        assert answer.json["code"] == "metrics_not_allowed"
    return answer.status_code


@pytest.mark.parametrize(
    ("address", "status"),
    [
        ("127.0.0.1", 200),
        ("::1", 200),
        ("::ffff:127.0.0.1", 200),  # a dual-stack socket's loopback
        ("203.0.113.7", 403),
        ("10.1.2.3", 403),
        ("2001:db8::1", 403),
    ],
)
def test_by_default_only_loopback_reads_the_metrics(client: FlaskClient, address: str, status: int) -> None:
    assert scrape(client, address) == status


def test_the_setting_names_the_networks_that_may(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCHIPELAGO_METRICS_ALLOW", "10.0.0.0/8, 192.0.2.5")
    scraping = create_app({"REDIS_URL": app.config["REDIS_URL"], "RATE_LIMITS_ENABLED": False})
    scraping.test_client_class = ValidatingClient
    client = scraping.test_client()

    assert [scrape(client, a) for a in ("10.1.2.3", "192.0.2.5", "192.0.2.6", "127.0.0.1")] == [
        200,
        200,
        403,
        403,
    ]


def test_a_trusted_proxy_lends_the_public_not_its_own_address(client: FlaskClient) -> None:
    # 127.0.0.1 is in FORWARDED_ALLOW_IPS by default: the client is the one it forwards.
    assert scrape(client, "127.0.0.1", **{"X-Forwarded-For": "203.0.113.7"}) == 403
    assert scrape(client, "127.0.0.1", **{"X-Forwarded-For": "127.0.0.1"}) == 200
