"""Every field a registered game's commands carry is one the HTTP command body loads."""

from __future__ import annotations

import pytest
from marshmallow import ValidationError

from domain.games import GAMES
from service.api.schemas import CommandSchema
from tests.families.registered import EVERY_GAME


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", EVERY_GAME)
def test_a_game_s_command_fields_are_fields_of_the_command_body(name: str) -> None:
    schema = CommandSchema()
    typed = {field.data_key or key for key, field in schema.fields.items()}
    # A field no game had before is let through as its game declares it; its rules check it.
    for field in set(GAMES[name].command_fields) - typed:
        assert schema.load({"type": "Any", field: 1}) == {"type": "Any", field: 1}


def test_hex_cells_and_lines_load_and_malformed_ones_are_refused() -> None:
    schema = CommandSchema()
    body = {"type": "Move", "piece": 0, "cell": [1, -2], "kayak": True, "sled": True, "one_crack": False}
    assert schema.load(body) == body
    crack = {"type": "PlaceCrack", "crack": [[0, -1], [1, -1]]}
    assert schema.load(crack) == crack
    for bad in ({"cell": [1]}, {"cell": ["1", "2"]}, {"crack": [[0, 1]]}, {"piece": -1}, {"kayak": "yes"}):
        with pytest.raises(ValidationError):
            schema.load({"type": "Move", **bad})


def test_a_piece_is_a_nanuuk_piece_number_or_a_paradise_piece_kind_and_nothing_else() -> None:
    schema = CommandSchema()
    assert schema.load({"type": "Move", "piece": 63}) == {"type": "Move", "piece": 63}
    assert schema.load({"type": "Lose", "piece": "war_canoe"}) == {"type": "Lose", "piece": "war_canoe"}
    for bad in (64, True, 1.5, None, ["band"], "x" * 33):
        with pytest.raises(ValidationError):
            schema.load({"type": "Move", "piece": bad})
