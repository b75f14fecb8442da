"""Arabana-Opodopo's rules (docs: shared/rules/island-games.md, O-1..O-11), one test per rule."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from given import (
    OPODOPO,
    OPODOPO_ALL_OUT,
    OPODOPO_TEN,
    Given,
    Line,
    act,
    deal,
    discard,
    draw_face_up,
    draw_stack,
    end_turn,
    facts,
    given,
    layout,
    lost,
    order_for,
    place,
    placed,
    played,
    removed,
    round_ended,
    score,
    shuffle,
    swap,
    taken,
)

from domain.decider import Command, Event, IllegalMove
from domain.islands import engine
from domain.islands.scoring import island_value
from domain.turns import Shuffle

BOARD = OPODOPO.board
FOUR, THREE = OPODOPO, OPODOPO.with_options(seats=3)
# Hands that leave Lusepil, Nuridan, Opodopo, Mosedam, Papalua and Rarotiki to the test.
OTHER_HANDS = [
    ("Arabana", "Barilub", "Cocotac"),
    ("Danidad", "Elamite", "Fafnuff"),
    ("Garanig", "Hunisch", "Ikibiti"),
]
FACE_UP = ("Krapink", "Krapink", "Krapink", "Ikibiti")


def opodopo(
    hand: Sequence[str] = ("Lusepil", "Lusepil", "Nuridan"),
    seats: int = 4,
    others: Sequence[Sequence[str]] = OTHER_HANDS,
    first_seat: int = 0,
) -> list[Event]:
    """An Opodopo deal: seat 0 keeps `hand`; seats 0-2 chose a Krapink, seat 3 (or the bag) an Ikibiti."""
    table = FOUR if seats == 4 else THREE
    return deal(table, [hand, *others[: seats - 1]], FACE_UP, first_seat=first_seat)


def bridges(*seats: Sequence[Line]) -> list[Event]:
    """A position on the Opodopo board, markers where majority holds."""
    return layout(BOARD, seats)


def choose_removal(seat: int, a: str, b: str) -> Command:
    return act("ChooseRemoval", seat, line=[a, b])


# --- O-1 material ------------------------------------------------------------------------


def test_O1_material() -> None:
    state = engine.initial_state(FOUR.created().data)
    rules = state.rules
    assert list(rules.deck) == FOUR.deck and len(FOUR.deck) == 48
    assert Counter(FOUR.deck) == {island: 3 for island in BOARD.islands} and len(BOARD.islands) == 16
    assert list(rules.board.lines) == BOARD.lines and len(BOARD.lines) == 37
    # The seed: 4 small islands of 3 places, 11 large of 5, Lusepil of 7.
    assert Counter(BOARD.places.values()) == {3: 4, 5: 11, 7: 1} and BOARD.places["Lusepil"] == 7
    for island in BOARD.islands:
        assert rules.board.places(island) == BOARD.places[island]
    assert state.stock == (20,) * 4 and rules.markers == 10
    assert (rules.rounds, rules.hand_limit, rules.face_up) == (2, 5, 4)


@pytest.mark.parametrize("seats", [2, 5])
def test_O1_three_or_four_seats(seats: int) -> None:
    with pytest.raises(IllegalMove) as refusal:
        engine.initial_state(OPODOPO.with_options(seats=seats).created().data)
    assert refusal.value.code == "bad_seat_count"


# --- O-2 setup -----------------------------------------------------------------------------

DEALT = [["Lusepil", "Lusepil", "Nuridan", "Krapink"], ["Arabana", "Barilub", "Cocotac", "Mosedam"],
         ["Danidad", "Elamite", "Fafnuff", "Opodopo"]]  # fmt: skip


def choosing(seats: int = 3) -> Given:
    """The deal of four cards to each seat, before any choice; the bag's top is Papalua."""
    hands = DEALT + [["Garanig", "Hunisch", "Ikibiti", "Rarotiki"]]
    order = order_for(FOUR.deck, [*(c for hand in hands[:seats] for c in hand), "Papalua"])
    return given([(FOUR if seats == 4 else THREE).created()]).then(shuffle(order))


def test_O2_four_cards_dealt_then_every_seat_chooses() -> None:
    game = choosing()
    assert facts(game.history[1:]) == [
        ("DeckShuffled", {"round": 1, "size": 48}),
        *[("HandDealt", {"seat": seat, "count": 4}) for seat in range(3)],
        ("ChoosingStarted", {}),
    ]
    assert game.state.phase == "choosing" and engine.pending_system(game.state) is None
    for seat in range(3):
        listed = engine.legal_commands(game.state, seat)
        assert [c.args["card"] for c in listed] == sorted(set(DEALT[seat]))
    assert game.rejects(draw_stack(0)) == "choosing_face_up"
    assert game.rejects(place(0, "Lusepil", "Lusepil", "Papalua")) == "choosing_face_up"
    assert game.rejects(act("ChooseFaceUp", 0, card="Mosedam")) == "card_not_in_hand"


def test_O2_the_choice_is_secret_until_all_have_chosen() -> None:
    game = choosing()
    then = game.when(act("ChooseFaceUp", 1, card="Mosedam"))
    assert then.facts == [("FaceUpChosen", {"seat": 1})]
    assert (then.events[0].secret, then.events[0].audience) == ({"card": "Mosedam"}, (1,))
    game = game.then(act("ChooseFaceUp", 1, card="Mosedam"))
    mine = engine.view(game.state, 1)
    assert (mine["my_face_up_choice"], mine["chosen"], mine["face_up"]) == (
        "Mosedam",
        [False, True, False],
        [],
    )
    for viewer in (0, 2, None):
        seen = engine.view(game.state, viewer)
        assert "my_face_up_choice" not in seen and seen["chosen"] == [False, True, False]
        assert "Mosedam" not in str(seen)
    assert game.rejects(act("ChooseFaceUp", 1, card="Arabana")) == "already_chosen"
    game = game.then(act("ChooseFaceUp", 2, card="Opodopo"))
    last = game.when(act("ChooseFaceUp", 0, card="Krapink"))
    assert last.facts == [
        ("FaceUpChosen", {"seat": 0}),
        ("FaceUpRevealed", {"cards": ["Krapink", "Mosedam", "Opodopo"]}),
        ("FaceUpRefilled", {"card": "Papalua"}),  # three seats: a fourth card from the bag
        ("RoundStarted", {"round": 1, "first": 0}),
    ]
    state = last.state
    assert state.face_up == ("Krapink", "Mosedam", "Opodopo", "Papalua")
    assert [len(hand) for hand in state.hands] == [3, 3, 3] and len(state.stack) == 48 - 13
    assert "chosen" not in engine.view(state, 1)


def test_O2_four_seats_lay_their_four_cards() -> None:
    game = choosing(seats=4).then(*(act("ChooseFaceUp", seat, card=DEALT[seat][3]) for seat in (0, 1, 2)))
    last = game.when(act("ChooseFaceUp", 3, card="Rarotiki"))
    assert last.types == ["FaceUpChosen", "FaceUpRevealed", "RoundStarted"]
    assert last.state.face_up == ("Krapink", "Mosedam", "Opodopo", "Rarotiki")


def test_O2_face_up_cards_are_chosen_only_at_the_start() -> None:
    game = given(opodopo())
    assert game.rejects(act("ChooseFaceUp", 0, card="Lusepil")) == "no_choice_pending"


def test_O2_choice_from_a_seat_that_does_not_exist_is_refused() -> None:
    assert choosing().rejects(act("ChooseFaceUp", 7, card="Lusepil")) == "not_a_seat"


def test_O2_choice_from_a_negative_seat_is_refused() -> None:
    game = choosing()
    with pytest.raises(IllegalMove):
        engine.decide(game.state, act("ChooseFaceUp", -1, card="Opodopo"))


# --- O-3 placing -----------------------------------------------------------------------------


def test_O3_any_number_of_cards_then_a_draw() -> None:
    game = given(opodopo())
    then = game.then(place(0, "Nuridan", "Nuridan", "Rarotiki"), place(0, "Lusepil", "Lusepil", "Papalua"))
    assert then.state.active == 0 and then.state.hands[0] == ("Lusepil",)
    assert then.when(draw_stack(0)).types == ["CardDrawn", "TurnEnded"]
    assert game.when(draw_face_up(0, "Krapink")).types == ["CardDrawn", "FaceUpRefilled", "TurnEnded"]


def test_O3_a_bridge_may_join_two_islands_one_controls() -> None:
    # No I-2 here: seat 0 holds Rarotiki (2 of 3) and Nuridan (3 of 5); Nuridan-Rarotiki is free.
    game = given(opodopo(), bridges([("Cocotac", "Rarotiki"), ("Garanig", "Rarotiki"), ("Garanig", "Nuridan"),
                                     ("Krapink", "Nuridan"), ("Mosedam", "Nuridan")]))  # fmt: skip
    assert game.markers == {"Nuridan": 0, "Rarotiki": 0}
    assert game.when(place(0, "Nuridan", "Nuridan", "Rarotiki")).types == ["CardsPlayed", "BridgePlaced"]


# --- O-4 swapping ----------------------------------------------------------------------------

SEED_PAIRS = [("Nuridan", "Nuridan"), ("Opodopo", "Opodopo"), ("Nuridan", "Opodopo")]


@pytest.mark.parametrize("pair", SEED_PAIRS, ids="-".join)
def test_O4_seed_example_swap(pair: tuple[str, str]) -> None:
    # The seed: a red (seat 1) bridge Nuridan-Opodopo; two Nuridan, two Opodopo or one of each.
    game = given(opodopo(hand=(*pair, "Lusepil")), bridges([], [("Nuridan", "Opodopo")]))
    then = game.when(swap(0, pair, "Nuridan", "Opodopo"))
    assert then.facts == facts(
        [
            played(0, *pair),
            removed(1, "Nuridan", "Opodopo", by=0, cause="swap"),
            placed(0, "Nuridan", "Opodopo"),
        ]
    )
    assert then.state.stock == (19, 20, 20, 20)


def test_O4_swap_is_resolved_as_a_placement() -> None:
    game = given(opodopo(hand=("Nuridan", "Nuridan", "Lusepil")),
                 bridges([("Garanig", "Nuridan"), ("Krapink", "Nuridan")], [("Nuridan", "Opodopo")],
                         [("Mosedam", "Nuridan")]))  # fmt: skip
    then = game.when(swap(0, ("Nuridan", "Nuridan"), "Nuridan", "Opodopo"))
    assert then.facts == facts(
        [
            played(0, "Nuridan", "Nuridan"),
            removed(1, "Nuridan", "Opodopo", by=0, cause="swap"),
            placed(0, "Nuridan", "Opodopo"),
            taken(0, "Nuridan"),
            removed(2, "Mosedam", "Nuridan", by=0, cause="majority"),
        ]
    )


def test_O4_a_swap_never_triggers_O6() -> None:
    # Nuridan is full, 1-2-1-1; the swap makes it 2-1-1-1, and nothing more is removed.
    game = given(opodopo(hand=("Nuridan", "Nuridan", "Lusepil")),
                 bridges([("Garanig", "Nuridan")], [("Krapink", "Nuridan"), ("Nuridan", "Opodopo")],
                         [("Mosedam", "Nuridan")], [("Nuridan", "Rarotiki")]))  # fmt: skip
    then = game.when(swap(0, ("Nuridan", "Nuridan"), "Nuridan", "Opodopo"))
    assert then.types == ["CardsPlayed", "BridgeRemoved", "BridgePlaced"]


def test_O4_refusals() -> None:
    game = given(opodopo(hand=("Nuridan", "Nuridan", "Lusepil")),
                 bridges([("Garanig", "Nuridan")], [("Nuridan", "Opodopo")]))  # fmt: skip
    assert game.rejects(swap(0, ("Nuridan", "Nuridan"), "Garanig", "Nuridan")) == "no_opponent_bridge"
    assert game.rejects(swap(0, ("Nuridan", "Nuridan"), "Nuridan", "Rarotiki")) == "no_opponent_bridge"
    assert game.rejects(swap(0, ("Nuridan", "Lusepil"), "Nuridan", "Opodopo")) == "cards_do_not_match_line"
    assert game.rejects(swap(0, ("Nuridan",), "Nuridan", "Opodopo")) == "bad_command"
    attack = act("RemoveBridge", 0, cards=["Nuridan", "Nuridan"], line=["Nuridan", "Opodopo"])
    assert game.rejects(attack) == "unknown_command"


# --- O-5 hand, draw and discard ---------------------------------------------------------------


def full_hand() -> Given:
    """Seat 0 to play with five cards, every seat having drawn twice from the bag."""
    return given(opodopo()).then(*(draw_stack(seat) for _ in range(2) for seat in range(4)))


def test_O5_draw_only_with_at_most_four_cards() -> None:
    game = full_hand()
    assert len(game.state.hands[0]) == 5
    assert game.rejects(draw_stack(0)) == "hand_full"
    assert game.rejects(draw_face_up(0, "Krapink")) == "hand_full"
    assert not [c for c in engine.legal_commands(game.state, 0) if c.type == "DrawCard"]
    assert given(opodopo()).rejects(end_turn(0)) == "must_draw"


def test_O5_a_full_hand_ends_the_turn_without_drawing() -> None:
    assert full_hand().when(end_turn(0)).facts == [("TurnEnded", {"seat": 0, "next": 1})]


def test_O5_one_face_down_discard_per_turn() -> None:
    game = given(opodopo())
    then = game.when(discard(0, "Nuridan"))
    assert then.facts == [("CardsDiscarded", {"seat": 0, "count": 1})]
    assert (then.events[0].secret, then.events[0].audience) == ({"cards": ["Nuridan"]}, (0,))
    assert game.rejects(discard(0, "Lusepil", "Nuridan")) == "discard_not_allowed"
    game = game.then(discard(0, "Nuridan"))
    assert game.rejects(discard(0, "Lusepil")) == "discard_not_allowed"
    assert not [c for c in engine.legal_commands(game.state, 0) if c.type == "DiscardCards"]
    game = game.then(*(draw_stack(seat) for seat in range(4)))
    assert game.when(discard(0, "Lusepil")).types == ["CardsDiscarded"]


def test_O5_discard_then_draw_with_a_full_hand() -> None:
    game = full_hand().then(discard(0, "Nuridan"))
    assert game.when(draw_stack(0)).types == ["CardDrawn", "TurnEnded"]


# --- O-6 relative majority -------------------------------------------------------------------

NURIDAN_2_1_1_1 = bridges([("Garanig", "Nuridan")], [("Krapink", "Nuridan")], [("Mosedam", "Nuridan")],
                          [("Nuridan", "Opodopo")])  # fmt: skip
NURIDAN_HAND = ("Nuridan", "Nuridan", "Lusepil")
LUSEPIL_HAND = ("Lusepil", "Lusepil", "Nuridan")
LAST_NURIDAN = place(0, "Nuridan", "Nuridan", "Rarotiki")
LAST_LUSEPIL = place(0, "Lusepil", "Lusepil", "Papalua")
OPPONENTS_ON_LUSEPIL = [["Danidad", "Lusepil"], ["Elamite", "Lusepil"], ["Hunisch", "Lusepil"],
                        ["Ikibiti", "Lusepil"]]  # fmt: skip


def choice(island: str, options: list[list[str]]) -> tuple[str, dict[str, Any]]:
    return (
        "ChoiceRequired",
        {"kind": "relative_majority", "seat": 0, "island": island, "target": None, "options": options},
    )


def test_O6_large_island_2_1_1_1_the_active_seat_chooses() -> None:
    game = given(opodopo(hand=NURIDAN_HAND), NURIDAN_2_1_1_1)
    then = game.when(LAST_NURIDAN)
    offered = [["Krapink", "Nuridan"], ["Mosedam", "Nuridan"], ["Nuridan", "Opodopo"]]
    assert then.facts == [
        *facts([played(0, "Nuridan"), placed(0, "Nuridan", "Rarotiki")]),
        choice("Nuridan", offered),
    ]
    assert [c.args["line"] for c in engine.legal_commands(then.state, 0)] == offered
    chosen = game.then(LAST_NURIDAN).when(choose_removal(0, "Mosedam", "Nuridan"))
    assert chosen.facts == [
        ("ChoiceResolved", {"kind": "relative_majority", "seat": 0}),
        *facts([removed(2, "Mosedam", "Nuridan", by=0, cause="relative_majority")]),
    ]


@pytest.mark.parametrize(
    ("seats", "position"),
    [
        (3, bridges([("Arabana", "Lusepil"), ("Barilub", "Lusepil")], [("Danidad", "Lusepil"),
             ("Elamite", "Lusepil")], [("Hunisch", "Lusepil"), ("Ikibiti", "Lusepil")])),
        (4, bridges([("Arabana", "Lusepil"), ("Barilub", "Lusepil")], [("Danidad", "Lusepil"),
             ("Elamite", "Lusepil")], [("Hunisch", "Lusepil")], [("Ikibiti", "Lusepil")])),
    ],
    ids=["3-2-2", "3-2-1-1"],
)  # fmt: skip
def test_O6_lusepil_the_active_seat_chooses_among_opponents(seats: int, position: list[Event]) -> None:
    game = given(opodopo(hand=LUSEPIL_HAND, seats=seats), position)
    then = game.when(LAST_LUSEPIL)
    assert then.facts[-1] == choice("Lusepil", OPPONENTS_ON_LUSEPIL)
    owners = {tuple(b["line"]): b["seat"] for b in engine.view(then.state, None)["bridges"]}
    for a, b in OPPONENTS_ON_LUSEPIL:
        chosen = game.then(LAST_LUSEPIL).when(choose_removal(0, a, b))
        assert chosen.facts[-1] == facts([removed(owners[(a, b)], a, b, by=0, cause="relative_majority")])[0]


@pytest.mark.parametrize(
    ("seats", "position", "last", "victim"),
    [
        (3, bridges([("Garanig", "Nuridan")], [("Krapink", "Nuridan"), ("Mosedam", "Nuridan")],
                    [("Nuridan", "Opodopo")]), LAST_NURIDAN, (2, "Nuridan", "Opodopo")),
        (3, bridges([("Arabana", "Lusepil"), ("Barilub", "Lusepil")], [("Danidad", "Lusepil"),
                    ("Elamite", "Lusepil"), ("Hunisch", "Lusepil")], [("Ikibiti", "Lusepil")]),
         LAST_LUSEPIL, (2, "Ikibiti", "Lusepil")),
        (4, bridges([("Arabana", "Lusepil")], [("Danidad", "Lusepil"), ("Elamite", "Lusepil")],
                    [("Hunisch", "Lusepil"), ("Ikibiti", "Lusepil")], [("Barilub", "Lusepil")]),
         LAST_LUSEPIL, (3, "Barilub", "Lusepil")),
    ],
    ids=["2-2-1", "3-3-1", "2-2-2-1"],
)  # fmt: skip
def test_O6_tied_for_most_the_single_bridge_goes_at_once(
    seats: int, position: list[Event], last: Command, victim: tuple[int, str, str]
) -> None:
    game = given(opodopo(hand=(*NURIDAN_HAND[:2], "Lusepil"), seats=seats), position)
    then = game.when(last)
    owner, a, b = victim
    assert then.facts == facts(
        [played(0, last.args["card"]), placed(0, *last.args["line"]),
         removed(owner, a, b, by=0, cause="relative_majority")]
    )  # fmt: skip
    assert then.state.pending == ()


def test_O6_the_player_goes_on_and_may_reach_absolute_majority() -> None:
    # 2-2-1 on Nuridan: seat 2's bridge goes; a second Nuridan on the freed line makes 3 of 5.
    game = given(opodopo(hand=NURIDAN_HAND, seats=3),
                 bridges([("Garanig", "Nuridan")], [("Krapink", "Nuridan"), ("Mosedam", "Nuridan")],
                         [("Nuridan", "Opodopo")])).then(LAST_NURIDAN)  # fmt: skip
    then = game.when(place(0, "Nuridan", "Nuridan", "Opodopo"))
    assert then.facts == facts(
        [
            played(0, "Nuridan"),
            placed(0, "Nuridan", "Opodopo"),
            taken(0, "Nuridan"),
            removed(1, "Krapink", "Nuridan", by=0, cause="majority"),
            removed(1, "Mosedam", "Nuridan", by=0, cause="majority"),
        ]
    )


def test_O6_while_the_choice_is_pending_nothing_else_is_accepted() -> None:
    game = given(opodopo(hand=NURIDAN_HAND), NURIDAN_2_1_1_1).then(LAST_NURIDAN)
    for command in [
        place(0, "Nuridan", "Nuridan", "Opodopo"),
        draw_stack(0),
        end_turn(0),
        discard(0, "Lusepil"),
        swap(0, ("Nuridan", "Nuridan"), "Krapink", "Nuridan"),
        act("PlayCard", 0, card="Lusepil"),
    ]:
        assert game.rejects(command) == "pending_relative_majority", command
    assert game.rejects(choose_removal(1, "Krapink", "Nuridan")) == "not_your_turn"
    assert game.rejects(choose_removal(0, "Garanig", "Nuridan")) == "bridge_not_offered"
    assert game.rejects(choose_removal(0, "Lusepil", "Papalua")) == "bridge_not_offered"
    assert game.rejects(shuffle(range(48))) == "no_shuffle_due"
    view = engine.view(game.state, 0)["pending"]
    offered = [["Krapink", "Nuridan"], ["Mosedam", "Nuridan"], ["Nuridan", "Opodopo"]]
    assert view == [{"kind": "relative_majority", "seat": 0, "island": "Nuridan", "options": offered}]


@pytest.mark.parametrize(
    ("position", "hand", "last"),
    [
        # One place still free on Nuridan.
        (bridges([("Garanig", "Nuridan")], [("Krapink", "Nuridan")], [("Mosedam", "Nuridan")]),
         NURIDAN_HAND, LAST_NURIDAN),
        # 1-2-1-1: another seat holds the most.
        (bridges([], [("Garanig", "Nuridan"), ("Krapink", "Nuridan")], [("Mosedam", "Nuridan")],
                 [("Nuridan", "Opodopo")]), NURIDAN_HAND, LAST_NURIDAN),
        # A small island, 1-1-1.
        (bridges([], [("Hunisch", "Mosedam")], [("Mosedam", "Nuridan")]), ("Opodopo", "Nuridan", "Lusepil"),
         place(0, "Opodopo", "Mosedam", "Opodopo")),
    ],
    ids=["place-left", "not-the-most", "small-island"],
)  # fmt: skip
def test_O6_no_removal(position: list[Event], hand: tuple[str, ...], last: Command) -> None:
    game = given(opodopo(hand=hand), position)
    assert game.when(last).types == ["CardsPlayed", "BridgePlaced"]


# --- O-7 rounds and final turns ---------------------------------------------------------------


def test_O7_round_1_ends_with_the_last_card_and_the_next_seat_starts_round_2() -> None:
    game = given(opodopo()).draw_out()
    last_draw = [e for e in game.history if e.type == "CardDrawn"][-1]
    turn_end = [e for e in game.history if e.type == "TurnEnded"][-1]
    assert facts(game.history[-1:]) == facts([round_ended(1)])
    assert turn_end.data == {"seat": last_draw.data["seat"], "next": (last_draw.data["seat"] + 1) % 4}
    scored = game.then(score(1))
    due = engine.pending_system(scored.state)
    assert due == Shuffle({"order": 48 - sum(map(len, scored.state.hands))}, "ShuffleDeck")
    then = scored.when(shuffle(range(due.permutations["order"])))
    pool = scored.state.pool()
    assert then.facts == [
        ("DeckShuffled", {"round": 2, "size": len(pool)}),
        ("FaceUpLaid", {"cards": list(pool[:4])}),
        ("RoundStarted", {"round": 2, "first": turn_end.data["next"]}),
    ]


def final_turns(*position: list[Event], seats: int = 4, first_seat: int = 0) -> Given:
    """Round 1 ended before any draw and scored; round 2 drawn out to its final turns."""
    return given(opodopo(seats=seats, first_seat=first_seat), *position).at_round(2).draw_out()


def test_O7_final_turns_after_the_last_card_of_round_2() -> None:
    game = final_turns()
    last_draw = [e for e in game.history if e.type == "CardDrawn"][-1].data["seat"]
    order = [(last_draw + k) % 4 for k in range(1, 5)]
    assert game.history[-1].type == "FinalTurnsStarted" and game.history[-1].data == {"order": order}
    first = order[0]
    assert game.state.active == first
    assert game.rejects(draw_stack(first)) == "no_draw_in_final_turn"
    game = game.then(next(c for c in engine.legal_commands(game.state, first) if c.type == "PlaceBridge"))
    assert game.when(end_turn(first)).facts == [("FinalTurnFinished", {"seat": first})]
    game = game.then(*(end_turn(seat) for seat in order[:-1]))
    assert game.when(end_turn(order[-1])).facts == [
        ("FinalTurnFinished", {"seat": order[-1]}),
        ("RoundEnded", {"round": 2}),
    ]
    ended = game.then(end_turn(order[-1])).when(score(2))
    assert ended.types == ["RoundScored", "GameEnded"]


# Seat 3 holds Mosedam (2 of 3): one point at the small scoring.
SEAT_3_LEADS = bridges([], [], [], [("Hunisch", "Mosedam"), ("Mosedam", "Nuridan")])


def test_O7_defer_while_a_seat_with_more_points_is_still_to_play() -> None:
    game = final_turns(SEAT_3_LEADS)
    assert [s["score"] for s in engine.view(game.state, None)["seats"]] == [0, 0, 0, 1]
    order = game.history[-1].data["order"]
    assert order == [0, 1, 2, 3]
    then = game.when(act("DeferFinalTurn", 0))
    # Our ruling: the deferring seat goes to the back, so deferrals always end.
    assert then.facts == [("FinalTurnDeferred", {"seat": 0, "order": [1, 2, 3, 0]})]
    assert then.state.active == 1
    game = game.then(act("DeferFinalTurn", 0), end_turn(1), act("DeferFinalTurn", 2))
    assert game.state.final_order == (3, 0, 2)
    assert game.rejects(act("DeferFinalTurn", 3)) == "no_deferral"  # nobody has more points
    game = game.then(end_turn(3))
    assert game.rejects(act("DeferFinalTurn", 0)) == "no_deferral"  # seat 3 has played
    game = game.then(end_turn(0))
    assert game.when(end_turn(2)).types == ["FinalTurnFinished", "RoundEnded"]


def test_O7_deferrals_always_end_with_someone_playing() -> None:
    game = final_turns(SEAT_3_LEADS)
    for seat in (0, 1, 2):
        game = game.then(act("DeferFinalTurn", seat))
    assert game.state.final_order == (3, 0, 1, 2)
    assert game.rejects(act("DeferFinalTurn", 3)) == "no_deferral"


def test_O7_no_deferral_once_the_final_turn_began_or_outside_it() -> None:
    game = final_turns(SEAT_3_LEADS)
    hand = game.state.hands[0]
    begun = game.then(discard(0, hand[0]))
    assert begun.rejects(act("DeferFinalTurn", 0)) == "no_deferral"
    assert given(opodopo()).rejects(act("DeferFinalTurn", 0)) == "no_deferral"


# --- O-8 scoring ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("places", "own", "small", "big"),
    [
        (3, 2, 1, 2),
        (3, 3, 0, 1),
        (5, 3, 2, 3),
        (5, 4, 1, 2),
        (5, 5, 0, 1),
        (7, 4, 3, 4),
        (7, 5, 2, 3),
        (7, 6, 1, 2),
        (7, 7, 0, 1),
    ],
)
def test_O8_seed_scoring_table(places: int, own: int, small: int, big: int) -> None:
    assert island_value(places, own, big=False) == small
    assert island_value(places, own, big=True) == big


# Seat 0: Mosedam 2 of 3, Rarotiki 3 of 3. Seat 1: Lusepil 4 of 7, a seat 2 bridge among the
# other three. Seat 2: Krapink 3 of 5, Opodopo 4 of 5.
SCORED = bridges(
    [("Hunisch", "Mosedam"), ("Mosedam", "Nuridan"), ("Cocotac", "Rarotiki"), ("Garanig", "Rarotiki"),
     ("Nuridan", "Rarotiki")],
    [("Arabana", "Lusepil"), ("Barilub", "Lusepil"), ("Danidad", "Lusepil"), ("Elamite", "Lusepil")],
    [("Hunisch", "Lusepil"), ("Elamite", "Krapink"), ("Fafnuff", "Krapink"), ("Garanig", "Krapink"),
     ("Danidad", "Opodopo"), ("Hunisch", "Opodopo"), ("Ikibiti", "Opodopo"), ("Nuridan", "Opodopo")],
)  # fmt: skip


def test_O8_small_and_big_scoring() -> None:
    game = given(opodopo(seats=3), SCORED)
    assert game.markers == {"Krapink": 2, "Lusepil": 1, "Mosedam": 0, "Opodopo": 2, "Rarotiki": 0}
    game = game.plus(round_ended(1))
    assert game.when(score(1)).facts == [
        ("RoundScored", {"round": 1, "islands": [2, 1, 2], "points": [1, 3, 3], "totals": [1, 3, 3]})
    ]
    game = game.at_round(2).plus(round_ended(2))
    assert game.when(score(2)).facts == [
        ("RoundScored", {"round": 2, "islands": [2, 1, 2], "points": [3, 4, 5], "totals": [4, 7, 8]}),
        ("GameEnded", {"winner": 2, "totals": [4, 7, 8], "reason": "points"}),
    ]


# --- O-9 winner ---------------------------------------------------------------------------------

# Seats 0 and 1 hold a small island with 2 of 3 each: 1 + 2 points each, a tie.
TIED = bridges(
    [("Hunisch", "Mosedam"), ("Mosedam", "Nuridan")], [("Cocotac", "Rarotiki"), ("Garanig", "Rarotiki")]
)


@pytest.mark.parametrize("first_seat", [0, 1])
def test_O9_a_tie_goes_to_who_finished_the_final_turn_first(first_seat: int) -> None:
    game = final_turns(TIED, seats=3, first_seat=first_seat).end_round()
    finished = [e.data["seat"] for e in game.history if e.type == "FinalTurnFinished"]
    winner = next(seat for seat in finished if seat in (0, 1))
    assert winner == first_seat
    assert game.when(score(2)).facts[-1] == (
        "GameEnded",
        {"winner": winner, "totals": [3, 3, 0], "reason": "points"},
    )


# --- O-10 eleventh island ------------------------------------------------------------------------


def test_O10_an_eleventh_island_wins_at_once() -> None:
    game = given(opodopo(hand=("Hunisch", "Lusepil", "Nuridan")), bridges(OPODOPO_TEN))
    assert len(game.markers) == 10
    then = game.when(place(0, "Hunisch", "Elamite", "Hunisch"))
    assert then.facts == [
        *facts([played(0, "Hunisch"), placed(0, "Elamite", "Hunisch"), taken(0, "Hunisch")]),
        ("GameEnded", {"winner": 0, "totals": [0, 0, 0, 0], "reason": "eleventh_island"}),
    ]
    assert engine.is_terminal(then.state)


def test_O10_a_tenth_island_does_not() -> None:
    nine = [line for line in OPODOPO_TEN if line != ("Danidad", "Opodopo")]  # Opodopo drops to 2 of 5
    game = given(opodopo(hand=("Hunisch", "Lusepil", "Nuridan")), bridges(nine))
    assert len(game.markers) == 9
    then = game.when(place(0, "Hunisch", "Elamite", "Hunisch"))
    assert then.types == ["CardsPlayed", "BridgePlaced", "IslandTaken"]


# --- O-11 out of bridges -------------------------------------------------------------------------

ALL_OUT = bridges(*OPODOPO_ALL_OUT)
OUT_HAND = ("Arabana", "Barilub", "Elamite")


def test_O11_play_a_card_without_placing() -> None:
    game = given(opodopo(hand=OUT_HAND, seats=3), ALL_OUT)
    assert game.state.stock == (0, 12, 13)
    assert game.rejects(place(0, "Arabana", "Arabana", "Papalua")) == "no_bridges_in_stock"
    then = game.when(act("PlayCard", 0, card="Arabana"))
    assert then.facts == facts([played(0, "Arabana")])
    assert then.state.hands[0] == ("Barilub", "Elamite")
    fresh = given(opodopo(hand=OUT_HAND, seats=3))
    assert fresh.rejects(act("PlayCard", 0, card="Arabana")) == "bridges_in_stock"


def place_taking_back(seat: int, card: str, line: Line, back: Line) -> Command:
    """O-11: play `card`, take back one's bridge from `back` and place it on `line`."""
    return act("PlaceBridge", seat, card=card, line=list(line), take_back=list(back))


def test_O11_a_take_back_is_part_of_a_placement_in_one_command() -> None:
    game = given(opodopo(hand=OUT_HAND, seats=3), ALL_OUT)
    assert game.markers == {"Elamite": 0, "Fafnuff": 0, "Hunisch": 0, "Mosedam": 0, "Opodopo": 0}
    then = game.when(place_taking_back(0, "Arabana", ("Arabana", "Papalua"), ("Barilub", "Elamite")))
    assert then.facts[:4] == facts(
        [
            played(0, "Arabana"),
            removed(0, "Barilub", "Elamite", by=0, cause="taken_back"),
            lost(0, "Elamite"),
            placed(0, "Arabana", "Papalua"),
        ]
    )
    after = game.plus(*then.events)
    assert after.state.stock[0] == 0 and after.state.hands[0] == ("Barilub", "Elamite")
    # Never onto the line a bridge left this turn, by a later placement either.
    later = place_taking_back(0, "Barilub", ("Barilub", "Elamite"), ("Hunisch", "Mosedam"))
    assert after.rejects(later) == "line_taken_back"
    listed = [c.args for c in engine.legal_commands(game.state, 0) if c.type == "PlaceBridge"]
    assert {"card": "Arabana", "line": ["Arabana", "Papalua"], "take_back": ["Barilub", "Elamite"]} in listed
    assert listed and all("take_back" in args for args in listed)


def test_O11_a_take_back_with_no_placement_is_refused() -> None:
    game = given(opodopo(hand=OUT_HAND, seats=3), ALL_OUT)
    assert game.rejects(act("TakeBackBridge", 0, line=["Barilub", "Elamite"])) == "take_back_needs_placement"
    assert "TakeBackBridge" not in {c.type for c in engine.legal_commands(game.state, 0)}


def test_O11_take_back_refusals() -> None:
    game = given(opodopo(hand=OUT_HAND, seats=3), ALL_OUT)
    arabana = ("Arabana", "Papalua")
    assert game.rejects(place_taking_back(0, "Arabana", arabana, ("Barilub", "Lusepil"))) == "not_your_bridge"
    same = ("Barilub", "Elamite")
    assert game.rejects(place_taking_back(0, "Barilub", same, same)) == "line_taken_back"
    assert game.rejects(place_taking_back(0, "Cocotac", ("Cocotac", "Rarotiki"), same)) == "card_not_in_hand"
    assert game.rejects(place_taking_back(0, "Barilub", arabana, same)) == "card_not_on_line"
    bad = act("PlaceBridge", 0, card="Arabana", line=list(arabana), take_back="Barilub")
    assert game.rejects(bad) == "bad_command"
    fresh = given(opodopo(hand=OUT_HAND, seats=3), bridges([("Barilub", "Elamite")]))
    assert fresh.rejects(place_taking_back(0, "Arabana", arabana, same)) == "bridges_in_stock"


def test_O11_a_stored_lone_take_back_still_folds() -> None:
    # Games recorded before the take-back joined the placement keep their meaning.
    game = given(opodopo(hand=OUT_HAND, seats=3), ALL_OUT)
    game = game.plus(removed(0, "Barilub", "Elamite", by=0, cause="taken_back"), lost(0, "Elamite"))
    assert game.state.stock == (1, 12, 13) and "Elamite" not in game.markers
    assert game.rejects(place(0, "Barilub", "Barilub", "Elamite")) == "line_taken_back"
    assert game.when(place(0, "Arabana", "Arabana", "Papalua")).facts[:2] == facts(
        [played(0, "Arabana"), placed(0, "Arabana", "Papalua")]
    )
