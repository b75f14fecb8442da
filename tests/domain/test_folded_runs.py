"""The states `folded_runs` makes at once equal, field by field, those evolve folds the events to."""

from __future__ import annotations

import random

import pytest
from given import IKIBITI, KAHUNA, OPODOPO, Table, random_game

from domain.islands import events as ev
from domain.islands.catalog import distinct
from domain.islands.evolve import evolve_all
from domain.islands.folded_runs import after_discard, after_draw, after_placement, after_skip
from domain.islands.state import State

TABLES = {
    "kahuna": KAHUNA,
    "kahuna-thames-kosmos": KAHUNA.with_options(edition="thames-kosmos"),
    "ikibiti-seafarers": IKIBITI.with_options(seafarers=True),
    "opodopo-3-gods": OPODOPO.with_options(seats=3, gods=True),
}


def _states(table: Table, games: int, phases: tuple[str, ...]) -> list[State]:
    """The states of `games` seeded random games in one of `phases`, with no choice pending."""
    found = []
    for seed in range(games):
        steps = random_game(random.Random(seed), table)
        for _, _, state in steps:
            if state.phase in phases and not state.pending:
                found.append(state)
    return found


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
def test_a_draw_ending_a_turn_folds_as_its_events_do(table: Table) -> None:
    compared = 0
    for state in _states(table, 2, ("play",)):
        seat = state.active
        for card in dict.fromkeys(state.face_up):
            events = [ev.card_drawn_face_up(seat, card)]
            if state.stack:
                events.append(ev.face_up_refilled(state.stack[0]))
            events.append(ev.turn_ended(seat, state.next_seat(seat)))
            assert vars(after_draw(state, seat, card, True)) == vars(evolve_all(state, events))
            compared += 1
        if state.stack:
            card = state.stack[0]
            events = [ev.card_drawn_from_stack(seat, card), ev.turn_ended(seat, state.next_seat(seat))]
            assert vars(after_draw(state, seat, card, False)) == vars(evolve_all(state, events))
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
def test_a_card_placing_a_bridge_folds_as_its_events_do(table: Table) -> None:
    compared = 0
    for state in _states(table, 2, ("play", "final")):
        seat = state.active
        board = state.rules.board
        for card in dict.fromkeys(state.hands[seat]):
            for line in board.lines_of(card):
                if state.owners[line] is not None or state.stock[seat] == 0:
                    continue
                events = [ev.cards_played(seat, (card,)), ev.bridge_placed(seat, board.lines[line])]
                assert vars(after_placement(state, seat, card, line)) == vars(evolve_all(state, events))
                compared += 1
    assert compared > 100


def test_an_abstention_with_cards_left_folds_as_its_events_do() -> None:
    compared = 0
    for state in _states(TABLES["kahuna-thames-kosmos"], 3, ("play",)):
        if not (state.stack or state.face_up):
            continue
        seat = state.active
        events = [ev.draw_skipped(seat), ev.turn_ended(seat, state.next_seat(seat))]
        assert vars(after_skip(state, seat)) == vars(evolve_all(state, events))
        compared += 1
    assert compared > 100


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
def test_a_face_down_discard_folds_as_its_event_does(table: Table) -> None:
    compared = 0
    for state in _states(table, 2, ("play", "final")):
        seat = state.active
        hand = state.hands[seat]
        for size in range(1, min(len(hand), 3) + 1):
            for cards in distinct(hand, size):
                events = [ev.cards_discarded(seat, cards)]
                assert vars(after_discard(state, seat, cards)) == vars(evolve_all(state, events))
                compared += 1
    assert compared > 100
