"""The evaluation of Conquest of Paradise (domain/paradise/evaluate.py): a seat's standing is its
VP plus what its position promises, and a position with more of either scores higher."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.games import rules_for
from domain.paradise.evaluate import (
    CARD_VP,
    INCOME_TURNS,
    points_to_spend,
    standing,
    turns_left,
    win_chances,
)
from domain.paradise.state import Draft, Island, Stack, counts, put, with_island, with_stack

GAME = rules_for("conquest-of-paradise")
FAR = (12, 2)
NEAR = (9, 5)


def game(**options: Any) -> Any:
    """Three seats in the middle of turn 2's movement phase, each with its start."""
    created = {"game": GAME.name, "seats": [{"name": f"p{n}"} for n in range(3)], "options": options}
    state = GAME.initial_state(created)
    return replace(state, phase="move", turn=2, due=None, choice=None, order=(0, 1, 2))


def free_group(state: Any, at: tuple[int, int], face_up: bool = True, found_by: tuple[int, ...] = ()) -> Any:
    island = Island("Rarotonga", 3, 0, False, False, face_up, discoverers=found_by)
    return with_island(replace(state, unknown=state.unknown - {at}), at, island)


def chance(state: Any, seat: int = 0, viewer: int | None = 0) -> float:
    return win_chances(state, viewer)[seat]


def test_a_seat_with_one_village_more_scores_higher() -> None:
    state = game()
    base = state.bases[0]
    more = with_island(state, base, replace(state.islands[base], villages=state.islands[base].villages + 1))
    assert chance(more) > chance(state)
    assert standing(more, 0, 0) - standing(state, 0, 0) >= 1.0  # a VP, plus its income


def test_a_village_ordered_scores_almost_as_much_as_a_built_one_and_more_than_a_piece_ordered() -> None:
    state = game()
    base = state.bases[0]
    village = replace(state, drafts=put(state.drafts, 0, Draft(items=(("village", base),))))
    canoe = replace(state, drafts=put(state.drafts, 0, Draft(items=(("war_canoe", base),))))
    card = replace(state, drafts=put(state.drafts, 0, Draft(items=(("card", None),))))
    assert chance(village) > chance(card) > chance(canoe) > chance(state)


def test_pieces_colonies_near_a_free_group_and_groups_found_add_to_a_standing() -> None:
    state = free_group(game(), NEAR)
    base = state.bases[0]
    home = state.pieces(base, 0)
    with_canoe = with_stack(state, base, 0, Stack(counts(**{**home, "transport": home["transport"] + 1})))
    assert chance(with_canoe) > chance(state)
    far = with_stack(state, FAR, 0, Stack(counts(transport=1, colony=1)))
    close = with_stack(state, (9, 4), 0, Stack(counts(transport=1, colony=1)))
    ready = with_stack(state, NEAR, 0, Stack(counts(transport=1, colony=1)))
    assert chance(ready) > chance(close) > chance(far)
    hidden = free_group(game(), NEAR, face_up=False, found_by=(0,))
    unseen = free_group(game(), NEAR, face_up=False, found_by=(1,))
    assert standing(hidden, 0, 0) > standing(unseen, 0, 0)


def test_income_counts_this_turn_s_points_until_ordered_and_the_turns_left_after_it() -> None:
    assert turns_left(game()) == INCOME_TURNS
    assert turns_left(game(last_turn=4)) == 2
    last = game(last_turn=2)
    assert turns_left(last) == 0
    base = last.bases[0]
    income = last.islands[base].villages
    assert points_to_spend(last, 0, income) == income  # this turn's build is still to come
    building = replace(last, phase="build")
    ordered = replace(building, drafts=put(building.drafts, 0, Draft(items=(("village", base),))))
    assert points_to_spend(ordered, 0, income) == income - 2
    committed = replace(ordered, drafts=put(ordered.drafts, 0, replace(ordered.drafts[0], committed=True)))
    assert points_to_spend(committed, 0, income) == 0
    island = committed.islands[base]
    more = with_island(committed, base, replace(island, villages=island.villages + 1))
    # After the last build, a village is its VP and its square only: no income to come.
    assert standing(more, 0, 0) - standing(committed, 0, 0) < 1.0


def test_the_standing_never_falls_when_a_phase_or_a_turn_passes() -> None:
    """A greedy player once flipped a transport up and down for ever rather than end the last
    movement phase, after which its villages' income no longer counted."""
    for options in ({}, {"last_turn": 2}, {"last_turn": 8}):
        moving = game(**options)
        building = replace(moving, phase="build")
        assert standing(building, 0, 0) == standing(moving, 0, 0)
        ending = replace(moving, phase="victory")
        next_turn = replace(moving, phase="order", turn=moving.turn + 1)
        assert standing(next_turn, 0, 0) >= standing(ending, 0, 0)  # a further turn may come in sight
    last = game(last_turn=3)
    assert standing(replace(last, phase="order", turn=3), 0, 0) == standing(
        replace(last, phase="victory"), 0, 0
    )


def test_others_hidden_cards_count_at_the_deck_average_for_a_viewer_and_at_their_face_in_a_world() -> None:
    state = replace(game(), hands=((), ("Tattoo", "Haka"), ()))
    plain = game()
    assert standing(state, 1, 0) - standing(plain, 1, 0) == pytest.approx(2 * CARD_VP)
    assert standing(state, 1, None) - standing(plain, 1, None) == pytest.approx(1.0)  # Tattoo 1, Haka 0
    assert standing(state, 1, 1) - standing(plain, 1, 1) == pytest.approx(1.0)


def test_a_finished_game_gives_its_winners_the_whole_chance() -> None:
    state = replace(game(), result={"winners": [2]})
    assert win_chances(state, 0) == [0.0, 0.0, 1.0]
