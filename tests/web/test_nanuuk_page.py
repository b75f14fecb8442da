"""The play page of a Nanuuk! game: the hexagonal board as buttons, and command buttons that
name the cell or the crack line a click on the board picks (domain/nanuuk/describe.py,
service/web/offered.py)."""

from __future__ import annotations

from flask.testing import FlaskClient

from domain.games import rules_for
from domain.nanuuk.decide import COMMANDS
from service.web.offered import offered, words
from tests.web.pages import by_id, elements, panel

SAID = rules_for("nanuuk").words


def test_every_nanuuk_command_a_seat_gives_has_a_phrase() -> None:
    assert COMMANDS - {"LayOutIce"} - set(SAID.commands) == set()


def test_a_button_names_the_cell_or_the_line_of_its_command_as_the_board_does() -> None:
    move = {"type": "Move", "piece": 1, "cell": [-1, 2], "kayak": True}
    crack = {"type": "PlaceCrack", "crack": [[1, 0], [0, 1]]}
    assert offered(move, ["Ann"], SAID)["cell"] == "-1,2" and offered(move, ["Ann"], SAID)["crack"] == ""
    assert offered(crack, ["Ann"], SAID)["crack"] == "0,1|1,0"
    assert words(move, ["Ann"], SAID) == "Move piece 1 to -1,2 (crossing the crack by kayak)"
    assert words(crack, ["Ann"], SAID) == "Crack the line 0,1|1,0"


def test_the_panel_draws_the_hex_board_and_lights_what_a_click_may_pick(client: FlaskClient) -> None:
    answer = client.post(
        "/games", json={"game": "nanuuk", "seats": [{"name": "Ann"}, {"name": "Ben"}], "first_seat": 0}
    )
    assert answer.status_code == 201, answer.json
    game_id, token = answer.json["game_id"], answer.json["seats"][0]["token"]

    html = panel(client, game_id, token)

    found = elements(html)
    cells = [a for tag, a, _ in found if tag == "g" and "cell" in a.get("class", "").split()]
    assert len(cells) == 22 and all(a.get("role") == "button" for a in cells)
    places = [a for tag, a, _ in found if tag == "button" and a.get("data-type") == "PlacePiece"]
    igloos = {a["data-cell"] for a in cells if "igloo" in a.get("class", "")}
    assert places and {a["data-cell"] for a in places} == igloos  # N-3: a hunter starts on an igloo
    assert by_id(html, "stage") is not None and "Points" in html
