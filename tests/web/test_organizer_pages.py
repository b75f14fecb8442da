"""The organizer's pages: `/t/new` creates a tournament with every setting, each refusal next
to its field; `/t/<id>/organize` offers the commands the rules would take now; the round and
entrant states follow the tournament; `/t/<id>/audit` renders the audit, linked from each page."""

from __future__ import annotations

import html as html_module
import re
from typing import Any

import redis
from flask.testing import FlaskClient

from tests.api.tournament_helpers import create_tournament, organize, register, view
from tests.web.pages import by_id, elements

SWISS_FORM = {"name": "Reef Open", "game": "kahuna", "format": "swiss", "rounds": "2", "rated": "on"}


def _text_of(html: str, element_id: str) -> str:
    found = re.search(rf'<(\w+) id="{element_id}"[^>]*>(.*?)</\1>', html, re.S)
    assert found is not None, element_id
    return re.sub(r"\s+", " ", html_module.unescape(re.sub(r"<[^>]+>", "", found.group(2)))).strip()


def _created(client: FlaskClient, form: dict[str, str]) -> tuple[str, str]:
    answer = client.post("/t/new", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)
    found = re.fullmatch(r"/t/([^/#]+)/organize#organizer=(\S+)", answer.headers["Location"])
    assert found is not None, answer.headers["Location"]
    return found.group(1), found.group(2)


def _tournaments(redis_client: redis.Redis) -> int:
    return len(list(redis_client.scan_iter("tournament:*:events")))


def _organizer_page(client: FlaskClient, tournament: dict[str, Any]) -> str:
    answer = client.get(f"/t/{tournament['tournament_id']}/organize")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    return answer.get_data(as_text=True)


def _offered(html: str) -> set[str]:
    """The ids of the organizer's controls the page shows."""
    return {a["id"] for _, a, within in elements(html) if "organizer" in within and "data-command" in a}


def test_the_form_creates_a_tournament_with_its_settings_and_hands_the_organizer_its_page(
    client: FlaskClient,
) -> None:
    assert by_id(client.get("/t").get_data(as_text=True), "new-tournament-link")["href"] == "/t/new"
    form = by_id(client.get("/t/new").get_data(as_text=True), "new-tournament")
    assert form["method"] == "post" and form["action"] == "/t/new"
    settings = {**SWISS_FORM, "late_entry": "on", "move_time_limit": "600"}
    del settings["rated"]  # a clear checkbox posts nothing: unrated
    tournament_id, token = _created(client, settings)
    shown = view(client, {"tournament_id": tournament_id})
    assert (shown["name"], shown["format"], shown["rounds"], shown["rated"]) == (
        "Reef Open",
        "swiss",
        2,
        False,
    )
    assert (shown["late_entry"], shown["move_time_limit"], shown["double"]) == (True, 600, False)
    tables_id, _ = _created(
        client, {"game": "arabana-opodopo", "format": "tables", "rounds": "1", "points-4": "8, 4, 2, 0"}
    )
    assert view(client, {"tournament_id": tables_id})["placement_points"]["4"] == [8, 4, 2, 0]
    tournament = {"tournament_id": tournament_id, "organizer_token": token}
    register(client, tournament, kind="ai", level=1)  # the fragment's token is the organizer's
    html = client.get(f"/t/{tournament_id}/organize").get_data(as_text=True)
    assert token not in html and by_id(html, "organizer-key") is not None


def test_each_refusal_of_the_form_is_said_next_to_its_field_and_creates_nothing(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    before = _tournaments(redis_client)
    cases = [
        (
            {**SWISS_FORM, "rounds": ""},
            "rounds",
            "bad_rounds",
            "Rounds: rounds must be a whole number from 1 to 50",
        ),
        ({**SWISS_FORM, "rounds": "two"}, "rounds", "bad_form", "Rounds: a whole number"),
        ({**SWISS_FORM, "move_time_limit": "0"}, "move_time_limit", "invalid_request", "Move time limit: "),
        ({**SWISS_FORM, "double": "on"}, "double", "bad_double", "Double round robin: only a round robin"),
        (
            {"game": "arabana-opodopo", "format": "tables", "rounds": "1", "points-3": "1 5 0"},
            "placement_points",
            "bad_placement_points",
            "Placement points: ",
        ),
        ({**SWISS_FORM, "format": "tables"}, "format", "format_not_for_game", "Format: kahuna is not played"),
    ]
    for form, field, code, words in cases:
        answer = client.post("/t/new", data=form)
        html = answer.get_data(as_text=True)
        assert answer.status_code == 422, (form, html)
        assert by_id(html, "form-error")["data-code"] == code, form
        assert _text_of(html, f"{field}-error").startswith(words), (form, _text_of(html, f"{field}-error"))
        assert by_id(html, field if field != "placement_points" else "points-4").get("aria-invalid") == "true"
    asked = client.post("/t/new", data={**SWISS_FORM, "rounds": ""}, headers={"Accept": "application/json"})
    assert asked.status_code == 422 and asked.mimetype == "application/problem+json"
    assert (asked.json["code"], list(asked.json["errors"])) == ("bad_rounds", ["rounds"])
    kept = client.post("/t/new", data={**SWISS_FORM, "rounds": "", "name": "Kept"}).get_data(as_text=True)
    assert by_id(kept, "name")["value"] == "Kept" and "checked" in by_id(kept, "rated")
    assert _tournaments(redis_client) == before


def test_the_organizer_s_page_offers_only_the_commands_the_rules_take_now(client: FlaskClient) -> None:
    tournament = create_tournament(client, rounds=1, late_entry=True)
    register(client, tournament, name="Ann")
    page = _organizer_page(client, tournament)
    assert _offered(page) == {"add-entrant", "withdraw"}  # too few to start
    assert by_id(page, "register") is None  # the organizer adds entrants with its own form
    register(client, tournament, name="Ben")
    register(client, tournament, name="Cy")
    assert _offered(_organizer_page(client, tournament)) == {"start", "add-entrant", "withdraw"}
    organize(client, tournament, {"type": "StartTournament"})
    page = _organizer_page(client, tournament)
    assert _offered(page) == {"pair", "close", "add-entrant", "withdraw"}
    assert _text_of(page, "phase") == "started; no round paired yet"
    organize(client, tournament, {"type": "PairRound"})
    register(client, tournament, name="Di")
    page = _organizer_page(client, tournament)
    assert _offered(page) == {"add-entrant", "give-bye", "forfeit", "withdraw"}
    byes = [a["value"] for tag, a, within in elements(page) if tag == "option" and "give-bye" in within]
    assert byes == ["e4"]  # Cy has the pairing's bye, Ann and Ben a table
    assert _text_of(page, "phase") == "round 1 being played"
    organize(client, tournament, {"type": "GiveBye", "entrant": "e4"})
    table = view(client, tournament)["tables"][0]
    organize(
        client,
        tournament,
        {"type": "ForfeitSeat", "game_id": table["game_id"], "seat": 1, "reason": "no_show"},
    )
    page = _organizer_page(client, tournament)
    assert _offered(page) == {"close", "add-entrant", "correct", "withdraw"}  # the one round is played
    assert _text_of(page, "phase") == "all 1 rounds played; waiting for the close"
    assert _text_of(page, "round-1").startswith("Round 1: over")
    organize(client, tournament, {"type": "CloseTournament"})
    page = _organizer_page(client, tournament)
    assert _offered(page) == set() and by_id(page, "no-commands") is not None


def test_round_headers_and_entrant_states_follow_the_tournament(client: FlaskClient) -> None:
    tournament = create_tournament(client, rounds=2)
    for name in ("Ann", "Ben", "Cy"):
        register(client, tournament, name=name)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    table = view(client, tournament)["tables"][0]
    page = client.get(f"/t/{tournament['tournament_id']}").get_data(as_text=True)
    states = _states(page)
    assert states[table["seats"][0]] == "playing round 1" and "bye in round 1" in states.values()
    assert _text_of(page, "round-1").startswith("Round 1: being played")
    organize(
        client,
        tournament,
        {"type": "ForfeitSeat", "game_id": table["game_id"], "seat": 0, "reason": "no_show"},
    )
    page = client.get(f"/t/{tournament['tournament_id']}").get_data(as_text=True)
    assert _text_of(page, "phase") == "round 1 over; round 2 not paired yet"
    assert _text_of(page, "round-1").startswith("Round 1: over")
    assert set(_states(page).values()) == {"round 1 played", "bye in round 1"}
    organize(client, tournament, {"type": "WithdrawEntrant", "entrant": table["seats"][0]})
    organize(client, tournament, {"type": "CloseTournament"})
    page = client.get(f"/t/{tournament['tournament_id']}").get_data(as_text=True)
    assert _text_of(page, "phase") == "closed after 1 round"
    states = _states(page)
    assert states[table["seats"][0]] == "withdrawn after round 1"
    assert sorted(v for k, v in states.items() if k != table["seats"][0]) == [
        "finished, rank 1",
        "finished, rank 2",
    ]


def _states(page: str) -> dict[str, str]:
    rows = re.findall(
        r'<tr data-entrant="(e\d+)"><td>e\d+</td><td>[^<]*</td><td>[^<]*</td><td>([^<]*)</td>', page
    )
    return dict(rows)


def test_the_audit_is_a_page_linked_from_every_tournament_page(client: FlaskClient) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, name="Ann")
    register(client, tournament, name="Ben")
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    game_id = view(client, tournament)["tables"][0]["game_id"]
    organize(client, tournament, {"type": "ForfeitSeat", "game_id": game_id, "seat": 0, "reason": "no_show"})
    result = {"winner": 0, "totals": [6, 2], "reason": "points"}
    organize(
        client,
        tournament,
        {"type": "CorrectResult", "game_id": game_id, "result": result, "reason": "seen played"},
    )
    tid = tournament["tournament_id"]
    for path in (f"/t/{tid}", f"/t/{tid}/organize"):
        assert by_id(client.get(path).get_data(as_text=True), "audit-link")["href"] == f"/t/{tid}/audit"
    answer = client.get(f"/t/{tid}/audit")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    assert by_id(page, "audit-verdict")["data-ok"] == "true"
    corrections = _text_of(page, "audit-corrections")
    assert "seen played" in corrections and "organizer" in corrections
    assert client.get("/t/nothing-here/audit").status_code == 404
    assert client.get("/t/nothing-here/organize").status_code == 404


def test_the_form_refuses_a_post_from_another_site(client: FlaskClient, redis_client: redis.Redis) -> None:
    before = _tournaments(redis_client)
    answer = client.post(
        "/t/new", data=SWISS_FORM, headers={"Sec-Fetch-Site": "cross-site", "Accept": "text/html"}
    )
    assert answer.status_code == 403
    assert _tournaments(redis_client) == before
