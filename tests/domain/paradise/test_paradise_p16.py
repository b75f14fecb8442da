"""Conquest of Paradise rules as the seed words them, each from a position the seed describes
(issue P16, items 6-16): build conflicts, rumors in battle, pieces at sea, retreats, reaction
cards asked in a way that tells no one who holds them, combat cards, discovery markers, fighters
given up, disrupted voyages."""

from __future__ import annotations

from dataclasses import replace

import pytest
from paradise_given import (
    NIUE,
    SAMOA,
    TONGA,
    act,
    building,
    commit,
    die,
    draw,
    exact,
    moving,
    order,
    place,
    started,
    tile,
    types,
)

from domain.decider import IllegalMove
from domain.paradise.legal import legal_commands
from domain.paradise.module import PARADISE
from domain.paradise.sea import stranded_at_sea
from domain.paradise.state import Island, State
from domain.paradise.tables import CHITS
from domain.paradise.view import view

OCEAN_W = (4, 6)


def refused(state: State, seat: int, type_: str, **args: object) -> str:
    with pytest.raises(IllegalMove) as error:
        act(state, type_, seat, **args)
    return error.value.code


# --- item 6, Q-1: conflicting builds are settled in turn order -------------------------------


def test_Q1_two_colonies_settling_one_group_the_first_in_turn_order_takes_it() -> None:
    state = building(2)
    assert state.order == (0, 1)
    state = tile(state, NIUE, "Rurutu", 1)
    state = place(state, NIUE, 0, colony=1)
    state = place(state, NIUE, 1, colony=1)
    _, state = commit(state, 0, order("settle", NIUE))
    events, state = commit(state, 1, order("settle", NIUE))
    revealed = {e.data["seat"]: e.data for e in events if e.type == "BuildRevealed"}
    assert state.islands[NIUE].owner == 0 and state.islands[NIUE].villages == 1
    assert "void" not in revealed[0]
    assert revealed[1]["villages"] == [] and revealed[1]["settled"] == []
    assert revealed[1]["void"] == [
        {"item": "settle", "hex": list(NIUE), "why": "a seat earlier in turn order settled this group"}
    ]
    assert state.pieces(NIUE, 1)["colony"] == 1  # the void order cost nothing
    assert state.pieces(NIUE, 0)["colony"] == 0


# --- item 7, P-3.5: a rumor drawn into a battle is shown and removed -------------------------


def test_P3_5_a_war_canoe_ending_on_a_lone_enemy_rumor_fights_and_removes_it() -> None:
    state = moving(2)
    state = place(state, OCEAN_W, 1, rumor=1)
    state = place(state, TONGA, 0, war_canoe=1)
    _, state = act(state, "Move", 0, path=[list(TONGA), list(OCEAN_W)], pieces={"war_canoe": 1})
    events, state = act(state, "EndMovement", 0)
    assert events[0].data["battles"] == [[list(OCEAN_W), 1]]
    events, state = act(state, "Fight", 0, hex=list(OCEAN_W), defender=1)
    assert events[0].type == "BattleStarted" and events[0].data["pieces"][1]["rumor"] == 1
    assert "BattleOver" in types(events) and state.battle is None
    assert state.pieces(OCEAN_W, 1)["rumor"] == 0 and state.pieces(OCEAN_W, 0)["war_canoe"] == 1


# --- item 8, P-3.3: no piece ends a move at sea without a canoe able to carry it -------------


def test_P3_3_an_empty_canoe_does_not_sail_off_leaving_its_passenger_at_sea() -> None:
    state = moving(2)
    state = place(state, OCEAN_W, 0, transport=1, band=1)
    path = [list(OCEAN_W), list(TONGA)]
    assert refused(state, 0, "Move", path=path, pieces={"transport": 1}) == "stranded_at_sea"
    _, state = act(state, "Move", 0, path=path, pieces={"transport": 1, "band": 1})
    assert state.pieces(TONGA, 0)["band"] == 3


def test_P3_3_a_colony_goes_ashore_at_sea_only_beside_a_canoe_able_to_carry_it() -> None:
    state = moving(2)
    state = place(state, OCEAN_W, 0, war_canoe=1)  # a war canoe carries a band, never a colony
    state = place(state, TONGA, 0, transport=1, colony=1)
    path = [list(TONGA), list(OCEAN_W), [3, 6]]
    stops = [{"at": 1, "drop": {"colony": 1}}]
    code = refused(state, 0, "Move", path=path, pieces={"transport": 1, "colony": 1}, stops=stops)
    assert code == "stranded_at_sea"


def test_P3_3_a_transit_leaves_no_band_at_sea_beyond_its_canoes() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, shown=True, transport=1, band=2)
    state = place(state, OCEAN_W, 0, shown=True, transport=1)
    path = [list(TONGA), list(OCEAN_W)]
    assert refused(state, 0, "Transit", path=path, pieces={"band": 2}) == "stranded_at_sea"
    _, state = act(state, "Transit", 0, path=path, pieces={"band": 1})
    assert stranded_at_sea(state) == []


def test_P3_3_a_band_whose_war_canoe_sinks_in_a_battle_at_sea_drowns() -> None:
    state = moving(2)
    state = place(state, OCEAN_W, 1, war_canoe=1)
    state = place(state, TONGA, 0, war_canoe=1, band=1)
    _, state = act(state, "Move", 0, path=[list(TONGA), list(OCEAN_W)], pieces={"war_canoe": 1, "band": 1})
    _, state = act(state, "EndMovement", 0)
    _, state = act(state, "Fight", 0, hex=list(OCEAN_W), defender=1)
    _, state = die(state, 1)  # the attacker gives up its war canoe, the band aboard fights on
    _, state = act(state, "Lose", 0, piece="war_canoe")
    events, state = die(state, 6)  # the defender's war canoe is removed: the attacker wins
    over = next(e for e in events if e.type == "BattleOver").data
    assert over["winner"] == 0 and over["lost"] == {"band": 1}
    assert state.pieces(OCEAN_W, 0)["band"] == 0 and stranded_at_sea(state) == []


# --- item 9, P-3.7: a retreat follows the carrying limits of a move --------------------------


def roll(state: State, n: int) -> State:
    """The die shows `n`; a casualty among one kind only falls by itself."""
    _, state = die(state, n)
    return state


def test_P3_7_a_colony_does_not_retreat_on_a_war_canoe() -> None:
    state = moving(2)
    state = tile(state, NIUE, "Tubuai", 2)
    state = place(state, NIUE, 1, war_canoe=1, colony=1)
    state = place(state, TONGA, 0, war_canoe=1)
    _, state = act(state, "Move", 0, path=[list(TONGA), list(NIUE)], pieces={"war_canoe": 1})
    _, state = act(state, "EndMovement", 0)
    _, state = act(state, "Fight", 0, hex=list(NIUE), defender=1)
    events, state = die(state, 4)  # its war canoe panics: the defender has no fighter left
    retreat = next(e for e in events if e.type == "Retreated").data
    assert retreat["to"] == list(SAMOA) and retreat["pieces"]["colony"] == 0
    assert state.pieces(SAMOA, 1)["war_canoe"] == 1 and state.pieces(SAMOA, 1)["colony"] == 0


def test_P3_7_double_hulled_canoes_carry_two_in_a_retreat() -> None:
    state = moving(2)
    state = replace(state, revealed=((), ("Double Hulled Canoes",)))
    state = tile(state, NIUE, "Tubuai", 2)
    state = place(state, NIUE, 1, transport=1, colony=2)
    state = place(state, TONGA, 0, war_canoe=1)
    _, state = act(state, "Move", 0, path=[list(TONGA), list(NIUE)], pieces={"war_canoe": 1})
    _, state = act(state, "EndMovement", 0)
    events, state = act(state, "Fight", 0, hex=list(NIUE), defender=1)
    retreat = next(e for e in events if e.type == "Retreated").data
    assert retreat["pieces"]["colony"] == 2 and state.pieces(SAMOA, 1)["colony"] == 2


# --- item 10, Q-2: reaction offers tell no one who holds the card ----------------------------

WEST_OF_SAMOA = (4, 4)


def _attacked_samoa(hand: tuple[str, ...], attacker_hand: tuple[str, ...] = ()) -> State:
    """Seat 0's war canoe has sailed into Samoa, seat 1's base (two villages, a band), and the
    battle is opened, every command applied exactly as given (no offer answered for anyone)."""
    state = moving(2)
    state = replace(state, hands=(attacker_hand, hand))
    state = place(state, SAMOA, 1, band=1)
    state = place(state, WEST_OF_SAMOA, 0, war_canoe=1)
    path = [list(WEST_OF_SAMOA), list(SAMOA)]
    _, state = exact(state, "Move", 0, path=path, pieces={"war_canoe": 1})
    _, state = exact(state, "EndMovement", 0)
    _, state = exact(state, "Fight", 0, hex=list(SAMOA), defender=1)
    return state


def _seen_by(state: State, seat: int) -> tuple[object, ...]:
    return (view(state, seat), PARADISE.to_act(state), PARADISE.pending_system(state))


def test_Q2_arioi_is_offered_to_the_defender_of_a_group_whether_or_not_it_holds_it() -> None:
    holder, other = _attacked_samoa(("Arioi",)), _attacked_samoa(("Tiki",))
    for state in (holder, other):
        assert state.choice is not None and state.choice.kind == "arioi" and state.choice.seat == 1
    assert _seen_by(holder, 0) == _seen_by(other, 0)
    assert [c.args for c in legal_commands(other, 1)] == [{"use": False}]
    assert refused(other, 1, "UseCard", use=True) == "no_such_card"


def test_Q2_the_seat_a_roll_hurts_is_asked_about_haka_whether_or_not_it_holds_it() -> None:
    after = []
    for hand in (("Haka",), ("Tiki",)):
        state = _attacked_samoa(hand)
        _, state = exact(state, "UseCard", 1, use=False)  # no Arioi played
        _, state = exact(state, "Draw", None, draws={"die": 3})  # a 4: the defender is hurt
        assert state.choice is not None and state.choice.kind == "haka" and state.choice.seat == 1
        after.append(state)
    assert _seen_by(after[0], 0) == _seen_by(after[1], 0)
    assert refused(after[1], 1, "UseCard", use=True) == "no_such_card"
    _, state = exact(after[1], "UseCard", 1, use=False)
    assert state.choice is not None and state.choice.kind == "casualty"


def test_Q2_every_seat_that_may_hold_severe_deforestation_is_asked_at_a_claim() -> None:
    after = []
    for hand in (("Severe Deforestation",), ("Tiki",)):
        state = building(2)
        islands = {**state.islands, TONGA: replace(state.islands[TONGA], villages=4, green=30)}
        state = replace(state, islands=islands, hands=(("Tiki",) * 24, hand))
        _, state = exact(state, "EndBuild", 0)
        _, state = exact(state, "EndBuild", 1)
        assert state.choice is not None and state.choice.kind == "deforest" and state.choice.seat == 1
        after.append(state)
    assert _seen_by(after[0], 0) == _seen_by(after[1], 0)
    assert refused(after[1], 1, "Deforest", target=0) == "no_such_card"
    assert [c.args for c in legal_commands(after[1], 1)] == [{}]
    _, state = exact(after[1], "Deforest", 1)
    assert state.result is not None and state.result["winner"] == 0


# --- item 11, Q-D6: combat cards ---------------------------------------------------------------


def test_QD6_two_pa_add_a_local_warrior_each() -> None:
    state = _attacked_samoa(("Pa", "Pa"))
    assert state.battle is not None and state.battle.front[1]["local"] == 3  # 1 for 2 villages, 2 Pa
    assert sorted(state.revealed[1]) == ["Pa", "Pa"]


def test_QD6_one_card_a_roll_haka_cannot_change_a_roll_cannibalism_changed() -> None:
    state = _attacked_samoa(("Haka",), attacker_hand=("Cannibalism",))
    _, state = exact(state, "UseCard", 1, use=False)  # no Arioi played
    events, state = exact(state, "Draw", None, draws={"die": 3})  # a 4, made 5 by Cannibalism
    assert events[0].data == {"hex": list(SAMOA), "die": 4, "roll": 5}
    assert state.choice is not None and state.choice.kind == "casualty" and state.choice.seat == 1


# --- item 13, P-3.8: fighters given up to save villages leave the game -----------------------


def test_P3_8_fighters_given_to_save_villages_are_never_built_again() -> None:
    state = moving(2)
    state = replace(state, stacks={k: v for k, v in state.stacks.items() if k != (SAMOA, 1)})
    state = place(state, WEST_OF_SAMOA, 0, war_canoe=6)  # every war canoe seat 0 owns
    path = [list(WEST_OF_SAMOA), list(SAMOA)]
    _, state = act(state, "Move", 0, path=path, pieces={"war_canoe": 6})
    _, state = act(state, "EndMovement", 0)
    _, state = act(state, "Fight", 0, hex=list(SAMOA), defender=1)
    _, state = die(state, 6)  # the one local warrior (2 villages) is removed
    _, state = act(state, "SaveVillages", 0, war_canoes=1, bands=0)
    assert state.islands[SAMOA].owner == 0 and state.pieces(SAMOA, 0)["war_canoe"] == 5
    while state.phase == "move":
        _, state = act(state, "EndMovement", state.seat)
    assert state.phase == "build"
    # five war canoes on the map, the sixth out of the game: none is left to build
    with pytest.raises(IllegalMove, match="no war_canoe left to build"):
        commit(state, 0, order("war_canoe", TONGA))
    assert state.given_up == ((1, 0), (0, 0))


# --- item 14, P-2.3: a voyage disrupted on the first step turns from the explorer's hex -------


def test_P2_3_a_voyage_disrupted_on_the_first_step_goes_to_a_hex_next_to_the_explorer() -> None:
    state = started(2)
    aimed = (5, 5)  # next to Tonga, where the explorer stands (no pre-move)
    events, state = act(state, "Explore", 0, hex=list(aimed), **{"from": list(TONGA)})
    assert events[0].data["from"] == list(TONGA)
    _, state = draw(state, chit=chit_index(state, "disrupted"))
    assert state.choice is not None and state.choice.kind == "redirect" and state.choice.seat == 1
    assert set(state.choice.options) == {(5, 7), (6, 6), (6, 7)}  # Tonga's unknown neighbours
    assert state.expedition is not None and state.expedition.at == TONGA


def test_P2_1_the_explorer_sets_out_from_its_own_group_unless_told_otherwise() -> None:
    state = started(2)
    events, _ = act(state, "Explore", 0, hex=[5, 5])
    assert events[0].data["from"] == list(TONGA)
    assert refused(state, 0, "Explore", hex=[5, 5], **{"from": [5, 4]}) == "cannot_explore"


def chit_index(state: State, kind: str) -> int:
    """The draw index of the first chit of `kind` still in the cup."""
    index = 0
    for n, chit in enumerate(CHITS):
        if chit.kind == kind and state.chits[n]:
            return index
        index += state.chits[n]
    raise AssertionError(kind)


# --- item 12, P-2.5: three discovery markers at most, the player chooses which tile to show ---

OLDER = ((9, 0), (9, 1), (9, 2))


def _three_markers_out(state: State, seat: int = 0) -> State:
    islands = dict(state.islands)
    for at in OLDER:
        islands[at] = Island("Tubuai", 2, 0, False, False, False, (seat,))
    return replace(state, islands=islands)


def test_P2_5_with_three_markers_out_the_finder_shows_the_new_tile_or_an_older_one() -> None:
    state = _three_markers_out(started(2))
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    _, state = draw(state, chit=chit_index(state, "island"))
    events, state = draw(state, tile=0)
    assert events[0].type == "TileFound" and events[0].secret is not None  # found face down
    assert state.choice is not None and state.choice.kind == "marker" and state.choice.seat == 0
    assert set(state.choice.options) == {*OLDER, NIUE}
    assert {tuple(c.args["hex"]) for c in legal_commands(state, 0)} == {*OLDER, NIUE}
    events, state = act(state, "RevealTile", 0, hex=list(OLDER[0]))
    assert types(events) == ["TileRevealed"] and state.islands[OLDER[0]].face_up
    assert not state.islands[NIUE].face_up and state.choice is None
    assert sum(1 for i in state.islands.values() if not i.face_up and 0 in i.discoverers) == 3


def test_P2_5_examining_another_s_tile_never_gives_a_fourth_marker() -> None:
    state = started(3)
    state = _three_markers_out(state, seat=1)
    islands = {**state.islands, (6, 5): Island("Niue", 2, 0, False, False, False, (0,))}
    state = replace(state, islands=islands, unknown=state.unknown - {(6, 5)})
    while state.expedition is not None and state.expedition.seat != 1:
        _, state = act(state, "EndExploration", state.expedition.seat)
    _, state = act(state, "Explore", 1, hex=[6, 5])
    assert state.choice is not None and state.choice.kind == "marker" and state.choice.seat == 1
    _, state = act(state, "RevealTile", 1, hex=[6, 5])
    assert state.islands[(6, 5)].face_up
    assert sum(1 for i in state.islands.values() if not i.face_up and 1 in i.discoverers) == 3


# --- item 15: rumors move at will; tiles and cards are shown at any time ----------------------


def test_P3_5_a_rumor_moves_at_will_beyond_a_canoe_s_reach() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, rumor=1)
    far = [2, 7]  # three hexes west of Tonga: beyond the two hexes of a canoe
    _, state = act(state, "Move", 0, path=[list(TONGA), far], pieces={"rumor": 1})
    assert state.pieces((2, 7), 0)["rumor"] == 1
    state = place(state, TONGA, 0, rumor=1)
    assert refused(state, 0, "Move", path=[list(TONGA), [9, 9]], pieces={"rumor": 1}) == "bad_path"


def test_P4_4_a_card_is_shown_at_any_time_out_of_turn_too() -> None:
    state = moving(2)
    state = replace(state, hands=((), ("Tiki",)))
    assert state.seat == 0
    events, state = act(state, "RevealCard", 1, card="Tiki")
    assert types(events) == ["CardRevealed"] and state.revealed[1] == ("Tiki",)


def test_P2_2_a_discoverer_turns_its_tile_face_up_at_any_time_out_of_turn_too() -> None:
    state = moving(2)
    islands = {**state.islands, (9, 0): Island("Tubuai", 2, 0, False, False, False, (1,))}
    state = replace(state, islands=islands)
    events, state = act(state, "RevealTile", 1, hex=[9, 0])
    assert types(events) == ["TileRevealed"] and state.islands[(9, 0)].face_up
    assert refused(state, 0, "RevealTile", hex=[9, 0]) == "cannot_reveal"
