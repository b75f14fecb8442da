"""Constructors of the island games' events: stable type strings, past tense, one schema each."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.core import SERVER, Event
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


def game_ended(winner: int | None, totals: Sequence[int], reason: str) -> Event:
    return Event("GameEnded", {"winner": winner, "totals": list(totals), "reason": reason})
