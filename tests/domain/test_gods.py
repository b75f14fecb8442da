"""'Power of the Gods', the Arabana-Opodopo option (docs: shared/rules/island-games.md, G-1..G-9)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from given import (
    OPODOPO,
    Given,
    Line,
    act,
    deal,
    draw_face_up,
    draw_stack,
    end_turn,
    facts,
    given,
    gods_order,
    layout,
    lost,
    place,
    placed,
    played,
    removed,
    round_ended,
    shuffle,
    swap,
    taken,
)

from domain.decider import Command, Event
from domain.islands import engine
from domain.turns import Pick, Shuffle

GODS = OPODOPO.with_options(gods=True)
BOARD = GODS.board
# The stones this file relies on; the others lie where gods_order puts them.
STONES = {"Mosedam": "Kane", "Nuridan": "Kane", "Lusepil": "Kane", "Rarotiki": "Ku", "Papalua": "Pele",
          "Ikibiti": "Lono", "Opodopo": "Kanaloa"}  # fmt: skip
HOME = {god: island for island, god in STONES.items() if god != "Kane"}  # where each power lies
HANDS = [("Lusepil", "Lusepil", "Nuridan"), ("Arabana", "Barilub", "Cocotac"),
         ("Danidad", "Elamite", "Fafnuff"), ("Garanig", "Hunisch", "Ikibiti")]  # fmt: skip
FACE_UP = ("Krapink", "Krapink", "Krapink", "Mosedam")


def gods_game(hand: Sequence[str] = HANDS[0], *position: Sequence[Line], round_: int = 1) -> Given:
    """Four seats with the stones of STONES; seat 0 keeps `hand`; the position; then `round_`."""
    game = given(deal(GODS, [hand, *HANDS[1:]], FACE_UP, gods=STONES))
    game = game.plus(*layout(BOARD, position))
    return game.at_round(round_)


def holding(seat: int, *gods: str) -> list[Event]:
    """`seat` took these stones (G-2), as recorded facts."""
    return [Event("GodTaken", {"seat": seat, "island": HOME[god], "god": god}) for god in gods]


def stones_of(game: Given, seat: int) -> list[str]:
    seen: list[str] = engine.view(game.state, None)["seats"][seat]["god_stones"]
    return seen


def god_used(seat: int, god: str) -> Event:
    return Event("GodUsed", {"seat": seat, "god": god})


def god_taken(seat: int, island: str, god: str) -> Event:
    return Event("GodTaken", {"seat": seat, "island": island, "god": god})


# --- G-1 the stones -----------------------------------------------------------------------------


def test_G1_sixteen_stones_laid_out_at_random_in_public() -> None:
    game = given([GODS.created()])
    assert engine.pending_system(game.state) == Shuffle({"order": 48, "gods": 16}, "ShuffleDeck")
    then = game.when(shuffle(range(48), gods=gods_order(BOARD, STONES)))
    laid = next(e for e in then.events if e.type == "GodsPlaced")
    assert laid.secret is None
    stones = laid.data["stones"]
    assert sorted(stones) == sorted(BOARD.islands)  # one per island
    assert Counter(stones.values()) == {"Kane": 4, "Kanaloa": 3, "Ku": 3, "Pele": 3, "Lono": 3}
    assert {island: stones[island] for island in STONES} == STONES
    assert engine.view(then.state, 2)["gods"] == stones
    assert game.rejects(shuffle(range(48))) == "bad_order"
    assert game.rejects(shuffle(range(48), gods=range(15))) == "bad_order"


def test_G1_the_stones_are_laid_once() -> None:
    game = gods_game().plus(round_ended(1))
    game = game.then(Command("ScoreRound", None, {"round": 1}))
    due = engine.pending_system(game.state)
    assert isinstance(due, Shuffle) and due.permutations == {"order": 48 - 12}
    assert "GodsPlaced" not in [e.type for e in game.when(shuffle(range(36))).events]


def test_G1_no_stones_without_the_option() -> None:
    game = given([OPODOPO.created()])
    assert engine.pending_system(game.state) == Shuffle({"order": 48}, "ShuffleDeck")
    plain = given(deal(OPODOPO, HANDS, FACE_UP))
    assert "GodsPlaced" not in [e.type for e in plain.history]
    assert plain.rejects(act("UseKu", 0, target=1)) == "unknown_command"


# --- G-2 the first gain takes the stone ----------------------------------------------------------


def test_G2_the_first_seat_to_gain_an_island_takes_its_stone() -> None:
    game = gods_game(("Nuridan", "Opodopo", "Lusepil"), [("Hunisch", "Mosedam"), ("Krapink", "Nuridan")])
    then = game.when(place(0, "Nuridan", "Mosedam", "Nuridan"))
    assert then.facts[:4] == facts(
        [played(0, "Nuridan"), placed(0, "Mosedam", "Nuridan"), taken(0, "Mosedam"),
         god_taken(0, "Mosedam", "Kane")]
    )  # fmt: skip
    rarotiki = gods_game(("Nuridan", "Opodopo", "Lusepil"), [("Cocotac", "Rarotiki")])
    then = rarotiki.when(place(0, "Nuridan", "Nuridan", "Rarotiki"))
    assert then.facts[2:] == facts([taken(0, "Rarotiki"), god_taken(0, "Rarotiki", "Ku")])
    game = rarotiki.then(place(0, "Nuridan", "Nuridan", "Rarotiki"))
    assert stones_of(game, 0) == ["Ku"]
    assert "Rarotiki" not in engine.view(game.state, None)["gods"]


def test_G2_a_stone_goes_once() -> None:
    game = gods_game(("Nuridan", "Garanig", "Lusepil"), [("Cocotac", "Rarotiki")])
    game = game.then(place(0, "Nuridan", "Nuridan", "Rarotiki"))
    # Seat 1 swapped Nuridan-Rarotiki, and seat 0 lost Rarotiki; it wins it back: no stone now.
    game = game.plus(removed(0, "Nuridan", "Rarotiki", by=1, cause="swap"), placed(1, "Nuridan", "Rarotiki"))
    game = game.plus(lost(0, "Rarotiki"))
    then = game.when(place(0, "Garanig", "Garanig", "Rarotiki"))
    assert then.types == ["CardsPlayed", "BridgePlaced", "IslandTaken", "BridgeRemoved"]
    assert stones_of(game, 0) == ["Ku"]  # the first stone stays with its taker


# --- G-3 Kane ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "position", "last", "island", "points"),
    [
        (HANDS[0], [("Hunisch", "Mosedam")], ("Nuridan", "Mosedam", "Nuridan"), "Mosedam", 1),
        (HANDS[0], [("Garanig", "Nuridan"), ("Krapink", "Nuridan")], ("Nuridan", "Nuridan", "Rarotiki"),
         "Nuridan", 2),
        (HANDS[0], [("Arabana", "Lusepil"), ("Barilub", "Lusepil"), ("Danidad", "Lusepil")],
         ("Lusepil", "Lusepil", "Papalua"), "Lusepil", 3),
    ],
    ids=["small", "large", "Lusepil"],
)  # fmt: skip
def test_G3_kane_scores_at_once(
    hand: tuple[str, ...], position: list[Line], last: tuple[str, str, str], island: str, points: int
) -> None:
    game = gods_game(hand, position)
    then = game.when(place(0, *last))
    assert then.facts[2:5] == facts(
        [taken(0, island), god_taken(0, island, "Kane"),
         Event("KaneScored", {"seat": 0, "island": island, "points": points})]
    )  # fmt: skip
    seats = engine.view(then.state, None)["seats"]
    assert [s["score"] for s in seats] == [points, 0, 0, 0]
    assert seats[0]["god_stones"] == []  # Kane is spent at once


# --- G-4 the other stones in round 2 -------------------------------------------------------------

POWERS = ["Ku", "Pele", "Lono", "Kanaloa"]
USES = [
    act("UseKu", 0, target=1),
    act("UsePele", 0),
    act("UseLono", 0, source="stack"),
    act("UseKanaloa", 0, line=["Cocotac", "Garanig"]),
    swap(0, ("Nuridan",), "Mosedam", "Nuridan", kanaloa=True),
]


@pytest.mark.parametrize("use", USES, ids=lambda c: c.type + ("+Kanaloa" if c.args.get("kanaloa") else ""))
def test_G4_powers_sleep_in_round_1(use: Command) -> None:
    game = gods_game(HANDS[0], [], [("Mosedam", "Nuridan")]).plus(*holding(0, *POWERS))
    assert game.rejects(use) == "gods_sleep"
    assert not [c for c in engine.legal_commands(game.state, 0) if c.type.startswith("Use")]
    awake = gods_game(HANDS[0], [], [("Mosedam", "Nuridan")], round_=2).plus(*holding(0, *POWERS))
    assert awake.when(use).events[0].type == "GodUsed"


def test_G4_a_stone_taken_in_round_2_is_used_at_once() -> None:
    game = gods_game(HANDS[0], [("Ikibiti", "Opodopo")], round_=2)
    game = game.then(place(0, "Lusepil", "Ikibiti", "Lusepil"))
    assert stones_of(game, 0) == ["Lono"]
    assert game.when(act("UseLono", 0, source="stack")).types == ["GodUsed", "CardDrawn"]


# --- G-5 Kanaloa -------------------------------------------------------------------------------


def test_G5_kanaloa_places_a_bridge_on_any_free_line() -> None:
    game = gods_game(round_=2).plus(*holding(0, "Kanaloa"))
    then = game.when(act("UseKanaloa", 0, line=["Cocotac", "Garanig"]))
    assert then.facts == facts([god_used(0, "Kanaloa"), placed(0, "Cocotac", "Garanig")])
    game = game.then(act("UseKanaloa", 0, line=["Cocotac", "Garanig"]))
    assert game.state.hands[0] == HANDS[0]
    assert stones_of(game, 0) == []
    assert game.rejects(act("UseKanaloa", 0, line=["Fafnuff", "Garanig"])) == "no_such_god"


def test_G5_kanaloa_stands_in_for_one_card_of_a_swap() -> None:
    game = gods_game(HANDS[0], [], [("Nuridan", "Opodopo")], round_=2).plus(*holding(0, "Kanaloa"))
    then = game.when(swap(0, ("Nuridan",), "Nuridan", "Opodopo", kanaloa=True))
    assert then.facts == facts(
        [god_used(0, "Kanaloa"), played(0, "Nuridan"), removed(1, "Nuridan", "Opodopo", by=0, cause="swap"),
         placed(0, "Nuridan", "Opodopo")]
    )  # fmt: skip
    assert (
        game.rejects(swap(0, ("Lusepil",), "Nuridan", "Opodopo", kanaloa=True)) == "cards_do_not_match_line"
    )


def test_G5_kanaloa_is_no_card() -> None:
    game = gods_game(round_=2).plus(*holding(0, "Kanaloa"))
    assert engine.view(game.state, None)["seats"][0]["hand_count"] == 3
    game = game.then(
        *(draw_stack(seat) for seat in range(4)), draw_stack(0), *(draw_stack(s) for s in (1, 2, 3))
    )
    assert len(game.state.hands[0]) == 5 and stones_of(game, 0) == ["Kanaloa"]
    assert game.rejects(draw_stack(0)) == "hand_full"  # five cards, the stone aside
    seat_without = gods_game(round_=2)
    assert seat_without.rejects(act("UseKanaloa", 0, line=["Cocotac", "Garanig"])) == "no_such_god"


# --- G-6 Ku ----------------------------------------------------------------------------------


def test_G6_ku_shows_a_hand_to_its_user_and_takes_one_card() -> None:
    game = gods_game(round_=2).plus(*holding(0, "Ku"))
    then = game.when(act("UseKu", 0, target=2))
    assert then.facts == [
        ("GodUsed", {"seat": 0, "god": "Ku"}),
        ("HandShown", {"seat": 0, "target": 2}),
        ("ChoiceRequired", {"kind": "ku", "seat": 0, "island": "", "target": 2}),
    ]
    shown, required = then.events[1:]
    assert (shown.secret, shown.audience) == ({"cards": list(HANDS[2])}, (0, 2))
    assert (required.secret, required.audience) == ({"options": list(HANDS[2])}, (0, 2))
    game = game.then(act("UseKu", 0, target=2))
    assert engine.view(game.state, 0)["pending"] == [
        {"kind": "ku", "seat": 0, "island": "", "target": 2, "options": list(HANDS[2])}
    ]
    for viewer in (1, 2, 3, None):
        assert engine.view(game.state, viewer)["pending"] == [
            {"kind": "ku", "seat": 0, "island": "", "target": 2}
        ]
    assert game.rejects(act("TakeCard", 0, card="Garanig")) == "card_not_offered"
    took = game.when(act("TakeCard", 0, card="Elamite"))
    assert took.facts == [
        ("CardTaken", {"seat": 0, "from": 2, "how": "ku"}),
        ("ChoiceResolved", {"kind": "ku", "seat": 0}),
    ]
    assert (took.events[0].secret, took.events[0].audience) == ({"card": "Elamite"}, (0, 2))
    assert took.state.hands[0] == ("Elamite", "Lusepil", "Lusepil", "Nuridan")
    assert took.state.hands[2] == ("Danidad", "Fafnuff")


def test_G6_while_ku_is_pending_nothing_else_is_accepted() -> None:
    game = gods_game(round_=2).plus(*holding(0, "Ku", "Lono")).then(act("UseKu", 0, target=2))
    for command in [
        place(0, "Nuridan", "Nuridan", "Rarotiki"),
        draw_stack(0),
        end_turn(0),
        act("UseLono", 0, source="stack"),
        act("ChooseRemoval", 0, line=["Mosedam", "Nuridan"]),
    ]:
        assert game.rejects(command) == "pending_ku", command
    assert game.rejects(act("TakeCard", 1, card="Elamite")) == "not_your_turn"
    assert game.rejects(Command("DrawAtRandom", None, {"picks": {}})) == "no_draw_due"


def test_G6_refusals() -> None:
    game = gods_game(round_=2).plus(*holding(0, "Ku"))
    assert game.rejects(act("UseKu", 0, target=0)) == "bad_target"
    assert game.rejects(act("UseKu", 0, target=4)) == "bad_command"
    assert game.rejects(act("TakeCard", 0, card="Elamite")) == "no_choice_pending"
    assert gods_game(round_=2).rejects(act("UseKu", 0, target=1)) == "no_such_god"


# --- G-7 Pele ----------------------------------------------------------------------------------


def test_G7_pele_takes_one_random_card_from_each_opponent_then_gives_one_back() -> None:
    game = gods_game(round_=2).plus(*holding(0, "Pele"))
    then = game.when(act("UsePele", 0))
    assert then.facts == [
        ("GodUsed", {"seat": 0, "god": "Pele"}),
        ("ChoiceRequired", {"kind": "pele_draw", "seat": 0, "island": "", "target": None, "options": []}),
    ]
    game = game.then(act("UsePele", 0))
    assert engine.pending_system(game.state) == Pick({"1": 3, "2": 3, "3": 3}, "DrawAtRandom")
    assert game.rejects(draw_stack(0)) == "pending_pele_draw"
    assert game.rejects(act("GiveCards", 0, gifts={"1": "Lusepil", "2": "Lusepil", "3": "Nuridan"})) == (
        "pending_pele_draw"
    )
    assert game.rejects(Command("DrawAtRandom", None, {"picks": {"1": 0, "2": 0}})) == "bad_picks"
    assert game.rejects(Command("DrawAtRandom", None, {"picks": {"1": 0, "2": 0, "3": 3}})) == "bad_picks"
    drawn = game.when(Command("DrawAtRandom", None, {"picks": {"1": 0, "2": 1, "3": 2}}))
    assert drawn.facts == [
        *[("CardTaken", {"seat": 0, "from": victim, "how": "pele"}) for victim in (1, 2, 3)],
        ("ChoiceResolved", {"kind": "pele_draw", "seat": 0}),
        (
            "ChoiceRequired",
            {"kind": "pele_return", "seat": 0, "island": "", "target": None, "options": [1, 2, 3]},
        ),
    ]
    assert [(e.secret, e.audience) for e in drawn.events[:3]] == [
        ({"card": "Arabana"}, (0, 1)),
        ({"card": "Elamite"}, (0, 2)),
        ({"card": "Ikibiti"}, (0, 3)),
    ]
    game = game.then(Command("DrawAtRandom", None, {"picks": {"1": 0, "2": 1, "3": 2}}))
    assert len(game.state.hands[0]) == 6 and engine.pending_system(game.state) is None
    assert game.rejects(draw_stack(0)) == "pending_pele_return"
    assert game.rejects(act("GiveCards", 0, gifts={"1": "Lusepil", "2": "Lusepil"})) == "bad_command"
    assert game.rejects(act("GiveCards", 0, gifts={"1": "Lusepil", "2": "Lusepil", "3": "Lusepil"})) == (
        "card_not_in_hand"
    )
    given_back = game.when(act("GiveCards", 0, gifts={"1": "Lusepil", "2": "Nuridan", "3": "Arabana"}))
    assert given_back.facts == [
        *[("CardGiven", {"seat": 0, "to": victim}) for victim in (1, 2, 3)],
        ("ChoiceResolved", {"kind": "pele_return", "seat": 0}),
    ]
    assert [e.audience for e in given_back.events[:3]] == [(0, 1), (0, 2), (0, 3)]
    assert given_back.state.hands == (
        ("Elamite", "Ikibiti", "Lusepil"),
        ("Barilub", "Cocotac", "Lusepil"),
        ("Danidad", "Fafnuff", "Nuridan"),
        ("Arabana", "Garanig", "Hunisch"),
    )


# --- G-8 Lono, G-9 hands over five --------------------------------------------------------------


def test_G8_lono_draws_an_extra_card_that_may_be_played_at_once() -> None:
    game = gods_game(round_=2).plus(*holding(0, "Lono"))
    face_up = game.state.face_up
    then = game.when(act("UseLono", 0, source="face_up", card=face_up[0]))
    assert then.facts == [
        ("GodUsed", {"seat": 0, "god": "Lono"}),
        ("CardDrawn", {"seat": 0, "source": "face_up", "card": face_up[0]}),
        ("FaceUpRefilled", {"card": game.state.stack[0]}),
    ]
    game = game.then(act("UseLono", 0, source="face_up", card=face_up[0]))
    assert game.state.active == 0
    line = next(line for line in BOARD.lines if face_up[0] in line)
    assert game.when(place(0, face_up[0], *line)).types[:2] == ["CardsPlayed", "BridgePlaced"]
    assert game.when(draw_stack(0)).types == ["CardDrawn", "TurnEnded"]  # and the turn's own draw


def test_G8_lono_taking_the_last_card_ends_the_turn_without_a_draw_and_starts_the_final_turns() -> None:
    game = gods_game(round_=2).plus(*(e for seat in range(4) for e in holding(seat, "Lono")))
    while len(game.state.stack) + len(game.state.face_up) > 1:
        seat = game.state.active
        if len(game.state.hands[seat]) == 5:
            game = game.then(act("DiscardCards", seat, cards=[game.state.hands[seat][0]]))
        game = game.then(draw_stack(seat) if game.state.stack else draw_face_up(seat, game.state.face_up[0]))
    seat, (last,) = game.state.active, game.state.face_up
    then = game.when(act("UseLono", seat, source="face_up", card=last))
    assert then.facts == [
        ("GodUsed", {"seat": seat, "god": "Lono"}),
        ("CardDrawn", {"seat": seat, "source": "face_up", "card": last}),
    ]
    game = game.plus(*then.events)
    assert (game.state.phase, game.state.active) == ("play", seat)
    legal = engine.legal_commands(game.state, seat)
    assert "DrawCard" not in {c.type for c in legal}
    assert any(c.type == "PlaceBridge" and c.args["card"] == last for c in legal)  # playable at once
    # Lono made it six (G-9): the turn ends discarding one face down.
    assert len(game.state.hands[seat]) == 6
    following = (seat + 1) % 4
    assert game.when(act("EndTurn", seat, cards=[last])).facts == [
        ("CardsDiscarded", {"seat": seat, "count": 1}),
        ("TurnEnded", {"seat": seat, "next": following}),
        ("FinalTurnsStarted", {"order": [(following + k) % 4 for k in range(4)]}),
    ]


def test_G9_a_stone_may_push_the_hand_over_five() -> None:
    game = gods_game(round_=2).plus(*holding(0, "Lono", "Ku"))
    game = game.then(
        *(draw_stack(seat) for seat in range(4)), draw_stack(0), *(draw_stack(s) for s in (1, 2, 3))
    )
    assert len(game.state.hands[0]) == 5
    game = game.then(act("UseLono", 0, source="stack"), act("UseKu", 0, target=1))
    game = game.then(act("TakeCard", 0, card=game.state.pending[0].options[0]))
    assert len(game.state.hands[0]) == 7
    assert game.rejects(draw_stack(0)) == "hand_full"  # O-5 still holds at the end of the turn


def test_G9_a_hand_over_five_ends_the_turn_at_five_by_a_face_down_discard() -> None:
    game = gods_game(round_=2).plus(*holding(0, "Lono", "Ku"))
    game = game.then(*(draw_stack(seat) for seat in (0, 1, 2, 3, 0, 1, 2, 3)))
    game = game.then(act("UseLono", 0, source="stack"), act("UseKu", 0, target=1))
    game = game.then(act("TakeCard", 0, card=game.state.pending[0].options[0]))
    hand = game.state.hands[0]
    assert len(hand) == 7
    assert game.rejects(end_turn(0)) == "hand_over_limit"
    assert game.rejects(act("EndTurn", 0, cards=[hand[0]])) == "bad_command"
    assert game.rejects(act("EndTurn", 0, cards=["Opodopo", "Opodopo"])) == "card_not_in_hand"
    then = game.when(act("EndTurn", 0, cards=list(hand[:2])))
    assert then.facts == [("CardsDiscarded", {"seat": 0, "count": 2}), ("TurnEnded", {"seat": 0, "next": 1})]
    assert (then.events[0].secret, then.events[0].audience) == ({"cards": list(hand[:2])}, (0,))
    assert then.state.hands[0] == hand[2:]
    ends = [c for c in engine.legal_commands(game.state, 0) if c.type == "EndTurn"]
    assert ends and all(len(c.args["cards"]) == 2 for c in ends)
    # A hand of five or fewer ends no turn with a discard.
    later = game.plus(*then.events)
    assert later.rejects(act("EndTurn", 1, cards=[later.state.hands[1][0]])) == "discard_not_allowed"
