"""The arena's all-seeing player (ai.seeing) searches the true state, so no computer seat of the
service may be it: the API refuses it by every name it has, and its document does not offer it."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from ai.seeing import SEEING


@pytest.mark.parametrize("name", [SEEING, "ismcts-omniscient", "omniscient", "SEEING"])
def test_a_computer_seat_cannot_be_the_all_seeing_player(client: FlaskClient, name: str) -> None:
    response = client.post(
        "/games", json={"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Bot", "ai": name, "level": 2}]}
    )
    assert response.status_code == 422, response.json
    assert "ai" in response.json["errors"]["seats"]["1"]
    assert client.get("/games").json["games"] == [], "nothing was written"


def test_the_api_document_offers_only_the_services_players(client: FlaskClient) -> None:
    document = client.get("/openapi.json").json
    offered = [
        schema["properties"]["ai"]["enum"]
        for schema in document["components"]["schemas"].values()
        if "ai" in schema.get("properties", {}) and "enum" in schema["properties"]["ai"]
    ]
    assert offered, "the seat schema lists its players"
    assert all(SEEING not in kinds and "ismcts" in kinds for kinds in offered)
