"""The Power of the Gods (G-4..G-9): Ku, Pele and Lono; Kanaloa lives with the bridges."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import IllegalMove
from domain.islands import args as read
from domain.islands import events as ev
from domain.islands.majority import Outcome
from domain.islands.state import State
from domain.islands.turns import check_source, take_card


def _stone(state: State, seat: int, god: str) -> None:
    if not state.rules.gods or god not in state.stones[seat]:
        raise IllegalMove("no_such_god", f"you hold no {god} stone")
    if state.round < 2:
        raise IllegalMove("gods_sleep", "god stones other than Kane are used in round 2 only (G-4)")


def use_ku(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """G-6: look at one opponent's hand; the next command takes one card of it."""
    _stone(state, seat, "Ku")
    target = read.seat(state, args.get("target"), "target")
    if target == seat:
        raise IllegalMove("bad_target", "Ku looks at an opponent's hand")
    if not state.hands[target]:
        raise IllegalMove("empty_hand", f"{state.names[target]} holds no card")
    hand = state.hands[target]
    events = [
        ev.god_used(seat, "Ku"),
        ev.hand_shown(seat, target, hand),
        ev.choice_required("ku", seat, target=target, options=sorted(set(hand)), secret=True),
    ]
    return Outcome(state, events)


def take_from_hand(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """G-6: the card Ku takes from the hand it looked at."""
    pending = state.pending[0]
    card = read.island(state, args.get("card"), "card")
    if card not in pending.options:
        raise IllegalMove("card_not_offered", f"{card} is not in the hand you looked at")
    assert pending.target is not None
    return Outcome(state, [ev.card_taken(seat, pending.target, card, "ku"), ev.choice_resolved("ku", seat)])


def use_pele(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """G-7: take one random card from each opponent (the system draws which), then give one back."""
    _stone(state, seat, "Pele")
    if not any(state.hands[o] for o in range(state.seats) if o != seat):
        raise IllegalMove("empty_hand", "no opponent holds a card")
    return Outcome(state, [ev.god_used(seat, "Pele"), ev.choice_required("pele_draw", seat)])


def pele_picks_due(state: State) -> dict[str, int]:
    """Hand sizes of the opponents Pele draws from, by seat (as text, for JSON)."""
    seat = state.pending[0].seat
    return {str(o): len(state.hands[o]) for o in range(state.seats) if o != seat and state.hands[o]}


def draw_at_random(state: State, args: Mapping[str, Any]) -> Outcome:
    """The system's part of G-7: which card (by index in each sorted hand) Pele takes."""
    if not state.pending or state.pending[0].kind != "pele_draw":
        raise IllegalMove("no_draw_due", "no random draw is due")
    due = pele_picks_due(state)
    picks = args.get("picks")
    if not isinstance(picks, dict) or set(picks) != set(due):
        raise IllegalMove("bad_picks", f"picks: one index per opponent {sorted(due)} is required")
    seat = state.pending[0].seat
    out = Outcome(state)
    victims = []
    for victim, size in sorted(due.items()):
        index = picks[victim]
        if not isinstance(index, int) or not 0 <= index < size:
            raise IllegalMove("bad_picks", f"picks[{victim}] must be 0..{size - 1}")
        out.emit(ev.card_taken(seat, int(victim), state.hands[int(victim)][index], "pele"))
        victims.append(int(victim))
    out.emit(ev.choice_resolved("pele_draw", seat))
    out.emit(ev.choice_required("pele_return", seat, options=victims))
    return out


def check_give_back(state: State, seat: int, args: Mapping[str, Any]) -> tuple[list[int], tuple[str, ...]]:
    """G-7's return alone: the victims and the card each gets back, checked."""
    victims = [int(v) for v in state.pending[0].options]
    gifts = args.get("gifts")
    if not isinstance(gifts, dict) or set(gifts) != {str(v) for v in victims}:
        raise IllegalMove("bad_command", f"gifts: one card for each of seats {victims} is required")
    given = tuple(read.island(state, gifts[str(v)], "gifts") for v in victims)
    read.in_hand(state, seat, given)
    return victims, given


def give_back(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """G-7: give each opponent Pele took from one card of one's choice."""
    victims, given = check_give_back(state, seat, args)
    out = Outcome(state)
    for victim, card in zip(victims, given, strict=True):
        out.emit(ev.card_given(seat, victim, card))
    out.emit(ev.choice_resolved("pele_return", seat))
    return out


def check_use_lono(state: State, seat: int, args: Mapping[str, Any]) -> None:
    """G-8's conditions alone: `legal_commands` tries one per face-up card and the stack."""
    _stone(state, seat, "Lono")
    if not state.stack and not state.face_up:
        raise IllegalMove("stack_empty", "nothing is left to draw")
    check_source(state, args)


def use_lono(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """G-8: draw one extra card now (face-up refilled at once); it may be played at once."""
    check_use_lono(state, seat, args)
    out = Outcome(state)
    out.emit(ev.god_used(seat, "Lono"))
    take_card(out, seat, args)
    return out
