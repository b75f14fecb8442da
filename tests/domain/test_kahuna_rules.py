"""Kahuna's rules (docs: shared/rules/island-games.md, F-1..F-5 and K-1..K-8), one test per rule."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

import pytest
from given import (
    BLACK,
    DECK,
    ISLANDS,
    LINES,
    PLACES,
    WHITE,
    Fact,
    Given,
    cards_in_play,
    created,
    dealt,
    discard,
    draw_face_up,
    draw_stack,
    facts,
    given,
    lost,
    place,
    placed,
    played,
    position,
    random_game,
    removed,
    round_ended,
    score,
    shuffle,
    taken,
)
from given import attack as attack_with

from domain.decider import Command, Event, IllegalMove
from domain.islands import engine
from domain.islands.scoring import kahuna_points
from domain.islands.state import State
from domain.turns import Score, Shuffle


def control(state: State) -> dict[str, int]:
    """The markers on the board, as every seat sees them."""
    seen: dict[str, int] = engine.view(state, None)["control"]
    return seen


def bridges(state: State) -> dict[tuple[str, str], int]:
    """Every bridge on the board: line -> owner, as every seat sees them."""
    return {(b["line"][0], b["line"][1]): b["seat"] for b in engine.view(state, None)["bridges"]}


def stock(state: State) -> list[int]:
    return [s["bridges_in_stock"] for s in engine.view(state, None)["seats"]]


def attack(seat: int, a: str, b: str, line: tuple[str, str]) -> Command:
    return attack_with(seat, [a, b], *line)


# --- F: majorities ---------------------------------------------------------------------


# The seed's example: black on LALE-HUNA, white on LALE-KAHU.
LALE_EXAMPLE = position(black=[("HUNA", "LALE")], white=[("KAHU", "LALE")])


@pytest.mark.parametrize("card", ["LALE", "IFFI"])
def test_F1_gain_removes_opponent_bridges(card: str) -> None:
    game = given(dealt(black=("LALE", "IFFI", "ALOA")), LALE_EXAMPLE)
    then = game.when(place(BLACK, card, "LALE", "IFFI"))
    assert then.facts == facts(
        [
            played(BLACK, card),
            placed(BLACK, "IFFI", "LALE"),
            taken(BLACK, "LALE"),
            removed(WHITE, "KAHU", "LALE", by=BLACK, cause="majority"),
        ]
    )
    assert control(then.state) == {"LALE": BLACK}
    assert bridges(then.state) == {("HUNA", "LALE"): BLACK, ("IFFI", "LALE"): BLACK}


def test_F1_no_gain_without_absolute_majority() -> None:
    # Half of DUDA's 4 places is not more than half.
    game = given(dealt(black=("DUDA", "ALOA", "BARI")), position(black=[("ALOA", "DUDA")]))
    assert game.when(place(BLACK, "DUDA", "DUDA", "ELAI")).types == ["CardsPlayed", "BridgePlaced"]


def test_F2_cascade_loss_keeps_remaining_bridges() -> None:
    # White holds KAHU with 3 of 5 places, one of them the LALE-KAHU bridge black's gain removes.
    white = [("KAHU", "LALE"), ("COCO", "KAHU"), ("GOLA", "KAHU")]
    game = given(dealt(black=("LALE", "IFFI", "ALOA")), position(black=[("HUNA", "LALE")], white=white))
    assert control(game.state) == {"KAHU": WHITE}
    then = game.when(place(BLACK, "LALE", "LALE", "IFFI"))
    assert then.facts == facts(
        [
            played(BLACK, "LALE"),
            placed(BLACK, "IFFI", "LALE"),
            taken(BLACK, "LALE"),
            removed(WHITE, "KAHU", "LALE", by=BLACK, cause="majority"),
            lost(WHITE, "KAHU"),
        ]
    )
    assert control(then.state) == {"LALE": BLACK}
    assert bridges(then.state) == {
        ("HUNA", "LALE"): BLACK,
        ("IFFI", "LALE"): BLACK,
        ("COCO", "KAHU"): WHITE,
        ("GOLA", "KAHU"): WHITE,
    }


def test_F3_one_bridge_gains_two_islands() -> None:
    # ALOA-DUDA gives black 2 of ALOA's 3 places and 3 of DUDA's 4. White's ALOA-HUNA and
    # BARI-DUDA go, and with them white's majorities on HUNA and BARI (3 of 5 each).
    game = given(
        dealt(black=("ALOA", "DUDA", "COCO")),
        position(
            black=[("ALOA", "BARI"), ("DUDA", "ELAI"), ("DUDA", "HUNA")],
            white=[
                ("ALOA", "HUNA"),
                ("ELAI", "HUNA"),
                ("HUNA", "IFFI"),
                ("BARI", "DUDA"),
                ("BARI", "COCO"),
                ("BARI", "ELAI"),
            ],
        ),
    )
    assert control(game.state) == {"BARI": WHITE, "HUNA": WHITE}
    then = game.when(place(BLACK, "ALOA", "ALOA", "DUDA"))
    assert then.types == [
        "CardsPlayed",
        "BridgePlaced",
        "IslandTaken",
        "IslandTaken",
        "BridgeRemoved",
        "BridgeRemoved",
        "IslandLost",
        "IslandLost",
    ]
    gains, removals, losses = then.events[2:4], then.events[4:6], then.events[6:]

    def key(group: list[Fact]) -> list[Fact]:  # the rule fixes no order within a group
        return sorted(group, key=repr)

    assert key(facts(gains)) == key(facts([taken(BLACK, "ALOA"), taken(BLACK, "DUDA")]))
    assert key(facts(removals)) == key(
        facts(
            [
                removed(WHITE, "ALOA", "HUNA", by=BLACK, cause="majority"),
                removed(WHITE, "BARI", "DUDA", by=BLACK, cause="majority"),
            ]
        )
    )
    assert key(facts(losses)) == key(facts([lost(WHITE, "BARI"), lost(WHITE, "HUNA")]))
    assert control(then.state) == {"ALOA": BLACK, "DUDA": BLACK}


def test_F4_removed_bridges_return_to_stock() -> None:
    # White has all 25 bridges out; black's attack gives one back, which white places again.
    white = [line for line in LINES if line not in {("HUNA", "LALE"), ("KAHU", "LALE")}]
    game = given(
        dealt(black=("IFFI", "LALE", "ALOA"), white=("KAHU", "DUDA", "ELAI")),
        position(black=[("HUNA", "LALE")], white=white),
    )
    assert stock(game.state) == [24, 0]
    game = game.then(attack(BLACK, "IFFI", "LALE", ("IFFI", "LALE")))
    assert stock(game.state) == [24, 1]
    game = game.then(draw_stack(BLACK))
    then = game.when(place(WHITE, "KAHU", "KAHU", "LALE"))
    assert then.types == ["CardsPlayed", "BridgePlaced"]
    assert stock(then.state) == [24, 0]


def test_F4_majority_removals_and_lost_markers_return_to_stock() -> None:
    white = [("KAHU", "LALE"), ("COCO", "KAHU"), ("GOLA", "KAHU")]
    game = given(dealt(black=("LALE", "IFFI", "ALOA")), position(black=[("HUNA", "LALE")], white=white))
    seats = engine.view(game.state, None)["seats"]
    assert [s["bridges_in_stock"] for s in seats] == [24, 22]
    assert [s["islands"] for s in seats] == [[], ["KAHU"]]
    then = game.when(place(BLACK, "LALE", "LALE", "IFFI"))
    seats = engine.view(then.state, None)["seats"]
    assert [s["bridges_in_stock"] for s in seats] == [23, 23]
    assert [s["islands"] for s in seats] == [["LALE"], []]


def test_F5_no_marker_limit() -> None:
    # 15 black bridges hold 10 islands; COCO-FAAA makes COCO (3 of 4) the eleventh.
    black = [
        ("ALOA", "DUDA"), ("ALOA", "HUNA"), ("BARI", "COCO"), ("BARI", "DUDA"), ("BARI", "FAAA"),
        ("COCO", "GOLA"), ("DUDA", "HUNA"), ("FAAA", "GOLA"), ("FAAA", "JOJO"), ("GOLA", "JOJO"),
        ("HUNA", "IFFI"), ("IFFI", "KAHU"), ("IFFI", "LALE"), ("JOJO", "KAHU"), ("KAHU", "LALE"),
    ]  # fmt: skip
    game = given(dealt(black=("COCO", "ALOA", "BARI")), position(black=black))
    assert len(control(game.state)) == 10
    assert game.state.rules.markers == 10
    then = game.when(place(BLACK, "COCO", "COCO", "FAAA"))
    assert then.facts == facts([played(BLACK, "COCO"), placed(BLACK, "COCO", "FAAA"), taken(BLACK, "COCO")])
    assert len(engine.view(then.state, None)["seats"][BLACK]["islands"]) == 11
    assert set(control(then.state)) == set(ISLANDS) - {"ELAI"}


# --- K: Kahuna -----------------------------------------------------------------------


def test_K1_material() -> None:
    state = engine.initial_state(created().data)
    rules = state.rules
    assert rules.game == "kahuna"
    assert list(rules.deck) == DECK and len(DECK) == 24
    assert Counter(DECK) == {island: 2 for island in ISLANDS} and len(ISLANDS) == 12
    assert list(rules.board.lines) == LINES and len(LINES) == 27
    for island in ISLANDS:
        assert rules.board.places(island) == PLACES[island]
        assert PLACES[island] == sum(1 for line in LINES if island in line)
    assert state.stock == (25, 25) and rules.bridges == 25
    assert rules.markers == 10
    assert rules.rounds == 3 and rules.hand_limit == 5


def test_K2_setup_deal() -> None:
    game = given([created(first_seat=WHITE)])
    assert engine.pending_system(game.state) == Shuffle({"order": 24}, "ShuffleDeck")
    order = random.Random(2).sample(range(24), 24)
    stack = [DECK[i] for i in order]
    then = game.when(shuffle(order))
    assert then.facts == [
        ("DeckShuffled", {"round": 1, "size": 24}),
        ("HandDealt", {"seat": BLACK, "count": 3}),
        ("HandDealt", {"seat": WHITE, "count": 3}),
        ("FaceUpLaid", {"cards": stack[6:9]}),
        ("RoundStarted", {"round": 1, "first": WHITE}),
    ]
    shuffled, black, white = then.events[:3]
    assert (shuffled.secret, shuffled.audience) == ({"stack": stack}, ())
    assert (black.secret, black.audience) == ({"cards": stack[0:3]}, (BLACK,))
    assert (white.secret, white.audience) == ({"cards": stack[3:6]}, (WHITE,))
    state = then.state
    assert state.hands == (tuple(sorted(stack[0:3])), tuple(sorted(stack[3:6])))
    assert state.face_up == tuple(stack[6:9])
    assert state.stack == tuple(stack[9:]) and len(state.stack) == 15
    assert (state.phase, state.round, state.active) == ("play", 1, WHITE)
    assert engine.pending_system(state) is None


def test_K2_setup_refusals() -> None:
    game = given([created()])
    assert game.rejects(shuffle(range(23))) == "bad_order"
    assert game.rejects(shuffle([0] * 24)) == "bad_order"
    assert game.rejects(draw_stack(BLACK)) == "waiting_for_shuffle"
    setups: list[tuple[dict[str, Any], str]] = [
        ({"first_seat": 2}, "bad_first_seat"),
        ({"seats": [{"name": "solo"}]}, "bad_seat_count"),
        ({"mode": "blitz"}, "bad_mode"),
        ({"game": "go"}, "unknown_game"),
        ({"options": {"turbo": True}}, "bad_option"),
        ({"options": {"edition": "deluxe"}}, "bad_option"),
    ]
    for setup, code in setups:
        with pytest.raises(IllegalMove) as refusal:
            engine.initial_state({**created().data, **setup})
        assert refusal.value.code == code


def test_K3_place_on_free_line_touching_card() -> None:
    game = given(dealt(black=("LALE", "ALOA", "BARI")))
    lale = [c.args["line"] for c in engine.legal_commands(game.state, BLACK) if c.args.get("card") == "LALE"]
    assert lale == [["HUNA", "LALE"], ["IFFI", "LALE"], ["KAHU", "LALE"]]  # the seed's example
    then = game.when(place(BLACK, "LALE", "LALE", "KAHU"))
    assert then.facts == facts([played(BLACK, "LALE"), placed(BLACK, "KAHU", "LALE")])
    assert then.state.hands[BLACK] == ("ALOA", "BARI")
    assert engine.view(then.state, None)["discard"] == ["LALE"]
    # Still black's turn: any number of cards, until the draw.
    assert then.state.active == BLACK
    assert given(game.history + then.events).when(place(BLACK, "ALOA", "ALOA", "BARI")).types == [
        "CardsPlayed",
        "BridgePlaced",
    ]


def test_K3_refusals() -> None:
    game = given(dealt(black=("LALE", "ALOA", "BARI")), position(white=[("HUNA", "LALE")]))
    assert game.rejects(place(BLACK, "LALE", "LALE", "HUNA")) == "line_not_free"
    assert game.rejects(place(BLACK, "LALE", "ALOA", "DUDA")) == "card_not_on_line"
    assert game.rejects(place(BLACK, "IFFI", "IFFI", "LALE")) == "card_not_in_hand"
    assert game.rejects(place(BLACK, "LALE", "LALE", "ALOA")) == "unknown_line"


# White holds every line of LALE, so LALE with 3 of 3.
WHITE_LALE = position(white=[("HUNA", "LALE"), ("IFFI", "LALE"), ("KAHU", "LALE")])


@pytest.mark.parametrize("line", [("HUNA", "LALE"), ("IFFI", "LALE"), ("KAHU", "LALE")])
def test_K4_attack_pair_same_island(line: tuple[str, str]) -> None:
    game = given(dealt(black=("LALE", "LALE", "ALOA")), WHITE_LALE)
    then = game.when(attack(BLACK, "LALE", "LALE", line))
    assert then.facts == facts(
        [played(BLACK, "LALE", "LALE"), removed(WHITE, *line, by=BLACK, cause="attack")]
    )
    assert control(then.state) == {"LALE": WHITE}  # 2 of 3 is still a majority
    assert engine.view(then.state, None)["discard"] == ["LALE", "LALE"]


def test_K4_attack_pair_same_island_is_listed() -> None:
    game = given(dealt(black=("LALE", "LALE", "ALOA")), WHITE_LALE)
    listed = [c.args for c in engine.legal_commands(game.state, BLACK) if c.type == "RemoveBridge"]
    assert listed == [
        {"cards": ["LALE", "LALE"], "line": ["HUNA", "LALE"]},
        {"cards": ["LALE", "LALE"], "line": ["IFFI", "LALE"]},
        {"cards": ["LALE", "LALE"], "line": ["KAHU", "LALE"]},
    ]


@pytest.mark.parametrize("cards", [("LALE", "IFFI"), ("IFFI", "LALE")])
def test_K4_attack_adjacent_pair(cards: tuple[str, str]) -> None:
    game = given(dealt(black=("LALE", "IFFI", "ALOA")), WHITE_LALE)
    then = game.when(attack(BLACK, *cards, ("LALE", "IFFI")))
    assert then.facts == facts(
        [played(BLACK, *cards), removed(WHITE, "IFFI", "LALE", by=BLACK, cause="attack")]
    )
    assert ("IFFI", "LALE") not in bridges(then.state)


def test_K4_attack_only_removes() -> None:
    # Black could hold LALE with the freed line; an attack still places nothing.
    game = given(
        dealt(black=("LALE", "IFFI", "ALOA")), position(black=[("HUNA", "LALE")], white=[("IFFI", "LALE")])
    )
    then = game.when(attack(BLACK, "LALE", "IFFI", ("IFFI", "LALE")))
    assert "BridgePlaced" not in then.types and "IslandTaken" not in then.types
    assert bridges(then.state) == {("HUNA", "LALE"): BLACK}
    assert stock(then.state) == [24, 25]
    assert control(then.state) == {}
    assert then.state.active == BLACK


def test_K4_attack_can_lose_islands_F2() -> None:
    game = given(dealt(black=("LALE", "LALE", "ALOA")), position(white=[("HUNA", "LALE"), ("KAHU", "LALE")]))
    assert control(game.state) == {"LALE": WHITE}
    then = game.when(attack(BLACK, "LALE", "LALE", ("KAHU", "LALE")))
    assert then.facts == facts(
        [
            played(BLACK, "LALE", "LALE"),
            removed(WHITE, "KAHU", "LALE", by=BLACK, cause="attack"),
            lost(WHITE, "LALE"),
        ]
    )
    assert bridges(then.state) == {("HUNA", "LALE"): WHITE}
    assert control(then.state) == {}


def test_K4_refusals() -> None:
    game = given(
        dealt(black=("LALE", "IFFI", "ALOA"), white=("LALE", "BARI", "COCO")),
        position(black=[("ALOA", "BARI")], white=[("HUNA", "LALE"), ("IFFI", "KAHU")]),
    )
    assert game.rejects(attack(BLACK, "LALE", "IFFI", ("HUNA", "LALE"))) == "cards_do_not_match_line"
    assert game.rejects(attack(BLACK, "IFFI", "LALE", ("IFFI", "KAHU"))) == "cards_do_not_match_line"
    assert game.rejects(attack(BLACK, "LALE", "ALOA", ("HUNA", "LALE"))) == "cards_do_not_match_line"
    assert game.rejects(attack(BLACK, "LALE", "IFFI", ("IFFI", "LALE"))) == "no_opponent_bridge"
    assert game.rejects(attack(BLACK, "ALOA", "ALOA", ("ALOA", "BARI"))) == "card_not_in_hand"
    own = given(
        dealt(black=("ALOA", "BARI", "COCO")), position(black=[("ALOA", "BARI")], white=[("HUNA", "LALE")])
    )
    assert own.rejects(attack(BLACK, "ALOA", "BARI", ("ALOA", "BARI"))) == "no_opponent_bridge"
    assert game.rejects(attack_with(BLACK, ["LALE"], "HUNA", "LALE")) == "bad_command"
    assert game.rejects(attack_with(BLACK, ["LALE", "IFFI", "ALOA"], "IFFI", "LALE")) == "bad_command"


def test_K5_draw_ends_turn() -> None:
    game = given(dealt(face_up=("GOLA", "HUNA", "IFFI"), stack=("JOJO", "KAHU")))
    then = game.when(draw_face_up(BLACK, "HUNA"))
    assert then.facts == [
        ("CardDrawn", {"seat": BLACK, "source": "face_up", "card": "HUNA"}),
        ("FaceUpRefilled", {"card": "JOJO"}),
        ("TurnEnded", {"seat": BLACK, "next": WHITE}),
    ]
    assert all(e.secret is None for e in then.events)
    assert then.state.hands[BLACK] == ("ALOA", "BARI", "COCO", "HUNA")
    assert then.state.face_up == ("GOLA", "IFFI", "JOJO")
    assert len(then.state.stack) == 14 and then.state.stack[0] == "KAHU"
    after = given(game.history + then.events)
    assert after.rejects(draw_stack(BLACK)) == "not_your_turn"
    assert after.rejects(place(BLACK, "ALOA", "ALOA", "BARI")) == "not_your_turn"


def test_K5_stack_draw_is_secret_to_the_drawer() -> None:
    game = given(dealt(stack=("JOJO", "KAHU")))
    then = game.when(draw_stack(BLACK))
    assert then.facts == [
        ("CardDrawn", {"seat": BLACK, "source": "stack"}),
        ("TurnEnded", {"seat": BLACK, "next": WHITE}),
    ]
    drawn = then.events[0]
    assert (drawn.secret, drawn.audience) == ({"card": "JOJO"}, (BLACK,))
    assert engine.view(then.state, BLACK)["hand"] == ["ALOA", "BARI", "COCO", "JOJO"]
    for viewer in (WHITE, None):
        assert "JOJO" not in str(engine.view(then.state, viewer))
    assert then.state.face_up == game.state.face_up
    assert then.state.stack == game.state.stack[1:]


def full_hand() -> Given:
    """Black to move holding five cards: ALOA BARI COCO JOJO LALE."""
    stack = ("JOJO", "KAHU", "LALE", "KAHU")
    game = given(dealt(stack=stack))
    return game.then(draw_stack(BLACK), draw_stack(WHITE), draw_stack(BLACK), draw_stack(WHITE))


def test_K5_full_hand_must_discard_first() -> None:
    game = full_hand()
    assert game.state.hands[BLACK] == ("ALOA", "BARI", "COCO", "JOJO", "LALE")
    assert game.rejects(draw_stack(BLACK)) == "hand_full"
    assert game.rejects(draw_face_up(BLACK, "GOLA")) == "hand_full"
    kinds = {c.type for c in engine.legal_commands(game.state, BLACK)}
    assert "DrawCard" not in kinds and "DiscardCards" in kinds
    then = game.when(discard(BLACK, "LALE", "ALOA"))
    assert then.facts == [("CardsDiscarded", {"seat": BLACK, "count": 2})]
    assert (then.events[0].secret, then.events[0].audience) == ({"cards": ["LALE", "ALOA"]}, (BLACK,))
    assert then.state.hands[BLACK] == ("BARI", "COCO", "JOJO")
    public = engine.view(then.state, WHITE)
    assert public["hidden_discards"] == 2 and public["discard"] == []
    assert public["seats"][BLACK]["hand_count"] == 3
    # The draw is now allowed, and ends the turn.
    assert given(game.history + then.events).when(draw_stack(BLACK)).types == ["CardDrawn", "TurnEnded"]


@pytest.mark.parametrize("cards", [("JOJO",), ("ALOA", "BARI", "COCO", "JOJO", "LALE")])
def test_K5_discard_one_or_more(cards: tuple[str, ...]) -> None:
    then = full_hand().when(discard(BLACK, *cards))
    assert then.facts == [("CardsDiscarded", {"seat": BLACK, "count": len(cards)})]
    assert len(then.state.hands[BLACK]) == 5 - len(cards)


def test_K5_discard_refusals() -> None:
    game = full_hand()
    assert game.rejects(discard(BLACK, "KAHU")) == "card_not_in_hand"
    assert game.rejects(discard(BLACK, "LALE", "LALE")) == "card_not_in_hand"
    assert given(dealt()).rejects(discard(BLACK, "ALOA")) == "discard_not_allowed"
    once = game.then(discard(BLACK, "JOJO"))
    assert once.rejects(discard(BLACK, "ALOA")) == "must_draw"  # the draw comes next


def test_K5_after_a_discard_only_the_draw_is_legal() -> None:
    # "Il doit se défausser avant de piocher": the discard is the step right before the draw,
    # so a full hand cannot be thinned in secret and then played from.
    game = full_hand().plus(*position(white=[("ALOA", "BARI")]))
    discarded = game.then(discard(BLACK, "LALE"))
    assert discarded.rejects(place(BLACK, "COCO", "COCO", "GOLA")) == "must_draw"
    assert discarded.rejects(attack(BLACK, "ALOA", "BARI", ("ALOA", "BARI"))) == "must_draw"
    legal = engine.legal_commands(discarded.state, BLACK)
    assert {c.type for c in legal} == {"DrawCard"}
    assert len(legal) == 4  # the three face-up cards and the stack
    assert discarded.when(draw_stack(BLACK)).types == ["CardDrawn", "TurnEnded"]
    # Playing first and discarding only then stays open while the hand is still full.
    assert game.when(place(BLACK, "COCO", "COCO", "GOLA")).types == ["CardsPlayed", "BridgePlaced"]


def test_K6_round_end_after_last_card() -> None:
    game = given(
        dealt(),
        position(black=[("HUNA", "LALE"), ("KAHU", "LALE")], white=[("ALOA", "DUDA")]),
    ).then(place(BLACK, "ALOA", "ALOA", "BARI"))
    ended = game.end_round()
    # The round ends on the draw of the 18th card (15 stacked, 3 face up), not before.
    new = ended.history[len(game.history) :]
    assert sum(e.type == "CardDrawn" for e in new) == 18
    assert [e.type for e in new].count("RoundEnded") == 1
    last_draw, turn_ended, round_over = new[-3:]
    assert (last_draw.type, turn_ended.type) == ("CardDrawn", "TurnEnded")
    assert facts([round_over]) == facts([round_ended(1)])
    taker, follower = last_draw.data["seat"], turn_ended.data["next"]
    assert follower == 1 - taker
    state = ended.state
    assert (state.phase, state.stack, state.face_up) == ("scoring", (), ())
    assert engine.pending_system(state) == Score(1, "ScoreRound")
    assert ended.rejects(shuffle(range(24))) == "no_shuffle_due"

    scored = ended.then(score(1))
    pool = scored.state.pool()
    assert Counter(pool) == Counter(DECK) - Counter(c for hand in state.hands for c in hand)
    assert "ALOA" in pool  # the card black played
    assert engine.pending_system(scored.state) == Shuffle({"order": len(pool)}, "ShuffleDeck")

    then = scored.when(shuffle(range(len(pool))))
    assert then.facts == [
        ("DeckShuffled", {"round": 2, "size": len(pool)}),
        ("FaceUpLaid", {"cards": list(pool[:3])}),
        ("RoundStarted", {"round": 2, "first": follower}),
    ]
    after = then.state
    assert after.hands == state.hands
    assert after.owners == state.owners and after.control == state.control
    assert control(after) == {"LALE": BLACK}
    assert after.face_up == pool[:3] and after.stack == pool[3:]
    assert (after.played, after.hidden) == ((), ())
    assert cards_in_play(after) == Counter(DECK)
    assert (after.phase, after.round, after.active) == ("play", 2, follower)


def test_K6_face_up_row_runs_dry_after_the_stack() -> None:
    # With the stack empty, a face-up draw is not refilled and the stack is refused.
    game = given(dealt())
    while game.state.stack:
        seat = game.state.active
        if len(game.state.hands[seat]) == 5:
            game = game.then(discard(seat, game.state.hands[seat][0]))
        game = game.then(draw_stack(seat))
    seat = game.state.active
    if len(game.state.hands[seat]) == 5:
        game = game.then(discard(seat, game.state.hands[seat][0]))
    assert game.rejects(draw_stack(seat)) == "stack_empty"
    then = game.when(draw_face_up(seat, game.state.face_up[0]))
    assert then.types == ["CardDrawn", "TurnEnded"]
    assert len(then.state.face_up) == 2


@pytest.mark.parametrize(
    ("round_", "islands", "points"),
    [
        (1, [3, 2], [1, 0]),
        (1, [0, 4], [0, 1]),
        (1, [2, 2], [0, 0]),
        (2, [5, 1], [2, 0]),
        (2, [1, 2], [0, 2]),
        (2, [0, 0], [0, 0]),
        (3, [5, 2], [3, 0]),
        (3, [1, 4], [0, 3]),
        (3, [11, 0], [11, 0]),
        (3, [3, 3], [0, 0]),
    ],
)
def test_K7_scoring_points(round_: int, islands: list[int], points: list[int]) -> None:
    assert kahuna_points(round_, islands) == points


def play_to_scoring(game: Given) -> Given:
    """Shuffle (identity order) when due, then play the round out by drawing."""
    if game.state.phase == "setup":
        game = game.then(shuffle(range(len(game.state.pool()))))
    return game.end_round()


# With COCO-GOLA and COCO-FAAA already white: GOLA 3 of 4, FAAA 3 of 5.
WHITE_TAKES_GOLA_AND_FAAA = [
    placed(WHITE, "FAAA", "GOLA"),
    placed(WHITE, "GOLA", "JOJO"),
    placed(WHITE, "FAAA", "JOJO"),
    taken(WHITE, "FAAA"),
    taken(WHITE, "GOLA"),
]


def test_K7_scoring() -> None:
    # Round 1: black 2 islands, white 1. Round 2: white takes two more. Round 3 unchanged.
    black = [("HUNA", "LALE"), ("KAHU", "LALE"), ("ALOA", "BARI"), ("ALOA", "DUDA")]
    white = [("COCO", "GOLA"), ("COCO", "FAAA"), ("BARI", "COCO")]
    game = given(dealt(), position(black=black, white=white))
    assert control(game.state) == {"LALE": BLACK, "ALOA": BLACK, "COCO": WHITE}
    game = play_to_scoring(game)
    first = game.when(score(1))
    assert first.facts == [
        ("RoundScored", {"round": 1, "islands": [2, 1], "points": [1, 0], "totals": [1, 0]})
    ]

    game = play_to_scoring(game.then(score(1)))
    game = game.plus(*WHITE_TAKES_GOLA_AND_FAAA)
    assert control(game.state) == {"LALE": BLACK, "ALOA": BLACK, "COCO": WHITE, "GOLA": WHITE, "FAAA": WHITE}
    second = game.when(score(2))
    assert second.facts == [
        ("RoundScored", {"round": 2, "islands": [2, 3], "points": [0, 2], "totals": [1, 2]})
    ]

    game = play_to_scoring(game.then(score(2)))
    last = game.when(score(3))
    assert last.facts == [
        ("RoundScored", {"round": 3, "islands": [2, 3], "points": [0, 1], "totals": [1, 3]}),
        ("GameEnded", {"winner": WHITE, "totals": [1, 3], "reason": "points"}),
    ]
    assert engine.is_terminal(last.state)
    assert last.state.scorings == ((1, 0), (0, 2), (0, 1))


def test_K7_equal_points_is_a_draw() -> None:
    # Round 1: black 1-0 scores 1; round 2: 1-1 scores nothing; round 3: white 2-1 scores 1.
    game = play_to_scoring(given(dealt(), position(black=[("HUNA", "LALE"), ("KAHU", "LALE")])))
    game = game.then(score(1))
    game = play_to_scoring(game).plus(*position(white=[("COCO", "GOLA"), ("COCO", "FAAA"), ("BARI", "COCO")]))
    game = game.then(score(2))
    game = play_to_scoring(game).plus(placed(WHITE, "FAAA", "GOLA"), placed(WHITE, "GOLA", "JOJO"))
    game = game.plus(taken(WHITE, "GOLA"))  # COCO-GOLA, FAAA-GOLA, GOLA-JOJO: 3 of 4
    then = game.when(score(3))
    assert then.facts[-1] == ("GameEnded", {"winner": None, "totals": [1, 1], "reason": "draw"})
    assert [e.data["points"] for e in game.history + then.events if e.type == "RoundScored"] == [
        [1, 0],
        [0, 0],
        [0, 1],
    ]


def test_K7_refusals() -> None:
    game = play_to_scoring(given(dealt()))
    assert game.rejects(score(2)) == "no_scoring_due"
    assert game.rejects(Command("ScoreRound", None, {})) == "no_scoring_due"
    assert given(dealt()).rejects(score(1)) == "no_scoring_due"


def test_K8_no_stock_cannot_place_but_may_attack_and_draw() -> None:
    # White has all 25 bridges out; KAHU-LALE is free and black has HUNA-LALE.
    white = [line for line in LINES if line not in {("HUNA", "LALE"), ("KAHU", "LALE")}]
    game = given(
        dealt(black=("ALOA", "BARI", "COCO"), white=("LALE", "LALE", "KAHU"), first_seat=WHITE),
        position(black=[("HUNA", "LALE")], white=white),
    )
    assert stock(game.state) == [24, 0]
    assert game.rejects(place(WHITE, "KAHU", "KAHU", "LALE")) == "no_bridges_in_stock"
    assert game.rejects(place(WHITE, "LALE", "KAHU", "LALE")) == "no_bridges_in_stock"
    legal = engine.legal_commands(game.state, WHITE)
    assert not [c for c in legal if c.type == "PlaceBridge"]
    assert [c.args for c in legal if c.type == "RemoveBridge"] == [
        {"cards": ["LALE", "LALE"], "line": ["HUNA", "LALE"]}
    ]
    assert game.when(draw_stack(WHITE)).types == ["CardDrawn", "TurnEnded"]
    then = game.when(attack(WHITE, "LALE", "LALE", ("HUNA", "LALE")))
    assert then.facts == facts(
        [played(WHITE, "LALE", "LALE"), removed(BLACK, "HUNA", "LALE", by=WHITE, cause="attack")]
    )
    # The removed bridge went back to black, not white: white still cannot place.
    assert stock(then.state) == [25, 0]


# --- refusals outside the rules of play ---------------------------------------------------


SEAT_COMMANDS = [
    place(WHITE, "DUDA", "DUDA", "ELAI"),
    attack_with(WHITE, ["DUDA", "ELAI"], "DUDA", "ELAI"),
    discard(WHITE, "DUDA"),
    draw_stack(WHITE),
    draw_face_up(WHITE, "GOLA"),
]


@pytest.mark.parametrize("command", SEAT_COMMANDS, ids=lambda c: c.type)
def test_commands_out_of_turn(command: Command) -> None:
    game = given(dealt(), position(black=[("DUDA", "ELAI")]))
    assert game.rejects(command) == "not_your_turn"
    assert game.rejects(Command(command.type, None, command.args)) == "unknown_command"
    assert game.rejects(Command(command.type, 7, command.args)) == "not_a_seat"


@pytest.mark.parametrize("command", SEAT_COMMANDS, ids=lambda c: c.type)
def test_commands_while_waiting_for_scoring(command: Command) -> None:
    game = given(dealt(first_seat=WHITE), [round_ended(1)])
    assert game.rejects(command) == "waiting_for_scoring"


def finished_game() -> Given:
    game = given(dealt())
    for round_ in (1, 2, 3):
        game = play_to_scoring(game).then(score(round_))
    return game


@pytest.mark.parametrize("command", SEAT_COMMANDS, ids=lambda c: c.type)
def test_commands_after_the_end(command: Command) -> None:
    game = finished_game()
    assert game.history[-1].type == "GameEnded"
    assert engine.is_terminal(game.state) and engine.pending_system(game.state) is None
    assert game.rejects(command) == "game_ended"
    assert game.rejects(Command(command.type, BLACK, command.args)) == "game_ended"
    assert game.rejects(shuffle(range(len(game.state.pool())))) == "no_shuffle_due"
    assert game.rejects(score(3)) == "no_scoring_due"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"type": "PlaceBridge"}, "unknown_island"),
        ({"type": "PlaceBridge", "card": "MOON", "line": ["ALOA", "BARI"]}, "unknown_island"),
        ({"type": "PlaceBridge", "card": 7, "line": ["ALOA", "BARI"]}, "unknown_island"),
        ({"type": "PlaceBridge", "card": "ALOA"}, "bad_command"),
        ({"type": "PlaceBridge", "card": "ALOA", "line": "ALOA-BARI"}, "bad_command"),
        ({"type": "PlaceBridge", "card": "ALOA", "line": ["ALOA"]}, "bad_command"),
        ({"type": "PlaceBridge", "card": "ALOA", "line": ["ALOA", "BARI", "DUDA"]}, "bad_command"),
        ({"type": "PlaceBridge", "card": "ALOA", "line": ["ALOA", None]}, "unknown_island"),
        ({"type": "PlaceBridge", "card": "ALOA", "line": ["ALOA", "MOON"]}, "unknown_island"),
        ({"type": "RemoveBridge", "line": ["ALOA", "BARI"]}, "bad_command"),
        ({"type": "RemoveBridge", "cards": "ALOA", "line": ["ALOA", "BARI"]}, "bad_command"),
        ({"type": "RemoveBridge", "cards": [], "line": ["ALOA", "BARI"]}, "bad_command"),
        ({"type": "RemoveBridge", "cards": ["ALOA", "MOON"], "line": ["ALOA", "BARI"]}, "unknown_island"),
        ({"type": "RemoveBridge", "cards": ["ALOA", "BARI"]}, "bad_command"),
        ({"type": "DiscardCards"}, "bad_command"),
        ({"type": "DiscardCards", "cards": []}, "bad_command"),
        ({"type": "DiscardCards", "cards": [["ALOA"]]}, "unknown_island"),
        ({"type": "DrawCard"}, "bad_command"),
        ({"type": "DrawCard", "source": "bag"}, "bad_command"),
        ({"type": "DrawCard", "source": "face_up"}, "unknown_island"),
        ({"type": "DrawCard", "source": "face_up", "card": "MOON"}, "unknown_island"),
        ({"type": "DrawCard", "source": "face_up", "card": "ALOA"}, "card_not_face_up"),
        ({"type": "Pass"}, "unknown_command"),
    ],
)
def test_malformed_commands(args: dict[str, object], code: str) -> None:
    game = given(dealt(), position(white=[("ALOA", "BARI")]))
    kind = str(args["type"])
    command = Command(kind, BLACK, {k: v for k, v in args.items() if k != "type"})
    assert game.rejects(command) == code


def test_malformed_system_commands() -> None:
    game = given([created()])
    assert game.rejects(Command("ShuffleDeck", None, {})) == "bad_order"
    assert game.rejects(Command("ShuffleDeck", None, {"order": "0123"})) == "bad_order"
    assert game.rejects(Command("ShuffleDeck", None, {"order": ["a"] * 24})) == "bad_order"
    assert game.rejects(Command("DealAgain", None, {})) == "unknown_command"
    assert given(dealt()).rejects(shuffle(range(24))) == "no_shuffle_due"


@pytest.mark.parametrize(
    "order",
    [[float(i) for i in range(24)], [None] * 24, [*range(23), "23"]],
    ids=["floats", "nulls", "mixed"],
)
def test_malformed_shuffle_order_is_refused(order: list[object]) -> None:
    assert given([created()]).rejects(Command("ShuffleDeck", None, {"order": order})) == "bad_order"


# --- the Decider's contract --------------------------------------------------------------


@pytest.mark.parametrize("phase", ["setup", "play", "scoring", "ended"])
def test_evolve_ignores_unknown_events(phase: str) -> None:
    games = {
        "setup": lambda: given([created()]),
        "play": lambda: given(dealt()),
        "scoring": lambda: given(dealt(), [round_ended(1)]),
        "ended": finished_game,
    }
    state = games[phase]().state
    for event in [
        Event("VolcanoErupted", {"island": "ALOA", "seat": 0}),
        Event("BridgeBurned", {"seat": 0, "line": ["ALOA", "BARI"]}, schema=2),
        Event("GameCreated", {"game": "kahuna", "seats": []}),
    ]:
        assert engine.evolve(state, event) is state


def canonical(command: Command) -> tuple[str, int | None, str]:
    """A command with the order of its cards and line's islands made irrelevant."""
    args = dict(command.args)
    for key in ("cards", "line"):
        if key in args:
            args[key] = sorted(args[key])
    return command.type, command.seat, repr(sorted(args.items()))


def candidates(rnd: random.Random, state: State, seat: int) -> list[Command]:
    """Commands a client could send: every placement and draw, a sample of attacks and discards."""
    pairs = list(combinations_with_replacement(ISLANDS, 2))
    hand = list(state.hands[seat])
    return [
        *(place(seat, card, *line) for card in ISLANDS for line in LINES),
        *(attack_with(seat, rnd.choice(pairs), *rnd.choice(LINES)) for _ in range(150)),
        *(discard(seat, *rnd.sample(hand, rnd.randint(1, len(hand)))) for _ in range(10) if hand),
        *(discard(seat, rnd.choice(ISLANDS)) for _ in range(5)),
        *(draw_face_up(seat, card) for card in ISLANDS),
        draw_stack(seat),
        # Commands of the other island games, which Kahuna has none of.
        Command("SkipDraw", seat, {}),
        Command("EndTurn", seat, {}),
        Command("SwapBridge", seat, {"cards": hand[:2], "line": list(rnd.choice(LINES))}),
        Command("PlaceFreeBridge", seat, {"line": list(rnd.choice(LINES))}),
        Command("PlaceShip", seat, {"cards": hand[:3], "sea": ["ALOA", "BARI", "DUDA"]}),
    ]


def random_states(games: int) -> list[State]:
    """Every fifth state of a few random games, a chance state now and then."""
    states = []
    for seed in range(games):
        for n, (_command, _events, state) in enumerate(random_game(random.Random(seed))):
            if n % 5 == 0:
                states.append(state)
    return states


def test_legal_commands_are_exactly_those_decide_accepts() -> None:
    rnd = random.Random(7)
    for state in random_states(games=12):
        for seat in (BLACK, WHITE):
            legal = engine.legal_commands(state, seat)
            listed = {canonical(c) for c in legal}
            assert len(listed) == len(legal), "no command is listed twice"
            for command in legal:
                engine.decide(state, command)  # accepted: no IllegalMove
            for command in candidates(rnd, state, seat):
                if canonical(command) in listed:
                    engine.decide(state, command)
                else:
                    with pytest.raises(IllegalMove):
                        engine.decide(state, command)
