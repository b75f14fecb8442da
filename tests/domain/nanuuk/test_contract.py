"""The Nanuuk! schemas the API document types cover exactly what the rules know."""

from __future__ import annotations

import pytest

from domain.games import GAMES
from domain.nanuuk.decide import COMMANDS
from domain.nanuuk.evolve import HANDLERS
from domain.nanuuk.rules import OPTIONS


@pytest.mark.parametrize("game", sorted(OPTIONS))
def test_every_seat_command_event_and_option_of_the_rules_has_a_schema(game: str) -> None:
    schemas = GAMES[game].schemas

    assert set(schemas.commands) == COMMANDS - {"LayOutIce"}  # the system's, never a seat's
    assert set(schemas.events) == set(HANDLERS)
    assert set(schemas.options["properties"]) == set(OPTIONS[game])
    assert schemas.options["additionalProperties"] is False  # read_options refuses unknown names
    assert {"phase", "awaiting", "sheets", "pieces", "result"} <= set(schemas.view["required"])
