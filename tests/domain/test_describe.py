"""Every event of the island games reads as words, and a description never tells a withheld secret."""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest

from domain import undo
from domain.islands import events as events_module
from domain.islands.describe import DESCRIBERS, describe, describe_event
from domain.islands.evolve import HANDLERS

NAMES = ["Ana", "Ben", "Cai"]


def event(type_: str, secret: dict[str, Any] | None = None, **data: Any) -> dict[str, Any]:
    shown: dict[str, Any] = {"type": type_, "data": data}
    if secret is not None:
        shown["secret"] = secret
    return shown


def hidden(type_: str, **data: Any) -> dict[str, Any]:
    """The event as a viewer who may not read its secret gets it."""
    return {"type": type_, "data": data, "secret": None, "redacted": True}


# One example of every event type, and the clause it reads as.
SAMPLES: dict[str, tuple[dict[str, Any], str]] = {
    "GameCreated": (
        event("GameCreated", game="kahuna", seats=[{"name": "Ana"}, {"name": "Ben"}], first_seat=1),
        "new game of Kahuna for Ana and Ben; Ben starts",
    ),
    "DeckShuffled": (event("DeckShuffled", round=2, size=18), "the 18 cards are shuffled for round 2"),
    "HandDealt": (hidden("HandDealt", seat=1, count=3), "Ben is dealt 3 cards"),
    "FaceUpLaid": (
        event("FaceUpLaid", cards=["GOLA", "HUNA", "IFFI"]),
        "GOLA, HUNA and IFFI are laid face up",
    ),
    "ChoosingStarted": (event("ChoosingStarted"), "each player chooses one card to lay face up"),
    "FaceUpChosen": (hidden("FaceUpChosen", seat=2), "Cai chooses a card to lay face up"),
    "FaceUpRevealed": (
        event("FaceUpRevealed", cards=["Lusepil", "Hunisch", "Arabana"]),
        "the chosen cards are turned up: Ana Lusepil, Ben Hunisch, Cai Arabana",
    ),
    "GodsPlaced": (
        event("GodsPlaced", stones={"Arabana": "Kane", "Barilub": "Ku", "Cocotac": "Kane"}),
        "the god stones are laid out: Kane on Arabana and Cocotac; Ku on Barilub",
    ),
    "RoundStarted": (event("RoundStarted", round=1, first=0), "round 1 begins; Ana starts"),
    "CardsPlayed": (event("CardsPlayed", seat=0, cards=["LALE", "LALE"]), "Ana plays 2×LALE"),
    "BridgePlaced": (
        event("BridgePlaced", seat=1, line=["ALOA", "BARI"], free=True),
        "Ben places a free bridge on ALOA–BARI",
    ),
    "BridgeRemoved": (
        event("BridgeRemoved", seat=1, line=["KAHU", "LALE"], by=0, cause="majority"),
        "Ben's bridge KAHU–LALE is removed",
    ),
    "IslandTaken": (event("IslandTaken", seat=0, island="LALE"), "Ana takes LALE"),
    "IslandLost": (event("IslandLost", seat=1, island="KAHU"), "Ben loses KAHU"),
    "ShipPlaced": (
        event("ShipPlaced", seat=0, sea=["Danidad", "Elamite", "Hunisch"]),
        "Ana places a ship on Danidad–Elamite–Hunisch",
    ),
    "ShipMoved": (
        event("ShipMoved", seat=0, **{"from": ["A", "B", "C"], "to": ["B", "C", "D"]}),
        "Ana moves a ship from A–B–C to B–C–D",
    ),
    "ShipSunk": (
        event("ShipSunk", seat=1, sea=["A", "B", "C"], by=0, cause="enclosed"),
        "Ben's ship on A–B–C is enclosed by Ana's bridges and sinks",
    ),
    "CardsDiscarded": (hidden("CardsDiscarded", seat=1, count=2), "Ben discards 2 cards face down"),
    "CardDrawn": (hidden("CardDrawn", seat=1, source="stack"), "Ben draws from the stack"),
    "FaceUpRefilled": (event("FaceUpRefilled", card="JOJO"), "JOJO is turned face up"),
    "DrawSkipped": (event("DrawSkipped", seat=0), "Ana does not draw"),
    "TurnEnded": (event("TurnEnded", seat=0, next=1), "Ana ends the turn; Ben is next"),
    "FinalTurnsStarted": (
        event("FinalTurnsStarted", order=[1, 2, 0]),
        "final turns, in this order: Ben, Cai and Ana",
    ),
    "FinalTurnDeferred": (
        event("FinalTurnDeferred", seat=1, order=[2, 1, 0]),
        "Ben defers the final turn; the order is now Cai, Ben and Ana",
    ),
    "FinalTurnFinished": (event("FinalTurnFinished", seat=2), "Cai ends the final turn"),
    "ChoiceRequired": (
        event("ChoiceRequired", kind="relative_majority", seat=0, island="Lusepil", target=None, options=[]),
        "Ana chooses which bridge to remove on Lusepil (relative majority)",
    ),
    "ChoiceResolved": (event("ChoiceResolved", kind="ku", seat=0), "Ana's choice is made"),
    "GodTaken": (
        event("GodTaken", seat=0, island="Lusepil", god="Kane"),
        "Ana takes the Kane stone of Lusepil",
    ),
    "GodUsed": (event("GodUsed", seat=2, god="Pele"), "Cai uses Pele"),
    "KaneScored": (
        event("KaneScored", seat=0, island="Lusepil", points=3),
        "Kane gives Ana 3 points for Lusepil",
    ),
    "HandShown": (hidden("HandShown", seat=0, target=1), "Ana looks at Ben's hand"),
    "CardTaken": (
        hidden("CardTaken", seat=0, how="pele", **{"from": 2}),
        "Ana takes a random card from Cai's hand",
    ),
    "CardGiven": (hidden("CardGiven", seat=0, to=1), "Ana gives Ben a card"),
    "RoundEnded": (event("RoundEnded", round=3), "round 3 ends"),
    "RoundScored": (
        event("RoundScored", round=1, islands=[4, 1], points=[1, 0], totals=[1, 0]),
        "round 1 is scored: Ana 4 islands +1 = 1, Ben 1 island +0 = 0",
    ),
    "GameEnded": (event("GameEnded", winner=1, totals=[0, 9], reason="points"), "Ben wins (Ana 0, Ben 9)"),
    "Undone": (
        event("Undone", to_version=40, requested_by=0, approved_by=[1]),
        "Ana's takeback is accepted by Ben",
    ),
    "Corrected": (
        event("Corrected", to_version=12, reason="misclick", organizer="Org"),
        "the organizer sets the game back: misclick",
    ),
    "TakebackRequested": (
        event("TakebackRequested", seat=0, to_version=40),
        "Ana asks to take back a move",
    ),
    "TakebackAnswered": (event("TakebackAnswered", seat=1, accept=False), "Ben declines the takeback"),
    "TakebackDeclined": (
        event("TakebackDeclined", seat=0, to_version=40, by=1),
        "Ben declines Ana's takeback",
    ),
}


def event_types_in_events_module() -> set[str]:
    """Every type string domain/islands/events.py builds events with."""
    return set(re.findall(r'Event\(\s*"(\w+)"', inspect.getsource(events_module)))


def test_every_event_type_of_the_rules_and_of_undo_has_its_own_description() -> None:
    known = event_types_in_events_module() | set(HANDLERS) | set(undo.BOOKKEEPING)

    assert known <= set(DESCRIBERS)
    assert known <= set(SAMPLES), "a new event type needs its sample here"


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_each_event_reads_as_its_clause(kind: str) -> None:
    sample, words = SAMPLES[kind]

    assert sample["type"] == kind
    assert describe_event(sample, NAMES) == words


def test_a_placement_and_its_consequences_make_one_sentence() -> None:
    command = [
        event("CardsPlayed", seat=0, cards=["LALE"]),
        event("BridgePlaced", seat=0, line=["IFFI", "LALE"]),
        event("IslandTaken", seat=0, island="LALE"),
        event("BridgeRemoved", seat=1, line=["KAHU", "LALE"], by=0, cause="majority"),
    ]

    assert (
        describe(command, NAMES)
        == "Ana plays LALE: bridge LALE–IFFI; Ana takes LALE; Ben's bridge KAHU–LALE is removed"
    )


def test_an_attack_names_the_bridge_and_the_island_it_costs() -> None:
    command = [
        event("CardsPlayed", seat=0, cards=["LALE", "LALE"]),
        event("BridgeRemoved", seat=1, line=["KAHU", "LALE"], by=0, cause="attack"),
        event("IslandLost", seat=1, island="KAHU"),
    ]

    assert describe(command, NAMES) == "Ana plays 2×LALE and removes Ben's bridge KAHU–LALE; Ben loses KAHU"


def test_a_draw_names_its_card_only_to_whom_may_read_it() -> None:
    drawn = {"type": "CardDrawn", "data": {"seat": 1, "source": "stack"}}
    ended = event("TurnEnded", seat=1, next=0)

    assert describe([{**drawn, "secret": None, "redacted": True}, ended], NAMES) == "Ben draws from the stack"
    assert describe([{**drawn, "secret": {"card": "LALE"}}, ended], NAMES) == "Ben draws LALE from the stack"
    face_up = event("CardDrawn", seat=1, source="face_up", card="HUNA")
    assert describe([face_up, event("FaceUpRefilled", card="IFFI"), ended], NAMES) == (
        "Ben takes face-up HUNA; IFFI is turned face up"
    )


def test_secrets_show_only_when_the_viewer_got_them() -> None:
    cases = [
        (
            "CardsDiscarded",
            {"seat": 1, "count": 2},
            {"cards": ["ALOA", "BARI"]},
            "Ben discards ALOA and BARI face down",
        ),
        ("HandDealt", {"seat": 0, "count": 3}, {"cards": ["A", "B", "C"]}, "Ana is dealt A, B and C"),
        ("FaceUpChosen", {"seat": 0}, {"card": "LALE"}, "Ana chooses LALE to lay face up"),
        ("HandShown", {"seat": 0, "target": 1}, {"cards": ["X", "Y"]}, "Ana looks at Ben's hand: X and Y"),
        ("CardTaken", {"seat": 0, "from": 1, "how": "ku"}, {"card": "X"}, "Ana takes X from Ben's hand"),
        ("CardGiven", {"seat": 0, "to": 1}, {"card": "Y"}, "Ana gives Ben Y"),
    ]
    for kind, data, secret, words in cases:
        assert describe_event({"type": kind, "data": data, "secret": secret}, NAMES) == words
        withheld = describe_event({"type": kind, "data": data, "secret": None, "redacted": True}, NAMES)
        assert not any(card in withheld.split() for card in ("ALOA", "A,", "LALE", "X", "Y")), withheld


def test_swaps_kanaloa_and_ships_read_as_one_action() -> None:
    swap = [
        event("CardsPlayed", seat=0, cards=["Arabana", "Barilub"]),
        event("BridgeRemoved", seat=2, line=["Arabana", "Barilub"], by=0, cause="swap"),
        event("BridgePlaced", seat=0, line=["Arabana", "Barilub"]),
    ]
    kanaloa = [event("GodUsed", seat=1, god="Kanaloa"), event("BridgePlaced", seat=1, line=["A", "B"])]
    ship = [
        event("CardsPlayed", seat=0, cards=["A", "B", "C"]),
        event("ShipSunk", seat=1, sea=["A", "B", "C"], by=0, cause="placed_on"),
        event("ShipPlaced", seat=0, sea=["A", "B", "C"]),
    ]

    assert (
        describe(swap, NAMES)
        == "Ana plays Arabana and Barilub and replaces Cai's bridge Arabana–Barilub by Ana's own"
    )
    assert describe(kanaloa, NAMES) == "Ben uses Kanaloa: bridge A–B"
    assert describe(ship, NAMES) == "Ana plays A, B and C: ship on A–B–C, sinking Ben's ship there"


def test_an_undo_of_ones_own_turn_reads_as_such() -> None:
    undone = event("Undone", to_version=19, requested_by=0, approved_by=[])

    assert describe([undone], NAMES) == "Ana takes back a move"


def test_an_event_type_it_does_not_know_still_reads_as_words() -> None:
    assert describe([event("SomethingHappened", x=1)], NAMES) == "Something happened"


def test_O11_a_placement_that_takes_a_bridge_back_reads_as_one_action() -> None:
    command = [
        event("CardsPlayed", seat=0, cards=["Arabana"]),
        event("BridgeRemoved", seat=0, line=["Barilub", "Elamite"], by=0, cause="taken_back"),
        event("IslandLost", seat=0, island="Elamite"),
        event("BridgePlaced", seat=0, line=["Arabana", "Papalua"]),
        event("IslandTaken", seat=0, island="Arabana"),
    ]

    assert describe(command, NAMES) == (
        "Ana plays Arabana: bridge Barilub–Elamite taken back and placed on Arabana–Papalua;"
        " Ana loses Elamite; Ana takes Arabana"
    )
