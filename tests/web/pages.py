"""Reading the pages the way the play page's script does: its attributes, not its looks."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import bearer


class Elements(HTMLParser):
    """Every start tag's attributes, in order, with the id of the nearest container."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str], tuple[str, ...]]] = []
        self._open: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        within = tuple(i for _, i in self._open if i)
        self.found.append((tag, values, within))
        if tag not in ("input", "br", "img", "meta", "link", "path", "circle", "rect", "line", "use"):
            self._open.append((tag, values.get("id", "")))

    def handle_endtag(self, tag: str) -> None:
        for n in range(len(self._open) - 1, -1, -1):
            if self._open[n][0] == tag:
                del self._open[n:]
                return


def elements(html: str) -> list[tuple[str, dict[str, str], tuple[str, ...]]]:
    parser = Elements()
    parser.feed(html)
    return parser.found


def offered(html: str) -> list[dict[str, Any]]:
    """The commands a page's buttons would send."""
    return [json.loads(a["data-command"]) for _, a, _ in elements(html) if "data-command" in a]


def cards_in(html: str, container: str) -> list[str]:
    return [a["data-card"] for _, a, within in elements(html) if "data-card" in a and container in within]


def by_id(html: str, element_id: str) -> dict[str, str] | None:
    return next((a for _, a, _ in elements(html) if a.get("id") == element_id), None)


def panel(client: FlaskClient, game_id: str, token: str | None = None) -> str:
    response = client.get(f"/play/{game_id}/panel", headers={} if token is None else bearer(token))
    assert response.status_code == 200, response.data
    return response.get_data(as_text=True)
