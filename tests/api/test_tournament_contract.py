"""The audit report, the ratings and the tournament stream's messages are typed in /openapi.json,
and what the service answers is what the document says (the audit and ratings answers are
checked by the ValidatingClient; each stream message here, against its schema)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from openapi_schema_validator import OAS30Validator

from service.api.tournament_event_schemas import EVENT_DATA, STREAM_MESSAGE, TYPED_EVENT
from tests.api.helpers import parse_sse
from tests.api.test_openapi import _declared, _free_form
from tests.api.tournament_helpers import create_tournament, organize, register, view

ROOT = Path(__file__).resolve().parents[2]
KAHUNA_WIN = {"winner": 0, "totals": [7, 3], "reason": "points"}


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")


def _answer_schema(document: dict[str, Any], path: str) -> dict[str, Any]:
    answer = document["paths"][path]["get"]["responses"]["200"]
    return dict(answer["content"]["application/json"]["schema"])


def _message_validator(document: dict[str, Any]) -> OAS30Validator:
    """Checks one `data:` of the tournament stream against what the document says it holds."""
    stream = document["paths"]["/tournaments/{tournament_id}/stream"]["get"]["responses"]["200"]
    item = stream["content"]["text/event-stream"]["schema"]["x-item-schema"]["$ref"].rsplit("/", 1)[-1]
    data = document["components"]["schemas"][item]["properties"]["data"]["x-data-schema"]
    return OAS30Validator({**data, "components": document["components"]})


def _organized(client: FlaskClient) -> tuple[dict[str, Any], str]:
    """A Swiss with late entries run by its organizer: a pairing bye, a bye given to a late
    entrant, a forfeit, its correction (a rated result), a withdrawal, the close."""
    tournament = create_tournament(client, rounds=2, late_entry=True)
    for name in ("Ann", "Ben", "Cy"):
        register(client, tournament, name=name)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    late = register(client, tournament, name="Di")["entrant"]
    organize(client, tournament, {"type": "GiveBye", "entrant": late})
    table = view(client, tournament)["tables"][0]
    game_id = table["game_id"]
    organize(client, tournament, {"type": "ForfeitSeat", "game_id": game_id, "seat": 1, "reason": "no_show"})
    body = {"type": "CorrectResult", "game_id": game_id, "result": KAHUNA_WIN, "reason": "they played it"}
    organize(client, tournament, body)
    organize(client, tournament, {"type": "WithdrawEntrant", "entrant": late})
    organize(client, tournament, {"type": "CloseTournament"})
    return tournament, game_id


def test_the_audit_the_ratings_and_the_stream_messages_have_no_free_form_object(client: FlaskClient) -> None:
    document = client.get("/openapi.json").json
    for path in ("/tournaments/{tournament_id}/audit", "/ratings/{game}"):
        free = _free_form(document, _answer_schema(document, path), path, set())
        # a game's end is the game's own (each game adds its keys): typed, and open to them
        assert free == [], (path, free)
    message = {"$ref": f"#/components/schemas/{STREAM_MESSAGE}"}
    free = [p for p in _free_form(document, message, "message", set()) if not p.endswith(".options")]
    assert free == [], free
    mapping = document["components"]["schemas"][TYPED_EVENT]["discriminator"]["mapping"]
    assert set(mapping) == set(EVENT_DATA)
    for path in ("/tournaments/{tournament_id}/events",):
        free = [
            p
            for p in _free_form(document, _answer_schema(document, path), path, set())
            if not p.endswith(".options")
        ]
        assert free == [], (path, free)


def test_every_event_the_rules_write_has_its_data_schema() -> None:
    written = set(re.findall(r'Event\(\s*"([A-Za-z]+)"', (ROOT / "domain/tournament/events.py").read_text()))
    written |= set(
        re.findall(r'Event\(\s*"([A-Za-z]+)"', (ROOT / "domain/tournament/settings.py").read_text())
    )
    assert written and written == set(EVENT_DATA)


def test_an_organized_tournament_s_audit_ratings_and_stream_answer_as_the_document_says(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    document = client.get("/openapi.json").json
    tournament, game_id = _organized(client)
    tid = tournament["tournament_id"]
    run_jobs()  # the ratings

    audit = client.get(f"/tournaments/{tid}/audit").json
    assert audit["ok"] is True
    [correction] = audit["corrections"]
    assert (correction["game_id"], correction["reason"]) == (game_id, "they played it")
    assert correction["before"]["points"] == [3, 0] and correction["after"]["points"] == [3, 1]
    schema = document["components"]["schemas"]["AuditCorrection"]
    assert set(correction) == set(schema["properties"]), "every key of a correction is declared"

    ratings = client.get("/ratings/kahuna").json
    assert len(ratings["players"]) == 2
    assert all(len(p["history"]) == 1 and p["history"][0]["game_id"] == game_id for p in ratings["players"])
    assert set(ratings["players"][0]["history"][0]) == _declared(
        document, {"$ref": "#/components/schemas/RatingPoint"}
    )

    text = client.get(f"/tournaments/{tid}/stream").get_data(as_text=True)
    messages = parse_sse(text)
    validator = _message_validator(document)
    for message in messages:
        errors = [e.message for e in validator.iter_errors(message)]
        assert errors == [], (message.get("type", "standings"), errors)
    seen = {m.get("type") for m in messages}
    assert seen >= set(EVENT_DATA) - {"ResultRecorded"}, set(EVENT_DATA) - seen
    assert any("standings" in m for m in messages)

    bye = next(m for m in messages if m.get("type") == "ByeGiven" and m["data"]["reason"] == "organizer")
    assert not validator.is_valid({**bye, "data": {**bye["data"], "reason": "a whim"}}), (
        "a bye's reason is listed"
    )
    standings = next(m for m in messages if "standings" in m)
    assert not validator.is_valid({**standings, "standings": [{"entrant": "e1"}]}), "a line holds its figures"


def test_a_played_result_in_the_stream_is_what_the_document_says(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    document = client.get("/openapi.json").json
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, kind="ai", level=1)
    register(client, tournament, kind="ai", level=2)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    for _ in range(400):
        run_jobs()
        if view(client, tournament)["completed"] == 1:
            break
    messages = parse_sse(
        client.get(f"/tournaments/{tournament['tournament_id']}/stream").get_data(as_text=True)
    )
    recorded = next(m for m in messages if m.get("type") == "ResultRecorded")
    validator = _message_validator(document)
    assert [e.message for e in validator.iter_errors(recorded)] == []
    assert not validator.is_valid({**recorded, "data": {**recorded["data"], "game_end": None}})


def test_a_tournament_event_s_secret_is_typed_the_lots_seed_alone(client: FlaskClient) -> None:
    document = client.get("/openapi.json").json
    tournament, _ = _organized(client)
    messages = parse_sse(
        client.get(f"/tournaments/{tournament['tournament_id']}/stream").get_data(as_text=True)
    )
    validator = _message_validator(document)
    created = next(m for m in messages if m.get("type") == "TournamentCreated")
    assert set(created["secret"]) == {"seed"}, "the close opens the lots' seed"
    assert validator.is_valid(created)
    assert not validator.is_valid({**created, "secret": {"seed": "not hex"}}), "the seed is 64 hex digits"
    assert validator.is_valid({**created, "secret": None, "redacted": True}), "redacted before the close"
    started = next(m for m in messages if m.get("type") == "TournamentStarted")
    assert started.get("secret") is None
    assert not validator.is_valid({**started, "secret": {"seed": created["secret"]["seed"]}}), (
        "no other event carries a secret"
    )
