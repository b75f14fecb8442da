"""Arabana-Ikibiti's seafarer variation (docs: shared/rules/island-games.md, S-1..S-5)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from given import (
    BLACK,
    IKIBITI,
    WHITE,
    Given,
    Line,
    Sea,
    act,
    deal,
    draw_stack,
    facts,
    given,
    layout,
    lost,
    place,
    placed,
    played,
    random_game,
    removed,
    ship_placed,
    taken,
)
from hypothesis import given as for_all
from hypothesis import settings
from hypothesis import strategies as st

from domain.decider import Command, Event
from domain.islands import engine
from tests.hypothesis_profiles import examples

SEAFARERS = IKIBITI.with_options(seafarers=True)
BOARD = SEAFARERS.board


def at_sea(
    black_hand: Sequence[str] = ("Hunisch", "Hunisch", "Elamite"),
    white_hand: Sequence[str] = ("Cocotac", "Danidad", "Fafnuff"),
    black: Sequence[Line] = (),
    white: Sequence[Line] = (),
    ships: tuple[Sequence[Sea], Sequence[Sea]] = ((), ()),
    first_seat: int = BLACK,
) -> Given:
    """The position (bridges, ships, markers), then a deal with these hands: a fresh turn."""
    opened, *dealing = deal(
        SEAFARERS, [black_hand, white_hand], ("Mosedam", "Mosedam", "Krapink"), (), first_seat
    )
    return given([opened], layout(BOARD, [black, white], ships), dealing)


def ship(seat: int, cards: Sequence[str], sea: Sea) -> Command:
    return act("PlaceShip", seat, cards=list(cards), sea=list(sea))


def move(seat: int, origin: Sea, target: Sea) -> Command:
    return act("MoveShip", seat, **{"from": list(origin), "to": list(target)})


def sunk(seat: int, sea: Sea, by: int, cause: str) -> Event:
    return Event("ShipSunk", {"seat": seat, "sea": sorted(sea), "by": by, "cause": cause})


def ships(game: Given) -> dict[Sea, int]:
    """The ships on the board, as every seat sees them."""
    return {tuple(s["sea"]): s["seat"] for s in engine.view(game.state, None)["ships"]}


def in_stock(game: Given) -> list[int]:
    return [s["ships_in_stock"] for s in engine.view(game.state, None)["seats"]]


KRAPINK_SEA = ("Elamite", "Hunisch", "Krapink")
DANIDAD_SEA = ("Danidad", "Elamite", "Hunisch")
ABI, AGI = ("Arabana", "Barilub", "Ikibiti"), ("Arabana", "Garanig", "Ikibiti")


# --- S-1 placing a ship --------------------------------------------------------------------


def test_S1_seed_example_one_hand_fits_two_sea_spaces() -> None:
    game = at_sea(black_hand=("Hunisch", "Hunisch", "Elamite"))
    listed = [c.args for c in engine.legal_commands(game.state, BLACK) if c.type == "PlaceShip"]
    assert listed == [
        {"cards": ["Elamite", "Hunisch", "Hunisch"], "sea": list(DANIDAD_SEA)},
        {"cards": ["Elamite", "Hunisch", "Hunisch"], "sea": list(KRAPINK_SEA)},
    ]
    for sea in (KRAPINK_SEA, DANIDAD_SEA):
        then = game.when(ship(BLACK, ("Hunisch", "Hunisch", "Elamite"), sea))
        assert then.facts == facts([played(BLACK, "Hunisch", "Hunisch", "Elamite"), ship_placed(BLACK, sea)])
        placed_game = game.plus(*then.events)
        assert ships(placed_game) == {sea: BLACK}
        assert in_stock(placed_game) == [9, 10]
        assert placed_game.state.hands[BLACK] == ()


def test_S1_refusals() -> None:
    game = at_sea(ships=((KRAPINK_SEA,), ()))
    cards = ("Hunisch", "Hunisch", "Elamite")
    assert game.rejects(ship(BLACK, cards, ("Garanig", "Hunisch", "Mosedam"))) == "cards_do_not_match_sea"
    assert game.rejects(ship(BLACK, cards, ("Arabana", "Barilub", "Cocotac"))) == "unknown_sea"
    assert game.rejects(ship(BLACK, cards[:2], KRAPINK_SEA)) == "bad_command"
    assert game.rejects(ship(BLACK, cards, KRAPINK_SEA)) == "own_ship_there"
    assert game.rejects(ship(BLACK, ("Hunisch", "Krapink", "Elamite"), KRAPINK_SEA)) == "card_not_in_hand"
    plain = given(
        deal(IKIBITI, [cards, ("Cocotac", "Danidad", "Fafnuff")], ("Mosedam", "Mosedam", "Krapink"))
    )
    assert plain.rejects(ship(BLACK, cards, KRAPINK_SEA)) == "unknown_command"


def test_S1_ten_ships_at_most() -> None:
    fleet = [sea for sea in BOARD.seas if sea not in (KRAPINK_SEA, DANIDAD_SEA)][:10]
    game = at_sea(ships=(fleet, ()))
    assert in_stock(game) == [0, 10]
    assert game.rejects(ship(BLACK, ("Hunisch", "Hunisch", "Elamite"), KRAPINK_SEA)) == "no_ships_in_stock"


# --- S-2 a ship counts as a bridge on its three islands -------------------------------------


def test_S2_ship_counts_as_a_bridge_on_each_of_its_islands() -> None:
    # Black has 2 of Cocotac's 4 and 2 of Lusepil's 4 places; with the ship, 3 of 5 on each.
    game = at_sea(
        black_hand=("Cocotac", "Krapink", "Lusepil"),
        white_hand=("Hunisch", "Danidad", "Fafnuff"),
        black=[
            ("Barilub", "Cocotac"),
            ("Cocotac", "Fafnuff"),
            ("Elamite", "Lusepil"),
            ("Fafnuff", "Lusepil"),
        ],
        white=[("Cocotac", "Krapink"), ("Krapink", "Lusepil")],
    )
    sea = ("Cocotac", "Krapink", "Lusepil")
    then = game.when(ship(BLACK, sea, sea))
    assert then.facts == facts(
        [
            played(BLACK, *sea),
            ship_placed(BLACK, sea),
            taken(BLACK, "Cocotac"),
            taken(BLACK, "Lusepil"),
            removed(WHITE, "Cocotac", "Krapink", by=BLACK, cause="majority"),
            removed(WHITE, "Krapink", "Lusepil", by=BLACK, cause="majority"),
        ]
    )


# --- S-3 a ship adds a place -------------------------------------------------------------


def test_S3_a_ship_adds_a_place_and_raises_the_majority_needed() -> None:
    # White holds Ikibiti with 2 of 3; black's ship makes it 2 of 4, no longer a majority.
    game = at_sea(
        black_hand=("Arabana", "Garanig", "Ikibiti"), white=[("Arabana", "Ikibiti"), ("Barilub", "Ikibiti")]
    )
    assert game.markers == {"Ikibiti": WHITE}
    then = game.when(ship(BLACK, AGI, AGI))
    assert then.facts == facts([played(BLACK, *AGI), ship_placed(BLACK, AGI), lost(WHITE, "Ikibiti")])
    after = game.plus(*then.events)
    assert after.markers == {}
    assert after.state.places("Ikibiti") == 4
    assert len(engine.view(after.state, None)["bridges"]) == 2  # F-2: losing keeps the bridges


def test_S3_majority_is_recomputed_when_a_ship_leaves() -> None:
    # White has 3 of Krapink's 6 places (black's ship is the sixth); the ship leaves: 3 of 5.
    game = at_sea(
        black=[("Hunisch", "Krapink")],
        white=[("Cocotac", "Krapink"), ("Krapink", "Lusepil"), ("Krapink", "Mosedam")],
        ships=((KRAPINK_SEA,), ()),
    )
    assert game.markers == {}
    then = game.when(move(BLACK, KRAPINK_SEA, DANIDAD_SEA))
    assert then.facts == facts(
        [
            Event("ShipMoved", {"seat": BLACK, "from": list(KRAPINK_SEA), "to": list(DANIDAD_SEA)}),
            taken(WHITE, "Krapink"),
            removed(BLACK, "Hunisch", "Krapink", by=WHITE, cause="majority"),
        ]
    )


# --- S-4 moving a ship -------------------------------------------------------------------


def test_S4_move_on_a_turn_without_cards_then_draw() -> None:
    game = at_sea(ships=((ABI,), ()))
    then = game.when(move(BLACK, ABI, AGI))
    assert then.facts == [("ShipMoved", {"seat": BLACK, "from": list(ABI), "to": list(AGI)})]
    moved = game.plus(*then.events)
    assert ships(moved) == {AGI: BLACK}
    assert moved.rejects(place(BLACK, "Hunisch", "Hunisch", "Mosedam")) == "ship_moved"
    assert moved.rejects(ship(BLACK, ("Hunisch", "Hunisch", "Elamite"), KRAPINK_SEA)) == "ship_moved"
    assert moved.rejects(move(BLACK, AGI, ABI)) == "ship_move_not_allowed"
    assert moved.when(draw_stack(BLACK)).types == ["CardDrawn", "TurnEnded"]
    assert not any(
        c.type in {"PlaceBridge", "RemoveBridge"} for c in engine.legal_commands(moved.state, BLACK)
    )


def test_S4_no_move_after_a_card() -> None:
    game = at_sea(ships=((ABI,), ())).then(place(BLACK, "Hunisch", "Hunisch", "Mosedam"))
    assert game.rejects(move(BLACK, ABI, AGI)) == "ship_move_not_allowed"
    assert not [c for c in engine.legal_commands(game.state, BLACK) if c.type == "MoveShip"]


@pytest.mark.parametrize(("owner", "code"), [(WHITE, "passage_blocked"), (BLACK, None)])
def test_S4_an_opponent_bridge_blocks_the_passage(owner: int, code: str | None) -> None:
    bridge = [("Arabana", "Ikibiti")]
    game = at_sea(
        black=bridge if owner == BLACK else (), white=bridge if owner == WHITE else (), ships=((ABI,), ())
    )
    if code is None:
        assert game.when(move(BLACK, ABI, AGI)).types == ["ShipMoved"]
    else:
        assert game.rejects(move(BLACK, ABI, AGI)) == code


def test_S4_refusals() -> None:
    game = at_sea(ships=((ABI,), (KRAPINK_SEA,)))
    assert game.rejects(move(BLACK, ABI, ("Hunisch", "Krapink", "Mosedam"))) == "seas_not_adjacent"
    assert game.rejects(move(BLACK, KRAPINK_SEA, DANIDAD_SEA)) == "not_your_ship"
    assert game.rejects(move(BLACK, AGI, ABI)) == "not_your_ship"
    assert game.rejects(move(WHITE, KRAPINK_SEA, DANIDAD_SEA)) == "not_your_turn"
    own = at_sea(ships=((ABI, AGI), ()))
    assert own.rejects(move(BLACK, ABI, AGI)) == "own_ship_there"


# --- S-5 sinking ---------------------------------------------------------------------------


def test_S5_sunk_by_a_ship_placed_on_it() -> None:
    game = at_sea(black_hand=ABI, ships=((), (ABI,)))
    then = game.when(ship(BLACK, ABI, ABI))
    assert then.facts == facts(
        [played(BLACK, *ABI), sunk(WHITE, ABI, by=BLACK, cause="placed_on"), ship_placed(BLACK, ABI)]
    )
    after = game.plus(*then.events)
    assert ships(after) == {ABI: BLACK}
    assert in_stock(after) == [9, 10]


def test_S5_sunk_when_enclosed_by_three_bridges_of_one_opponent() -> None:
    game = at_sea(
        black_hand=("Barilub", "Hunisch", "Elamite"),
        black=[("Arabana", "Barilub"), ("Arabana", "Ikibiti")],
        ships=((), (ABI,)),
    )
    then = game.when(place(BLACK, "Barilub", "Barilub", "Ikibiti"))
    # With the ship gone Ikibiti has 3 places again, and black holds 2 of them.
    assert then.facts == facts(
        [
            played(BLACK, "Barilub"),
            placed(BLACK, "Barilub", "Ikibiti"),
            sunk(WHITE, ABI, by=BLACK, cause="enclosed"),
            taken(BLACK, "Ikibiti"),
        ]
    )
    assert in_stock(game.plus(*then.events)) == [10, 10]


def test_S5_own_bridges_never_sink_own_ship() -> None:
    game = at_sea(
        black_hand=("Barilub", "Hunisch", "Elamite"),
        black=[("Arabana", "Barilub"), ("Arabana", "Ikibiti")],
        ships=((ABI,), ()),
    )
    then = game.when(place(BLACK, "Barilub", "Barilub", "Ikibiti"))
    assert "ShipSunk" not in then.types
    assert ships(game.plus(*then.events)) == {ABI: BLACK}


WHITE_ENCLOSES_ABI = [("Arabana", "Barilub"), ("Arabana", "Ikibiti"), ("Barilub", "Ikibiti")]


def test_S5_placing_a_ship_into_an_enclosed_sea_is_refused() -> None:
    game = at_sea(black_hand=ABI, white=WHITE_ENCLOSES_ABI)
    assert game.markers == {"Ikibiti": WHITE}
    assert game.rejects(ship(BLACK, ABI, ABI)) == "sea_enclosed"
    assert not [c for c in engine.legal_commands(game.state, BLACK) if c.type == "PlaceShip"]
    # One's own bridges enclose nothing against oneself.
    own = at_sea(black_hand=ABI, black=WHITE_ENCLOSES_ABI)
    assert own.when(ship(BLACK, ABI, ABI)).types[:2] == ["CardsPlayed", "ShipPlaced"]


def test_S5_moving_a_ship_into_an_enclosed_sea_is_refused() -> None:
    game = at_sea(white=WHITE_ENCLOSES_ABI, ships=((AGI,), ()))
    assert game.rejects(move(BLACK, AGI, ABI)) == "sea_enclosed"
    moves = [c.args["to"] for c in engine.legal_commands(game.state, BLACK) if c.type == "MoveShip"]
    assert moves and list(ABI) not in moves


def test_S5_collision_sinks_both_ships() -> None:
    game = at_sea(ships=((AGI,), (ABI,)))
    then = game.when(move(BLACK, AGI, ABI))
    assert then.facts == facts(
        [
            Event("ShipMoved", {"seat": BLACK, "from": list(AGI), "to": list(ABI)}),
            sunk(WHITE, ABI, by=BLACK, cause="collision"),
            sunk(BLACK, ABI, by=WHITE, cause="collision"),
        ]
    )
    after = game.plus(*then.events)
    assert (ships(after), in_stock(after)) == ({}, [10, 10])


@settings(max_examples=examples(share=4))
@for_all(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_S5_after_every_command_no_ship_lies_enclosed_by_an_opponent(seed: int) -> None:
    # The rules look for enclosed ships once per change, before majorities are settled: the
    # gains and losses that follow take bridges off and lay none, so they enclose nothing.
    for _, _, state in random_game(random.Random(seed), SEAFARERS):
        for sea, owner in enumerate(state.ships):
            around = state.rules.board.sea_mask(sea)
            enclosing = [seat for seat, held in enumerate(state.held) if held & around == around]
            assert owner is None or enclosing in ([], [owner]), (sea, owner, enclosing)


# --- S-2 and I-7 ---------------------------------------------------------------------------


def test_S2_ships_count_on_islands_but_are_no_bridges_for_I7() -> None:
    # Our reading of I-7 with ships: a seat with ships but no bridge has no bridge on the board.
    game = at_sea(black=[("Hunisch", "Mosedam")], ships=((), (ABI,))).at_round(2)
    ended: Any = game.history[-1]
    assert ended.type == "GameEnded"
    assert ended.data["winner"] == BLACK and ended.data["reason"] == "premature"
