"""The states after the commonest runs of events, made directly: a draw that ends a turn, a
card placing a bridge, a turn ending without its draw by choice (K-9), and a face-down discard.

`evolve` stays the one meaning of every event; these give exactly the State that `evolve_all`
folds the same events to (tests/domain/test_folded_runs.py compares them field by field, and
tests/domain/test_decide_with_state.py every command of random games). In random play, draws
are half of a game's commands and placements a third (in Kahuna's Thames & Kosmos edition
abstentions are a tenth more): folding their events through one
handler each (a look-up, a call, a dict of changes and its merge per event) cost about a
fifth of a command.
"""

from __future__ import annotations

from domain.islands.evolve import played_turn
from domain.islands.state import NEW_TURN, State, update, without

# Looked up once: these run for most commands.
_new = object.__new__
_set_fields = object.__setattr__


def after_draw(state: State, seat: int, card: str, face_up: bool) -> State:
    """The state after CardDrawn of `card` (from the face-up row when `face_up`, refilled from
    the stack when it holds a card: FaceUpRefilled), then TurnEnded handing on to the next seat.
    """
    fields = state.__dict__.copy()
    hands = state.hands
    fields["hands"] = hands[:seat] + (tuple(sorted(hands[seat] + (card,))),) + hands[seat + 1 :]
    stack = state.stack
    if face_up:
        row = without(state.face_up, (card,))
        if stack:
            fields["face_up"], fields["stack"] = row + stack[:1], stack[1:]
        else:
            fields["face_up"] = row
    else:
        fields["stack"] = stack[1:]
    fields["active"] = (seat + 1) % state.seats
    fields["turn"] = NEW_TURN
    fields["skipped_last"] = state.turn.skipped_draw
    after = _new(State)
    _set_fields(after, "__dict__", fields)
    return after


def after_placement(state: State, seat: int, card: str, line: int) -> State:
    """The state after CardsPlayed of the one `card`, then BridgePlaced of `seat` on the free
    `line` (an index of the board's lines), not a free bridge (I-8)."""
    fields = state.__dict__.copy()
    hands = state.hands
    hand = hands[seat]
    at = hand.index(card)  # `without(hand, (card,))`, as CardsPlayed takes it
    fields["hands"] = hands[:seat] + (hand[:at] + hand[at + 1 :],) + hands[seat + 1 :]
    fields["played"] = state.played + (card,)
    fields["turn"] = played_turn(state.turn)
    owners = state.owners
    fields["owners"] = owners[:line] + (seat,) + owners[line + 1 :]
    held = list(state.held)
    held[seat] |= 1 << line
    fields["held"] = tuple(held)
    stock = state.stock
    fields["stock"] = stock[:seat] + (stock[seat] - 1,) + stock[seat + 1 :]
    after = _new(State)
    _set_fields(after, "__dict__", fields)
    return after


def after_skip(state: State, seat: int) -> State:
    """The state after DrawSkipped of `seat` (K-9), then TurnEnded handing on to the next seat
    while a card is left to draw: the next turn then knows its seat abstained."""
    fields = state.__dict__.copy()
    fields["active"] = (seat + 1) % state.seats
    fields["turn"] = NEW_TURN
    fields["skipped_last"] = True
    after = _new(State)
    _set_fields(after, "__dict__", fields)
    return after


def after_discard(state: State, seat: int, cards: tuple[str, ...]) -> State:
    """The state after CardsDiscarded of `cards` face down by `seat` (K-5, O-5)."""
    fields = state.__dict__.copy()
    hands = state.hands
    fields["hands"] = hands[:seat] + (without(hands[seat], cards),) + hands[seat + 1 :]
    fields["hidden"] = state.hidden + cards
    fields["turn"] = update(state.turn, discarded=True)
    after = _new(State)
    _set_fields(after, "__dict__", fields)
    return after
