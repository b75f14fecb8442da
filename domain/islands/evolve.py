"""evolve(state, event): apply one recorded fact. Never validates, never raises on known shapes."""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Event
from domain.islands.state import ENDED, PLAY, SCORING, SETUP, State, set_at, update, without


def _line(state: State, event: Event) -> int:
    a, b = event.data["line"]
    index = state.rules.board.line_index(a, b)
    assert index is not None
    return index


def _island(state: State, name: str) -> int:
    return state.rules.board.names.index(name)


def _give(state: State, seat: int, cards: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return set_at(state.hands, seat, tuple(sorted(state.hands[seat] + cards)))


def _take(state: State, seat: int, cards: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return set_at(state.hands, seat, without(state.hands[seat], cards))


def deck_shuffled(state: State, e: Event) -> State:
    stack = tuple((e.secret or {}).get("stack", ()))
    return update(state, stack=stack, face_up=(), played=(), hidden=(), phase=SETUP)


def hand_dealt(state: State, e: Event) -> State:
    cards = tuple((e.secret or {}).get("cards", ()))
    return update(state, hands=_give(state, e.data["seat"], cards), stack=state.stack[len(cards) :])


def face_up_laid(state: State, e: Event) -> State:
    cards = tuple(e.data["cards"])
    return update(state, face_up=cards, stack=state.stack[len(cards) :])


def round_started(state: State, e: Event) -> State:
    return update(state, phase=PLAY, round=e.data["round"], active=e.data["first"])


def cards_played(state: State, e: Event) -> State:
    cards = tuple(e.data["cards"])
    return update(state, hands=_take(state, e.data["seat"], cards), played=state.played + cards)


def bridge_placed(state: State, e: Event) -> State:
    seat = e.data["seat"]
    return update(
        state,
        owners=set_at(state.owners, _line(state, e), seat),
        stock=set_at(state.stock, seat, state.stock[seat] - 1),
    )


def bridge_removed(state: State, e: Event) -> State:
    seat = e.data["seat"]
    return update(
        state,
        owners=set_at(state.owners, _line(state, e), None),
        stock=set_at(state.stock, seat, state.stock[seat] + 1),
    )


def island_taken(state: State, e: Event) -> State:
    return update(state, control=set_at(state.control, _island(state, e.data["island"]), e.data["seat"]))


def island_lost(state: State, e: Event) -> State:
    return update(state, control=set_at(state.control, _island(state, e.data["island"]), None))


def cards_discarded(state: State, e: Event) -> State:
    cards = tuple((e.secret or {}).get("cards", ()))
    return update(state, hands=_take(state, e.data["seat"], cards), hidden=state.hidden + cards)


def card_drawn(state: State, e: Event) -> State:
    seat = e.data["seat"]
    if e.data["source"] == "face_up":
        card = e.data["card"]
        return update(state, hands=_give(state, seat, (card,)), face_up=without(state.face_up, (card,)))
    card = (e.secret or {})["card"]
    return update(state, hands=_give(state, seat, (card,)), stack=state.stack[1:])


def face_up_refilled(state: State, e: Event) -> State:
    return update(state, face_up=state.face_up + (e.data["card"],), stack=state.stack[1:])


def turn_ended(state: State, e: Event) -> State:
    return update(state, active=e.data["next"])


def round_ended(state: State, e: Event) -> State:
    return update(state, phase=SCORING)


def round_scored(state: State, e: Event) -> State:
    return update(
        state,
        scores=tuple(e.data["totals"]),
        scorings=state.scorings + (tuple(e.data["points"]),),
        phase=SETUP,
    )


def game_ended(state: State, e: Event) -> State:
    return update(state, phase=ENDED, result=dict(e.data))


HANDLERS: dict[str, Callable[[State, Event], State]] = {
    "DeckShuffled": deck_shuffled,
    "HandDealt": hand_dealt,
    "FaceUpLaid": face_up_laid,
    "RoundStarted": round_started,
    "CardsPlayed": cards_played,
    "BridgePlaced": bridge_placed,
    "BridgeRemoved": bridge_removed,
    "IslandTaken": island_taken,
    "IslandLost": island_lost,
    "CardsDiscarded": cards_discarded,
    "CardDrawn": card_drawn,
    "FaceUpRefilled": face_up_refilled,
    "TurnEnded": turn_ended,
    "RoundEnded": round_ended,
    "RoundScored": round_scored,
    "GameEnded": game_ended,
}


def evolve(state: State, event: Event) -> State:
    """The state after `event`; unknown event types (e.g. from later versions) change nothing."""
    handler = HANDLERS.get(event.type)
    return handler(state, event) if handler else state
