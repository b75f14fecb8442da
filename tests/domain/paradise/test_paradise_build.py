"""P-4 construction (Q-1 secret commitments), P-5 victory, and the advanced rules Q-A1..Q-A6."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paradise_given import (
    NIUE,
    SAMOA,
    TONGA,
    act,
    building,
    commit,
    die,
    draw,
    new,
    order,
    place,
    tile,
    types,
)

from domain.decider import Command, IllegalMove
from domain.paradise.build import EXTRAS, ITEMS
from domain.paradise.empire import vp_halves
from domain.paradise.engine import acting as acting_seats
from domain.paradise.hexes import HEXES
from domain.paradise.legal import legal_commands
from domain.paradise.module import PARADISE
from domain.paradise.state import BUILD, LOST, START, State
from domain.paradise.view import view
from tests.hypothesis_profiles import examples

OCEAN_W = (4, 6)


def refused(state: State, seat: int, *orders: dict[str, Any]) -> str:
    with pytest.raises(IllegalMove) as error:
        commit(state, seat, *orders)
    return error.value.code


def test_P4_2_each_village_gives_a_point_spent_on_a_controlled_group() -> None:
    state = building(2)
    canoe = order("war_canoe", TONGA)
    assert refused(state, 0, canoe, order("band", TONGA)) == "cannot_build"  # both points spent
    assert refused(state, 0, order("band", SAMOA)) == "cannot_build"  # not controlled
    assert refused(state, 0, order("band", OCEAN_W)) == "cannot_build"
    commit(state, 0, canoe)


def test_P4_2_an_isolated_group_builds_with_its_own_villages_only() -> None:
    state = building(2)
    state = tile(state, NIUE, "Niue", 2, owner=0, villages=1)
    assert refused(state, 0, order("band", NIUE), order("band", NIUE)) == "cannot_build"
    commit(state, 0, order("band", NIUE), order("war_canoe", TONGA))


def test_P4_2_groups_on_one_chain_pool_their_points() -> None:
    state = building(2)
    state = tile(state, NIUE, "Niue", 2, owner=0, villages=1)
    state = place(state, TONGA, 0, shown=True, transport=1)
    state = place(state, NIUE, 0, shown=True, transport=1)
    commit(state, 0, order("war_canoe", NIUE), order("band", NIUE))


def test_Q1_builds_are_secret_until_the_last_seat_commits() -> None:
    state = building(2)
    events, state = commit(state, 0, order("band", TONGA))
    assert types(events) == ["BuildCommitted"] and events[0].data == {"seat": 0}
    assert events[0].audience == (0,) and events[0].secret == {
        "orders": [{"item": "band", "hex": list(TONGA)}]
    }
    assert view(state, 1)["draft"]["items"] == [] and view(state, 0)["draft"]["items"][0]["item"] == "band"
    assert state.pieces(TONGA, 0)["band"] == 2
    events, state = commit(state, 1, order("colony", SAMOA))
    revealed = [e for e in events if e.type == "BuildRevealed"]
    assert [e.data["seat"] for e in revealed] == [0, 1]
    assert revealed[0].data["placed"] == {"5,6": 1} and "items" not in revealed[0].data
    assert revealed[0].audience == (0,)
    assert state.pieces(TONGA, 0)["band"] == 3 and state.pieces(SAMOA, 1)["colony"] == 1


def test_P4_1_internal_rotation_gives_a_point_and_sends_the_explorer_to_lost() -> None:
    state = building(2)
    three = (order("war_canoe", TONGA), order("band", TONGA), order("band", TONGA))
    assert refused(state, 0, *three) == "cannot_build"
    # Rotation's point pays wherever the list names it.
    _, state = commit(state, 0, order("war_canoe", TONGA), order("band", TONGA), order("rotate"))
    _, state = act(state, "EndBuild", 1)
    assert state.explorers[0] == LOST and state.pieces(TONGA, 0)["war_canoe"] == 1


def test_P4_3_a_village_costs_two_one_new_village_a_group_a_turn() -> None:
    state = building(2)
    state = replace(state, islands={**state.islands, TONGA: replace(state.islands[TONGA], villages=3)})
    commit(state, 0, order("village", TONGA))
    assert refused(state, 0, order("village", TONGA), order("village", TONGA)) == "cannot_build"
    full = replace(state, islands={**state.islands, TONGA: replace(state.islands[TONGA], villages=4)})
    assert refused(full, 0, order("village", TONGA)) == "cannot_build"  # no free square


def test_P4_3_improved_agriculture_opens_a_brown_square() -> None:
    state = building(2)
    state = tile(state, NIUE, "Manihiki", 1, brown=1, owner=0, villages=1)
    state = place(state, TONGA, 0, shown=True, transport=1)
    state = place(state, NIUE, 0, shown=True, transport=1)
    state = replace(state, ocean=state.ocean)
    state = replace(state, saved=(2, 0))
    assert refused(state, 0, order("village", NIUE)) == "cannot_build"
    _, state = commit(state, 0, order("agriculture", NIUE), order("village", NIUE))
    _, state = act(state, "EndBuild", 1)
    assert (state.islands[NIUE].villages, state.islands[NIUE].agriculture) == (2, 1)


def test_P4_3_a_colony_settles_a_new_group_for_free() -> None:
    state = building(2)
    state = tile(state, NIUE, "Niue", 2)
    state = place(state, NIUE, 0, colony=1)
    _, state = commit(state, 0, order("settle", NIUE))
    _, state = act(state, "EndBuild", 1)
    assert state.islands[NIUE].owner == 0 and state.islands[NIUE].villages == 1
    assert state.pieces(NIUE, 0)["colony"] == 0


def test_P4_3_no_village_on_an_atoll() -> None:
    state = building(2)
    state = tile(state, NIUE, "Tokelau", 0, atoll=True)
    state = place(state, NIUE, 0, colony=1)
    assert refused(state, 0, order("settle", NIUE)) == "cannot_build"


def test_P4_4_a_card_costs_two_is_drawn_in_secret_and_may_be_shown_later() -> None:
    state = building(2)
    assert refused(state, 0, order("card"), order("card")) == "cannot_build"
    _, state = commit(state, 0, order("card"))
    events, state = act(state, "EndBuild", 1)
    assert state.due is not None and state.due.what == "card"
    events, state = draw(state, card=state.deck.index("Tiki"))
    drawn = events[0]
    assert drawn.type == "CardDrawn" and drawn.audience == (0,) and drawn.secret["card"] == "Tiki"  # type: ignore[index]
    assert state.hands[0] == ("Tiki",) and view(state, 1)["players"][0]["cards"] is None
    assert view(state, 1)["players"][0]["cards_held"] == 1


def test_P5_1_vp_villages_linked_groups_and_atolls() -> None:
    state = building(2)
    assert vp_halves(state, 0) == 4  # two villages
    state = place(state, TONGA, 0, shown=True, transport=1)
    assert vp_halves(state, 0) == 6  # the base on its own chain
    state = tile(state, NIUE, "Tokelau", 0, atoll=True)
    state = place(state, NIUE, 0, shown=True, transport=1)
    assert vp_halves(state, 0) == 7  # half a point for the atoll on the chain
    state = replace(state, revealed=(("Tiki", "Aquaculture"), ()))
    assert vp_halves(state, 0) == 6 + 2 + 2 + 2


def test_P5_3_reaching_the_target_ends_the_game_with_the_most_vp_winning() -> None:
    state = building(2)
    islands = {**state.islands, TONGA: replace(state.islands[TONGA], villages=4, green=30)}
    state = replace(state, islands=islands, revealed=((), ()), hands=(("Tiki",) * 24, ()))
    _, state = act(state, "EndBuild", 0)
    events, state = act(state, "EndBuild", 1)
    assert "VictoryClaimed" in types(events) and state.result is not None
    assert state.result["winner"] == 0 and state.result["vp"][0] == 28
    assert state.result["reason"] == "target" and state.result["totals"] == [28, 2]
    assert state.phase == "ended"


def test_P5_3_severe_deforestation_can_stop_a_claim() -> None:
    state = building(2)
    islands = {**state.islands, TONGA: replace(state.islands[TONGA], villages=4, green=30)}
    state = replace(state, islands=islands, hands=(("Tiki",) * 24, ("Severe Deforestation",)))
    _, state = act(state, "EndBuild", 0)
    _, state = act(state, "EndBuild", 1)
    assert state.choice is not None and state.choice.kind == "deforest" and state.choice.seat == 1
    events, state = act(state, "Deforest", 1, target=0)
    assert state.result is None and state.penalties == (2, 0) and "TurnStarted" in types(events)


def test_QA6_variable_end_moves_the_target() -> None:
    from domain.paradise.victory import target

    assert target(new(2, end_shift=-3)) == 25 and target(new(3, end_shift=3)) == 28


def test_QA1_variable_start_builds_four_points_on_the_base_in_secret() -> None:
    state = new(2, variable_start=True)
    assert state.phase == START and state.pieces(TONGA, 0)["band"] == 0
    three = (order("war_canoe", TONGA), order("transport", TONGA), order("band", TONGA))
    assert refused(state, 0, *three, order("band", TONGA), order("band", TONGA)) == "cannot_build"
    assert refused(state, 0, order("village", TONGA)) == "cannot_build"
    assert refused(state, 0, order("rotate")) == "cannot_rotate"
    _, state = commit(state, 0, *three, order("rumor", TONGA))
    _, state = act(state, "EndBuild", 1)
    assert (
        state.phase == "order"
        and state.pieces(TONGA, 0)["war_canoe"] == 1
        and state.pieces(TONGA, 0)["rumor"] == 1
    )


def test_QA2_saved_resources_keep_one_point_for_a_later_turn() -> None:
    state = building(2)
    assert refused(state, 0, order("save")) == "cannot_save"
    state = building(2, saved_resources=True)
    assert refused(state, 0, order("band", TONGA), order("band", TONGA), order("save")) == "cannot_save"
    assert refused(state, 0, order("save"), order("band", TONGA), order("band", TONGA)) == "cannot_save"
    _, state = commit(state, 0, order("save"), order("band", TONGA))
    _, state = act(state, "EndBuild", 1)
    assert state.saved == (1, 0)


def test_QA3_malaria_strikes_a_controlled_malarial_group() -> None:
    state = building(2, malaria=True)
    bismarck = (0, 2)
    islands = {**state.islands, bismarck: replace(state.islands[bismarck], owner=1, villages=2)}
    state = replace(state, islands=islands)
    _, state = act(state, "EndBuild", 0)
    events, state = act(state, "EndBuild", 1)
    assert "MalariaArmed" in types(events) and state.due is not None and state.due.what == "malaria"
    events, state = die(state, 2)
    assert events[0].data["seat"] == 1 and state.islands[bismarck].villages == 1
    assert state.choice is not None and state.choice.kind == "order"


def test_QD6_kahuna_healing_spares_its_holder_from_malaria() -> None:
    state = building(2, malaria=True)
    bismarck = (0, 2)
    islands = {**state.islands, bismarck: replace(state.islands[bismarck], owner=1, villages=2)}
    state = replace(state, islands=islands, revealed=((), ("Kahuna Healing",)))
    _, state = act(state, "EndBuild", 0)
    _, state = act(state, "EndBuild", 1)
    events, state = die(state, 1)
    assert events[0].data["seat"] is None and state.islands[bismarck].villages == 2


def test_P3_8_a_player_without_a_base_makes_its_next_settled_group_its_base() -> None:
    state = building(2)
    state = replace(state, bases=(None, SAMOA))
    state = tile(state, NIUE, "Niue", 2)
    state = place(state, NIUE, 0, colony=1)
    _, state = commit(state, 0, order("settle", NIUE))
    _, state = act(state, "EndBuild", 1)
    assert state.bases[0] == NIUE


def test_P5_3_ties_go_to_the_most_groups_controlled_then_the_most_cards() -> None:
    from domain.paradise.victory import ending

    state = building(2)
    state = replace(state, islands={**state.islands, TONGA: replace(state.islands[TONGA], villages=3)})
    state = tile(state, NIUE, "Niue", 2, owner=1, villages=1)
    assert vp_halves(state, 0) == vp_halves(state, 1)
    assert ending(state, [0, 1], "target")["winner"] == 1  # two groups against one

    state = tile(state, NIUE, "Niue", 2)
    state = replace(state, islands={**state.islands, SAMOA: replace(state.islands[SAMOA], villages=3)})
    assert (
        ending(state, [0, 1], "target")["winners"] == [0, 1]
        and ending(state, [0, 1], "target")["winner"] is None
    )
    state = replace(state, hands=(("Haka",), ()))  # a card worth no VP
    assert ending(state, [0, 1], "target")["winner"] == 0


def _accepted_orders(state: State, seat: int) -> list[str]:
    """Every single build order `decide` accepts from `seat` now, over every item and every hex."""
    found = []
    for item in ITEMS:
        for at in [None] if item == "card" else sorted(HEXES):
            args = {"item": item} if at is None else {"item": item, "hex": list(at)}
            try:
                PARADISE.decide(state, Command("EndBuild", seat, {"orders": [args]}))
            except IllegalMove:
                continue
            found.append(json.dumps(args, sort_keys=True))
    return sorted(found)


def _listed_commits(state: State, seat: int) -> list[Command]:
    return [c for c in legal_commands(state, seat) if c.type == "EndBuild"]


def _listed_orders(commits: list[Command]) -> list[str]:
    """The single orders listed alone, as `_accepted_orders` names them."""
    alone = [c.args["orders"][0] for c in commits if len(c.args.get("orders", ())) == 1]
    return sorted(json.dumps(o, sort_keys=True) for o in alone if o["item"] not in EXTRAS)


SPREAD = sorted({(col, row) for col in range(6, 12) for row in range(2, 9)} - {TONGA, SAMOA})
"""Unknown hexes east of the bases, where the generated groups and stacks go."""


@st.composite
def build_phases(draw: st.DrawFn) -> State:
    """A build phase (or Q-A1's free start) with groups of each kind around: controlled by one
    seat or another, uncontrolled with a colony, atolls, brown squares, chains, point cards."""
    seats = draw(st.sampled_from([2, 3, 4]))
    start = draw(st.booleans())
    state = new(seats, variable_start=True) if start else building(seats, saved_resources=draw(st.booleans()))
    if state.due is not None:  # the set-up chits of 3-4 players
        _, state = act(state, "Draw", None, draws={name: 0 for name in state.due.piles})
    hexes = draw(st.lists(st.sampled_from(SPREAD), unique=True, min_size=2, max_size=6))
    for at in hexes:
        green, brown = draw(st.integers(0, 3)), draw(st.integers(0, 1))
        owner = draw(st.sampled_from([None, *range(seats)]))
        villages = draw(st.integers(1 if owner is not None else 0, max(1, green)))
        state = tile(
            state,
            at,
            "Tubuai",
            green,
            brown,
            atoll=draw(st.booleans()) if owner is None else False,
            face_up=draw(st.booleans()) if owner is None else True,
            owner=owner,
            villages=villages if owner is not None else 0,
            agriculture=draw(st.integers(0, brown)),
        )
        seat = owner if owner is not None and draw(st.booleans()) else draw(st.integers(0, seats - 1))
        state = place(state, at, seat, shown=draw(st.booleans()), transport=1, colony=draw(st.integers(0, 2)))
    cards = draw(st.lists(st.sampled_from(["Marae", "Commerce", "Tiki"]), unique=True))
    return replace(state, revealed=(tuple(cards),) + state.revealed[1:])


@settings(max_examples=examples(1) * 5)  # a position, not a game: about 10 ms each
@given(state=build_phases(), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_P4_2_legal_lists_every_build_order_decide_accepts(state: State, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3):  # the phase's start, then after seats have committed
        seats = acting_seats(state)
        assert state.phase in (BUILD, START) and seats
        commits = {seat: _listed_commits(state, seat) for seat in seats}
        assert {seat: _listed_orders(c) for seat, c in commits.items()} == {
            seat: _accepted_orders(state, seat) for seat in seats
        }
        for listed in commits.values():
            for command in listed:
                PARADISE.decide(state, command)  # every list of orders offered is accepted
        seat = rng.choice(seats)
        _, state = act(state, "EndBuild", seat, **rng.choice(commits[seat]).args)
        if state.phase not in (BUILD, START) or not acting_seats(state):
            return
