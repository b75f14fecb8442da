"""The lobby: `/` lists the games, `/games/new` creates one and hands out its seats' links."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from domain.games import GAMES, register_game, unregister_game
from service.web import lobby
from tests.api.helpers import bearer, create_game, view
from tests.platform.example_game import RACE
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
    html = response.get_data(as_text=True)
    assert by_id(html, "start")["href"] == "/games/new"
    assert by_id(html, "join") is not None and by_id(html, "join-link")["type"] == "url"
    assert any(tag == "label" and a.get("for") == "join-link" for tag, a, _ in elements(html))


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
    response = client.post("/games/new", data={**FORM, "opt-kahuna-edition": "thames-kosmos"})
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


def test_each_list_of_the_lobby_shows_a_page_and_links_to_the_older_games(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby, "LISTED", 2)
    games = [create_game(client)["game_id"] for _ in range(5)]

    pages, url = [], "/"
    while url:
        html = client.get(url).get_data(as_text=True)
        pages.append(
            [a["data-game-id"] for tag, a, _ in elements(html) if tag == "tr" and "data-game-id" in a]
        )
        more = by_id(html, "ongoing-more")
        url = more["href"] if more is not None else None

    assert pages == [games[4:2:-1], games[2:0:-1], games[:1]]
    assert by_id(html, "ongoing-first") is not None and by_id(html, "finished-more") is None
    refused = client.get("/?finished=not-a-cursor")
    assert refused.status_code == 422 and refused.json["code"] == "bad_cursor"


def test_who_starts_names_a_row_of_the_form_and_rows_of_nobody_are_left_out(client: FlaskClient) -> None:
    form = {
        **FORM,
        "seat-0": "none",
        "seat-1": "human",
        "name-1": "Ben",
        "seat-2": "random",
        "first_seat": "2",
    }
    response = client.post("/games/new", data=form)
    game_id, token = re.fullmatch(r"http://localhost/play/(\w+)#token=(\S+)", response.location).groups()
    seen = client.get(f"/games/{game_id}", headers=bearer(token)).json
    assert [s["name"] for s in seen["seats"]] == ["Ben", "Computer 3"] and seen["active"] == 1

    nobody = client.post(
        "/games/new", data={**form, "first_seat": "0"}, headers={"Accept": "application/json"}
    )
    assert (nobody.status_code, nobody.json["code"]) == (422, "bad_form")


def _controls(html: str) -> dict[str, tuple[str, dict[str, str]]]:
    """The form's option controls by name: their tag and attributes."""
    return {
        a["name"]: (tag, a)
        for tag, a, _ in elements(html)
        if tag in ("input", "select") and a.get("name", "").startswith("opt-")
    }


def _control_for(schema: Mapping[str, Any]) -> tuple[str, str] | None:
    """The control an option's schema calls for (tag, input type), None for the JSON field."""
    kind = schema.get("type")
    if kind == "boolean":
        return "input", "checkbox"
    if kind == "string" and schema.get("enum"):
        return "select", ""
    if kind == "integer" and "enum" not in schema:
        return "input", "number"
    return None


def test_the_form_offers_each_game_s_options_as_its_module_declares_them(client: FlaskClient) -> None:
    controls = _controls(client.get("/games/new").get_data(as_text=True))
    declared = {
        f"opt-{name}-{option}": _control_for(schema)
        for name, module in GAMES.items()
        for option, schema in module.schemas.options.get("properties", {}).items()
        if _control_for(schema) is not None
    }
    assert {field: (tag, a.get("type", "")) for field, (tag, a) in controls.items()} == declared
    # Nanuuk! options, once settable over HTTP only, among them:
    assert controls["opt-nanuuk-two_hunters"][1]["type"] == "checkbox"
    assert (controls["opt-nanuuk-pre_cracks"][1]["min"], controls["opt-nanuuk-pre_cracks"][1]["max"]) == (
        "0",
        "30",
    )
    assert "opt-nanuuk-bear-flight-bears" in controls and "opt-nanuuk-partners-aim" in controls
    assert "opt-nanuuk-layout" not in controls  # an object: the JSON field's


def test_a_choice_lists_the_declared_values_after_the_rules_default(client: FlaskClient) -> None:
    html = client.get("/games/new").get_data(as_text=True)
    values = [
        a["value"]
        for tag, a, within in elements(html)
        if tag == "option" and within[-1:] == ("opt-nanuuk-double_move_cracks",)
    ]
    assert values == ["", *GAMES["nanuuk"].schemas.options["properties"]["double_move_cracks"]["enum"]]


def test_a_nanuuk_game_made_by_the_form_carries_the_options_chosen_in_its_controls(
    client: FlaskClient,
) -> None:
    form = {
        **FORM,
        "game": "nanuuk",
        "opt-nanuuk-two_hunters": "on",
        "opt-nanuuk-double_move_cracks": "mover_chooses",
        "opt-nanuuk-pre_cracks": "2",
        "opt-nanuuk-keep_igloo_reachable": "off",
        "opt-kahuna-edition": "thames-kosmos",  # another game's field: not this game's option
    }
    response = client.post("/games/new", data=form)
    assert response.status_code == 303, response.data
    game_id = re.fullmatch(r"http://localhost/play/(\w+)#token=\S+", response.location).group(1)
    created = client.get(f"/games/{game_id}/events").json["events"][0]
    assert created["data"]["options"] == {
        "two_hunters": True,
        "double_move_cracks": "mover_chooses",
        "pre_cracks": 2,
    }


def test_N1_the_form_s_nanuuk_options_of_another_seat_count_are_refused_and_write_nothing(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    form = {**FORM, "game": "nanuuk", "seat-2": "random", "opt-nanuuk-two_hunters": "on"}
    refused = client.post("/games/new", data=form)
    number = client.post(
        "/games/new",
        data={**FORM, "game": "nanuuk", "opt-nanuuk-pre_cracks": "two"},
        headers={"Accept": "application/json"},
    )

    assert refused.status_code == 422
    assert by_id(refused.get_data(as_text=True), "form-error")["data-code"] == "bad_option"
    assert (number.status_code, number.json["code"]) == (422, "bad_form")
    assert redis_client.keys("game:*") == []


def test_the_json_field_wins_over_the_controls(client: FlaskClient) -> None:
    form = {**FORM, "opt-kahuna-edition": "thames-kosmos", "options": '{"edition": "original"}'}
    response = client.post("/games/new", data=form)
    game_id, token = re.fullmatch(r"http://localhost/play/(\w+)#token=(\S+)", response.location).groups()
    assert client.get(f"/games/{game_id}", headers=bearer(token)).json["options"]["edition"] == "original"


def test_a_game_registered_later_has_its_declared_options_in_the_form(client: FlaskClient) -> None:
    options = {
        "type": "object",
        "properties": {
            "laps": {"type": "integer", "minimum": 1, "maximum": 9, "description": "How far."},
            "uphill": {"type": "boolean"},
            "course": {"type": "string", "enum": ["short", "long"]},
            "handicaps": {"type": "array", "items": {"type": "integer"}},
        },
    }
    register_game(replace(RACE, schemas=replace(RACE.schemas, options=options)))
    try:
        html = client.get("/games/new").get_data(as_text=True)
    finally:
        unregister_game(RACE.name)
    controls = _controls(html)
    race = {
        field: (tag, a.get("type", ""))
        for field, (tag, a) in controls.items()
        if field.startswith("opt-race-")
    }
    assert race == {
        "opt-race-laps": ("input", "number"),
        "opt-race-uphill": ("input", "checkbox"),
        "opt-race-course": ("select", ""),
    }
    assert by_id(html, "opt-race-laps-hint") is not None
    assert controls["opt-race-laps"][1]["aria-describedby"] == "opt-race-laps-hint"
