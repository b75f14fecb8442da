"""Colour preferences and seat allocation of the Dutch system (C.04.3 A.6 and E), seat 0 white."""

from __future__ import annotations

import pytest

from domain.tournament.dutch_colours import (
    ABSOLUTE,
    BLACK,
    MILD,
    NONE,
    STRONG,
    WHITE,
    allowed,
    compatible,
    first_of,
    preference,
)

W, B = WHITE, BLACK


@pytest.mark.parametrize(
    ("history", "colour", "strength"),
    [
        ((), None, NONE),
        ((None,), None, NONE),  # a bye gives no colour
        ((W,), B, STRONG),  # difference +1 after one game
        ((W, B), W, MILD),  # difference 0: the other colour than last time
        ((W, B, W), B, STRONG),  # difference +1
        ((B, None, W, B), W, STRONG),
        ((W, W), B, ABSOLUTE),  # the same colour twice running
        ((B, W, W), B, ABSOLUTE),
        ((W, B, W, W, None), B, ABSOLUTE),  # difference +2, the bye skipped
        ((B, B, W, B), W, ABSOLUTE),
    ],
)
def test_a6_colour_preference(history: tuple[int | None, ...], colour: int | None, strength: int) -> None:
    got = preference(history)
    assert (got.colour, got.strength) == (colour, strength)


def test_the_absolute_rules_forbid_a_difference_past_two_and_a_third_same_colour() -> None:
    assert not allowed((W, B, W, W), W)  # difference would be +3... and three whites
    assert not allowed((W, W), W)
    assert not allowed((W, W, None), W)  # a bye does not break the run
    assert allowed((W, W), B)
    assert not allowed((W, B, W, B, W, W, B, W), W)  # +3
    assert allowed((B, W, W), B)


def test_two_entrants_with_the_same_absolute_preference_cannot_meet() -> None:
    assert not compatible((W, W), (B, W, W))
    assert compatible((W, W), (B, B))


def test_e1_both_preferences_granted_when_they_differ() -> None:
    assert first_of((B,), (W,), 1) is True
    assert first_of((W,), (B,), 1) is False


def test_e2_the_stronger_preference_wins() -> None:
    # higher: mild white (last black); lower: absolute white (two blacks running)
    assert first_of((W, B), (B, B), 1) is False
    # higher: strong black (+1); lower: mild black
    assert first_of((W, B, W), (B, W), 2) is False


def test_e3_colours_alternate_from_the_last_round_they_differed() -> None:
    # Both mild white; in round 2 the higher had white, the lower black: the higher gets black,
    # though E.4 alone would give it its preference.
    assert first_of((B, W, W, B), (W, B, W, B), 1) is False
    assert first_of((W, B, W, B), (B, W, W, B), 1) is True


def test_e4_the_higher_ranked_gets_its_preference_when_histories_are_alike() -> None:
    assert first_of((W, B), (W, B), 2) is True
    assert first_of((B, W), (B, W), 1) is False


def test_e5_without_preferences_an_odd_pairing_number_takes_the_initial_colour() -> None:
    assert first_of((), (), 1) is True
    assert first_of((), (), 2) is False
    assert first_of((), (), 2, initial=BLACK) is True
