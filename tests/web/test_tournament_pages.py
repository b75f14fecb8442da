"""The tournament pages: `/t` lists tournaments, `/t/<id>` shows one and registers a person."""

from __future__ import annotations

import html as html_module
import re
from typing import Any

import redis
from flask.testing import FlaskClient

from service.store import TOURNAMENT, stream_key
from tests.api.tournament_helpers import create_tournament, me, organize, register, view
from tests.web.pages import by_id, elements

SCRIPTED = "<script>alert(1)</script>"


def _page(client: FlaskClient, tournament: dict[str, Any]) -> str:
    answer = client.get(f"/t/{tournament['tournament_id']}")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    return answer.get_data(as_text=True)


def _register_by_form(client: FlaskClient, tournament: dict[str, Any], name: str) -> str:
    """The entrant token the form's answer puts in the page link's fragment."""
    answer = client.post(f"/t/{tournament['tournament_id']}/entrants", data={"name": name})
    assert answer.status_code == 303, answer.data
    assert answer.headers["Cache-Control"] == "no-store"
    found = re.fullmatch(rf"/t/{tournament['tournament_id']}#token=(\S+)", answer.headers["Location"])
    assert found is not None, answer.headers["Location"]
    return found.group(1)


def _paired(client: FlaskClient) -> tuple[dict[str, Any], str]:
    """A Kahuna Swiss of a person (registered by the page's form) and a computer, round 1 paired."""
    tournament = create_tournament(client, rounds=1)
    token = _register_by_form(client, tournament, "Ann")
    register(client, tournament, kind="ai", level=1)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    return tournament, token


def test_the_lobby_and_every_page_link_to_the_tournaments(client: FlaskClient) -> None:
    lobby = client.get("/").get_data(as_text=True)
    assert by_id(lobby, "tournaments-link")["href"] == "/t"
    nav = [a["href"] for tag, a, _ in elements(client.get("/games/new").get_data(as_text=True)) if tag == "a"]
    assert "/t" in nav


def test_the_list_names_each_tournament_with_a_link_to_its_page(client: FlaskClient) -> None:
    assert by_id(client.get("/t").get_data(as_text=True), "tournaments")["id"] == "tournaments"
    first = create_tournament(client, name="Island Cup")
    second = create_tournament(client, name="Reef Open")
    html = client.get("/t").get_data(as_text=True)
    rows = [a["data-tournament-id"] for _, a, _ in elements(html) if "data-tournament-id" in a]
    assert rows == [second["tournament_id"], first["tournament_id"]]  # newest activity first
    assert "Reef Open" in html and f'href="/t/{first["tournament_id"]}"' in html


def test_registering_through_the_form_makes_an_entrant_whose_token_reads_its_own_game(
    client: FlaskClient,
) -> None:
    tournament, token = _paired(client)
    mine = me(client, tournament, token)
    assert mine["name"] == "Ann" and mine["game"] is not None
    html = _page(client, tournament)
    assert token not in html  # the token lives in the fragment and the browser only
    entrants = [
        a["data-entrant"] for _, a, within in elements(html) if "data-entrant" in a and "entrants" in within
    ]
    assert entrants == ["e1", "e2"]


def test_a_running_tournament_links_each_table_to_its_board_and_replay_and_shows_standings(
    client: FlaskClient,
) -> None:
    tournament, _token = _paired(client)
    games = [t["game_id"] for t in view(client, tournament)["tables"]]
    html = _page(client, tournament)
    boards = {a["data-board"]: a["href"] for _, a, _ in elements(html) if "data-board" in a}
    replays = {a["data-replay"]: a["href"] for _, a, _ in elements(html) if "data-replay" in a}
    assert games and boards == {g: f"/play/{g}" for g in games}
    assert replays == {g: f"/replay/{g}" for g in games}
    for g in games:
        assert client.get(boards[g]).status_code == 200 and client.get(replays[g]).status_code == 200
    assert by_id(html, "round-1") is not None and by_id(html, "registration-closed") is not None
    assert by_id(html, "register") is None  # started, no late entry: no form
    ranked = [
        a["data-entrant"] for _, a, within in elements(html) if "data-entrant" in a and "standings" in within
    ]
    assert sorted(ranked) == ["e1", "e2"]
    headers = [a for tag, a, within in elements(html) if tag == "th" and "standings" in within]
    assert headers and all(h.get("scope") in ("col", "row") for h in headers)


def test_a_forfeit_result_shows_in_the_pairings_and_the_crosstable_with_a_link_to_the_replay(
    client: FlaskClient,
) -> None:
    tournament, _token = _paired(client)
    table = view(client, tournament)["tables"][0]
    forfeit = {"type": "ForfeitSeat", "game_id": table["game_id"], "seat": 0, "reason": "no_show"}
    organize(client, tournament, forfeit)
    html = _page(client, tournament)
    cross = [a for tag, a, within in elements(html) if tag == "a" and "crosstable" in within]
    assert {a["href"] for a in cross} == {f"/replay/{table['game_id']}"}
    assert len(cross) == 2  # each entrant's row links the game it played
    assert "(forfeit)" in html


def test_a_person_s_name_is_escaped_on_every_page(client: FlaskClient) -> None:
    tournament = create_tournament(client, name=SCRIPTED, rounds=1)
    _register_by_form(client, tournament, SCRIPTED + " Ann")
    register(client, tournament, name="Bo")
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    for html in (_page(client, tournament), client.get("/t").get_data(as_text=True)):
        assert SCRIPTED not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def _length(redis_client: redis.Redis, tournament: dict[str, Any]) -> int:
    return int(redis_client.xlen(stream_key(TOURNAMENT, tournament["tournament_id"])))


def test_a_refused_registration_says_why_and_writes_nothing(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    tournament = create_tournament(client)
    _register_by_form(client, tournament, "Ann")
    before = _length(redis_client, tournament)

    taken = client.post(f"/t/{tournament['tournament_id']}/entrants", data={"name": "Ann"})
    assert taken.status_code == 422
    assert by_id(taken.get_data(as_text=True), "register-error")["data-code"] == "name_taken"
    blank = client.post(
        f"/t/{tournament['tournament_id']}/entrants",
        data={"name": " "},
        headers={"Accept": "application/json"},
    )
    assert blank.status_code == 422 and blank.mimetype == "application/problem+json"
    assert blank.json["code"] == "validation_failed"
    assert _length(redis_client, tournament) == before


def _text_of(html: str, element_id: str) -> str:
    found = re.search(rf'<(\w+) id="{element_id}"[^>]*>(.*?)</\1>', html, re.S)
    assert found is not None, element_id
    return html_module.unescape(found.group(2)).strip()


def test_a_refused_registration_shows_each_error_in_words_next_to_its_field(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    _register_by_form(client, tournament, "Ann")
    url = f"/t/{tournament['tournament_id']}/entrants"

    blank = client.post(url, data={"name": " "}).get_data(as_text=True)
    said = _text_of(blank, "register-name-error")
    assert said.startswith("Your name: ") and "between 1 and 60" in said
    assert by_id(blank, "register-name")["aria-invalid"] == "true"
    assert "see errors" not in _text_of(blank, "register-error")

    taken = client.post(url, data={"name": "Ann"}).get_data(as_text=True)
    assert _text_of(taken, "register-name-error") == "Your name: an entrant named 'Ann' is registered already"
    fine = _page(client, tournament)
    assert _text_of(fine, "register-name-error") == "" and "aria-invalid" not in by_id(fine, "register-name")


def test_registration_closes_at_the_start_unless_late_entry(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    closed, _token = _paired(client)
    before = _length(redis_client, closed)
    late = client.post(f"/t/{closed['tournament_id']}/entrants", data={"name": "Cy"})
    assert late.status_code == 422
    assert by_id(late.get_data(as_text=True), "register-error")["data-code"] == "registration_closed"
    assert _length(redis_client, closed) == before

    open_late = create_tournament(client, rounds=1, late_entry=True)
    register(client, open_late, name="Ann")
    register(client, open_late, name="Bo")
    organize(client, open_late, {"type": "StartTournament"})
    assert by_id(_page(client, open_late), "register") is not None
    _register_by_form(client, open_late, "Cy")


def test_an_unknown_tournament_is_a_404_problem(client: FlaskClient) -> None:
    answer = client.get("/t/nothing-here")
    assert answer.status_code == 404 and answer.json["code"] == "tournament_not_found"


def test_a_person_registering_by_the_form_with_a_player_token_registers_as_that_player(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    player = client.post("/players").json
    tournament = create_tournament(client)
    url = f"/t/{tournament['tournament_id']}/entrants"
    before = _length(redis_client, tournament)

    wrong = client.post(url, data={"name": "Ann", "player_token": "p1.not-a-token-anyone-holds"})
    assert wrong.status_code == 422 and _length(redis_client, tournament) == before
    page = wrong.get_data(as_text=True)
    assert _text_of(page, "register-player-error").startswith("Your player token: no player holds this token")
    assert by_id(page, "register-player")["aria-invalid"] == "true"

    answer = client.post(url, data={"name": "Ann", "player_token": f" {player['token']} "})

    assert answer.status_code == 303
    registered = view(client, tournament)["entrants"]
    assert [(e["name"], e["player"]) for e in registered] == [("Ann", player["player"])]
