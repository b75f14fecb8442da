"""The OpenAPI document and the health check."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import bearer
from tests.api.tournament_helpers import create_tournament, organize, register


def test_the_openapi_document_lists_every_endpoint(client: FlaskClient) -> None:
    answer = client.get("/openapi.json")

    assert answer.status_code == 200
    document = answer.json
    assert document["openapi"].startswith("3.")
    assert set(document["paths"]) >= {
        "/games",
        "/games/{game_id}",
        "/games/{game_id}/legal",
        "/games/{game_id}/commands",
        "/games/{game_id}/events",
        "/games/{game_id}/stream",
        "/health",
        "/tournaments",
        "/tournaments/{tournament_id}",
        "/tournaments/{tournament_id}/entrants",
        "/tournaments/{tournament_id}/entrants/{entrant}/withdraw",
        "/tournaments/{tournament_id}/commands",
        "/tournaments/{tournament_id}/me",
        "/tournaments/{tournament_id}/events",
        "/tournaments/{tournament_id}/stream",
        "/tournaments/{tournament_id}/standings",
        "/tournaments/{tournament_id}/crosstable",
        "/tournaments/{tournament_id}/pairings",
        "/tournaments/{tournament_id}/audit",
        "/tournaments/{tournament_id}/export",
        "/ratings/{game}",
    }
    assert document["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    body = document["paths"]["/games/{game_id}/commands"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Command"}
    assert "Problem" in document["components"]["schemas"]


def test_health_asks_redis_whether_it_takes_writes(client: FlaskClient) -> None:
    answer = client.get("/health")
    assert (answer.status_code, answer.json) == (200, {"status": "ok", "store": "ok"})


def test_error_answers_are_documented_as_problem_json(client: FlaskClient) -> None:
    document = client.get("/openapi.json").json
    responses = document["components"]["responses"]
    for name in ("Status400", "Status422", "Status409"):
        assert set(responses[name]["content"]) == {"application/problem+json"}, name
    assert "additionalProperties" not in document["components"]["schemas"]["Problem"]


def test_the_game_view_documents_what_the_rules_show_and_lets_a_game_add_keys(client: FlaskClient) -> None:
    view = client.get("/openapi.json").json["components"]["schemas"]["KahunaView"]
    assert {"finished", "pending"} <= set(view["properties"])
    assert view.get("additionalProperties", True) is True


def test_the_request_bounds_the_server_enforces_are_in_the_document(client: FlaskClient) -> None:
    schemas = client.get("/openapi.json").json["components"]["schemas"]
    create = schemas["CreateArabanaOpodopoGame"]["properties"]
    assert create["seats"]["maxItems"] == 4
    assert create["first_seat"]["maximum"] == 3
    assert create["options"] == {"$ref": "#/components/schemas/ArabanaOpodopoOptions"}
    assert schemas["SeatRequest"]["properties"]["name"]["maxLength"] == 64
    assert schemas["PlaceBridgeCommand"]["properties"]["card"]["maxLength"] == 32


def test_the_tournament_reports_document_their_csv_and_trf_answers(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").json["paths"]
    content = paths["/tournaments/{tournament_id}/pairings"]["get"]["responses"]["200"]["content"]
    assert set(content) == {"application/json", "text/csv", "text/plain"}
    assert "text/csv" in paths["/tournaments/{tournament_id}/standings"]["get"]["responses"]["200"]["content"]
    export = paths["/tournaments/{tournament_id}/export"]["get"]["responses"]["200"]["content"]
    assert set(export) == {"application/x-ndjson"}


#: How the document writes "or null" beside a nested schema (anyOf: [this, {$ref}]).
NULL_BRANCH = {"type": "object", "nullable": True}


def _free_form(document: dict[str, Any], schema: Any, where: str, seen: set[str]) -> list[str]:
    """The places under `schema` that are objects without a declared shape (no properties and
    no schema for their values), each named by its path; $refs followed once."""
    if not isinstance(schema, dict):
        return []
    ref = schema.get("$ref")
    if isinstance(ref, str):
        if ref in seen:
            return []
        seen.add(ref)
        return _free_form(document, document["components"]["schemas"][ref.rsplit("/", 1)[1]], where, seen)
    found = []
    values = schema.get("additionalProperties")
    composed = any(schema.get(key) for key in ("allOf", "oneOf", "anyOf"))
    if (
        schema.get("type") == "object"
        and not schema.get("properties")
        and not isinstance(values, dict)
        and not composed
    ):
        found.append(where)
    for name, inner in (schema.get("properties") or {}).items():
        found += _free_form(document, inner, f"{where}.{name}", seen)
    for key in ("items", "additionalProperties"):
        found += _free_form(document, schema.get(key), f"{where}[]", seen)
    branches = schema.get("allOf", []) + schema.get("oneOf", []) + schema.get("anyOf", [])
    nullable_ref = any("$ref" in b for b in branches)
    for inner in branches:
        if not (nullable_ref and inner == NULL_BRANCH):
            found += _free_form(document, inner, where, seen)
    return found


def _declared(document: dict[str, Any], schema: dict[str, Any]) -> set[str]:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return _declared(document, document["components"]["schemas"][ref.rsplit("/", 1)[1]])
    return set(schema.get("properties") or {})


def test_the_tournament_view_me_standings_crosstable_and_pairings_are_typed(client: FlaskClient) -> None:
    document = client.get("/openapi.json").json
    tournament = create_tournament(client, rounds=1)
    ann = register(client, tournament, name="Ann")
    register(client, tournament, name="Ben")
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    url = f"/tournaments/{tournament['tournament_id']}"
    for path in ("", "/me", "/standings", "/crosstable", "/pairings"):
        answer = document["paths"][f"/tournaments/{{tournament_id}}{path}"]["get"]["responses"]["200"]
        schema = answer["content"]["application/json"]["schema"]
        free = _free_form(document, schema, path or "view", set())
        # a game's options are the game's own (POST /games documents them per game)
        assert [place for place in free if not place.endswith(".options")] == [], (path, free)
        given = client.get(url + path, headers=bearer(ann["token"])).json
        assert set(given) <= _declared(document, schema), (path, set(given) - _declared(document, schema))
