"""N-2 and V-3: the layout the service draws, or the one given at creation."""

from __future__ import annotations

import copy
import random

import pytest

from domain.decider import IllegalMove
from domain.nanuuk.module import pending_system
from domain.nanuuk.setup import initial_state
from domain.turns import Shuffle
from tests.domain.nanuuk.game import LAYOUT_2, Game, setup


def _apart(cells: set[tuple[int, int]], others: set[tuple[int, int]]) -> bool:
    offsets = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    return not any((q + dq, r + dr) in others for q, r in cells for dq, dr in offsets)


@pytest.mark.parametrize("seats, options", [(2, {}), (3, {}), (4, {}), (2, {"two_hunters": True})])
def test_N2_whales_and_inuit_lie_apart_from_each_other_and_the_igloos_over_many_draws(
    seats: int, options: dict[str, bool]
) -> None:
    rng = random.Random(seats)
    for _ in range(300):
        game = Game("nanuuk", seats, **options)
        request = pending_system(game.state)
        assert isinstance(request, Shuffle) and request.command == "LayOutIce"
        game.system("LayOutIce", **request.answer(rng).args)
        state = game.state
        ice = state.rules.ice
        scattered = {c for c, k in state.tokens.items() if k in ("whale", "inuk")}
        for cell in scattered:
            assert _apart({cell}, scattered - {cell}) and _apart({cell}, set(ice.igloos))
        filled = set(state.tokens) | {p.cell for p in state.pieces if p.kind == "bear"}
        assert filled == {c for c in ice.cells if not ice.is_igloo(c)}  # every other cell, once
        assert state.phase == "placing"


def test_N2_a_layout_given_at_creation_is_used_as_given() -> None:
    state = Game("nanuuk", 2, layout=LAYOUT_2).state
    assert pending_system(state) is None and state.phase == "placing"
    assert state.tokens[(-2, 0)] == "whale" and state.pieces[2].cell == (1, -1)


def _swap(
    layout: dict[str, list[list[int]]], kind: str, cell: list[int], other: str, there: list[int]
) -> None:
    layout[kind][layout[kind].index(cell)] = there
    layout[other][layout[other].index(there)] = cell


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda lay: _swap(lay, "whale", [1, 2], "fish", [0, 2]), "options.layout"),  # beside an Inuk
        (lambda lay: _swap(lay, "inuk", [0, 1], "seal", [-1, 1]), "options.layout"),  # beside an igloo
        (lambda lay: lay["fish"].pop(), "options.layout.fish"),  # one fish short
        (lambda lay: lay["seal"].__setitem__(0, [0, -2]), "options.layout.seal"),  # on an igloo
        (lambda lay: lay["seal"].__setitem__(0, [0, 0]), "options.layout.seal"),  # water
        (lambda lay: lay["seal"].__setitem__(0, [1, -2]), "options.layout.seal"),  # twice one cell
        (lambda lay: lay.pop("bear"), "options.layout"),
    ],
)
def test_N2_a_given_layout_that_breaks_the_rules_is_refused(change: object, field: str) -> None:
    layout = copy.deepcopy(LAYOUT_2)
    change(layout)  # type: ignore[operator]
    with pytest.raises(IllegalMove) as refused:
        initial_state(setup("nanuuk", 2, layout=layout))
    assert refused.value.code == "bad_option" and refused.value.field == field


def test_V3_the_service_draws_the_chosen_number_of_cracks_before_the_game() -> None:
    game = Game("nanuuk", 3, pre_cracks=7)
    request = pending_system(game.state)
    assert isinstance(request, Shuffle) and set(request.permutations) == {"cells", "lines"}
    events = game.system("LayOutIce", **request.answer(random.Random(5)).args)
    assert len(events[0].data["cracks"]) == 7 and len(game.state.cracks) == 7
    given = Game("nanuuk", 2, layout=LAYOUT_2, pre_cracks=2)
    assert set(pending_system(given.state).permutations) == {"lines"}  # type: ignore[union-attr]


def test_V3_cracks_given_at_creation_are_laid_and_checked() -> None:
    cracks = [[[0, -1], [1, -1]], [[2, -2], [1, -1]]]
    game = Game("nanuuk", 2, layout=LAYOUT_2, cracks=cracks)
    assert game.state.cracks == {((0, -1), (1, -1)), ((1, -1), (2, -2))} and game.state.phase == "placing"
    for bad in ([[[0, -1], [2, -1]]], [[[0, -1], [1, -1]], [[1, -1], [0, -1]]], "x"):
        with pytest.raises(IllegalMove) as refused:
            initial_state(setup("nanuuk", 2, layout=LAYOUT_2, cracks=bad))
        assert refused.value.code == "bad_option"
    with pytest.raises(IllegalMove):
        initial_state(setup("nanuuk", 2, layout=LAYOUT_2, cracks=cracks, pre_cracks=3))
