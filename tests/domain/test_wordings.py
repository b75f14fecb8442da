"""Refusals name numbers as people say them: "2 seats", "3-4 seats", never "2-2 seats"."""

from __future__ import annotations

import pytest

from domain.decider import IllegalMove
from domain.islands import engine


def _seats(n: int) -> list[dict[str, str]]:
    return [{"name": f"P{i}"} for i in range(n)]


@pytest.mark.parametrize(
    ("game", "seats", "wording"),
    [
        ("kahuna", 3, "kahuna is played by 2 seats, not 3"),
        ("arabana-ikibiti", 1, "arabana-ikibiti is played by 2 seats, not 1"),
        ("arabana-opodopo", 2, "arabana-opodopo is played by 3-4 seats, not 2"),
    ],
)
def test_a_wrong_seat_count_names_the_seats_the_game_is_played_by(
    game: str, seats: int, wording: str
) -> None:
    with pytest.raises(IllegalMove) as refusal:
        engine.initial_state({"game": game, "seats": _seats(seats)})
    assert refusal.value.code == "bad_seat_count"
    assert refusal.value.message == wording
