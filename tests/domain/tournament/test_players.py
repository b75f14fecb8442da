"""A person's entrant may be registered as a player (the service names it, having checked the
player's token); the player is kept with the entrant, one entrant per player in play."""

from __future__ import annotations

import pytest

from tests.domain.tournament.tournament_given import refold, registered, stored

ANN = "p00000000000000a1"


def test_a_person_registered_as_a_player_keeps_the_player_through_the_store() -> None:
    game = registered(1).then("RegisterEntrant", name="Ann", player=ANN)
    event = game.history[-1]
    assert event.data["player"] == ANN
    again = refold([stored(e) for e in game.history])
    assert again.entrant("e2") is not None and again.entrant("e2").player == ANN  # type: ignore[union-attr]


def test_an_entrant_registered_without_a_player_names_none_and_keeps_the_earlier_event_shape() -> None:
    game = registered(1)
    assert "player" not in game.history[-1].data
    assert game.state.entrant("e1").player is None  # type: ignore[union-attr]


def test_one_player_holds_one_entrant_in_play_and_another_once_it_withdrew() -> None:
    game = registered(0).then("RegisterEntrant", name="Ann", player=ANN)
    assert game.rejects("RegisterEntrant", name="Ann Moss", player=ANN) == "player_registered"
    back = game.then("WithdrawEntrant", entrant="e1").then("RegisterEntrant", name="Ann Moss", player=ANN)
    assert back.state.entrant("e2").player == ANN  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"name": "Ann", "player": "ann"}, "bad_player"),
        ({"name": "Ann", "player": 7}, "bad_player"),
        ({"name": "Ann", "player": "P00000000000000A1"}, "bad_player"),
        ({"kind": "ai", "level": 1, "player": ANN}, "computer_holds_no_player"),
    ],
)
def test_a_player_that_is_no_player_id_or_a_computer_with_one_is_refused(args: dict, code: str) -> None:
    assert registered(1).rejects("RegisterEntrant", **args) == code
