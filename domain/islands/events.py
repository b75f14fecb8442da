"""Constructors of the island games' events: stable type strings, past tense, one schema each."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.decider import SERVER, Event
from domain.islands.board import Line


def game_created(setup: dict[str, Any]) -> Event:
    return Event("GameCreated", setup)


def deck_shuffled(round_: int, stack: Sequence[str]) -> Event:
    # The order is the server's secret: the stack is face down.
    return Event("DeckShuffled", {"round": round_, "size": len(stack)}, {"stack": list(stack)}, SERVER)


def hand_dealt(seat: int, cards: Sequence[str]) -> Event:
    return Event("HandDealt", {"seat": seat, "count": len(cards)}, {"cards": list(cards)}, (seat,))


def face_up_laid(cards: Sequence[str]) -> Event:
    return Event("FaceUpLaid", {"cards": list(cards)})


def round_started(round_: int, first: int) -> Event:
    return Event("RoundStarted", {"round": round_, "first": first})


def cards_played(seat: int, cards: Sequence[str]) -> Event:
    return Event("CardsPlayed", {"seat": seat, "cards": list(cards)})


def bridge_placed(seat: int, line: Line) -> Event:
    return Event("BridgePlaced", {"seat": seat, "line": list(line)})


def bridge_removed(seat: int, line: Line, by: int, cause: str) -> Event:
    """`seat` owned the bridge; `cause` is "attack" (K-4) or "majority" (F-1)."""
    return Event("BridgeRemoved", {"seat": seat, "line": list(line), "by": by, "cause": cause})


def island_taken(seat: int, island: str) -> Event:
    return Event("IslandTaken", {"seat": seat, "island": island})


def island_lost(seat: int, island: str) -> Event:
    return Event("IslandLost", {"seat": seat, "island": island})


def cards_discarded(seat: int, cards: Sequence[str]) -> Event:
    # Face down: the others learn how many, never which (K-5).
    return Event("CardsDiscarded", {"seat": seat, "count": len(cards)}, {"cards": list(cards)}, (seat,))


def card_drawn_face_up(seat: int, card: str) -> Event:
    return Event("CardDrawn", {"seat": seat, "source": "face_up", "card": card})


def card_drawn_from_stack(seat: int, card: str) -> Event:
    return Event("CardDrawn", {"seat": seat, "source": "stack"}, {"card": card}, (seat,))


def face_up_refilled(card: str) -> Event:
    return Event("FaceUpRefilled", {"card": card})


def turn_ended(seat: int, next_seat: int) -> Event:
    return Event("TurnEnded", {"seat": seat, "next": next_seat})


def round_ended(round_: int) -> Event:
    return Event("RoundEnded", {"round": round_})


def round_scored(round_: int, islands: Sequence[int], points: Sequence[int], totals: Sequence[int]) -> Event:
    return Event(
        "RoundScored",
        {"round": round_, "islands": list(islands), "points": list(points), "totals": list(totals)},
    )


GAME_ENDED = "GameEnded"
"""The event with which the rules end a game (the module declares it: domain/ending.py)."""


def game_ended(winner: int | None, totals: Sequence[int], reason: str, **extra: Any) -> Event:
    """`reason`: "points", "draw", "premature" (I-7) or "eleventh_island" (O-10)."""
    return Event(GAME_ENDED, {"winner": winner, "totals": list(totals), "reason": reason, **extra})


def free_bridge_placed(seat: int, line: Line) -> Event:
    """I-8: a handicap bridge, placed without a card."""
    return Event("BridgePlaced", {"seat": seat, "line": list(line), "free": True})


def draw_skipped(seat: int) -> Event:
    return Event("DrawSkipped", {"seat": seat})


def final_turns_started(order: Sequence[int]) -> Event:
    return Event("FinalTurnsStarted", {"order": list(order)})


def final_turn_deferred(seat: int, order: Sequence[int]) -> Event:
    return Event("FinalTurnDeferred", {"seat": seat, "order": list(order)})


def final_turn_finished(seat: int) -> Event:
    return Event("FinalTurnFinished", {"seat": seat})


def face_up_chosen(seat: int, card: str) -> Event:
    # O-2: secret until every seat has chosen.
    return Event("FaceUpChosen", {"seat": seat}, {"card": card}, (seat,))


def face_up_revealed(cards: Sequence[str]) -> Event:
    """O-2: each seat's chosen card, by seat, leaves its hand for the face-up row."""
    return Event("FaceUpRevealed", {"cards": list(cards)})


def ship_placed(seat: int, sea: Sequence[str]) -> Event:
    return Event("ShipPlaced", {"seat": seat, "sea": list(sea)})


def ship_moved(seat: int, origin: Sequence[str], target: Sequence[str]) -> Event:
    return Event("ShipMoved", {"seat": seat, "from": list(origin), "to": list(target)})


def ship_sunk(seat: int, sea: Sequence[str], by: int, cause: str) -> Event:
    """`cause`: "placed_on", "enclosed" or "collision" (S-5)."""
    return Event("ShipSunk", {"seat": seat, "sea": list(sea), "by": by, "cause": cause})


def choice_required(
    kind: str,
    seat: int,
    island: str = "",
    target: int | None = None,
    options: Sequence[Any] = (),
    secret: bool = False,
) -> Event:
    data: dict[str, Any] = {"kind": kind, "seat": seat, "island": island, "target": target}
    if secret:
        audience = (seat,) if target is None else (seat, target)
        return Event("ChoiceRequired", data, {"options": list(options)}, audience)
    return Event("ChoiceRequired", {**data, "options": list(options)})


def choice_resolved(kind: str, seat: int) -> Event:
    return Event("ChoiceResolved", {"kind": kind, "seat": seat})


def gods_placed(stones: dict[str, str]) -> Event:
    return Event("GodsPlaced", {"stones": stones})


def god_taken(seat: int, island: str, god: str) -> Event:
    return Event("GodTaken", {"seat": seat, "island": island, "god": god})


def god_used(seat: int, god: str) -> Event:
    return Event("GodUsed", {"seat": seat, "god": god})


def kane_scored(seat: int, island: str, points: int) -> Event:
    return Event("KaneScored", {"seat": seat, "island": island, "points": points})


def hand_shown(seat: int, target: int, cards: Sequence[str]) -> Event:
    """G-6: `target`'s hand, shown to `seat` only."""
    return Event("HandShown", {"seat": seat, "target": target}, {"cards": list(cards)}, (seat, target))


def card_taken(seat: int, source: int, card: str, how: str) -> Event:
    """G-6/G-7: `seat` takes `card` from `source`'s hand; both of them know which."""
    return Event("CardTaken", {"seat": seat, "from": source, "how": how}, {"card": card}, (seat, source))


def card_given(seat: int, target: int, card: str) -> Event:
    return Event("CardGiven", {"seat": seat, "to": target}, {"card": card}, (seat, target))


def choosing_started() -> Event:
    """O-2: every seat now lays one of its four cards face up, in secret."""
    return Event("ChoosingStarted", {})
