"""Kahuna's later English edition, the game option edition "thames-kosmos" (island-games.md, K-9)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from given import (
    BLACK,
    KAHUNA,
    WHITE,
    Line,
    act,
    attack,
    deal,
    draw_stack,
    given,
    placed,
    position,
    score,
    taken,
)

from domain.decider import Command, Event
from domain.islands import engine

LATER = KAHUNA.with_options(edition="thames-kosmos")


def later(
    black: Sequence[str] = ("ALOA", "BARI", "COCO"),
    white: Sequence[str] = ("DUDA", "ELAI", "FAAA"),
    edition: str = "thames-kosmos",
) -> list[Event]:
    return deal(KAHUNA.with_options(edition=edition), [black, white], ("GOLA", "HUNA", "IFFI"))


def skip(seat: int) -> Command:
    return act("SkipDraw", seat)


# One bridge each: a seat without any ends the game in rounds 2 and 3 (K-9 brings I-7).
ONE_EACH = position(black=[("ALOA", "BARI")], white=[("COCO", "GOLA")])


# --- abstaining from the draw ------------------------------------------------------------------


def test_K9_abstain_from_drawing() -> None:
    game = given(later())
    then = game.when(skip(BLACK))
    assert then.facts == [("DrawSkipped", {"seat": BLACK}), ("TurnEnded", {"seat": BLACK, "next": WHITE})]
    assert then.state.hands == game.state.hands and then.state.stack == game.state.stack


def test_K9_no_abstaining_right_after_the_opponent_abstained() -> None:
    game = given(later()).then(skip(BLACK))
    assert game.rejects(skip(WHITE)) == "must_draw"
    assert "SkipDraw" not in {c.type for c in engine.legal_commands(game.state, WHITE)}
    game = game.then(draw_stack(WHITE))
    assert game.when(skip(BLACK)).types == ["DrawSkipped", "TurnEnded"]
    # A turn that played cards and then abstained counts as abstaining too.
    played = given(later(), ONE_EACH).then(
        act("PlaceBridge", BLACK, card="ALOA", line=["ALOA", "DUDA"]), skip(BLACK)
    )
    assert played.rejects(skip(WHITE)) == "must_draw"


def test_K9_no_abstaining_after_a_discard() -> None:
    # K-5: after the discard the turn's only command is the draw; abstaining would thin a
    # full hand in secret without drawing.
    stack = ("JOJO", "KAHU", "LALE", "KAHU")
    dealt = deal(LATER, [("ALOA", "BARI", "COCO"), ("DUDA", "ELAI", "FAAA")], ("GOLA", "HUNA", "IFFI"), stack)
    game = given(dealt).then(*(draw_stack(seat) for seat in (BLACK, WHITE, BLACK, WHITE)))
    discarded = game.then(act("DiscardCards", BLACK, cards=["LALE"]))
    assert discarded.rejects(skip(BLACK)) == "must_draw"
    assert {c.type for c in engine.legal_commands(discarded.state, BLACK)} == {"DrawCard"}


def test_K9_no_discard_in_the_last_turns() -> None:
    game = given(later(), ONE_EACH).at_round(3).draw_out()
    seat = game.state.active
    assert game.state.phase == "final" and len(game.state.hands[seat]) == 5
    assert game.rejects(act("DiscardCards", seat, cards=[game.state.hands[seat][0]])) == "discard_not_allowed"


def test_K9_not_in_the_original_edition() -> None:
    assert given(later(edition="original")).rejects(skip(BLACK)) == "unknown_command"


# --- one more turn after the last card of round 3 ------------------------------------------------


def test_K9_one_more_turn_each_after_the_last_card_of_round_3() -> None:
    game = given(later(), ONE_EACH).at_round(3).draw_out()
    drawer = [e for e in game.history if e.type == "CardDrawn"][-1].data["seat"]
    assert game.history[-1].type == "FinalTurnsStarted"
    assert game.history[-1].data == {"order": [1 - drawer, drawer]}
    assert game.rejects(skip(1 - drawer)) == "must_draw"
    assert game.rejects(draw_stack(1 - drawer)) == "no_draw_in_final_turn"
    assert game.end_round().history[-1].data == {"round": 3}


@pytest.mark.parametrize(("edition", "round_"), [("thames-kosmos", 1), ("thames-kosmos", 2), ("original", 3)])
def test_K9_no_extra_turn_otherwise(edition: str, round_: int) -> None:
    game = given(later(edition=edition), ONE_EACH).at_round(round_).draw_out()
    assert game.state.phase == "scoring"


# --- the tie-break ------------------------------------------------------------------------------


def final_scores(*rounds: Sequence[Event]) -> Event:
    """The GameEnded after three scorings, `rounds[n]` recorded before scoring n + 1."""
    game = given(later())
    for round_, facts in enumerate(rounds, start=1):
        game = game.at_round(round_).plus(*facts).end_round().then(score(round_))
    return game.history[-1]


def test_K9_a_total_tie_goes_to_more_points_at_the_third_scoring() -> None:
    # Round 1: black holds LALE (1 point); round 2: white GOLA, 1-1 (none); round 3: white FAAA (1).
    ended = final_scores(
        position(black=[("HUNA", "LALE"), ("KAHU", "LALE")], white=[("COCO", "GOLA"), ("COCO", "FAAA")]),
        [placed(WHITE, "FAAA", "GOLA"), placed(WHITE, "GOLA", "JOJO"), taken(WHITE, "GOLA")],
        [placed(WHITE, "FAAA", "JOJO"), taken(WHITE, "FAAA")],
    )
    assert ended.data == {"winner": WHITE, "totals": [1, 1], "reason": "points"}


@pytest.mark.parametrize(
    ("black", "winner", "reason"),
    [([("ALOA", "BARI"), ("DUDA", "ELAI")], BLACK, "points"), ([("ALOA", "BARI")], None, "draw")],
    ids=["more-bridges", "draw"],
)
def test_K9_then_to_more_bridges_on_the_board(black: list[Line], winner: int | None, reason: str) -> None:
    ended = final_scores(position(black=black, white=[("COCO", "GOLA")]), [], [])
    assert ended.data == {"winner": winner, "totals": [0, 0], "reason": reason}


def test_K9_original_edition_ties_are_draws() -> None:
    game = given(later(edition="original"), position(black=[("ALOA", "BARI"), ("DUDA", "ELAI")]))
    for round_ in (1, 2, 3):
        game = game.at_round(round_).end_round().then(score(round_))
    assert game.history[-1].data == {"winner": None, "totals": [0, 0], "reason": "draw"}


# --- the premature end of I-7 --------------------------------------------------------------------


@pytest.mark.parametrize("round_", [2, 3])
def test_K9_premature_end(round_: int) -> None:
    game = given(later(black=("DUDA", "ELAI", "ALOA"), white=("BARI", "COCO", "FAAA")),
                 position(black=[("ALOA", "BARI")], white=[("DUDA", "ELAI")])).at_round(round_)  # fmt: skip
    then = game.when(attack(BLACK, ("DUDA", "ELAI"), "DUDA", "ELAI"))
    assert then.facts[-1] == (
        "GameEnded",
        {"winner": BLACK, "totals": [0, 0], "reason": "premature", "round": round_},
    )


@pytest.mark.parametrize(("edition", "round_"), [("thames-kosmos", 1), ("original", 2)])
def test_K9_no_premature_end_otherwise(edition: str, round_: int) -> None:
    game = given(later(black=("DUDA", "ELAI", "ALOA"), white=("BARI", "COCO", "FAAA"), edition=edition),
                 position(black=[("ALOA", "BARI")], white=[("DUDA", "ELAI")])).at_round(round_)  # fmt: skip
    then = game.when(attack(BLACK, ("DUDA", "ELAI"), "DUDA", "ELAI"))
    assert then.types == ["CardsPlayed", "BridgeRemoved"]


def test_K9_edition_is_shown() -> None:
    assert engine.view(given(later()).state, None)["options"] == {"edition": "thames-kosmos"}
    assert LATER.created().data["options"] == {"edition": "thames-kosmos"}
