"""The lobby with every registered game, the families that live in the tests among them: the form
offers each, makes a game of it, and the lobby lists that game with its links."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.families.registered import EVERY_GAME, EVERY_MODULE
from tests.web.pages import elements

pytestmark = pytest.mark.usefixtures("test_families")


def test_the_form_offers_every_game_the_test_families_too(client: FlaskClient) -> None:
    html = client.get("/games/new").get_data(as_text=True)
    games = [a["value"] for tag, a, within in elements(html) if tag == "option" and "game" in within]
    assert games == EVERY_GAME


@pytest.mark.parametrize("game", EVERY_GAME)
def test_the_form_makes_a_game_the_lobby_then_lists_with_its_links(client: FlaskClient, game: str) -> None:
    seats = EVERY_MODULE[game].min_seats
    form = {"game": game} | {f"seat-{n}": "human" for n in range(seats)}
    form |= {f"name-{n}": f"P{n}" for n in range(seats)}
    for n in range(seats, 8):
        form[f"seat-{n}"] = "none"

    made = client.post("/games/new", data=form)

    assert made.status_code == 201, made.get_data(as_text=True)[:500]
    html = client.get("/").get_data(as_text=True)
    listed = {
        a["data-game-id"]: within[-1]
        for tag, a, within in elements(html)
        if tag == "tr" and "data-game-id" in a
    }
    (game_id,) = listed
    assert listed[game_id] == "ongoing"
    row = html.split(f'data-game-id="{game_id}"', 1)[1].split("</tr>", 1)[0]
    assert f"<td>{game}</td>" in row and f'href="/play/{game_id}"' in row
