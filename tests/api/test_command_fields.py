"""Every field a registered game's commands carry is one the HTTP command body loads."""

from __future__ import annotations

import pytest
from marshmallow import ValidationError

from domain.games import GAMES
from service.api.schemas import CommandSchema


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_s_command_fields_are_fields_of_the_command_body(name: str) -> None:
    schema = CommandSchema()
    declared = {field.data_key or key for key, field in schema.fields.items()}
    assert set(GAMES[name].command_fields) <= declared


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
