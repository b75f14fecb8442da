"""The served document as a contract: typed unions built from the registered games, every
status, header and media type each operation answers with, the API version."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.game_module import GameSchemas
from domain.games import GAMES, register_game, unregister_game
from service.api.game_components import camel
from service.api.openapi import API_VERSION
from tests.api.helpers import bearer
from tests.families.registered import TEST_GAMES
from tests.platform.example_game import RACE

ROOT = Path(__file__).resolve().parents[2]


def renamed(name: str, **changes: Any) -> Any:
    """The race under another name (its view names the game it is)."""
    return replace(
        RACE, name=name, view=lambda state, seat: {**RACE.view(state, seat), "game": name}, **changes
    )


UNTYPED = renamed("race-untyped", schemas=GameSchemas())
"""The race as a game that declares no schema at all."""
FIELDED = renamed(
    "race-fielded",
    schemas=replace(
        RACE.schemas,
        commands={
            **RACE.schemas.commands,
            "Jump": {"type": "object", "properties": {"height": {"type": "integer"}}},
        },
    ),
)
"""The race with a command field no other game has."""


def document(client: FlaskClient) -> dict[str, Any]:
    answer: dict[str, Any] = client.get("/openapi.json").json
    return answer


def test_commands_and_events_are_unions_discriminated_by_type_one_schema_per_type(
    client: FlaskClient,
) -> None:
    schemas = document(client)["components"]["schemas"]

    for union, suffix in (("Command", "Command"), ("Event", "Event")):
        mapping = schemas[union]["discriminator"]["mapping"]
        assert schemas[union]["discriminator"]["propertyName"] == "type"
        assert {r["$ref"] for r in schemas[union]["oneOf"]} == set(mapping.values())
        for kind, target in mapping.items():
            assert target == f"#/components/schemas/{kind}{suffix}"
            for variant in variants(schemas, f"{kind}{suffix}"):
                assert variant["properties"]["type"]["enum"] == [kind]
    place = schemas["PlaceBridgeCommand"]
    assert set(place["required"]) == {"type", "card", "line"} and place["additionalProperties"] is False
    secret = schemas["CardDrawnEvent"]["properties"]["secret"]  # the islands' and Conquest of Paradise's
    assert {v["properties"]["card"].get("maxLength") for v in secret["anyOf"]} == {32, None}
    assert {"Undo", "RequestTakeback", "AnswerTakeback"} <= set(
        schemas["Command"]["discriminator"]["mapping"]
    )
    assert {"GameCreated", "Undone", "TakebackRequested"} <= set(schemas["Event"]["discriminator"]["mapping"])


def variants(schemas: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The schemas a component stands for: itself, or each game's variant it is anyOf."""
    found = schemas[name]
    return [schemas[r["$ref"].rsplit("/", 1)[1]] for r in found["anyOf"]] if "anyOf" in found else [found]


def test_a_command_type_games_shape_differently_has_a_component_per_games_variant(
    client: FlaskClient,
) -> None:
    schemas = document(client)["components"]["schemas"]

    assert sorted(schemas["MoveCommand"]["anyOf"], key=str) == [
        {"$ref": "#/components/schemas/ConquestOfParadiseMoveCommand"},
        {"$ref": "#/components/schemas/NanuukMoveCommand"},
    ]
    assert set(schemas["NanuukMoveCommand"]["required"]) == {"type", "piece", "cell"}
    assert set(schemas["ConquestOfParadiseMoveCommand"]["required"]) == {"type", "path", "pieces"}
    assert schemas["ConquestOfParadiseMoveCommand"]["properties"]["path"]["maxItems"] == 4


def test_views_creation_and_options_are_typed_per_game_with_its_seat_counts(client: FlaskClient) -> None:
    schemas = document(client)["components"]["schemas"]

    assert set(schemas["GameView"]["discriminator"]["mapping"]) == set(GAMES)
    assert set(schemas["CreateGame"]["discriminator"]["mapping"]) == set(GAMES)
    opodopo = schemas["CreateArabanaOpodopoGame"]["properties"]
    assert (opodopo["seats"]["minItems"], opodopo["seats"]["maxItems"]) == (3, 4)
    assert opodopo["first_seat"]["maximum"] == 3
    assert schemas["KahunaOptions"]["properties"]["edition"]["enum"] == ["original", "thames-kosmos"]
    assert schemas["KahunaOptions"]["additionalProperties"] is False
    view = schemas["KahunaView"]["properties"]
    assert {"finished", "pending", "latest_version", "hand", "chain_broken", "takeback"} <= set(view)
    assert view["options"] == {"$ref": "#/components/schemas/KahunaOptions"}


@pytest.mark.usefixtures("test_families")
def test_a_family_that_lives_in_the_tests_is_typed_as_every_registered_game(client: FlaskClient) -> None:
    schemas = document(client)["components"]["schemas"]

    for name in TEST_GAMES:
        declared = GAMES[name].schemas
        assert name in schemas["GameView"]["discriminator"]["mapping"]
        assert name in schemas["CreateGame"]["discriminator"]["mapping"]
        assert set(declared.commands) <= set(schemas["Command"]["discriminator"]["mapping"])
        assert set(declared.events) <= set(schemas["Event"]["discriminator"]["mapping"])
        assert f"{camel(name)}View" in schemas and f"{GAMES[name].end_event}Event" in schemas


@pytest.fixture
def untyped() -> Iterator[None]:
    register_game(UNTYPED)
    yield
    unregister_game(UNTYPED.name)


def test_a_game_that_declares_no_schema_gets_generic_ones_and_plays_through_the_checked_client(
    untyped: None, app: Flask
) -> None:
    client = app.test_client()  # checks each answer against this document
    schemas = document(client)["components"]["schemas"]
    assert schemas["Command"]["anyOf"][1] == {"$ref": "#/components/schemas/GenericCommand"}
    assert schemas["Event"]["anyOf"][1] == {"$ref": "#/components/schemas/GenericEvent"}
    assert schemas["RaceUntypedView"]["additionalProperties"] is True

    created = client.post("/games", json={"game": "race-untyped", "seats": [{"name": "A"}, {"name": "B"}]})
    assert created.status_code == 201, created.json
    game_id, first = created.json["game_id"], created.json["seats"]
    active = client.get(f"/games/{game_id}").json["active"]
    stepped = client.post(
        f"/games/{game_id}/commands", json={"type": "Step"}, headers=bearer(first[active]["token"])
    )
    assert stepped.status_code == 200, stepped.json
    assert [e["type"] for e in client.get(f"/games/{game_id}/events").json["events"]][-1] == "Stepped"


@pytest.fixture
def fielded() -> Iterator[None]:
    register_game(FIELDED)
    yield
    unregister_game(FIELDED.name)


def test_a_command_field_a_new_game_declares_reaches_its_rules_without_a_service_change(
    fielded: None, client: FlaskClient
) -> None:
    assert "height" in document(client)["components"]["schemas"]["JumpCommand"]["properties"]
    created = client.post("/games", json={"game": "race-fielded", "seats": [{"name": "A"}, {"name": "B"}]})
    game_id, seats = created.json["game_id"], created.json["seats"]

    jump = client.post(
        f"/games/{game_id}/commands", json={"type": "Jump", "height": 3}, headers=bearer(seats[0]["token"])
    )
    unknown = client.post(
        f"/games/{game_id}/commands", json={"type": "Jump", "width": 3}, headers=bearer(seats[0]["token"])
    )

    assert (jump.status_code, jump.json["code"]) == (422, "unknown_command")  # the race's own refusal
    assert (unknown.status_code, unknown.json["code"]) == (422, "invalid_request")
    assert "width" in unknown.json["errors"]


def operation(client: FlaskClient, method: str, path: str) -> dict[str, Any]:
    found: dict[str, Any] = document(client)["paths"][path][method]
    return found


def test_every_refusal_a_command_may_get_is_documented_as_problem_json(client: FlaskClient) -> None:
    command = operation(client, "post", "/games/{game_id}/commands")
    responses = document(client)["components"]["responses"]

    statuses = {"400", "401", "403", "404", "409", "412", "413", "415", "422", "428", "429", "500", "503"}
    assert statuses <= set(command["responses"]) and "default" not in command["responses"]
    for status in statuses:
        name = command["responses"][status]["$ref"].rsplit("/", 1)[1]
        assert set(responses[name]["content"]) == {"application/problem+json"}, status
    assert "WWW-Authenticate" in responses["Status401"]["headers"]
    assert "Retry-After" in responses["Status429"]["headers"]
    headers = {p["name"]: p for p in command["parameters"] if p["in"] == "header"}
    assert headers["Idempotency-Key"]["schema"]["maxLength"] == 255
    assert set(command["responses"]["200"]["headers"]) == {"ETag", "Vary"}


def test_reads_document_optional_tokens_conditional_requests_and_their_headers(client: FlaskClient) -> None:
    view = operation(client, "get", "/games/{game_id}")
    created = operation(client, "post", "/games")

    assert view["security"] == [{}, {"bearerAuth": []}]
    assert "If-None-Match" in {p["name"] for p in view["parameters"]}
    assert {"304", "401", "404", "409"} <= set(view["responses"])
    assert set(created["responses"]["201"]["headers"]) == {"ETag", "Vary", "Location"}
    at = next(p for p in view["parameters"] if p["name"] == "at")
    assert at["schema"]["minimum"] == 1


def test_the_stream_export_notation_and_import_document_their_media_types(client: FlaskClient) -> None:
    stream = operation(client, "get", "/games/{game_id}/stream")
    names = {p["name"] for p in stream["parameters"]}

    assert {"Last-Event-ID", "after"} <= names
    assert set(stream["responses"]["200"]["content"]) == {"text/event-stream"}
    assert "Cache-Control" in stream["responses"]["200"]["headers"]
    export = operation(client, "get", "/games/{game_id}/export")["responses"]["200"]
    assert set(export["content"]) == {"application/x-ndjson"}
    assert set(operation(client, "get", "/games/{game_id}/notation")["responses"]["200"]["content"]) == {
        "text/plain"
    }
    body = operation(client, "post", "/games/import")["requestBody"]["content"]
    assert set(body) == {"application/x-ndjson", "application/json"}


def test_the_document_carries_the_api_version_the_changelog_describes(client: FlaskClient) -> None:
    version = document(client)["info"]["version"]

    assert version == API_VERSION and re.fullmatch(r"\d+\.\d+\.\d+", version)
    changelog = (ROOT / "docs" / "api-changelog.md").read_text()
    assert f"## {version}" in changelog


def test_every_field_refusing_blank_text_says_so_in_the_document() -> None:
    """A field that refuses all-blank text carries the not-blank pattern, so a client built from
    the document never sends what the service refuses as malformed (the fuzzer found an
    annotation author that did not)."""
    from marshmallow import Schema

    from service.api import schemas

    silent = [
        f"{name}.{key}"
        for name, schema in vars(schemas).items()
        if isinstance(schema, type) and issubclass(schema, Schema) and schema.__module__ == schemas.__name__
        for key, field in schema._declared_fields.items()
        if schemas._not_blank in (field.validators or [])
        and field.metadata.get("pattern") != schemas.NOT_BLANK
    ]
    assert silent == []
