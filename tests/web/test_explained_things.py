"""Every card, god stone and island tile a play page shows is explained where it is shown, in a
player's words: a card's tooltip says what it lets you do, an island's tooltip what its god stone
does, a Conquest of Paradise hex what its island tile holds, a hand card what it is worth."""

from __future__ import annotations

import random
import re

import pytest
from flask.testing import FlaskClient

from domain.games import rules_for
from domain.islands.board import load_board
from domain.islands.explain import GODS
from domain.paradise.tables import BOARD, CARDS, TILES
from tests.api.helpers import NAMES, view
from tests.api.test_paradise_http import create, play_until
from tests.web.pages import elements, panel

RULE_ID = re.compile(r"\b[A-Z]{1,2}-[A-Z]?\d")


def said_well(words: str | None) -> bool:
    """A sentence for players: some words, no rule id, nothing left of a template."""
    return bool(words) and len(words.split()) >= 3 and not RULE_ID.search(words) and "{" not in words


@pytest.mark.parametrize("game", ["kahuna", "arabana-ikibiti", "arabana-opodopo"])
def test_each_island_game_explains_every_card_of_its_board_and_every_god_stone(game: str) -> None:
    explain = rules_for(game).words.explain
    for island in load_board(game).islands:
        words = explain("card", island.name)
        assert said_well(words) and island.name in str(words) and "bridge" in str(words), words
    for god in GODS:
        assert said_well(explain("god", god)), god
    assert explain("tile", "Hawaii") is None


def test_conquest_of_paradise_explains_every_arts_and_culture_card_and_every_island_tile() -> None:
    explain = rules_for("conquest-of-paradise").words.explain
    assert all(said_well(explain("card", name)) for name in CARDS)
    assert all(said_well(explain("tile", name)) for name in TILES)
    assert all(said_well(explain("tile", group.name)) for group in BOARD.printed)
    assert "roll" in str(explain("card", "Haka")) and "2 points" in str(
        explain("card", "Severe Deforestation")
    )
    assert explain("card", "Aloa") is None


def test_a_kahuna_page_shows_what_each_card_in_the_hand_and_the_row_does(client: FlaskClient) -> None:
    body = {"game": "kahuna", "seats": [{"name": n} for n in NAMES[:2]], "first_seat": 0}
    created = client.post("/games", json=body).json
    html = panel(client, created["game_id"], created["seats"][0]["token"])
    cards = [(a["data-card"], a.get("title", "")) for _, a, within in elements(html) if "data-card" in a]
    assert len(cards) == 6  # three in the hand, three face up
    for card, title in cards:
        assert said_well(title) and card in title and "bridge" in title, (card, title)


def test_an_opodopo_board_says_what_each_god_stone_does(client: FlaskClient) -> None:
    body = {"game": "arabana-opodopo", "seats": [{"name": n} for n in NAMES[:3]], "options": {"gods": True}}
    created = client.post("/games", json=body).json
    gods = view(client, {"game_id": created["game_id"], "tokens": []})["gods"]
    titles = _titles(panel(client, created["game_id"]))
    assert len(gods) == 16
    for island, god in gods.items():
        assert GODS[god][1:] in titles[island], (island, titles[island])


def test_a_conquest_of_paradise_hex_says_what_its_island_tile_holds(client: FlaskClient) -> None:
    game = create(client, 3)
    current = play_until(client, game, random.Random(8), lambda v: len(v["islands"]) >= 2)
    html = panel(client, game["game_id"])
    hexes = {a["data-hex"]: a["aria-label"] for tag, a, _ in elements(html) if tag == "g" and "data-hex" in a}
    named = [i for i in current["islands"] if "name" in i]
    assert named
    for island in named:
        words = hexes[f"{island['hex'][0]},{island['hex'][1]}"]
        assert "green square" in words or "atoll" in words or "printed on the map" in words, words


def _titles(html: str) -> dict[str, str]:
    """Each island's tooltip on the board (the <title> inside its group)."""
    found = re.findall(r'data-island="([^"]+)"[^>]*><title>([^<]*)</title>', html)
    return {island: title for island, title in found}
