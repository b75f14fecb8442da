"""Cross-site requests (service/web/cross_site.py): what a browser sends from another site's
page to change something is refused with 403 and writes nothing; this site's own pages and
clients that are no browser go through."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from service.web.cross_site import same_site
from tests.api.tournament_helpers import create_tournament
from tests.web.pages import by_id

FORM = {"game": "kahuna", "seat-0": "human", "name-0": "Ann", "seat-1": "human", "name-1": "Ben"}
HOST = "localhost"  # the test client's Host
EVIL = "https://evil.example"


@pytest.mark.parametrize(
    ("method", "fetch_site", "origin", "allowed"),
    [
        ("GET", "cross-site", EVIL, True),  # reads change nothing
        ("HEAD", "cross-site", EVIL, True),
        ("POST", "same-origin", None, True),
        ("POST", "same-origin", f"http://{HOST}", True),
        ("POST", "none", None, True),  # typed or bookmarked by the person
        ("POST", "cross-site", None, False),
        ("POST", "same-site", f"https://sub.{HOST}", False),  # a sibling site is another origin
        ("DELETE", "cross-site", None, False),
        ("POST", "cross-site", f"http://{HOST}", False),  # the browser's own word wins
        ("POST", None, f"http://{HOST}", True),  # a browser without Sec-Fetch-Site
        ("POST", None, f"https://{HOST.upper()}", True),  # a TLS proxy in front: the host decides
        ("POST", None, EVIL, False),
        ("POST", None, "null", False),  # a sandboxed frame, a data: page
        ("PUT", None, f"http://{HOST}:8000", False),  # another port is another origin
        ("POST", None, None, True),  # no browser: nothing a browser adds by itself is at stake
    ],
)
def test_which_requests_pass(method: str, fetch_site: str | None, origin: str | None, allowed: bool) -> None:
    assert same_site(method, fetch_site, origin, HOST, frozenset()) is allowed


def test_a_trusted_origin_passes_whatever_the_host() -> None:
    trusted = frozenset({"https://play.example.org"})
    assert same_site("POST", "same-site", "https://play.example.org", "web:8000", trusted)
    assert not same_site("POST", "same-site", "https://other.example.org", "web:8000", trusted)


def keys(redis_client: redis.Redis) -> list[bytes]:
    return sorted(redis_client.keys("*"))


def test_a_form_posted_from_another_site_is_refused_with_a_page_and_writes_nothing(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    before = keys(redis_client)
    browsers = [
        {"Sec-Fetch-Site": "cross-site", "Origin": EVIL},
        {"Origin": EVIL},  # an older browser
    ]
    for headers in browsers:
        answer = client.post("/games/new", data=FORM, headers={**headers, "Accept": "text/html"})

        assert answer.status_code == 403 and answer.mimetype == "text/html"
        assert by_id(answer.get_data(as_text=True), "refused")["data-code"] == "cross_site_request"
    assert keys(redis_client) == before


def test_the_same_form_from_this_site_creates_the_game(client: FlaskClient) -> None:
    browsers = [
        {"Sec-Fetch-Site": "same-origin", "Origin": f"http://{HOST}"},
        {"Sec-Fetch-Site": "same-origin"},
        {"Origin": f"http://{HOST}"},
        {},  # curl
    ]
    for headers in browsers:
        answer = client.post("/games/new", data=FORM, headers=headers)
        assert answer.status_code == 201, (headers, answer.status_code)


def test_a_tournament_registration_from_another_site_is_refused(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    tournament = create_tournament(client)
    path = f"/t/{tournament['tournament_id']}/entrants"
    before = keys(redis_client)

    refused = client.post(path, data={"name": "Ann"}, headers={"Sec-Fetch-Site": "cross-site"})

    assert refused.status_code == 403 and keys(redis_client) == before
    mine = client.post(path, data={"name": "Ann"}, headers={"Sec-Fetch-Site": "same-origin"})
    assert mine.status_code == 303


def test_an_api_post_from_another_site_is_a_problem(client: FlaskClient, redis_client: redis.Redis) -> None:
    before = keys(redis_client)
    # A text/plain body needs no CORS preflight: any page could send it.
    imported = client.post(
        "/games/import", data="{}\n", content_type="text/plain", headers={"Sec-Fetch-Site": "cross-site"}
    )
    created = client.post(
        "/games", json={"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}]}, headers={"Origin": EVIL}
    )

    for answer in (imported, created):
        assert answer.status_code == 403 and answer.mimetype == "application/problem+json"
        assert answer.json["code"] == "cross_site_request"
    assert keys(redis_client) == before


@pytest.fixture
def behind_a_proxy(app: Flask) -> Iterator[FlaskClient]:
    """The app under another Host than its pages' origin, with that origin trusted."""
    config = {"REDIS_URL": app.config["REDIS_URL"], "RATE_LIMITS_ENABLED": False}
    proxied = create_app({**config, "TRUSTED_ORIGINS": "https://play.example.org/"})
    yield proxied.test_client()


def test_a_trusted_origin_may_post_forms(behind_a_proxy: FlaskClient) -> None:
    trusted = behind_a_proxy.post("/games/new", data=FORM, headers={"Origin": "https://play.example.org"})
    other = behind_a_proxy.post("/games/new", data=FORM, headers={"Origin": "https://other.example.org"})

    assert (trusted.status_code, other.status_code) == (201, 403)
