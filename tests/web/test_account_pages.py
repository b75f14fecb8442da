"""The account pages: sign up and sign in by form (the reason on the page when refused), the
navigation naming who is signed in, open seats taken under an account's name only by that
account, seats and tournament entrants kept with the account, and the player's page."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from service.accounts.sessions import COOKIE
from tests.api.rating_helpers import rated_by_forfeit_and_correction
from tests.api.tournament_helpers import create_tournament, register

PASSWORD = "correct horse battery"


def _sign_up(client: FlaskClient, name: str = "Ada") -> None:
    answer = client.post("/signup", data={"name": name, "password": PASSWORD})
    assert answer.status_code == 303 and answer.headers["Location"] == "/me"
    assert f"{COOKIE}=" in answer.headers["Set-Cookie"]


def _open_game(client: FlaskClient) -> str:
    body = {"game": "kahuna", "seats": [{"name": "Cy"}, {"open": True}], "first_seat": 0}
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.json
    return str(answer.json["game_id"])


def test_signing_up_by_form_signs_in_and_the_pages_say_who(client: FlaskClient) -> None:
    assert 'id="nav-sign-in"' in client.get("/").get_data(as_text=True)
    _sign_up(client)
    page = client.get("/me").get_data(as_text=True)
    assert 'id="account-name">Ada<' in page and "0 passkeys" in page
    assert 'id="nav-account">Ada<' in client.get("/").get_data(as_text=True)
    assert client.post("/signout").status_code == 303
    signed_out = client.get("/me").get_data(as_text=True)
    assert 'id="sign-in"' in signed_out and "Ada" not in signed_out, "signed out: the sign-in form"


def test_refused_forms_say_why_on_the_page(app: Flask) -> None:
    _sign_up(app.test_client())
    client = app.test_client()
    taken = client.post("/signup", data={"name": "ADA", "password": PASSWORD})
    assert taken.status_code == 409 and "is taken" in taken.get_data(as_text=True)
    short = client.post("/signup", data={"name": "Bo", "password": "short"})
    assert short.status_code == 422 and "at least 8" in short.get_data(as_text=True)
    wrong = client.post("/signin", data={"name": "Ada", "password": "nope nope"})
    assert wrong.status_code == 401 and "wrong" in wrong.get_data(as_text=True)
    assert "Set-Cookie" not in wrong.headers


def test_sign_in_goes_back_only_to_a_page_of_this_site(app: Flask) -> None:
    _sign_up(app.test_client())
    client = app.test_client()
    for wanted, goes in (
        ("/play/g1", "/play/g1"),
        ("https://evil.example/", "/me"),
        ("//evil.example", "/me"),
    ):
        answer = client.post("/signin", data={"name": "Ada", "password": PASSWORD, "next": wanted})
        assert answer.status_code == 303 and answer.headers["Location"] == goes, wanted


def test_another_site_s_form_cannot_sign_anyone_in(client: FlaskClient) -> None:
    answer = client.post(
        "/signin", data={"name": "Ada", "password": PASSWORD}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert answer.status_code == 403 and "Set-Cookie" not in answer.headers


def test_an_account_s_name_is_taken_for_a_seat_only_by_that_account(app: Flask) -> None:
    ada = app.test_client()
    _sign_up(ada)
    guest = app.test_client()
    game_id = _open_game(guest)
    pretending = guest.post(f"/games/{game_id}/seats/1", json={"name": "ada"})
    assert pretending.status_code == 409 and pretending.json["code"] == "name_of_account"
    by_form = guest.post(f"/play/{game_id}/seats/1", data={"name": "ADA"})
    assert by_form.status_code == 409 and "sign in as Ada" in by_form.get_data(as_text=True)

    taken = ada.post(f"/play/{game_id}/seats/1", data={"name": "Ada"})
    assert taken.status_code == 303
    held = ada.get(f"/account/seats/{game_id}").json["seats"]
    assert [s["seat"] for s in held] == [1], "a seat taken while signed in is the account's"
    lobby = guest.get("/").get_data(as_text=True)
    assert 'class="account" href="/players/Ada"' in lobby, "the lobby tells the account's seat"
    assert 'href="/players/Cy"' not in lobby, "a guest's is no account's"
    player = guest.get("/players/ada").get_data(as_text=True)
    assert f'data-game-id="{game_id}"' in player and "Cy" in player


def test_a_tournament_entrant_registered_while_signed_in_is_the_account_s_player(client: FlaskClient) -> None:
    _sign_up(client)
    player = client.get("/account").json["player"]
    tournament = create_tournament(client)
    answer = client.post(f"/t/{tournament['tournament_id']}/entrants", data={"name": "Ada"})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    events = client.get(f"/tournaments/{tournament['tournament_id']}/events").json["events"]
    registered = [e for e in events if e["type"] == "EntrantRegistered"]
    assert registered[0]["data"]["player"] == player
    page = client.get("/players/Ada").get_data(as_text=True)
    assert "Island Cup" in page and f"/t/{tournament['tournament_id']}" in page


def test_the_player_page_shows_the_account_s_rating_from_a_rated_tournament(
    app: Flask, client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    _sign_up(client)
    tournament = create_tournament(client, rounds=1)
    register(app.test_client(), tournament, name="Ben")  # a guest: a one-off player
    mine = client.post(f"/tournaments/{tournament['tournament_id']}/entrants", json={"name": "Ada"})
    assert mine.status_code == 201
    rated_by_forfeit_and_correction(client, run_jobs, tournament, [mine.json["entrant"], "e1"])
    page = client.get("/players/Ada").get_data(as_text=True)
    ratings = page[page.index('id="player-ratings"') :]
    row = ratings[: ratings.index("</table>")]
    assert "<td>kahuna</td>" in row and "<td>1</td>" in row, row
