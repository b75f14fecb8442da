"""The evaluation of Conquest of Paradise (domain/paradise/evaluate.py): a seat's standing is its
VP plus what its position promises, and a position with more of either scores higher."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.games import rules_for
from domain.paradise.evaluate import CARD_VP, INCOME_TURNS, standing, turns_left, win_chances
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


def test_income_counts_for_the_turns_left_and_not_after_the_last_build() -> None:
    assert turns_left(game()) == INCOME_TURNS
    assert turns_left(game(last_turn=2)) == 1  # this turn's build is still to come
    last_build = replace(game(last_turn=2), phase="build")
    assert turns_left(last_build) == 0
    base = last_build.bases[0]
    island = last_build.islands[base]
    more = with_island(last_build, base, replace(island, villages=island.villages + 1))
    # On the last build, a village is its VP and its square only: no income to come.
    assert standing(more, 0, 0) - standing(last_build, 0, 0) < 1.0


def test_others_hidden_cards_count_at_the_deck_average_for_a_viewer_and_at_their_face_in_a_world() -> None:
    state = replace(game(), hands=((), ("Tattoo", "Haka"), ()))
    plain = game()
    assert standing(state, 1, 0) - standing(plain, 1, 0) == 2 * CARD_VP
    assert standing(state, 1, None) - standing(plain, 1, None) == 1.0  # Tattoo 1 VP, Haka 0
    assert standing(state, 1, 1) - standing(plain, 1, 1) == 1.0


def test_a_finished_game_gives_its_winners_the_whole_chance() -> None:
    state = replace(game(), result={"winners": [2]})
    assert win_chances(state, 0) == [0.0, 0.0, 1.0]
