"""The Conquest of Paradise schemas the API document types cover exactly what the rules know."""

from __future__ import annotations

from domain.games import GAMES
from domain.paradise.engine import COMMANDS, EVOLVERS
from domain.paradise.setup import SWITCHES


def test_every_seat_command_event_and_option_of_the_rules_has_a_schema() -> None:
    schemas = GAMES["conquest-of-paradise"].schemas

    assert set(schemas.commands) == COMMANDS - {"Draw"}  # the system's, never a seat's
    assert set(schemas.events) == set(EVOLVERS) | {"GameEnded"}
    assert set(schemas.options["properties"]) == {*SWITCHES, "end_shift", "last_turn"}
    assert set(schemas.secrets) <= set(schemas.events)
    assert {"phase", "players", "choice", "result"} <= set(schemas.view["required"])
