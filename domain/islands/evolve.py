"""evolve(state, event): apply one recorded fact. Never validates, never raises on known shapes.

Each event's handler gives the fields of the State it changes (`Changes`); `evolve` makes the
new State from them, and `evolve_all` makes one new State for a run of events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.decider import Event
from domain.islands.state import (
    CHOOSING,
    ENDED,
    FINAL,
    NEW_TURN,
    PLAY,
    SCORING,
    SETUP,
    Pending,
    State,
    Turn,
    replaced,
    set_at,
    update,
    without,
)

Changes = dict[str, Any]
"""The fields of a State an event changes, with their new values."""


def _line(state: State, event: Event) -> int:
    a, b = event.data["line"]
    index = state.rules.board.line_index(a, b)
    assert index is not None
    return index


def _sea(state: State, islands: Any) -> int:
    index = state.rules.board.sea_index(list(islands))
    assert index is not None
    return index


def _secret(event: Event, key: str, default: Any = None) -> Any:
    return (event.secret or {}).get(key, default)


def _give(state: State, seat: int, cards: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return set_at(state.hands, seat, tuple(sorted(state.hands[seat] + cards)))


def _take(state: State, seat: int, cards: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return set_at(state.hands, seat, without(state.hands[seat], cards))


def _turn(state: State, **changes: Any) -> Turn:
    return update(state.turn, **changes)


# --- dealing ---------------------------------------------------------------------------


def deck_shuffled(state: State, e: Event) -> Changes:
    stack = tuple(_secret(e, "stack", ()))
    return {"stack": stack, "face_up": (), "played": (), "hidden": (), "phase": SETUP}


def hand_dealt(state: State, e: Event) -> Changes:
    cards = tuple(_secret(e, "cards", ()))
    return {"hands": _give(state, e.data["seat"], cards), "stack": state.stack[len(cards) :]}


def face_up_laid(state: State, e: Event) -> Changes:
    cards = tuple(e.data["cards"])
    return {"face_up": cards, "stack": state.stack[len(cards) :]}


def choosing_started(state: State, e: Event) -> Changes:
    return {"phase": CHOOSING, "chosen": (None,) * state.seats}


def face_up_chosen(state: State, e: Event) -> Changes:
    return {"chosen": set_at(state.chosen, e.data["seat"], _secret(e, "card", ""))}


def face_up_revealed(state: State, e: Event) -> Changes:
    hands = state.hands
    for seat, card in enumerate(e.data["cards"]):
        hands = set_at(hands, seat, without(hands[seat], (card,)))
    return {"hands": hands, "face_up": tuple(e.data["cards"]), "chosen": ()}


def gods_placed(state: State, e: Event) -> Changes:
    stones = e.data["stones"]
    return {"gods": tuple(stones.get(name) for name in state.rules.board.names)}


def round_started(state: State, e: Event) -> Changes:
    return {
        "phase": PLAY,
        "round": e.data["round"],
        "active": e.data["first"],
        "turn": NEW_TURN,
        "skipped_last": False,
    }


# --- the board -------------------------------------------------------------------------


def cards_played(state: State, e: Event) -> Changes:
    cards = tuple(e.data["cards"])
    return {
        "hands": _take(state, e.data["seat"], cards),
        "played": state.played + cards,
        "turn": played_turn(state.turn),
    }


PLAYED = Turn(played=True)
"""A turn's state after its first card, nothing else done: one value serves every such turn."""


def played_turn(turn: Turn) -> Turn:
    """`turn` after a card is played: a second play changes none."""
    if turn.played:
        return turn
    return PLAYED if turn is NEW_TURN else update(turn, played=True)


def _moved(
    masks: tuple[int, ...], owners: tuple[int | None, ...], at: int, seat: int | None
) -> tuple[int, ...]:
    """Per-seat bit masks (State.held, State.fleets) after position `at` of `owners` becomes
    `seat`'s (None: no one's)."""
    found = list(masks)
    owner = owners[at]
    if owner is not None:
        found[owner] &= ~(1 << at)
    if seat is not None:
        found[seat] |= 1 << at
    return tuple(found)


def _held(state: State, line: int, seat: int | None) -> tuple[int, ...]:
    """State.held after the bridge on `line` becomes `seat`'s (None: no one's)."""
    return _moved(state.held, state.owners, line, seat)


def bridge_placed(state: State, e: Event) -> Changes:
    seat = e.data["seat"]
    line = _line(state, e)
    free = state.free_bridges
    if e.data.get("free"):
        free = set_at(free, seat, free[seat] - 1)
    return {
        "owners": set_at(state.owners, line, seat),
        "held": _held(state, line, seat),
        "stock": set_at(state.stock, seat, state.stock[seat] - 1),
        "free_bridges": free,
    }


def bridge_removed(state: State, e: Event) -> Changes:
    seat = e.data["seat"]
    line = _line(state, e)
    turn = state.turn
    if e.data.get("cause") == "taken_back":
        turn = _turn(state, taken_back=state.turn.taken_back + (line,))
    return {
        "owners": set_at(state.owners, line, None),
        "held": _held(state, line, None),
        "stock": set_at(state.stock, seat, state.stock[seat] + 1),
        "turn": turn,
    }


def island_taken(state: State, e: Event) -> Changes:
    return {"control": set_at(state.control, state.island_index(e.data["island"]), e.data["seat"])}


def island_lost(state: State, e: Event) -> Changes:
    return {"control": set_at(state.control, state.island_index(e.data["island"]), None)}


def ship_placed(state: State, e: Event) -> Changes:
    seat, sea = e.data["seat"], _sea(state, e.data["sea"])
    return {
        "ships": set_at(state.ships, sea, seat),
        "fleets": _moved(state.fleets, state.ships, sea, seat),
        "ship_stock": set_at(state.ship_stock, seat, state.ship_stock[seat] - 1),
        "turn": _turn(state, played=True),
    }


def ship_moved(state: State, e: Event) -> Changes:
    origin, target = _sea(state, e.data["from"]), _sea(state, e.data["to"])
    ships = set_at(state.ships, origin, None)
    fleets = _moved(state.fleets, state.ships, origin, None)
    fleets = _moved(fleets, ships, target, e.data["seat"])
    ships = set_at(ships, target, e.data["seat"])
    return {"ships": ships, "fleets": fleets, "turn": _turn(state, moved=True)}


def ship_sunk(state: State, e: Event) -> Changes:
    seat, sea = e.data["seat"], _sea(state, e.data["sea"])
    return {
        "ships": set_at(state.ships, sea, None),
        "fleets": _moved(state.fleets, state.ships, sea, None),
        "ship_stock": set_at(state.ship_stock, seat, state.ship_stock[seat] + 1),
    }


# --- hands and turns -------------------------------------------------------------------


def cards_discarded(state: State, e: Event) -> Changes:
    cards = tuple(_secret(e, "cards", ()))
    return {
        "hands": _take(state, e.data["seat"], cards),
        "hidden": state.hidden + cards,
        "turn": _turn(state, discarded=True),
    }


def card_drawn(state: State, e: Event) -> Changes:
    seat = e.data["seat"]
    if e.data["source"] == "face_up":
        card = e.data["card"]
        return {"hands": _give(state, seat, (card,)), "face_up": without(state.face_up, (card,))}
    card = _secret(e, "card")
    return {"hands": _give(state, seat, (card,)), "stack": state.stack[1:]}


def face_up_refilled(state: State, e: Event) -> Changes:
    return {"face_up": state.face_up + (e.data["card"],), "stack": state.stack[1:]}


def draw_skipped(state: State, e: Event) -> Changes:
    return {"turn": _turn(state, skipped_draw=True)}


def turn_ended(state: State, e: Event) -> Changes:
    return {"active": e.data["next"], "turn": NEW_TURN, "skipped_last": state.turn.skipped_draw}


def final_turns_started(state: State, e: Event) -> Changes:
    order = tuple(e.data["order"])
    return {"phase": FINAL, "final_order": order, "active": order[0], "turn": NEW_TURN, "finished": ()}


def final_turn_deferred(state: State, e: Event) -> Changes:
    order = tuple(e.data["order"])
    return {"final_order": order, "active": order[0], "turn": NEW_TURN}


def final_turn_finished(state: State, e: Event) -> Changes:
    order = state.final_order[1:]
    return {
        "final_order": order,
        "active": order[0] if order else state.active,
        "finished": state.finished + (e.data["seat"],),
        "turn": NEW_TURN,
    }


# --- choices and gods --------------------------------------------------------------------


def choice_required(state: State, e: Event) -> Changes:
    options = e.data.get("options", _secret(e, "options", []))
    pending = Pending(
        e.data["kind"],
        e.data["seat"],
        e.data.get("island", ""),
        tuple(tuple(o) if isinstance(o, list) else o for o in options),
        e.data.get("target"),
    )
    return {"pending": state.pending + (pending,)}


def choice_resolved(state: State, e: Event) -> Changes:
    return {"pending": state.pending[1:]}


def god_taken(state: State, e: Event) -> Changes:
    seat, god = e.data["seat"], e.data["god"]
    gods = set_at(state.gods, state.island_index(e.data["island"]), None)
    stones = state.stones if god == "Kane" else set_at(state.stones, seat, state.stones[seat] + (god,))
    return {"gods": gods, "stones": stones}


def god_used(state: State, e: Event) -> Changes:
    seat = e.data["seat"]
    return {"stones": set_at(state.stones, seat, without(state.stones[seat], (e.data["god"],)))}


def kane_scored(state: State, e: Event) -> Changes:
    seat = e.data["seat"]
    return {"scores": set_at(state.scores, seat, state.scores[seat] + e.data["points"])}


def card_taken(state: State, e: Event) -> Changes:
    card = _secret(e, "card")
    hands = _take(state, e.data["from"], (card,))
    hands = set_at(hands, e.data["seat"], tuple(sorted(hands[e.data["seat"]] + (card,))))
    return {"hands": hands}


def card_given(state: State, e: Event) -> Changes:
    card = _secret(e, "card")
    hands = _take(state, e.data["seat"], (card,))
    hands = set_at(hands, e.data["to"], tuple(sorted(hands[e.data["to"]] + (card,))))
    return {"hands": hands}


# --- rounds ----------------------------------------------------------------------------


def round_ended(state: State, e: Event) -> Changes:
    return {"phase": SCORING, "final_order": ()}


def round_scored(state: State, e: Event) -> Changes:
    return {
        "scores": tuple(e.data["totals"]),
        "scorings": state.scorings + (tuple(e.data["points"]),),
        "phase": SETUP,
    }


def game_ended(state: State, e: Event) -> Changes:
    return {"phase": ENDED, "result": dict(e.data), "pending": ()}


HANDLERS: dict[str, Callable[[State, Event], Changes]] = {
    "DeckShuffled": deck_shuffled,
    "HandDealt": hand_dealt,
    "FaceUpLaid": face_up_laid,
    "ChoosingStarted": choosing_started,
    "FaceUpChosen": face_up_chosen,
    "FaceUpRevealed": face_up_revealed,
    "GodsPlaced": gods_placed,
    "RoundStarted": round_started,
    "CardsPlayed": cards_played,
    "BridgePlaced": bridge_placed,
    "BridgeRemoved": bridge_removed,
    "IslandTaken": island_taken,
    "IslandLost": island_lost,
    "ShipPlaced": ship_placed,
    "ShipMoved": ship_moved,
    "ShipSunk": ship_sunk,
    "CardsDiscarded": cards_discarded,
    "CardDrawn": card_drawn,
    "FaceUpRefilled": face_up_refilled,
    "DrawSkipped": draw_skipped,
    "TurnEnded": turn_ended,
    "FinalTurnsStarted": final_turns_started,
    "FinalTurnDeferred": final_turn_deferred,
    "FinalTurnFinished": final_turn_finished,
    "ChoiceRequired": choice_required,
    "ChoiceResolved": choice_resolved,
    "GodTaken": god_taken,
    "GodUsed": god_used,
    "KaneScored": kane_scored,
    "CardTaken": card_taken,
    "CardGiven": card_given,
    "RoundEnded": round_ended,
    "RoundScored": round_scored,
    "GameEnded": game_ended,
}


def evolve(state: State, event: Event) -> State:
    """The state after `event`; unknown event types (e.g. from later versions) change nothing."""
    handler = HANDLERS.get(event.type)
    return replaced(state, handler(state, event)) if handler else state


# Looked up once: `evolve_all` makes the State of every command.
_new = object.__new__
_set_fields = object.__setattr__


def evolve_all(state: State, events: Sequence[Event]) -> State:
    """The state after `events` in turn, exactly as `evolve` one after the other gives it.

    A command's rules read the state after a few events at a time (a card played and the
    bridge it placed, say): one new State for the run instead of one per event, its fields
    changed by each handler in turn before anyone else holds the State.
    """
    fields = state.__dict__.copy()  # `replaced(state, {})`, without its call: one per command
    after = _new(State)
    _set_fields(after, "__dict__", fields)
    for event in events:
        handler = HANDLERS.get(event.type)
        if handler is not None:
            fields.update(handler(after, event))
    if len(fields) != len(state.__dict__):  # as `replaced` refuses a name that is no field
        raise TypeError(f"State has no field(s) {sorted(fields.keys() - state.__dict__.keys())}")
    return after
