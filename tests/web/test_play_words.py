"""The play page in a player's words: why a click finds no move, what the last turn touched,
and no developer's words (versions, round 0) in its headers."""

from __future__ import annotations

import json
import re
from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import create_game, legal_commands, post
from tests.web.pages import panel


def panel_data(html: str, name: str) -> Any:
    """A JSON data attribute of the panel, as the page's script reads it."""
    found = re.search(rf'<div class="panel"[^>]*\bdata-{name}="([^"]*)"', html)
    assert found, name
    return json.loads(found.group(1).replace("&#34;", '"').replace("&#39;", "'").replace("&amp;", "&"))


def place_a_bridge(client: FlaskClient, created: dict[str, Any]) -> list[str]:
    """Seat 0 plays until it has placed a bridge; the line it took."""
    for _ in range(6):
        commands = legal_commands(client, created, 0)["commands"]
        bridge = next((c for c in commands if c["type"] == "PlaceBridge"), None)
        command = bridge or next(c for c in commands if c["type"] == "DrawCard")
        assert post(client, created, 0, command).status_code == 200
        if bridge:
            return list(bridge["line"])
    raise AssertionError("no bridge to place in six draws")


def test_a_click_out_of_turn_is_refused_with_a_sentence_naming_who_is_to_move(client: FlaskClient) -> None:
    created = create_game(client)  # Ann (seat 0) starts

    waiting = panel_data(panel(client, created["game_id"], created["tokens"][1]), "refusals")
    moving = panel_data(panel(client, created["game_id"], created["tokens"][0]), "refusals")

    assert waiting["turn"] == "Not your turn \u2014 Ann is to move."
    assert moving["turn"] == ""


def test_a_taken_line_is_refused_with_the_rule_and_the_last_move_is_marked(client: FlaskClient) -> None:
    created = create_game(client)
    line = place_a_bridge(client, created)

    html = panel(client, created["game_id"], created["tokens"][1])

    key = "-".join(sorted(line))
    assert panel_data(html, "refusals")["lines"][key] == "That line is already taken: Ann's bridge is on it."
    assert key in panel_data(html, "last-move")


def test_the_page_speaks_of_rounds_and_moves_never_of_versions_or_round_0(client: FlaskClient) -> None:
    created = create_game(client, 3, game="arabana-opodopo", options={"gods": True})

    html = panel(client, created["game_id"], created["tokens"][0])
    text = re.sub(r"<[^>]+>", " ", html)

    assert "Before round 1" in text
    assert not re.search(r"\bversion\b|Round 0", text)
