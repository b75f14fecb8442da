"""P-3.6..P-3.10 combat: the procedure, owners' choices (Q-4), retreat, conquest, independents,
combat cards, and the seed's combat example as a golden test."""

from __future__ import annotations

from dataclasses import replace

import pytest
from paradise_given import FIJI, SAMOA, TONGA, act, die, moving, place, tile, types

from domain.decider import IllegalMove
from domain.paradise.empire import controller
from domain.paradise.legal import legal_commands
from domain.paradise.state import INDEPENDENT

WEST_OF_SAMOA = (4, 4)
EAST_OF_SAMOA = (6, 4)


def attack(state, at, defender: int, **pieces: int):  # type: ignore[no-untyped-def]
    """Seat 0 sails `pieces` from WEST_OF_SAMOA into `at` and opens the battle with `defender`."""
    state = place(state, WEST_OF_SAMOA, 0, **pieces)
    _, state = act(state, "Move", 0, path=[list(WEST_OF_SAMOA), list(at)], pieces=pieces)
    _, state = act(state, "EndMovement", 0)
    assert state.choice is not None and (at, defender) in state.choice.options
    return act(state, "Fight", 0, hex=list(at), defender=defender)


def test_P3_10_the_seed_s_combat_example() -> None:
    state = moving(2)
    state = place(state, SAMOA, 1, transport=1, band=1)
    state = tile(state, EAST_OF_SAMOA, "Tubuai", 2, owner=1, villages=1)
    events, state = attack(state, SAMOA, 1, war_canoe=2, band=1, transport=1)
    started = events[0]
    assert started.type == "BattleStarted"
    assert started.data["front"] == [
        {"war_canoe": 2, "band": 1, "local": 0},
        {"war_canoe": 0, "band": 1, "local": 1},
    ]
    assert started.data["pieces"][1]["transport"] == 1  # all see the stacks in a battle
    # (a) a 3: one of the attacker's fighters panics; the attacker picks the band
    _, state = die(state, 3)
    assert (
        state.choice is not None
        and state.choice.seat == 0
        and set(state.choice.options) == {"war_canoe", "band"}
    )
    _, state = act(state, "Lose", 0, piece="band")
    # (b) a 4: the defender picks its band to panic
    _, state = die(state, 4)
    assert (
        state.choice is not None and state.choice.seat == 1 and set(state.choice.options) == {"band", "local"}
    )
    _, state = act(state, "Lose", 1, piece="band")
    # (c) a 1: the attacker loses a war canoe (its only unpanicked kind: no choice to make)
    # (the side a roll hurts is asked whether it plays Haka, holder or not: Q-2)
    events, state = die(state, 1)
    assert (
        types(events) == ["DieRolled", "CardAnswered", "PieceHit"]
        and state.pieces(SAMOA, 0)["war_canoe"] == 1
    )
    # (d) a 4: the local warrior panics; the defender has no fighter left and retreats
    events, state = die(state, 4)
    assert types(events)[:5] == ["DieRolled", "CardAnswered", "PieceHit", "BattleEnded", "Retreated"]
    retreat = events[4].data
    assert retreat["to"] == list(EAST_OF_SAMOA) and retreat["pieces"]["band"] == 1
    assert state.pieces(EAST_OF_SAMOA, 1)["transport"] == 1 and state.pieces(EAST_OF_SAMOA, 1)["band"] == 1
    # the winner could save one village by giving its unpanicked war canoe; it does not
    assert state.choice is not None and state.choice.kind == "save"
    assert set(state.choice.options) == {(0, 0), (1, 0)}
    events, state = act(state, "SaveVillages", 0, war_canoes=0, bands=0)
    assert state.islands[SAMOA].villages == 0 and controller(state.islands[SAMOA]) is None
    assert dict(state.pieces(SAMOA, 0)) == {
        "transport": 1,
        "war_canoe": 1,
        "band": 1,
        "colony": 0,
        "rumor": 0,
    }
    # Samoa was the defender's base: it names another group
    assert state.choice is not None and state.choice.kind == "base" and state.choice.seat == 1
    events, state = act(state, "ChooseBase", 1, hex=list(EAST_OF_SAMOA))
    assert state.bases[1] == EAST_OF_SAMOA and "BattleOver" in types(events)
    assert state.battle is None and state.seat == 1  # the next seat moves


def test_P3_6_a_defender_without_fighters_or_villages_loses_at_once() -> None:
    state = moving(2)
    state = place(state, EAST_OF_SAMOA, 1, transport=1, colony=1)
    state = replace(
        state,
        islands={**state.islands},
        ocean=state.ocean | {EAST_OF_SAMOA},
        unknown=state.unknown - {EAST_OF_SAMOA},
    )
    state = place(state, SAMOA, 0, war_canoe=1)
    state = replace(state, stacks={k: v for k, v in state.stacks.items() if k != (SAMOA, 1)})
    _, state = act(state, "Move", 0, path=[list(SAMOA), list(EAST_OF_SAMOA)], pieces={"war_canoe": 1})
    _, state = act(state, "EndMovement", 0)
    events, state = act(state, "Fight", 0, hex=list(EAST_OF_SAMOA), defender=1)
    assert "DieRolled" not in types(events) and "BattleEnded" in types(events)
    assert state.pieces(EAST_OF_SAMOA, 1)["transport"] == 0


def test_P3_6_die_table() -> None:
    from domain.paradise.combat import outcome

    assert [outcome(r) for r in range(1, 7)] == [
        (0, "removed"),
        (0, "panicked"),
        (0, "panicked"),
        (1, "panicked"),
        (1, "panicked"),
        (1, "removed"),
    ]


def test_Q4_every_battle_choice_is_listed_for_its_owner_only() -> None:
    state = moving(2)
    state = place(state, SAMOA, 1, war_canoe=1, band=1)
    _, state = attack(state, SAMOA, 1, war_canoe=1, band=1)
    _, state = die(state, 5)
    assert {c.args["piece"] for c in legal_commands(state, 1)} == {"war_canoe", "band", "local"}
    assert legal_commands(state, 0) == []
    with pytest.raises(IllegalMove) as refused:
        act(state, "Lose", 1, piece="colony")
    assert refused.value.code == "bad_casualty"


def test_P3_7_retreat_removes_bands_and_colonies_without_a_canoe() -> None:
    state = moving(2)
    state = tile(state, EAST_OF_SAMOA, "Tubuai", 2, owner=1, villages=1)
    state = place(state, SAMOA, 1, transport=1, band=2, colony=1)
    _, state = attack(state, SAMOA, 1, war_canoe=2)
    for _ in range(2):
        _, state = die(state, 4)
        if state.choice is not None and state.choice.kind == "casualty":
            _, state = act(state, "Lose", 1, piece="band")
    _, state = die(state, 6)
    assert state.battle is None or state.battle.winner == 0
    assert dict(state.pieces(EAST_OF_SAMOA, 1)) == {
        "transport": 1,
        "war_canoe": 0,
        "band": 1,
        "colony": 0,
        "rumor": 0,
    }


def test_P3_8_saving_villages_costs_unpanicked_fighters_and_agriculture_stays() -> None:
    state = moving(2)
    state = tile(state, EAST_OF_SAMOA, "Tubuai", 2, owner=1, villages=1)
    samoa = state.islands[SAMOA]
    state = replace(
        state, islands={**state.islands, SAMOA: replace(samoa, villages=2, agriculture=1, brown=1)}
    )
    state = replace(state, stacks={k: v for k, v in state.stacks.items() if k != (SAMOA, 1)})
    _, state = attack(state, SAMOA, 1, war_canoe=2, band=1)
    _, state = die(state, 6)  # the one local warrior (2 villages) is removed
    assert state.choice is not None and state.choice.kind == "save"
    assert (1, 1) in state.choice.options and (2, 1) not in state.choice.options
    _, state = act(state, "SaveVillages", 0, war_canoes=1, bands=1)
    samoa = state.islands[SAMOA]
    assert (samoa.owner, samoa.villages, samoa.agriculture) == (0, 2, 1)
    assert state.pieces(SAMOA, 0)["war_canoe"] == 1 and state.pieces(SAMOA, 0)["band"] == 0
    assert samoa.garrison == 0


def test_P3_9_an_independent_group_defends_with_its_printed_warriors() -> None:
    state = moving(2)
    events, state = attack(state, FIJI, INDEPENDENT, war_canoe=1)
    assert events[0].data["front"][1] == {"war_canoe": 0, "band": 0, "local": 3}
    assert events[0].data["villages"] == 4
    _, state = die(state, 1)  # the attacker's only war canoe is removed
    assert state.battle is None and controller(state.islands[FIJI]) == INDEPENDENT
    assert state.pieces(FIJI, 0)["war_canoe"] == 0


def test_P3_9_a_conquered_printed_group_keeps_a_piece_of_its_conqueror() -> None:
    state = moving(2)
    _, state = attack(state, FIJI, INDEPENDENT, war_canoe=2, band=2)
    for _ in range(3):
        _, state = die(state, 6)
    assert state.choice is not None and state.choice.kind == "save"
    _, state = act(state, "SaveVillages", 0, war_canoes=0, bands=1)
    fiji = state.islands[FIJI]
    assert (fiji.owner, fiji.villages, fiji.garrison) == (0, 1, 0)
    state = replace(state, active=0, battles=(), moved=False, transit_open=True)
    state = place(state, FIJI, 0, war_canoe=2, band=1)  # next turn: nothing moved yet
    with pytest.raises(IllegalMove) as refused:
        act(state, "Move", 0, path=[list(FIJI), [4, 6]], pieces={"war_canoe": 2, "band": 1})
    assert refused.value.code == "garrison"
    _, state = act(state, "Move", 0, path=[list(FIJI), [4, 6]], pieces={"war_canoe": 2})
    assert state.pieces(FIJI, 0)["band"] == 1


def test_QD6_cannibalism_adds_one_to_the_attacker_s_roll() -> None:
    state = moving(2)
    state = replace(state, hands=(("Cannibalism",), ()))
    state = place(state, SAMOA, 1, band=1)
    _, state = attack(state, SAMOA, 1, war_canoe=1)
    events, state = die(state, 3)
    assert events[0].data["roll"] == 4 and "CardUsed" in types(events) and "Cannibalism" in state.revealed[0]


def test_QD6_pa_adds_a_local_warrior_to_a_defended_group() -> None:
    state = moving(2)
    state = replace(state, hands=((), ("Pa",)))
    events, state = attack(state, SAMOA, 1, war_canoe=1)
    assert events[0].data["front"][1]["local"] == 2


def test_QD6_haka_lets_its_holder_roll_again_once() -> None:
    state = moving(2)
    state = replace(state, hands=(("Haka",), ()))
    state = place(state, SAMOA, 1, band=1)
    _, state = attack(state, SAMOA, 1, war_canoe=2)
    _, state = die(state, 2)
    assert state.choice is not None and state.choice.kind == "haka" and state.choice.seat == 0
    _, state = act(state, "UseCard", 0, use=True)
    assert state.due is not None and state.battle is not None and state.battle.haka == (True, False)
    _, state = die(state, 2)  # no second Haka: one of its war canoes panics
    assert state.battle is not None and state.battle.panicked[0]["war_canoe"] == 1 and state.choice is None


def test_QD6_arioi_cancels_an_attack_before_a_roll() -> None:
    state = moving(2)
    state = tile(state, EAST_OF_SAMOA, "Tubuai", 2, owner=0, villages=1)
    state = replace(state, hands=((), ("Arioi",)))
    _, state = attack(state, SAMOA, 1, war_canoe=1)
    assert state.choice is not None and state.choice.kind == "arioi"
    events, state = act(state, "UseCard", 1, use=True)
    assert "DieRolled" not in types(events) and state.pieces(SAMOA, 0)["war_canoe"] == 0
    assert "Arioi" in state.spent_cards[1] and state.islands[SAMOA].villages == 2
    assert TONGA in state.islands


def test_P3_6_all_moves_first_then_the_attacker_orders_its_battles() -> None:
    state = moving(2)
    state = replace(state, unknown=state.unknown - {EAST_OF_SAMOA}, ocean=state.ocean | {EAST_OF_SAMOA})
    state = place(state, EAST_OF_SAMOA, 1, transport=1)
    state = place(state, EAST_OF_SAMOA, 0, war_canoe=1)
    state = place(state, SAMOA, 0, war_canoe=1)
    assert state.battle is None  # no battle while the mover still moves

    _, state = act(state, "EndMovement", 0)
    assert state.choice is not None and state.choice.kind == "fight" and state.choice.seat == 0
    assert set(state.choice.options) == {(SAMOA, 1), (EAST_OF_SAMOA, 1)}
    events, state = act(state, "Fight", 0, hex=list(EAST_OF_SAMOA), defender=1)

    assert "BattleOver" in types(events) and state.pieces(EAST_OF_SAMOA, 1)["transport"] == 0
    assert state.choice is not None and state.choice.kind == "fight"
    assert state.choice.options == ((SAMOA, 1),)


def test_QA5_a_conquest_that_saves_a_village_of_a_kumara_holder_takes_kumara() -> None:
    state = moving(2, kumara=True)
    state = replace(state, kumara=(False, True))
    state = replace(state, stacks={k: v for k, v in state.stacks.items() if k != (SAMOA, 1)})
    _, state = attack(state, SAMOA, 1, war_canoe=2)
    _, state = die(state, 6)  # the one local warrior of two villages is removed
    assert state.choice is not None and state.choice.kind == "save"
    _, burnt = act(state, "SaveVillages", 0, war_canoes=0, bands=0)

    _, saved = act(state, "SaveVillages", 0, war_canoes=1, bands=0)

    assert burnt.kumara == (False, True)  # no village saved, no Kumara
    assert saved.kumara == (True, True) and saved.islands[SAMOA].owner == 0  # the holder keeps its own
