"""Running tournaments through HTTP only: create, register, command, ask /me."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import bearer


def create_tournament(client: FlaskClient, **settings: Any) -> dict[str, Any]:
    """A Kahuna Swiss of 3 rounds unless `settings` say otherwise (rounds=None: no rounds)."""
    body = {"name": "Island Cup", "game": "kahuna", "format": "swiss", "rounds": 3, **settings}
    body = {key: value for key, value in body.items() if value is not None}
    answer = client.post("/tournaments", json=body)
    assert answer.status_code == 201, answer.json
    return dict(answer.json)


def register(client: FlaskClient, tournament: dict[str, Any], **entrant: Any) -> dict[str, Any]:
    headers = bearer(tournament["organizer_token"]) if entrant.get("kind") == "ai" else {}
    answer = client.post(
        f"/tournaments/{tournament['tournament_id']}/entrants", json=entrant, headers=headers
    )
    assert answer.status_code == 201, answer.json
    return dict(answer.json)


def command(client: FlaskClient, tournament: dict[str, Any], body: dict[str, Any], **headers: str) -> Any:
    return client.post(
        f"/tournaments/{tournament['tournament_id']}/commands",
        json=body,
        headers={**bearer(tournament["organizer_token"]), **headers},
    )


def organize(client: FlaskClient, tournament: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    answer = command(client, tournament, body)
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def view(client: FlaskClient, tournament: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"/tournaments/{tournament['tournament_id']}")
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def me(client: FlaskClient, tournament: dict[str, Any], token: str) -> dict[str, Any]:
    answer = client.get(f"/tournaments/{tournament['tournament_id']}/me", headers=bearer(token))
    assert answer.status_code == 200, answer.json
    return dict(answer.json)
