"""Laying out a round from the system's permutation (K-2, K-6, O-2, O-7, G-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import IllegalMove
from domain.islands import args as read
from domain.islands import events as ev
from domain.islands.majority import Outcome
from domain.islands.state import CHOOSING, SETUP, State

# G-1, our ruling on the split: 4 Kane, 3 each of the others (16 stones, one per island).
GOD_STONES = ("Kanaloa",) * 3 + ("Kane",) * 4 + ("Ku",) * 3 + ("Lono",) * 3 + ("Pele",) * 3


def permutations_due(state: State) -> dict[str, int]:
    """The permutations a shuffle now needs, by argument name, with their sizes."""
    due = {"order": len(state.pool())}
    if state.rules.gods and state.round == 0:
        due["gods"] = len(GOD_STONES)
    return due


def _permutation(args: Mapping[str, Any], name: str, size: int) -> list[int]:
    order = args.get(name)
    if not isinstance(order, list) or not all(type(i) is int for i in order):
        order = None
    if order is None or sorted(order) != list(range(size)):
        raise IllegalMove("bad_order", f"{name}: a permutation of 0..{size - 1} is required")
    return order


def shuffle_deck(state: State, args: Mapping[str, Any]) -> Outcome:
    """K-2/K-6/O-7: shuffle every card outside the hands, deal a first round, lay the row."""
    if state.phase != SETUP:
        raise IllegalMove("no_shuffle_due", "no shuffle is due now")
    due = permutations_due(state)
    pool = state.pool()
    order = _permutation(args, "order", due["order"])
    out = Outcome(state)
    out.emit(ev.deck_shuffled(state.round + 1, [pool[i] for i in order]))
    if "gods" in due:
        stones = [GOD_STONES[i] for i in _permutation(args, "gods", due["gods"])]
        out.emit(ev.gods_placed(dict(zip(state.rules.board.names, stones, strict=True))))
    if state.round == 0:
        for seat in range(state.seats):
            out.emit(ev.hand_dealt(seat, out.state.stack[: state.rules.start_hand_of(seat)]))
        if state.rules.choose_face_up:
            out.emit(ev.choosing_started())
            return out
    out.emit(ev.face_up_laid(out.state.stack[: state.rules.face_up]))
    out.emit(ev.round_started(state.round + 1, state.active))
    return out


def choose_face_up(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """O-2: each seat lays one of its four cards face up, in secret until all have chosen."""
    if state.phase != CHOOSING:
        raise IllegalMove("no_choice_due", "face-up cards are chosen only at the start")
    if state.chosen[seat] is not None:
        raise IllegalMove("already_chosen", "you have already chosen your face-up card")
    card = read.island(state, args.get("card"), "card")
    read.in_hand(state, seat, (card,))
    out = Outcome(state)
    out.emit(ev.face_up_chosen(seat, card))
    chosen = out.state.chosen
    if all(c is not None for c in chosen):
        out.emit(ev.face_up_revealed([c for c in chosen if c is not None]))
        for _ in range(state.rules.face_up - state.seats):
            out.emit(ev.face_up_refilled(out.state.stack[0]))
        out.emit(ev.round_started(1, state.active))
    return out
