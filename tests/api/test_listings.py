"""GET /games and GET /tournaments: read models kept after each append, newest activity first,
filtered, a page at a time; the projector rebuilds them from the events, on one Redis and on
the cluster alike."""

from __future__ import annotations

import base64
import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.games import rules_for
from service.admin import rebuild_listings
from service.api.context import game_service
from service.game_files import store_imported
from service.loading import fold_envelopes
from service.sweeper import sweep
from tests.api.helpers import create_game, post, view
from tests.api.tournament_helpers import create_tournament, organize, register
from tests.backends import store_backend
from tests.replays.play import sealed_game, setup_of

__all__ = ["store_backend"]


def _all(client: FlaskClient, path: str, key: str) -> list[dict[str, Any]]:
    """Every entry of a listing, following `next` to the end."""
    found: list[dict[str, Any]] = []
    url: str | None = path
    while url is not None:
        answer = client.get(url)
        assert answer.status_code == 200, answer.json
        found += answer.json[key]
        url = answer.json["next"]
    return found


def _ids(client: FlaskClient, path: str) -> list[str]:
    return [g["game_id"] for g in _all(client, path, "games")]


def _finished_game(app: Flask) -> str:
    """A finished game of two computers, imported as a game file is (listed by the import)."""
    setup = {**setup_of("kahuna"), "seats": [{"name": f"R{n}", "ai": "random", "level": 1} for n in (1, 2)]}
    envelopes = sealed_game(random.Random(4), setup)
    with app.app_context():
        service = game_service()
        state = fold_envelopes(rules_for("kahuna"), envelopes)
        store_imported(service, "finished-1", envelopes, state, "{}")
    return "finished-1"


def test_pages_follow_the_newest_activity_and_end_without_a_next_link(client: FlaskClient) -> None:
    games = [create_game(client) for _ in range(5)]
    assert post(client, games[1], 0, {"type": "DrawCard", "source": "stack"}).status_code == 200

    first = client.get("/games?limit=2")

    assert first.status_code == 200
    assert len(first.json["games"]) == 2 and first.json["next"].startswith("/games?")
    expected = [games[1], games[4], games[3], games[2], games[0]]
    assert _ids(client, "/games?limit=2") == [g["game_id"] for g in expected]
    moved = first.json["games"][0]
    assert moved["version"] == view(client, games[1])["version"] and moved["status"] == "ongoing"
    assert moved["seats"] == [{"name": "Ann", "kind": "person"}, {"name": "Ben", "kind": "person"}]
    assert moved["result"] is None and moved["tournament"] is None


def test_filters_by_game_status_player_and_tournament(app: Flask, client: FlaskClient) -> None:
    mine = client.post("/games", json={"game": "kahuna", "seats": [{"name": "Zoe"}, {"name": "Ann"}]}).json
    other = create_game(client)
    done = _finished_game(app)
    tournament = create_tournament(client, rounds=1)
    for name in ("Kim", "Lou"):
        register(client, tournament, name=name)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})

    finished = client.get("/games?status=finished").json["games"]
    assert [g["game_id"] for g in finished] == [done]
    assert finished[0]["result"]["winner"] in (0, 1, None)
    assert finished[0]["seats"][0] == {"name": "R1", "kind": "ai", "ai": "random", "level": 1}
    assert _ids(client, "/games?player=zoe") == [mine["game_id"]]
    assert set(_ids(client, "/games?player=ANN&status=ongoing&limit=1")) == {
        mine["game_id"],
        other["game_id"],
    }
    played = _all(client, f"/games?tournament={tournament['tournament_id']}", "games")
    assert len(played) == 1 and played[0]["tournament"]["id"] == tournament["tournament_id"]
    assert {s["name"] for s in played[0]["seats"]} == {"Kim", "Lou"}
    assert _ids(client, "/games?player=kim&game=kahuna&status=finished") == []
    assert len(_ids(client, "/games?game=kahuna&status=ongoing")) == 3


def test_the_tournaments_listing_counts_entrants_and_filters_by_status(client: FlaskClient) -> None:
    early = create_tournament(client, name="Early Cup")
    running = create_tournament(client, name="Late Cup", rounds=1)
    for name in ("Kim", "Lou", "Max"):
        register(client, running, name=name)
    organize(client, running, {"type": "StartTournament"})

    listed = _all(client, "/tournaments?limit=1", "tournaments")

    assert [t["tournament_id"] for t in listed] == [running["tournament_id"], early["tournament_id"]]
    assert (listed[0]["name"], listed[0]["entrants"], listed[0]["status"]) == ("Late Cup", 3, "running")
    answer = client.get("/tournaments?status=registration&game=kahuna").json
    assert [t["name"] for t in answer["tournaments"]] == ["Early Cup"] and answer["next"] is None


BAD_QUERIES = [
    ("limit=0", "invalid_request"),
    ("limit=101", "invalid_request"),
    ("cursor=not-a-cursor", "bad_cursor"),
    ("cursor=" + base64.urlsafe_b64encode(b"12:{x}").decode(), "bad_cursor"),
    ("status=paused", "invalid_request"),
    ("game=chess", "invalid_request"),
]


def test_a_bad_limit_cursor_or_filter_is_a_422_problem(client: FlaskClient) -> None:
    create_game(client)
    for query, code in BAD_QUERIES:
        for path in ("/games", "/tournaments"):
            answer = client.get(f"{path}?{query}")
            assert answer.status_code == 422, (path, query)
            assert answer.headers["Content-Type"] == "application/problem+json"
            assert answer.json["code"] == code


def test_a_rebuild_from_the_events_lists_what_was_kept_after_each_append(
    app: Flask, client: FlaskClient
) -> None:
    games = [create_game(client) for _ in range(3)]
    post(client, games[0], 0, {"type": "DrawCard", "source": "stack"})
    _finished_game(app)
    tournament = create_tournament(client, rounds=1)
    for name in ("Kim", "Lou"):
        register(client, tournament, name=name)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    kept = _all(client, "/games?limit=3", "games"), _all(client, "/tournaments", "tournaments")

    with app.app_context():
        rebuilt = rebuild_listings(game_service())

    assert (rebuilt.games, rebuilt.tournaments) == (len(kept[0]), len(kept[1])) == (5, 1)
    assert (_all(client, "/games?limit=3", "games"), _all(client, "/tournaments", "tournaments")) == kept
    with app.app_context():
        again = rebuild_listings(game_service(), catch_up_only=True)
    assert (again.game_events, again.tournament_events) == (0, 0), (
        "the checkpoint was stored with the rebuild"
    )


def test_the_sweeper_lists_a_game_whose_process_died_before_recording_it(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed = create_game(client)
    with app.app_context():
        service = game_service()
        monkeypatch.setattr(service.listings, "record", lambda loaded: None)
        lost = create_game(client)
        post(client, listed, 0, {"type": "DrawCard", "source": "stack"})
        assert _ids(client, "/games") == [listed["game_id"]]

        monkeypatch.undo()
        assert sweep(service) == 0, "no job was enqueued again"

    assert _ids(client, "/games") == [listed["game_id"], lost["game_id"]]
    assert client.get("/games").json["games"][0]["version"] == view(client, listed)["version"]


def test_the_document_types_both_listings_their_query_and_their_refusals(client: FlaskClient) -> None:
    document = client.get("/openapi.json").json
    schemas = document["components"]["schemas"]
    for path, item in (("/games", "GameSummary"), ("/tournaments", "TournamentSummary")):
        operation = document["paths"][path]["get"]
        limit = next(p for p in operation["parameters"] if p["name"] == "limit")["schema"]
        assert (limit["minimum"], limit["maximum"], limit["default"]) == (1, 100, 30)
        assert {"200", "422"} <= set(operation["responses"])
        assert {"game", "status", "cursor"} <= {p["name"] for p in operation["parameters"]}
        assert "next" in schemas[f"{item.replace('Summary', 's')}Page"]["required"]
        assert {"version", "last_activity", "status"} <= set(schemas[item]["required"])
    result = schemas["GameSummary"]["properties"]["result"]
    assert result["nullable"] and "winner" in str(result)
    assert {"player", "tournament"} <= {p["name"] for p in document["paths"]["/games"]["get"]["parameters"]}
