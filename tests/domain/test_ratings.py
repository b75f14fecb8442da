"""Ratings: a game's places move each player's rating in the order of the places."""

from __future__ import annotations

import pytest

from domain.ratings import Rating, initial_rating, rate


def test_a_new_player_starts_at_mu_25_sigma_25_thirds_with_ordinal_0() -> None:
    fresh = initial_rating()
    assert (fresh.mu, fresh.sigma, fresh.games) == (25.0, pytest.approx(25 / 3), 0)
    assert fresh.ordinal == pytest.approx(0.0)


def test_ordinal_is_mu_minus_three_sigma() -> None:
    assert Rating(30.0, 2.0).ordinal == 24.0


def test_a_win_raises_the_winner_and_lowers_the_loser() -> None:
    new = rate({}, {"ann": 1, "bob": 2})
    assert new["ann"].mu > 25.0 > new["bob"].mu
    assert new["ann"].ordinal > 0.0


def test_a_game_makes_every_rating_surer_and_counts_one_game() -> None:
    before = {"ann": Rating(27.0, 5.0, 3), "bob": initial_rating()}
    new = rate(before, {"ann": 2, "bob": 1})
    assert new["ann"].sigma < 5.0 and new["bob"].sigma < initial_rating().sigma
    assert (new["ann"].games, new["bob"].games) == (4, 1)


def test_a_four_player_result_orders_the_changes_by_place() -> None:
    places = {"d": 4, "a": 1, "c": 3, "b": 2}
    new = rate({}, places)
    changes = {p: new[p].mu - 25.0 for p in places}
    assert changes["a"] > changes["b"] > changes["c"] > changes["d"]
    assert changes["a"] > 0 > changes["d"]


def test_a_three_player_result_orders_the_changes_by_place() -> None:
    new = rate({}, {"x": 2, "y": 3, "z": 1})
    assert new["z"].mu > new["x"].mu > new["y"].mu


def test_a_tie_between_equals_leaves_both_at_the_same_mean() -> None:
    new = rate({}, {"ann": 1, "bob": 1})
    assert new["ann"] == new["bob"]
    assert new["ann"].mu == pytest.approx(25.0)


def test_players_sharing_a_place_in_four_move_alike() -> None:
    new = rate({}, {"a": 1, "b": 2, "c": 2, "d": 4})
    assert new["b"] == new["c"]
    assert new["a"].mu > new["b"].mu > new["d"].mu


def test_a_tie_with_a_stronger_player_raises_the_weaker_one() -> None:
    new = rate({"strong": Rating(35.0, 3.0, 20), "weak": Rating(20.0, 3.0, 20)}, {"strong": 1, "weak": 1})
    assert new["weak"].mu > 20.0 and new["strong"].mu < 35.0


def test_an_upset_moves_ratings_more_than_the_expected_result() -> None:
    before = {"strong": Rating(35.0, 3.0, 20), "weak": Rating(20.0, 3.0, 20)}
    expected = rate(before, {"strong": 1, "weak": 2})
    upset = rate(before, {"strong": 2, "weak": 1})
    assert upset["weak"].mu - 20.0 > expected["strong"].mu - 35.0 > 0


def test_the_same_game_rates_the_same_whatever_the_order_of_its_players() -> None:
    before = {"a": Rating(26.0, 7.0, 2), "b": Rating(24.0, 6.0, 5), "c": initial_rating()}
    first = rate(before, {"a": 2, "b": 1, "c": 3})
    again = rate(dict(reversed(before.items())), {"c": 3, "b": 1, "a": 2})
    assert first == again


@pytest.mark.parametrize("places", [{}, {"solo": 1}, {k: i for i, k in enumerate("abcde", 1)}])
def test_a_game_of_fewer_than_2_or_more_than_4_players_is_not_rated(places: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        rate({}, places)
