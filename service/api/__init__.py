"""The HTTP API: flask-smorest blueprints, marshmallow schemas, problem+json errors."""

from __future__ import annotations

import http
from typing import Any

import flask_smorest
from flask import Flask
from flask_smorest.utils import prepare_response

from domain.games import GAMES
from service.api import (
    accounts,
    deal,
    finish,
    game_components,
    games,
    listings,
    open_seats,
    openapi,
    players,
    problems,
    receipts,
    replays,
    seat_keys,
    sizes,
    system,
    tournament_reports,
    tournaments,
    undo,
)
from service.api.problems import PROBLEM_JSON
from service.api.schemas import ProblemSchema
from service.api.tournament_event_schemas import register_stream_components

OPENAPI_CONFIG = {
    "API_TITLE": "Archipelago",
    "API_VERSION": openapi.API_VERSION,
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
}


class Api(flask_smorest.Api):  # type: ignore[misc]
    """flask-smorest's Api, documenting error answers with the problem+json schema."""

    ERROR_SCHEMA = ProblemSchema
    # Every operation lists its own error statuses (service/api/openapi.py), none a catch-all.
    DEFAULT_ERROR_RESPONSE_NAME = None

    def _register_responses(self) -> None:
        """flask-smorest's one response per status, typed application/problem+json as sent."""
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not 100 <= status < 200 and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)


def init_api(app: Flask) -> Api:
    """Register the blueprints, the OpenAPI document at /openapi.json and the error handlers."""
    for key, value in OPENAPI_CONFIG.items():
        app.config.setdefault(key, value)
    api = Api(app, spec_kwargs={"extra_plugins": [openapi.ContractPlugin()]})
    api.spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    api.spec.components.security_scheme(
        "sessionCookie", {"type": "apiKey", "in": "cookie", "name": "archipelago_session"}
    )
    openapi.register_components(api.spec, api.ma_plugin.converter)
    api.register_blueprint(games.blp)
    api.register_blueprint(listings.blp)
    api.register_blueprint(undo.blp)
    api.register_blueprint(finish.blp)
    api.register_blueprint(deal.blp)
    api.register_blueprint(seat_keys.blp)
    api.register_blueprint(open_seats.blp)
    api.register_blueprint(replays.blp)
    api.register_blueprint(system.blp)
    api.register_blueprint(receipts.blp)
    api.register_blueprint(tournaments.blp)
    api.register_blueprint(tournament_reports.blp)
    api.register_blueprint(players.blp)
    api.register_blueprint(accounts.blp)
    register_stream_components(api.spec)
    schemas = api.spec.components.schemas
    schemas.update(game_components.build(list(GAMES.values()), schemas))
    # After Api(app), so that ours replace flask-smorest's JSON error handler.
    problems.register(app)
    sizes.install(app)
    return api
