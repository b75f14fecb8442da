"""Arabana-Ikibiti's rules (docs: shared/rules/island-games.md, I-1..I-9), one test per rule."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from given import (
    BLACK,
    IKIBITI,
    WHITE,
    Line,
    act,
    attack,
    deal,
    discard,
    draw_stack,
    end_turn,
    facts,
    given,
    layout,
    lost,
    place,
    placed,
    played,
    random_game,
    removed,
    round_ended,
    score,
    shuffle,
    taken,
)

from domain.decider import Event, IllegalMove
from domain.islands import engine
from domain.islands.legal import _closed_lines
from domain.islands.scoring import difference_points, tournament_points

BOARD = IKIBITI.board


def ikibiti(
    black: Sequence[str] = ("Hunisch", "Hunisch", "Garanig"),
    white: Sequence[str] = ("Arabana", "Barilub", "Cocotac"),
    face_up: Sequence[str] = ("Danidad", "Elamite", "Fafnuff"),
    stack: Sequence[str] = (),
    first_seat: int = BLACK,
    **options: Any,
) -> list[Event]:
    """An Arabana-Ikibiti deal with these hands, face-up row and stack top."""
    return deal(IKIBITI.with_options(**options), [black, white], face_up, stack, first_seat)


def bridges(black: Sequence[Line] = (), white: Sequence[Line] = ()) -> list[Event]:
    """A position on the Arabana-Ikibiti board, markers where majority holds."""
    return layout(BOARD, [black, white])


# --- I-1 material ------------------------------------------------------------------------


def test_I1_material() -> None:
    state = engine.initial_state(IKIBITI.created().data)
    rules = state.rules
    assert list(rules.deck) == IKIBITI.deck and len(IKIBITI.deck) == 24
    assert Counter(IKIBITI.deck) == {island: 2 for island in BOARD.islands} and len(BOARD.islands) == 12
    assert list(rules.board.lines) == BOARD.lines and len(BOARD.lines) == 27
    for island in BOARD.islands:
        assert rules.board.places(island) == BOARD.places[island]
        assert BOARD.places[island] == sum(1 for line in BOARD.lines if island in line)
    # The seed's counts: Ikibiti and Mosedam 3 places, Danidad 6, the others 4 or 5.
    assert {i for i, n in BOARD.places.items() if n == 3} == {"Ikibiti", "Mosedam"}
    assert {i for i, n in BOARD.places.items() if n == 6} == {"Danidad"}
    assert state.stock == (25, 25) and rules.markers == 10
    assert (rules.rounds, rules.hand_limit, rules.face_up, rules.start_hand) == (3, 5, 3, 3)


# The seed: 2 bridges hold an island of 3 places, 3 hold one of 4 or 5, 4 hold Danidad's 6.
NEEDED = {3: 2, 4: 3, 5: 3, 6: 4}


@pytest.mark.parametrize("island", BOARD.islands)
def test_I1_absolute_majority_as_the_seed_counts_it(island: str) -> None:
    lines = [line for line in BOARD.lines if island in line]
    needed = NEEDED[BOARD.places[island]]
    rest = [other for other in BOARD.islands if other != island]
    hands = ikibiti(black=(island, island, rest[0]), white=rest[1:4], face_up=rest[4:7])
    before = given(hands, bridges(black=lines[: needed - 2]))
    short = before.then(place(BLACK, island, *lines[needed - 2]))
    assert island not in short.markers
    then = short.when(place(BLACK, island, *lines[needed - 1]))
    assert taken(BLACK, island).data in [e.data for e in then.events if e.type == "IslandTaken"]


# --- I-2 placing -------------------------------------------------------------------------

# Black holds Ikibiti (2 of 3) and Arabana (3 of 4); the line between them is free.
BOTH_ENDS = bridges(
    black=[
        ("Barilub", "Ikibiti"),
        ("Garanig", "Ikibiti"),
        ("Arabana", "Barilub"),
        ("Arabana", "Danidad"),
        ("Arabana", "Garanig"),
    ]
)


def test_I2_no_bridge_between_two_islands_one_controls() -> None:
    game = given(
        ikibiti(black=("Arabana", "Ikibiti", "Barilub"), white=("Arabana", "Ikibiti", "Cocotac")), BOTH_ENDS
    )
    assert game.markers == {"Arabana": BLACK, "Ikibiti": BLACK}
    assert game.rejects(place(BLACK, "Arabana", "Arabana", "Ikibiti")) == "controls_both_islands"
    assert game.rejects(place(BLACK, "Ikibiti", "Arabana", "Ikibiti")) == "controls_both_islands"
    listed = [c.args["line"] for c in engine.legal_commands(game.state, BLACK) if c.type == "PlaceBridge"]
    assert ["Arabana", "Ikibiti"] not in listed
    # A line with one end not controlled is fine (here it gains Barilub), and the opponent may use the line.
    then = game.when(place(BLACK, "Barilub", "Barilub", "Cocotac"))
    assert then.types == ["CardsPlayed", "BridgePlaced", "IslandTaken"]
    white = game.then(draw_stack(BLACK))
    assert white.when(place(WHITE, "Ikibiti", "Arabana", "Ikibiti")).types == ["CardsPlayed", "BridgePlaced"]


# --- I-3 discarding ----------------------------------------------------------------------


def test_I3_discard_with_five_cards_before_the_draw() -> None:
    stack = ("Mosedam", "Ikibiti", "Krapink", "Ikibiti")  # black, white, black, white
    game = given(ikibiti(stack=stack)).then(*(draw_stack(seat) for seat in (BLACK, WHITE, BLACK, WHITE)))
    assert game.state.hands[BLACK] == ("Garanig", "Hunisch", "Hunisch", "Krapink", "Mosedam")
    assert game.rejects(draw_stack(BLACK)) == "hand_full"
    then = game.when(discard(BLACK, "Mosedam", "Krapink"))
    assert then.facts == [("CardsDiscarded", {"seat": BLACK, "count": 2})]
    assert (then.events[0].secret, then.events[0].audience) == ({"cards": ["Mosedam", "Krapink"]}, (BLACK,))
    assert "Mosedam" not in str(engine.view(then.state, WHITE))
    assert game.plus(*then.events).when(draw_stack(BLACK)).types == ["CardDrawn", "TurnEnded"]


def test_I3_no_discard_below_five_cards() -> None:
    game = given(ikibiti())
    assert game.rejects(discard(BLACK, "Garanig")) == "discard_not_allowed"


def test_I3_after_a_discard_only_the_draw_is_legal() -> None:
    stack = ("Mosedam", "Ikibiti", "Krapink", "Ikibiti")  # black, white, black, white
    game = given(ikibiti(stack=stack)).then(*(draw_stack(seat) for seat in (BLACK, WHITE, BLACK, WHITE)))
    discarded = game.then(discard(BLACK, "Mosedam"))
    assert discarded.rejects(place(BLACK, "Hunisch", "Hunisch", "Krapink")) == "must_draw"
    assert {c.type for c in engine.legal_commands(discarded.state, BLACK)} == {"DrawCard"}
    # A handicap bridge needs no card, yet it is no draw either.
    free = given(handicapped(free_bridges=1, extra_cards=2)).then(discard(WHITE, "Arabana"))
    assert free.rejects(act("PlaceFreeBridge", WHITE, line=["Krapink", "Mosedam"])) == "must_draw"
    assert {c.type for c in engine.legal_commands(free.state, WHITE)} == {"DrawCard"}


def test_I3_no_discard_in_the_last_play() -> None:
    # Nothing is left to draw in the I-6 last play, so there is no discard before a draw.
    game = given(ikibiti(), ONE_EACH).at_round(3).draw_out()
    seat = game.state.active
    assert game.state.phase == "final" and len(game.state.hands[seat]) == 5
    assert game.rejects(discard(seat, game.state.hands[seat][0])) == "discard_not_allowed"
    assert "DiscardCards" not in {c.type for c in engine.legal_commands(game.state, seat)}


# --- I-4 a pair removes, then places ----------------------------------------------------

SEED_PAIRS = [("Hunisch", "Hunisch"), ("Garanig", "Garanig"), ("Hunisch", "Garanig")]


@pytest.mark.parametrize("pair", SEED_PAIRS, ids="-".join)
def test_I4_seed_example_pair_removes_and_places(pair: tuple[str, str]) -> None:
    # The seed: A's (white's) bridge Hunisch-Garanig; B (black) plays one of the three pairs.
    game = given(ikibiti(black=(*pair, "Mosedam")), bridges(white=[("Garanig", "Hunisch")]))
    then = game.when(attack(BLACK, pair, "Hunisch", "Garanig"))
    assert then.facts == facts(
        [
            played(BLACK, *pair),
            removed(WHITE, "Garanig", "Hunisch", by=BLACK, cause="attack"),
            placed(BLACK, "Garanig", "Hunisch"),
        ]
    )
    assert then.state.stock == (24, 25)


# White holds Garanig and Hunisch with 4 of 5 each, Hunisch-Garanig among them.
WHITE_HOLDS_BOTH_WITH_FOUR = [
    ("Garanig", "Hunisch"),
    ("Arabana", "Garanig"),
    ("Garanig", "Ikibiti"),
    ("Garanig", "Mosedam"),
    ("Danidad", "Hunisch"),
    ("Elamite", "Hunisch"),
    ("Hunisch", "Krapink"),
]


def test_I4_no_placement_while_the_opponent_still_controls_both() -> None:
    game = given(ikibiti(black=("Hunisch", "Garanig", "Mosedam")), bridges(white=WHITE_HOLDS_BOTH_WITH_FOUR))
    assert game.markers == {"Garanig": WHITE, "Hunisch": WHITE}
    then = game.when(attack(BLACK, ("Hunisch", "Garanig"), "Hunisch", "Garanig"))
    assert then.facts == facts(
        [played(BLACK, "Hunisch", "Garanig"), removed(WHITE, "Garanig", "Hunisch", by=BLACK, cause="attack")]
    )
    assert game.plus(*then.events).markers == {"Garanig": WHITE, "Hunisch": WHITE}
    assert then.state.stock == (25, 19)


def test_I4_placement_when_the_opponent_keeps_only_one() -> None:
    # Without Garanig-Mosedam white holds Garanig with 3 only: the removal costs it Garanig.
    white = [line for line in WHITE_HOLDS_BOTH_WITH_FOUR if line != ("Garanig", "Mosedam")]
    game = given(ikibiti(black=("Hunisch", "Garanig", "Mosedam")), bridges(white=white))
    then = game.when(attack(BLACK, ("Hunisch", "Garanig"), "Hunisch", "Garanig"))
    assert then.facts == facts(
        [
            played(BLACK, "Hunisch", "Garanig"),
            removed(WHITE, "Garanig", "Hunisch", by=BLACK, cause="attack"),
            lost(WHITE, "Garanig"),
            placed(BLACK, "Garanig", "Hunisch"),
        ]
    )
    assert game.plus(*then.events).markers == {"Hunisch": WHITE}


def test_I4_placement_ignores_I2() -> None:
    # Black controls both Hunisch and Garanig; white placed Hunisch-Garanig since.
    black = [
        ("Danidad", "Hunisch"),
        ("Elamite", "Hunisch"),
        ("Hunisch", "Krapink"),
        ("Arabana", "Garanig"),
        ("Garanig", "Ikibiti"),
        ("Garanig", "Mosedam"),
    ]
    game = given(ikibiti(), bridges(black=black, white=[("Garanig", "Hunisch")]))
    assert game.markers == {"Garanig": BLACK, "Hunisch": BLACK}
    then = game.when(attack(BLACK, ("Hunisch", "Hunisch"), "Hunisch", "Garanig"))
    assert then.types == ["CardsPlayed", "BridgeRemoved", "BridgePlaced"]
    freed = game.plus(*then.events[:2])
    assert freed.rejects(place(BLACK, "Garanig", "Garanig", "Hunisch")) == "controls_both_islands"


def test_I4_placement_is_resolved_as_one_F1() -> None:
    game = given(
        ikibiti(),
        bridges(
            black=[("Danidad", "Hunisch"), ("Elamite", "Hunisch")],
            white=[("Garanig", "Hunisch"), ("Hunisch", "Krapink")],
        ),
    )
    then = game.when(attack(BLACK, ("Hunisch", "Garanig"), "Hunisch", "Garanig"))
    assert then.facts == facts(
        [
            played(BLACK, "Hunisch", "Garanig"),
            removed(WHITE, "Garanig", "Hunisch", by=BLACK, cause="attack"),
            placed(BLACK, "Garanig", "Hunisch"),
            taken(BLACK, "Hunisch"),
            removed(WHITE, "Hunisch", "Krapink", by=BLACK, cause="majority"),
        ]
    )


def test_I4_no_placement_without_a_bridge_in_stock() -> None:
    black = [line for line in BOARD.lines if line not in {("Garanig", "Hunisch"), ("Krapink", "Mosedam")}]
    game = given(ikibiti(), bridges(black=black, white=[("Garanig", "Hunisch")]))
    assert game.state.stock == (0, 24)
    then = game.when(attack(BLACK, ("Hunisch", "Garanig"), "Hunisch", "Garanig"))
    assert then.types == ["CardsPlayed", "BridgeRemoved"]
    assert then.state.stock == (0, 25)


def test_I4_refusals() -> None:
    game = given(
        ikibiti(black=("Hunisch", "Garanig", "Mosedam")),
        bridges(black=[("Hunisch", "Mosedam")], white=[("Garanig", "Hunisch")]),
    )
    assert (
        game.rejects(attack(BLACK, ("Hunisch", "Mosedam"), "Hunisch", "Garanig")) == "cards_do_not_match_line"
    )
    assert game.rejects(attack(BLACK, ("Hunisch", "Mosedam"), "Hunisch", "Mosedam")) == "no_opponent_bridge"
    swap = act("SwapBridge", BLACK, cards=["Hunisch", "Garanig"], line=["Hunisch", "Garanig"])
    assert game.rejects(swap) == "unknown_command"


# --- I-5 scoring -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("islands", "points"),
    [([3, 1], [2, 0]), ([0, 4], [0, 4]), ([2, 2], [0, 0]), ([11, 0], [11, 0])],
)
def test_I5_difference_points(islands: list[int], points: list[int]) -> None:
    assert difference_points(islands) == points


# Black: Ikibiti, Mosedam (2 of 3 each), Lusepil (3 of 4). White: Danidad (4 of 6).
THREE_TO_ONE = bridges(
    black=[
        ("Arabana", "Ikibiti"),
        ("Barilub", "Ikibiti"),
        ("Garanig", "Mosedam"),
        ("Hunisch", "Mosedam"),
        ("Cocotac", "Lusepil"),
        ("Elamite", "Lusepil"),
        ("Fafnuff", "Lusepil"),
    ],
    white=[("Arabana", "Danidad"), ("Barilub", "Danidad"), ("Danidad", "Fafnuff"), ("Danidad", "Garanig")],
)
# Round 2: white gains Krapink, where black has no bridge.
WHITE_TAKES_KRAPINK = [
    placed(WHITE, "Cocotac", "Krapink"),
    placed(WHITE, "Elamite", "Krapink"),
    placed(WHITE, "Hunisch", "Krapink"),
    taken(WHITE, "Krapink"),
]
# Round 3: white's attacks cost black Mosedam and Ikibiti.
BLACK_LOSES_TWO = [
    removed(BLACK, "Garanig", "Mosedam", by=WHITE, cause="attack"),
    lost(BLACK, "Mosedam"),
    removed(BLACK, "Arabana", "Ikibiti", by=WHITE, cause="attack"),
    lost(BLACK, "Ikibiti"),
]


def test_I5_each_scoring_gives_the_difference() -> None:
    game = given(ikibiti(), THREE_TO_ONE).end_round()
    assert game.when(score(1)).facts == [
        ("RoundScored", {"round": 1, "islands": [3, 1], "points": [2, 0], "totals": [2, 0]})
    ]
    game = game.next_round().plus(*WHITE_TAKES_KRAPINK).end_round()
    assert game.when(score(2)).facts == [
        ("RoundScored", {"round": 2, "islands": [3, 2], "points": [1, 0], "totals": [3, 0]})
    ]
    game = game.next_round().plus(*BLACK_LOSES_TWO).end_round()
    assert game.when(score(3)).facts == [
        ("RoundScored", {"round": 3, "islands": [1, 2], "points": [0, 1], "totals": [3, 1]}),
        (
            "GameEnded",
            {
                "winner": BLACK,
                "totals": [3, 1],
                "reason": "points",
                "tournament": {"points": [3, 1], "island_points": [2, -2]},
            },
        ),
    ]


# --- I-6 last play -----------------------------------------------------------------------


# One bridge each: a seat without any would end the game as round 2 starts (I-7).
ONE_EACH = bridges(black=[("Hunisch", "Mosedam")], white=[("Garanig", "Hunisch")])


def test_I6_one_last_play_each_after_the_last_card_of_round_3() -> None:
    game = given(ikibiti(black=("Hunisch", "Garanig", "Mosedam")), ONE_EACH).at_round(3)
    out = game.draw_out()
    last_draw = next(e for e in reversed(out.history) if e.type == "CardDrawn")
    drawer = last_draw.data["seat"]
    assert out.history[-1].type == "FinalTurnsStarted"
    assert out.history[-1].data == {"order": [1 - drawer, drawer]}
    assert (out.state.phase, out.state.active) == ("final", 1 - drawer)
    first = out.then(*[] if drawer == WHITE else [end_turn(WHITE)])
    assert first.state.active == BLACK
    assert first.rejects(draw_stack(BLACK)) == "no_draw_in_final_turn"
    first = first.then(next(c for c in engine.legal_commands(first.state, BLACK) if c.type == "PlaceBridge"))
    assert first.when(end_turn(BLACK)).facts[0] == ("FinalTurnFinished", {"seat": BLACK})
    done = first.then(end_turn(BLACK)).end_round()
    assert [e.type for e in done.history[-2:]] == ["FinalTurnFinished", "RoundEnded"]
    assert done.history[-1].data == {"round": 3}
    assert [e.type for e in done.when(score(3)).events] == ["RoundScored", "GameEnded"]


@pytest.mark.parametrize("round_", [1, 2])
def test_I6_no_last_play_in_rounds_1_and_2(round_: int) -> None:
    out = given(ikibiti(), ONE_EACH).at_round(round_).draw_out()
    assert out.state.phase == "scoring"
    assert out.history[-1].data == {"round": round_} and out.history[-1].type == "RoundEnded"


# --- I-7 premature end, I-9 tournament points ------------------------------------------


def premature(round_: int, winner: int, island_points: int) -> tuple[str, dict[str, Any]]:
    match = {2: [5, 0], 3: [4, 0]}[round_]
    points = match if winner == BLACK else match[::-1]
    islands = [island_points, -island_points] if winner == BLACK else [-island_points, island_points]
    return (
        "GameEnded",
        {
            "winner": winner,
            "totals": [0, 0],
            "reason": "premature",
            "round": round_,
            "tournament": {"points": points, "island_points": islands},
        },
    )


@pytest.mark.parametrize(("round_", "bonus"), [(2, 24), (3, 12)])
def test_I7_premature_end_when_a_seat_has_no_bridge_left(round_: int, bonus: int) -> None:
    game = given(ikibiti(), ONE_EACH).at_round(round_)
    then = game.when(attack(BLACK, ("Hunisch", "Garanig"), "Hunisch", "Garanig"))
    assert then.facts[-1] == premature(round_, BLACK, bonus)
    assert engine.is_terminal(then.state)
    assert engine.legal_commands(then.state, WHITE) == []


def test_I7_premature_end_by_a_majority_removal() -> None:
    game = given(
        ikibiti(black=("Ikibiti", "Hunisch", "Garanig")),
        bridges(black=[("Barilub", "Ikibiti")], white=[("Arabana", "Ikibiti")]),
    ).at_round(2)
    then = game.when(place(BLACK, "Ikibiti", "Garanig", "Ikibiti"))
    assert then.types == ["CardsPlayed", "BridgePlaced", "IslandTaken", "BridgeRemoved", "GameEnded"]
    assert then.facts[-1] == premature(2, BLACK, 24)


def test_I7_no_premature_end_in_round_1() -> None:
    game = given(ikibiti(), ONE_EACH)
    then = game.when(attack(BLACK, ("Hunisch", "Garanig"), "Hunisch", "Garanig"))
    assert "GameEnded" not in then.types
    assert then.state.owners.count(WHITE) == 0 and not engine.is_terminal(then.state)


@pytest.mark.parametrize(
    ("black", "ended"),
    [
        ([("Hunisch", "Mosedam")], premature(2, BLACK, 24)),
        (
            [],
            (
                "GameEnded",
                {
                    "winner": None,
                    "totals": [0, 0],
                    "reason": "premature",
                    "round": 2,
                    "tournament": {"points": [2, 2], "island_points": [0, 0]},
                },
            ),
        ),
    ],
    ids=["white-bare", "both-bare"],
)
def test_I7_seats_without_bridges_as_round_2_starts_end_the_game(black: list[Line], ended: Any) -> None:
    # Our reading of "as soon as": the round-2 deal finds a bare seat and ends the game; when
    # both are bare, nobody wins.
    game = given(ikibiti(), bridges(black=black)).plus(round_ended(1)).then(score(1))
    then = game.when(shuffle(range(len(game.state.pool()))))
    assert then.types == ["DeckShuffled", "FaceUpLaid", "RoundStarted", "GameEnded"]
    assert then.facts[-1] == ended


@pytest.mark.parametrize(
    ("winner", "scores", "premature_round", "expected"),
    [
        (None, [3, 3], None, {"points": [2, 2], "island_points": [0, 0]}),
        (BLACK, [5, 2], None, {"points": [3, 1], "island_points": [3, -3]}),
        (WHITE, [5, 7], None, {"points": [1, 3], "island_points": [-2, 2]}),
        (BLACK, [1, 4], 3, {"points": [4, 0], "island_points": [9, -9]}),
        (WHITE, [2, 0], 2, {"points": [0, 5], "island_points": [-22, 22]}),
    ],
)
def test_I9_tournament_points(
    winner: int | None, scores: list[int], premature_round: int | None, expected: dict[str, Any]
) -> None:
    assert tournament_points(winner, scores, premature_round) == expected


def test_I9_a_tie_is_2_to_2() -> None:
    game = given(ikibiti(), ONE_EACH).end_round().next_round().end_round().next_round()
    game = game.end_round().then(score(3))
    assert game.history[-1].data == {
        "winner": None,
        "totals": [0, 0],
        "reason": "draw",
        "tournament": {"points": [2, 2], "island_points": [0, 0]},
    }


# --- I-8 handicap ------------------------------------------------------------------------


def handicapped(**handicap: Any) -> list[Event]:
    return ikibiti(
        black=("Hunisch", "Hunisch", "Garanig"),
        white=("Arabana", "Barilub", "Cocotac", "Ikibiti", "Krapink")[: 3 + handicap.get("extra_cards", 0)],
        first_seat=WHITE,
        handicap={"seat": WHITE, **handicap},
    )


def test_I8_extra_starting_cards() -> None:
    game = given(handicapped(extra_cards=1))
    assert [e.data for e in game.history if e.type == "HandDealt"] == [
        {"seat": BLACK, "count": 3},
        {"seat": WHITE, "count": 4},
    ]
    assert game.state.hands[WHITE] == ("Arabana", "Barilub", "Cocotac", "Ikibiti")


def test_I8_free_bridges_without_a_card() -> None:
    game = given(handicapped(free_bridges=2))
    assert engine.view(game.state, None)["seats"][WHITE]["free_bridges"] == 2
    # Any free line, touching no card in hand; and as a placement it can gain an island.
    first = game.when(act("PlaceFreeBridge", WHITE, line=["Krapink", "Mosedam"]))
    assert first.facts == [("BridgePlaced", {"seat": WHITE, "line": ["Krapink", "Mosedam"], "free": True})]
    assert first.state.hands == game.state.hands
    game = game.plus(*first.events).then(place(WHITE, "Cocotac", "Cocotac", "Krapink"))
    second = game.when(act("PlaceFreeBridge", WHITE, line=["Elamite", "Krapink"]))
    assert second.facts == facts(
        [
            Event("BridgePlaced", {"seat": WHITE, "line": ["Elamite", "Krapink"], "free": True}),
            taken(WHITE, "Krapink"),
        ]
    )
    game = game.plus(*second.events)
    assert engine.view(game.state, None)["seats"][WHITE]["free_bridges"] == 0
    assert game.rejects(act("PlaceFreeBridge", WHITE, line=["Hunisch", "Mosedam"])) == "no_free_bridges"
    assert game.rejects(act("PlaceFreeBridge", WHITE, line=["Elamite", "Krapink"])) == "no_free_bridges"


def test_I8_free_bridges_only_for_the_weaker_seat_on_its_turn() -> None:
    game = given(handicapped(free_bridges=1))
    assert game.rejects(act("PlaceFreeBridge", BLACK, line=["Krapink", "Mosedam"])) == "not_your_turn"
    game = game.then(draw_stack(WHITE))
    assert game.rejects(act("PlaceFreeBridge", BLACK, line=["Krapink", "Mosedam"])) == "no_free_bridges"
    plain = given(ikibiti())
    assert plain.rejects(act("PlaceFreeBridge", BLACK, line=["Krapink", "Mosedam"])) == "unknown_command"


def test_I8_free_bridge_line_must_be_free() -> None:
    game = given(handicapped(free_bridges=1), bridges(black=[("Krapink", "Mosedam")]))
    assert game.rejects(act("PlaceFreeBridge", WHITE, line=["Krapink", "Mosedam"])) == "line_not_free"


def test_I8_hand_limit_six() -> None:
    game = given(handicapped(extra_cards=2, hand_limit=6))
    assert len(game.state.hands[WHITE]) == 5
    assert game.rejects(discard(WHITE, "Arabana")) == "discard_not_allowed"
    game = game.then(draw_stack(WHITE))
    assert len(game.state.hands[WHITE]) == 6
    game = game.then(draw_stack(BLACK))
    assert game.rejects(draw_stack(WHITE)) == "hand_full"
    assert game.when(discard(WHITE, "Arabana")).types == ["CardsDiscarded"]


@pytest.mark.parametrize(
    "handicap",
    [
        {"seat": 2},
        {"seat": "1"},
        {"seat": WHITE, "free_bridges": 4},
        {"seat": WHITE, "free_bridges": True},
        {"seat": WHITE, "extra_cards": 3},
        {"seat": WHITE, "hand_limit": 7},
        {"seat": WHITE, "stones": 1},
        [WHITE],
    ],
    ids=repr,
)
def test_I8_bad_handicap_options(handicap: Any) -> None:
    with pytest.raises(IllegalMove) as refusal:
        engine.initial_state(IKIBITI.created(options={"handicap": handicap}).data)
    assert refusal.value.code == "bad_option"


def test_I2_the_lines_closed_to_a_seat_are_exactly_those_between_two_islands_it_controls() -> None:
    # legal_commands reads I-2 from one mask per listing instead of asking each line's ends.
    closed_seen = 0
    for _, _, state in random_game(random.Random(3), IKIBITI):
        board = state.rules.board
        for seat in range(state.seats):
            expected = {
                n
                for n, (a, b) in enumerate(board.lines)
                if state.controller(a) == seat == state.controller(b)
            }
            mask = _closed_lines(state, seat)
            assert {n for n in range(len(board.lines)) if mask >> n & 1} == expected
            closed_seen += len(expected)
    assert closed_seen > 0
