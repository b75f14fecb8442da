"""The browser headers (service/web/headers.py): every page route, read from the app's url_map
so that a new page is covered without a change here, sends a Content-Security-Policy under
which no inline script runs, refuses to be framed, is never sniffed and leaks no referrer;
and its HTML holds nothing that policy would block. Every other answer carries them too."""

from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from domain.games import GAMES
from replays.renderers import renderer_of
from service.web import headers
from service.web.cross_site import PAGE_BLUEPRINTS
from tests.api.helpers import NAMES, bearer, create_game
from tests.api.tournament_helpers import create_tournament
from tests.families.registered import EVERY_GAME

STATIC = Path(headers.__file__).parent / "static"


def page_rules(app: Flask) -> list[Any]:
    """The GET routes of the pages' blueprints, their static files aside."""
    return [
        rule
        for rule in app.url_map.iter_rules()
        if rule.endpoint.split(".")[0] in PAGE_BLUEPRINTS
        and "GET" in (rule.methods or ())
        and rule.endpoint != "web.static"
    ]


def directives(response: TestResponse) -> dict[str, list[str]]:
    policy = response.headers.get("Content-Security-Policy", "")
    found = {}
    for part in policy.split(";"):
        name, *sources = part.split()
        found[name] = sources
    return found


class Inline(HTMLParser):
    """What a page would run or apply inline: script blocks, handler and style attributes,
    javascript: URLs, and the text of each <style> block."""

    def __init__(self) -> None:
        super().__init__()
        self.blocked: list[str] = []
        self.styles: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "script" and "src" not in values and values.get("type") != "application/json":
            self.blocked.append(f"inline <script> {values}")
        for name, value in values.items():
            if name.startswith("on") or name == "style":
                self.blocked.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src", "action", "formaction") and value.strip().lower().startswith(
                "javascript:"
            ):
                self.blocked.append(f"<{tag} {name}={value!r}>")
        self._in = tag if tag == "style" else None

    def handle_data(self, data: str) -> None:
        if self._in == "style":
            self.styles.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in = None


def assert_browser_headers(response: TestResponse) -> None:
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("X-Frame-Options") == "DENY"
    assert response.headers.get("Referrer-Policy") == "same-origin"
    assert directives(response).get("frame-ancestors") == ["'none'"]


def assert_page(response: TestResponse) -> None:
    """A page's policy, and a page that needs nothing it forbids."""
    assert_browser_headers(response)
    policy = directives(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["style-src"] and "'unsafe-eval'" not in policy["style-src"]
    inline = Inline()
    inline.feed(response.get_data(as_text=True))
    assert inline.blocked == []
    for css in inline.styles:
        digest = base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy["style-src"], f"a <style> block the policy blocks: {css[:80]}"


@pytest.fixture
def ids(client: FlaskClient) -> dict[str, Any]:
    """A value for each argument of a page route, and a token that reads everything there."""
    game = create_game(client)
    tournament = create_tournament(client)
    # Signed in: the pages show the account in their navigation.
    assert client.post("/accounts", json={"name": "Ann", "password": "a long pass phrase"}).status_code == 201
    return {
        "name": "Ann",
        "game_id": game["game_id"],
        "tournament_id": tournament["tournament_id"],
        "token": game["tokens"][0],
        "game": "kahuna",
    }


def test_every_page_route_sends_the_page_policy_and_needs_nothing_it_blocks(
    app: Flask, client: FlaskClient, ids: dict[str, Any]
) -> None:
    rules = page_rules(app)
    assert {"web.index", "web.play", "web_replay.page", "web.tournament", "web_rules.game_page"} <= {
        r.endpoint for r in rules
    }
    for rule in rules:
        unknown = set(rule.arguments) - set(ids)
        assert not unknown, f"{rule.rule}: give this test a value for {unknown}"
        path = rule.build({name: ids[name] for name in rule.arguments})[1]
        response = client.get(path, headers=bearer(ids["token"]))
        assert response.status_code == 200, (path, response.status_code)
        assert response.mimetype == "text/html", path
        assert_page(response)


@pytest.mark.usefixtures("test_families")  # the families that live in the tests draw too
@pytest.mark.parametrize("game", EVERY_GAME)
def test_the_board_of_every_game_draws_within_the_policy(client: FlaskClient, game: str) -> None:
    styled = bool(renderer_of(game).style)  # a board drawn with attributes alone has no <style>
    seats = [{"name": n} for n in NAMES[: GAMES[game].min_seats]]
    answer = client.post("/games", json={"game": game, "seats": seats, "first_seat": 0})
    assert answer.status_code == 201, answer.json
    game_id, token = answer.json["game_id"], answer.json["seats"][0]["token"]
    for path in (f"/play/{game_id}", f"/play/{game_id}/panel", f"/replay/{game_id}/frame"):
        response = client.get(path, headers=bearer(token))
        assert response.status_code == 200, (path, response.status_code)
        assert b"<style>" in response.data or path == f"/play/{game_id}" or not styled
        assert_page(response)


def test_a_refused_form_page_is_within_the_policy_too(client: FlaskClient) -> None:
    response = client.post("/games/new", data={"game": "no-such-game"}, headers={"Accept": "text/html"})
    assert response.status_code == 422
    assert_page(response)


def test_every_other_answer_carries_the_headers_and_a_policy_that_allows_nothing(
    client: FlaskClient, ids: dict[str, Any]
) -> None:
    answers = [
        client.get("/health"),
        client.get("/openapi.json"),
        client.get(f"/games/{ids['game_id']}"),
        client.get("/games/no-such-game"),
        client.get("/no/such/path"),
        client.post("/games", json={"game": "kahuna"}),
        *(client.get(f"/web/static/{f.name}") for f in STATIC.iterdir() if f.is_file()),
    ]
    assert len(answers) > 6
    for response in answers:
        response.close()  # a static file's answer holds the file open
        assert_browser_headers(response)
        if response.mimetype != "text/html":
            assert directives(response)["default-src"] == ["'none'"], response.request.path


def test_a_policy_a_view_sets_itself_is_kept(app: Flask) -> None:
    @app.get("/test-own-policy")
    def own() -> Any:
        return "<p>x</p>", {"Content-Security-Policy": "default-src 'none'"}

    response = app.test_client().get("/test-own-policy")

    assert response.headers["Content-Security-Policy"] == "default-src 'none'"
    assert response.headers["X-Frame-Options"] == "DENY"
