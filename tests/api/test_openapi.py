"""The OpenAPI document and the health check."""

from __future__ import annotations

from flask.testing import FlaskClient


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
    }
    assert document["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    body = document["paths"]["/games/{game_id}/commands"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Command"}
    assert "Problem" in document["components"]["schemas"]


def test_health_pings_redis(client: FlaskClient) -> None:
    answer = client.get("/health")
    assert (answer.status_code, answer.json) == (200, {"status": "ok"})
