"""The events of a turn, each told as a move (or folded into the move before it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from replays.notation.builder import Builder, line_of, secret, take_played
from replays.notation.model import Move


def _cards_played(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    joker = b.joker == seat
    b.joker = None
    b.played = (seat, tuple(d.get("cards", [])) + (("@",) if joker else ()), joker)


def _bridge_placed(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    line = line_of(d)
    if b.swapped == (d.get("seat"), line):
        b.swapped = None
        return
    if d.get("free"):
        b.move(seat, Move("free", line))
        return
    cards = take_played(b)
    if cards is None and b.joker == d.get("seat"):
        b.joker, cards = None, ("@",)
    b.move(seat, Move("place", line, cards=cards))


def _bridge_removed(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    line, cause = line_of(d), d.get("cause")
    if cause == "attack":
        b.move(seat, Move("remove", line, cards=take_played(b)))
    elif cause == "swap":
        b.move(seat, Move("swap", line, cards=take_played(b)))
        b.swapped = (d.get("by"), line)
    elif cause == "relative_majority":
        b.move(seat, Move("relative", line))
    elif cause == "taken_back":
        # O-11: the card played moves the bridge; its placement follows as `+A-B`.
        b.move(seat, Move("take_back", line, cards=take_played(b)))
    # "majority": every other bridge on an island just taken (F-1), told by the `=` before it


def _island(kind: str) -> Any:
    def told(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
        b.move(seat, Move(kind, (str(d.get("island")),), seat=b.other(d.get("seat"))))

    return told


def _god_taken(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    moves = b.open_turn(seat).moves
    if moves and moves[-1].kind == "taken" and moves[-1].where == (str(d.get("island")),):
        moves[-1] = replace(moves[-1], god=str(d.get("god")))


def _kane_scored(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    moves = b.open_turn(seat).moves
    if moves and moves[-1].kind == "taken" and moves[-1].god is not None:
        moves[-1] = replace(moves[-1], points=int(d.get("points", 0)))


def _ship_placed(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    b.move(seat, Move("ship", line_of(d, "sea"), cards=take_played(b)))
    for sunk in b.sunk:
        b.move(seat, sunk)
    b.sunk = []


def _ship_sunk(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    sunk = Move("sunk", line_of(d, "sea"), seat=b.other(d.get("seat")))
    if d.get("cause") == "placed_on" and b.played is not None:
        b.sunk.append(sunk)
    else:
        b.move(seat, sunk)


def _ship_moved(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    b.move(seat, Move("sail", line_of(d, "from"), line_of(d, "to")))


def _cards_discarded(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    cards = secret(e, "cards")
    if cards is None:
        b.move(seat, Move("discard", count=int(d.get("count", 0))))
    else:
        b.move(seat, Move("discard", cards=tuple(cards)))


def _card_drawn(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    if d.get("source") == "face_up":
        b.move(seat, Move("draw", (str(d.get("card")),)))
    else:
        card = secret(e, "card")
        b.move(seat, Move("stack", cards=None if card is None else (str(card),)))


def _refilled(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    b.move(seat, Move("refill", (str(d.get("card")),)))


def _word(kind: str) -> Any:
    def told(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
        b.move(seat, Move(kind))

    return told


def _turn_ended(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    if not b.group_drew:
        b.move(seat, Move("end"))
    b.group_drew = False


def _god_used(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    if d.get("god") == "Kanaloa":
        b.joker = d.get("seat")
    else:
        b.move(seat, Move("god", god=str(d.get("god"))))


def _hand_shown(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    moves = b.open_turn(seat).moves
    cards = secret(e, "cards")
    if moves and moves[-1].kind == "god":
        shown = None if cards is None else tuple(cards)
        moves[-1] = replace(moves[-1], seat=b.name(d.get("target")), cards=shown)


def _card_moved(kind: str, key: str) -> Any:
    def told(b: Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
        card = secret(e, "card")
        b.move(seat, Move(kind, seat=b.name(d.get(key)), cards=None if card is None else (str(card),)))

    return told


MOVES = {
    "CardsPlayed": _cards_played,
    "BridgePlaced": _bridge_placed,
    "BridgeRemoved": _bridge_removed,
    "IslandTaken": _island("taken"),
    "IslandLost": _island("lost"),
    "GodTaken": _god_taken,
    "KaneScored": _kane_scored,
    "ShipPlaced": _ship_placed,
    "ShipSunk": _ship_sunk,
    "ShipMoved": _ship_moved,
    "CardsDiscarded": _cards_discarded,
    "CardDrawn": _card_drawn,
    "FaceUpRefilled": _refilled,
    "DrawSkipped": _word("skip"),
    "TurnEnded": _turn_ended,
    "FinalTurnFinished": _word("end"),
    "FinalTurnDeferred": _word("defer"),
    "GodUsed": _god_used,
    "HandShown": _hand_shown,
    "CardTaken": _card_moved("take_card", "from"),
    "CardGiven": _card_moved("give_card", "to"),
}
