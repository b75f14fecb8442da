"""A time per move on the pages: the new-game form offers it beside open seats, the lobby's open
games show it, and the play page says whose time runs out when, then who ran out of time."""

from __future__ import annotations

from html import unescape

import redis
from flask import Flask
from flask.testing import FlaskClient
from freezegun import freeze_time

from service import sweeper
from service.api.context import game_service
from service.web.move_time import duration_words
from tests.api.helpers import bearer
from tests.web.pages import by_id, elements, panel

FORM = {"game": "kahuna", "seat-0": "human", "name-0": "Ann", "seat-1": "open", "first_seat": "0"}


def test_the_form_offers_a_time_per_move_and_the_lobby_shows_it_on_the_open_game(client: FlaskClient) -> None:
    html = client.get("/games/new").get_data(as_text=True)
    choices = [a["value"] for tag, a, within in elements(html) if tag == "option" and "move_time" in within]
    assert choices == ["", "60", "300", "3600", "86400"]
    assert any(tag == "label" and a.get("for") == "move_time" for tag, a, _ in elements(html))

    created = client.post("/games/new", data={**FORM, "move_time": "300"})

    assert created.status_code == 201, created.data
    [game] = client.get("/games?status=open").json["games"]
    assert game["move_time"] == 300
    line = next(a for tag, a, _ in elements(client.get("/").get_data(as_text=True)) if tag == "li")
    assert line["data-game-id"] == game["game_id"]
    assert "(5 min per move)" in client.get("/").get_data(as_text=True)


def test_a_bad_time_per_move_from_the_form_is_refused_and_writes_nothing(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    for value in ("10", "soon"):
        refused = client.post("/games/new", data={**FORM, "move_time": value})
        assert refused.status_code == 422
        assert "move_time" in refused.get_data(as_text=True)
    assert redis_client.keys("game:*") == []


def test_the_play_page_says_whose_time_runs_out_when_and_who_ran_out(app: Flask, client: FlaskClient) -> None:
    with freeze_time("2026-11-28 10:00:00") as clock:
        client.post("/games/new", data={**FORM, "move_time": "60"})
        [game] = client.get("/games?status=open").json["games"]
        game_id = game["game_id"]
        waiting = panel(client, game_id)
        assert by_id(waiting, "move-clock") is not None, "the time per move is said from the start"
        assert not [tag for tag, _, _ in elements(waiting) if tag == "time"], "no clock runs yet"
        taken = client.post(f"/games/{game_id}/seats/1", json={"name": "Ben"})
        ben = taken.json["token"]
        html = unescape(panel(client, game_id, ben))
        deadline = next(a for tag, a, _ in elements(html) if tag == "time")
        assert deadline["datetime"] == "2026-11-28T10:01:00.000000Z"
        assert "Ann's time runs out at" in html and "Time per move: 1 min." in html
        clock.tick(61)
        with app.app_context():
            assert sweeper.sweep(game_service()) == 1

    html = unescape(panel(client, game_id, ben))
    assert "The game is over: Ann ran out of time." in html
    assert client.get(f"/games/{game_id}/legal", headers=bearer(ben)).json["commands"] == []


def test_a_duration_is_said_in_its_largest_whole_unit() -> None:
    assert [duration_words(s) for s in (45, 60, 90, 300, 3600, 7200, 86400, 604800)] == [
        "45 s",
        "1 min",
        "90 s",
        "5 min",
        "1 hour",
        "2 hours",
        "1 day",
        "7 days",
    ]
