"""Open seats on the pages: the new-game form opens a seat, the lobby lists the game under Open
games with a form to take it, and invite links have copy buttons."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.helpers import bearer
from tests.web.pages import by_id, elements

FORM = {"game": "kahuna", "seat-0": "human", "name-0": "Ann", "seat-1": "open", "first_seat": "0"}


def created_game(client: FlaskClient) -> tuple[str, str]:
    """The game the form made with an open seat 1: its id and the created page."""
    response = client.post("/games/new", data=FORM)
    assert response.status_code == 201, response.data
    html = response.get_data(as_text=True)
    [game] = client.get("/games?status=open").json["games"]
    return str(game["game_id"]), html


def stored(client: FlaskClient, game_id: str) -> int:
    return int(client.get(f"/games/{game_id}/events").json["version"])


def test_the_form_opens_a_seat_and_the_created_page_has_a_copy_button_per_link(client: FlaskClient) -> None:
    game_id, html = created_game(client)

    fields = {a["id"]: a["value"] for tag, a, _ in elements(html) if "invite" in a.get("class", "")}
    copies = [a["data-copy"] for tag, a, _ in elements(html) if tag == "button" and "data-copy" in a]
    assert list(fields) == ["invite-0"] and copies == ["invite-0"]
    assert f"/play/{game_id}#token=" in fields["invite-0"]
    assert "Seat 2: open" in html
    assert client.get(f"/games/{game_id}").json["seats"][1]["open"] is True


def test_the_lobby_lists_an_open_game_and_taking_its_seat_opens_that_seats_page(client: FlaskClient) -> None:
    game_id, _ = created_game(client)
    lobby = client.get("/").get_data(as_text=True)
    form = next(a for tag, a, _ in elements(lobby) if tag == "form" and "take-seat" in a.get("class", ""))
    assert form["action"] == f"/play/{game_id}/seats/1"

    taken = client.post(form["action"], data={"name": "Ben"})

    assert taken.status_code == 303
    path, token = taken.headers["Location"].split("#token=")
    assert path.endswith(f"/play/{game_id}")
    assert client.get(f"/games/{game_id}/legal", headers=bearer(token)).status_code == 200
    assert client.get(f"/games/{game_id}").json["seats"][1]["name"] == "Ben"
    assert "No game waits for a player" in client.get("/").get_data(as_text=True)


def test_a_refused_take_shows_the_lobby_with_the_reason_and_writes_nothing(client: FlaskClient) -> None:
    game_id, _ = created_game(client)
    before = stored(client, game_id)

    blank = client.post(f"/play/{game_id}/seats/1", data={"name": "  "})
    ann = client.post(f"/play/{game_id}/seats/0", data={"name": "Ben"})
    missing = client.post(f"/play/{game_id}/seats/5", data={"name": "Ben"})

    assert [blank.status_code, ann.status_code, missing.status_code] == [422, 409, 404]
    codes = [by_id(r.get_data(as_text=True), "take-error")["data-code"] for r in (blank, ann, missing)]
    assert codes == ["bad_name", "seat_not_open", "seat_not_found"]
    assert stored(client, game_id) == before


def test_the_play_page_has_the_seat_link_box_for_the_script_to_fill(client: FlaskClient) -> None:
    game_id, _ = created_game(client)
    html = client.get(f"/play/{game_id}").get_data(as_text=True)

    box = by_id(html, "seat-link")
    assert box is not None and "hidden" in box  # shown by the script for a seat's holder only
    assert by_id(html, "seat-link-field")["value"] == ""
    panel = client.get(f"/play/{game_id}/panel").get_data(as_text=True)
    assert "(an open seat)" in panel
    assert "Waiting for someone to take the open seat" in panel
