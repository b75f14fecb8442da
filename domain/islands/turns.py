"""Hands and the end of turns: discard, draw (K-5, O-5), abstain (K-9), final turns (I-6, O-7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import Event, IllegalMove
from domain.islands import args as read
from domain.islands import events as ev
from domain.islands.folded_runs import after_discard, after_draw, after_skip
from domain.islands.majority import Outcome
from domain.islands.state import FINAL, NEW_TURN, State


def discard_cards(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """K-5/I-3: with a full hand, discard one or more face down; O-5: one card, once a turn."""
    cards = read.cards(state, args)
    read.in_hand(state, seat, cards)
    if state.rules.discard == "one_per_turn":
        if len(cards) != 1 or state.turn.discarded:
            raise IllegalMove("discard_not_allowed", "one card may be discarded face down per turn (O-5)")
    elif len(state.hands[seat]) < state.hand_limit(seat):
        raise IllegalMove(
            "discard_not_allowed", f"you may discard only while holding {state.hand_limit(seat)} cards"
        )
    elif state.phase == FINAL or (not state.stack and not state.face_up):
        raise IllegalMove("discard_not_allowed", "nothing is left to draw, so there is no discard (K-5)")
    return Outcome(state, [ev.cards_discarded(seat, cards)], after_discard(state, seat, cards))


def draw_only(state: State) -> bool:
    """K-5/I-3: the discard of a full hand is the step right before the draw, nothing between."""
    return state.turn.discarded and state.rules.discard == "full_hand"


def draw_card(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """K-5/O-5: draw exactly one card, which ends the turn; the last card ends the round."""
    if state.phase == FINAL:
        raise IllegalMove("no_draw_in_final_turn", "the final turn is played without drawing")
    if len(state.hands[seat]) >= state.hand_limits[seat]:
        raise IllegalMove("hand_full", f"you hold {len(state.hands[seat])} cards: discard before drawing")
    # Half of a game's commands are draws: their events are made in one list and handed to
    # the Outcome at once, not emitted one by one through helpers that each read its state.
    stack = state.stack
    if len(stack) > 1:  # most draws: `drawing` and `turn_end` with a card left, their calls spared
        source = args.get("source")
        card = args.get("card")
        if source == "face_up" and type(card) is str and card in state.face_up:
            run = [ev.card_drawn_face_up(seat, card), ev.face_up_refilled(stack[0])]
        elif source == "stack":
            card, run = stack[0], [ev.card_drawn_from_stack(seat, stack[0])]
        else:
            card = None
        if card is not None:
            run.append(ev.turn_ended(seat, (seat + 1) % state.seats))
            return Outcome(state, run, after_draw(state, seat, card, source == "face_up"))
    events, cards_left = drawing(state, seat, args)
    events += turn_end(state, seat, cards_left)
    if not cards_left:  # the round's end: rare, folded by evolve
        return Outcome(state, events)
    drawn = events[0].data
    face_up = drawn["source"] == "face_up"
    card = drawn["card"] if face_up else state.stack[0]
    return Outcome(state, events, after_draw(state, seat, card, face_up))


def check_source(state: State, args: Mapping[str, Any]) -> str | None:
    """The face-up card a draw names (None for the stack), checked; `take_card` draws it."""
    source = args.get("source")
    if source == "face_up":
        card = args.get("card")
        if isinstance(card, str) and card in state.face_up:  # a face-up card is an island
            return card
        card = read.island(state, card, "card")
        raise IllegalMove("card_not_face_up", f"{card} is not among the face-up cards")
    if source == "stack":
        if not state.stack:
            raise IllegalMove("stack_empty", "nothing is left to draw from: take a face-up card")
        return None
    raise IllegalMove("bad_command", 'source: "face_up" (with card) or "stack" is required')


def take_card(out: Outcome, seat: int, args: Mapping[str, Any]) -> bool:
    """`drawing` in the state `out` has reached, its events emitted; whether any card is left."""
    events, cards_left = drawing(out.state, seat, args)
    for event in events:
        out.emit(event)
    return cards_left


def drawing(state: State, seat: int, args: Mapping[str, Any]) -> tuple[list[Event], bool]:
    """One card from the face-up row (refilled at once) or the top of the stack/bag; whether
    any card is left to draw after it (read off the state before: `turn_end` needs no other)."""
    card = check_source(state, args)
    stack = state.stack
    if card is not None:
        drawn = ev.card_drawn_face_up(seat, card)
        if stack:  # a face-up draw leaves the stack as it was: no need to apply it here
            return [drawn, ev.face_up_refilled(stack[0])], True
        return [drawn], len(state.face_up) > 1
    return [ev.card_drawn_from_stack(seat, stack[0])], len(stack) > 1 or bool(state.face_up)


def check_skip_draw(state: State, seat: int, args: Mapping[str, Any]) -> None:
    """K-9's conditions alone: `legal_commands` offers SkipDraw on every turn it may."""
    if not state.rules.may_skip_draw or state.phase == FINAL:
        raise IllegalMove("must_draw", "a turn ends with drawing a card")
    if state.skipped_last:
        raise IllegalMove("must_draw", "your opponent abstained just before: you must draw (K-9)")


def skip_draw(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """K-9: abstain from drawing, unless the opponent abstained on the turn just before."""
    check_skip_draw(state, seat, args)
    skipped = ev.draw_skipped(seat)
    if state.stack or state.face_up:  # a tenth of Thames & Kosmos commands: made at once
        ended = ev.turn_ended(seat, (seat + 1) % state.seats)  # `turn_end` with a card left
        return Outcome(state, [skipped, ended], after_skip(state, seat))
    out = Outcome(state)
    out.emit(skipped)
    end_turn(out, seat, False)
    return out


def check_finish_turn(state: State, seat: int, args: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The conditions of EndTurn alone, and the cards G-9 discards with it (None: no discard)."""
    cards = excess_discard(state, seat, args)
    # The discard leaves exactly the hand limit and touches neither the stack nor the face-up row.
    held = state.hand_limit(seat) if cards else len(state.hands[seat])
    if not ends_without_draw(state, seat, held):
        raise IllegalMove("must_draw", "a turn ends with drawing a card")
    return cards


def ends_without_draw(state: State, seat: int, held: int) -> bool:
    """Whether a turn ends without a draw when `seat` holds `held` cards at its end.

    A final turn does (I-6, O-7); else only O-5's one-discard turns, with a full hand or
    nothing left to draw (G-8's extra card can fill the hand).
    """
    if state.phase == FINAL:
        return True
    nothing_left = not state.stack and not state.face_up
    return state.rules.discard == "one_per_turn" and (held >= state.hand_limit(seat) or nothing_left)


def finish_turn(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """End a turn without drawing: a final turn (I-6, O-7), or a full hand / empty pile (O-5, G-8)."""
    cards = check_finish_turn(state, seat, args)
    out = Outcome(state)
    if cards:
        out.emit(ev.cards_discarded(seat, cards))
    if state.phase == FINAL:
        out.emit(ev.final_turn_finished(seat))
        if not out.state.final_order:
            out.emit(ev.round_ended(state.round))
        return out
    end_turn(out, seat, bool(state.stack or state.face_up))  # G-9's discard draws no card
    return out


def excess_discard(state: State, seat: int, args: Mapping[str, Any]) -> tuple[str, ...] | None:
    """G-9: a turn ending with more cards than the hand limit discards the excess face down."""
    excess = len(state.hands[seat]) - state.hand_limit(seat)
    held = len(state.hands[seat])
    if "cards" not in args:
        if excess > 0:
            raise IllegalMove("hand_over_limit", f"you hold {held} cards: end the turn discarding {excess}")
        return None
    if excess <= 0:
        raise IllegalMove("discard_not_allowed", "only a hand over the limit is discarded as a turn ends")
    cards = read.cards(state, args, count=excess)
    read.in_hand(state, seat, cards)
    return cards


def defer_final_turn(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """O-7: defer one's final turn while a seat with more points has not had its own."""
    if state.phase != FINAL or not state.rules.defer_final_turn:
        raise IllegalMove("no_deferral", "only a final turn of Arabana-Opodopo may be deferred")
    if state.turn != NEW_TURN:
        raise IllegalMove("no_deferral", "a final turn already begun cannot be deferred")
    later = state.final_order[1:]
    if not any(state.scores[other] > state.scores[seat] for other in later):
        raise IllegalMove("no_deferral", "no seat with more points is still to play its final turn")
    # To the back of the line: seats then play in falling order of points and, since the
    # leader never defers, every round of deferrals ends with someone playing.
    order = (*later, seat)
    return Outcome(state, [ev.final_turn_deferred(seat, order)])


def end_turn(out: Outcome, seat: int, cards_left: bool) -> None:
    """`turn_end`'s events, emitted."""
    for event in turn_end(out.initial, seat, cards_left):
        out.emit(event)


def turn_end(state: State, seat: int, cards_left: bool) -> list[Event]:
    """TurnEnded, then the round's end or its final turns when the last card is gone (K-6, O-7).

    `cards_left`: whether the stack or the face-up row still holds a card after the turn's
    events. The rest is read off `state`, the state the command began in (the turn's events
    move neither the seats nor the round): applying the events here, and again after
    TurnEnded, cost a draw a third of its time.
    """
    ended = ev.turn_ended(seat, state.next_seat(seat))
    if cards_left:
        return [ended]
    if state.rules.final_turns and state.round == state.rules.rounds:
        first = state.next_seat(seat)
        order = [(first + k) % state.seats for k in range(state.seats)]
        return [ended, ev.final_turns_started(order)]
    return [ended, ev.round_ended(state.round)]
