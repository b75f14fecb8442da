"""The lobby: `/` lists the games, `/games/new` creates one and hands out its seats' links."""

from __future__ import annotations

import re
from collections.abc import Callable

import redis
from flask.testing import FlaskClient

from domain.games import GAMES
from tests.api.helpers import bearer, create_game, view
from tests.web.pages import by_id, elements

FORM = {"game": "kahuna", "seat-0": "human", "name-0": "Ann", "seat-1": "random", "level-1": "1"}


def created_links(client: FlaskClient, form: dict[str, str]) -> tuple[str, dict[str, str]]:
    response = client.post("/games/new", data=form)
    assert response.status_code == 201, response.data
    assert response.headers["Cache-Control"] == "no-store"
    html = response.get_data(as_text=True)
    links = {a["aria-label"]: a["value"] for _, a, _ in elements(html) if "invite" in a.get("class", "")}
    anchors = {a["data-invite"]: a["href"] for _, a, _ in elements(html) if "data-invite" in a}
    assert sorted(anchors.values()) == sorted(links.values())
    play = by_id(html, "play-link")
    assert play is not None
    return play["href"], links


def test_root_serves_the_lobby_with_a_way_to_start_a_game(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert by_id(response.get_data(as_text=True), "start")["href"] == "/games/new"


def test_the_form_offers_every_registered_game_and_seat_kind(client: FlaskClient) -> None:
    html = client.get("/games/new").get_data(as_text=True)
    games = [a["value"] for tag, a, within in elements(html) if tag == "option" and "game" in within]
    assert games == sorted(GAMES)
    assert by_id(html, "new-game")["method"] == "post"
    assert {f"seat-{n}" for n in range(4)} <= {
        a.get("name") for tag, a, _ in elements(html) if tag == "select"
    }


def test_a_game_made_by_the_form_gives_each_person_a_link_with_the_token_in_the_fragment(
    client: FlaskClient,
) -> None:
    form = {**FORM, "seat-1": "human", "name-1": "Ben", "seat-2": "greedy", "name-2": "Cpu"}
    form["game"] = "arabana-opodopo"
    play, links = created_links(client, form)
    game_id, token = re.fullmatch(r"http://localhost/play/(\w+)#token=(\S+)", play).groups()
    assert set(links) == {"Invite link for Ann", "Invite link for Ben"}  # the computer gets none
    assert links["Invite link for Ann"] == play
    html = client.get("/")  # the links are shown once: no other page holds them
    assert token not in html.get_data(as_text=True)
    ben = links["Invite link for Ben"].split("#token=")[1]
    seen = client.get(f"/games/{game_id}", headers=bearer(token)).json
    assert seen["viewer"] == 0 and seen["seats"][2]["ai"] == "greedy"
    assert client.get(f"/games/{game_id}", headers=bearer(ben)).json["viewer"] == 1


def test_one_person_against_the_computer_goes_straight_to_their_board_with_the_options(
    client: FlaskClient,
) -> None:
    response = client.post("/games/new", data={**FORM, "opt-edition": "thames-kosmos"})
    assert response.status_code == 303 and response.headers["Cache-Control"] == "no-store"
    game_id, token = re.fullmatch(r"http://localhost/play/(\w+)#token=(\S+)", response.location).groups()
    seen = client.get(f"/games/{game_id}", headers=bearer(token)).json
    assert seen["viewer"] == 0 and seen["options"]["edition"] == "thames-kosmos"
    assert seen["seats"][1]["ai"] == "random" and seen["seats"][1]["level"] == 1


def test_a_refused_form_says_why_with_the_code_and_writes_nothing(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    alone = client.post("/games/new", data={**FORM, "seat-1": "none"})
    bad_json = client.post(
        "/games/new", data={**FORM, "options": "{"}, headers={"Accept": "application/json"}
    )
    unknown = client.post(
        "/games/new", data={**FORM, "game": "chess"}, headers={"Accept": "application/json"}
    )

    assert alone.status_code == 422
    assert by_id(alone.get_data(as_text=True), "form-error")["data-code"] == "bad_seat_count"
    assert (bad_json.status_code, bad_json.mimetype, bad_json.json["code"]) == (
        422,
        "application/problem+json",
        "bad_form",
    )
    assert (unknown.status_code, unknown.json["code"]) == (422, "validation_failed")
    assert redis_client.keys("game:*") == []


def test_the_lobby_lists_ongoing_and_finished_games_with_links(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    ongoing = create_game(client)
    computers = [{"name": "R1", "ai": "random", "level": 1}, {"name": "R2", "ai": "random", "level": 1}]
    done = client.post("/games", json={"game": "kahuna", "seats": computers}).json
    for _ in range(20):
        run_jobs()
        if view(client, {**done, "tokens": []})["phase"] == "ended":
            break

    html = client.get("/").get_data(as_text=True)
    rows = {
        (a["data-game-id"], within[-1])
        for tag, a, within in elements(html)
        if tag == "tr" and "data-game-id" in a
    }
    hrefs = {a["href"] for tag, a, _ in elements(html) if tag == "a"}
    assert rows == {(ongoing["game_id"], "ongoing"), (done["game_id"], "finished")}
    assert {f"/play/{ongoing['game_id']}", f"/play/{done['game_id']}", f"/replay/{done['game_id']}"} <= hrefs
    assert f"/replay/{ongoing['game_id']}" not in hrefs
