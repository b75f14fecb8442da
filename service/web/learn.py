"""A guided first game: "Learn Kahuna" creates a game against the random computer and opens
its board with the guide on (`guide=kahuna` in the fragment, beside the token).

The guide (static/guide.js) only reads the page it is shown on; the game itself is an ordinary
casual game, stored and refereed like any other, so the flag is the page's, not the game's.
"""

from __future__ import annotations

from typing import Any

from flask import redirect, url_for
from marshmallow import ValidationError

from domain.decider import DomainError
from service.api.context import game_service
from service.api.problems import SERVICE_STATUS
from service.api.rate_limits import client_address, creation_limit
from service.api.schemas import DEFAULT_AI_LEVEL, CreateGameSchema
from service.errors import ServiceError
from service.web.lobby import NO_STORE, refused

#: The first game of a new player: they start, against the computer that plays at random.
LEARNING_SETUP = {
    "game": "kahuna",
    "seats": [{"name": "Player"}, {"name": "Computer", "ai": "random", "level": DEFAULT_AI_LEVEL}],
    "options": {},
    "first_seat": 0,
}


@creation_limit
def learn_kahuna() -> Any:
    """Create the guided game and go to its board, the token and the guide's flag in the fragment."""
    try:
        setup = CreateGameSchema().load(LEARNING_SETUP)
        created = game_service().create(setup, client=client_address())
    except ValidationError as error:
        return refused(422, "validation_failed", "the guided game could not be set up", error.messages)
    except DomainError as error:
        return refused(422, error.code, error.message, None)
    except ServiceError as error:
        return refused(SERVICE_STATUS.get(type(error), 409), error.code, error.message, None)
    token = created.tokens[0]
    link = url_for("web.play", game_id=created.game_id) + f"#token={token}&guide=kahuna"
    return redirect(link, 303), NO_STORE
