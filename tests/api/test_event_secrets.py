"""Each event's `secret` is typed by what its game declares (GameSchemas.secrets; the deal's seed
in domain/platform_schemas.py): an event type no game gives a secret is null in the document, never a
free-form object, and every secret of the golden games is what its event's schema says.
(tests/api/test_contract_answers.py holds every event of random playouts, each seat's secrets
included, to the same document.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from openapi_schema_validator import OAS30Validator

from domain.games import GAMES
from replays.archive import read
from tests.api.test_openapi import _free_form

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.jsonl"))


def secret_validator(document: dict[str, Any], event_type: str) -> OAS30Validator:
    secret = document["components"]["schemas"][f"{event_type}Event"]["properties"]["secret"]
    return OAS30Validator({**secret, "components": document["components"]})


def test_every_event_s_secret_is_typed_and_null_where_no_game_declares_one(client: FlaskClient) -> None:
    document = client.get("/openapi.json").json
    schemas = document["components"]["schemas"]
    declared = {name for game in GAMES.values() for name in game.schemas.secrets} | {"GameCreated"}
    events = sorted(schemas["Event"]["discriminator"]["mapping"])
    assert "TurnEnded" in events and "CardDrawn" in events
    for name in events:
        secret = schemas[f"{name}Event"]["properties"]["secret"]
        assert not _free_form(document, secret, name, set()), name
        if name not in declared:
            assert secret.get("enum") == [None], name
            assert not secret_validator(document, name).is_valid({"card": "Aitutaki"}), name
        assert secret_validator(document, name).is_valid(None), name


def test_every_secret_of_the_golden_games_is_what_its_event_declares(client: FlaskClient) -> None:
    document = client.get("/openapi.json").json
    checked = 0
    for path in GOLDEN:
        for envelope in read(path.read_bytes()).envelopes:
            errors = list(secret_validator(document, envelope.type).iter_errors(envelope.secret))
            assert not errors, (path.name, envelope.version, envelope.type, errors[0].message)
            checked += envelope.secret is not None
    assert checked > 100  # the card and tile secrets of the islands' and Paradise's golden games
