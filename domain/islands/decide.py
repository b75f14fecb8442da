"""decide(state, command): the events a command causes, or IllegalMove with a stable code."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.core import Command, Event, IllegalMove
from domain.islands import events as ev
from domain.islands.board import Line
from domain.islands.majority import Outcome, settle, settle_losses
from domain.islands.scoring import final_result, score_round
from domain.islands.state import ENDED, PLAY, SCORING, SETUP, State, holds

# --- reading a command's arguments -------------------------------------------------


def _island(state: State, value: Any, field: str) -> str:
    if not isinstance(value, str) or value not in state.rules.board.names:
        raise IllegalMove("unknown_island", f"{field}: {value!r} is not an island of this board")
    return value


def _cards(state: State, args: Mapping[str, Any], count: int | None = None) -> tuple[str, ...]:
    raw = args.get("cards")
    if not isinstance(raw, list) or not raw:
        raise IllegalMove("bad_command", "cards: a non-empty list of island names is required")
    if count is not None and len(raw) != count:
        raise IllegalMove("bad_command", f"cards: exactly {count} cards are required")
    return tuple(_island(state, c, "cards") for c in raw)


def _line(state: State, args: Mapping[str, Any]) -> tuple[int, Line]:
    raw = args.get("line")
    if not isinstance(raw, list) or len(raw) != 2:
        raise IllegalMove("bad_command", "line: a pair of island names is required")
    a, b = (_island(state, x, "line") for x in raw)
    index = state.rules.board.line_index(a, b)
    if index is None:
        raise IllegalMove("unknown_line", f"there is no bridge line between {a} and {b}")
    return index, state.rules.board.lines[index]


def _in_hand(state: State, seat: int, cards: tuple[str, ...]) -> None:
    if not holds(state.hands[seat], cards):
        raise IllegalMove("card_not_in_hand", f"you do not hold {', '.join(cards)}")


# --- seats' commands -----------------------------------------------------------------


def place_bridge(state: State, seat: int, args: Mapping[str, Any]) -> list[Event]:
    """K-3: one card of X places a bridge on a free line touching X."""
    card = _island(state, args.get("card"), "card")
    index, line = _line(state, args)
    _in_hand(state, seat, (card,))
    if card not in line:
        raise IllegalMove("card_not_on_line", f"the line {line[0]}-{line[1]} does not touch {card}")
    if state.owners[index] is not None:
        raise IllegalMove("line_not_free", f"the line {line[0]}-{line[1]} already holds a bridge")
    if state.stock[seat] == 0:
        raise IllegalMove("no_bridges_in_stock", "you have no bridge left to place (K-8)")
    out = Outcome(state)
    out.emit(ev.cards_played(seat, (card,)))
    out.emit(ev.bridge_placed(seat, line))
    settle(out, line)
    return out.events


def remove_bridge(state: State, seat: int, args: Mapping[str, Any]) -> list[Event]:
    """K-4: X-X removes an opponent bridge touching X; X-Y removes the opponent bridge X-Y."""
    cards = _cards(state, args, count=2)
    index, line = _line(state, args)
    _in_hand(state, seat, cards)
    fits = set(cards) == set(line) or (cards[0] == cards[1] and cards[0] in line)
    if not fits:
        raise IllegalMove(
            "cards_do_not_match_line",
            f"{cards[0]}+{cards[1]} cannot remove the bridge {line[0]}-{line[1]}",
        )
    owner = state.owners[index]
    if owner is None or owner == seat:
        raise IllegalMove("no_opponent_bridge", f"no opponent bridge lies on {line[0]}-{line[1]}")
    out = Outcome(state)
    out.emit(ev.cards_played(seat, cards))
    out.emit(ev.bridge_removed(owner, line, by=seat, cause="attack"))
    settle_losses(out, line)
    return out.events


def discard_cards(state: State, seat: int, args: Mapping[str, Any]) -> list[Event]:
    """K-5: a seat holding a full hand discards one or more cards face down before drawing."""
    cards = _cards(state, args)
    _in_hand(state, seat, cards)
    if len(state.hands[seat]) < state.rules.hand_limit:
        raise IllegalMove(
            "discard_not_allowed",
            f"you may discard only while holding {state.rules.hand_limit} cards",
        )
    return [ev.cards_discarded(seat, cards)]


def draw_card(state: State, seat: int, args: Mapping[str, Any]) -> list[Event]:
    """K-5/K-6: draw exactly one card, which ends the turn; the last card ends the round."""
    if len(state.hands[seat]) >= state.rules.hand_limit:
        raise IllegalMove(
            "hand_full",
            f"you hold {len(state.hands[seat])} cards: discard before drawing (K-5)",
        )
    out = Outcome(state)
    source = args.get("source")
    if source == "face_up":
        card = _island(state, args.get("card"), "card")
        if card not in state.face_up:
            raise IllegalMove("card_not_face_up", f"{card} is not among the face-up cards")
        out.emit(ev.card_drawn_face_up(seat, card))
        if out.state.stack:
            out.emit(ev.face_up_refilled(out.state.stack[0]))
    elif source == "stack":
        if not state.stack:
            raise IllegalMove("stack_empty", "the stack is empty: draw a face-up card")
        out.emit(ev.card_drawn_from_stack(seat, state.stack[0]))
    else:
        raise IllegalMove("bad_command", 'source: "face_up" (with card) or "stack" is required')
    out.emit(ev.turn_ended(seat, state.next_seat(seat)))
    if not out.state.stack and not out.state.face_up:
        out.emit(ev.round_ended(state.round))
    return out.events


# --- the system's commands -------------------------------------------------------


def shuffle_deck(state: State, args: Mapping[str, Any]) -> list[Event]:
    """K-2/K-6: lay out a round from a permutation drawn by the service (chance is an input)."""
    if state.phase != SETUP:
        raise IllegalMove("no_shuffle_due", "no shuffle is due now")
    pool = state.pool()
    order = args.get("order")
    if not isinstance(order, list) or sorted(order) != list(range(len(pool))):
        raise IllegalMove("bad_order", f"order: a permutation of 0..{len(pool) - 1} is required")
    stack = [pool[i] for i in order]
    out = Outcome(state)
    out.emit(ev.deck_shuffled(state.round + 1, stack))
    if state.round == 0:
        for seat in range(state.seats):
            out.emit(ev.hand_dealt(seat, out.state.stack[: state.rules.start_hand]))
    out.emit(ev.face_up_laid(out.state.stack[: state.rules.face_up]))
    out.emit(ev.round_started(state.round + 1, state.active))
    return out.events


def score(state: State, args: Mapping[str, Any]) -> list[Event]:
    """K-7: the scoring of the round just ended, and the game's end after the last round."""
    if state.phase != SCORING or args.get("round") != state.round:
        raise IllegalMove("no_scoring_due", f"round {args.get('round')!r} is not waiting for scoring")
    out = Outcome(state)
    out.emit(score_round(state))
    if state.round == state.rules.rounds:
        out.emit(final_result(out.state))
    return out.events


SEAT_COMMANDS: dict[str, Callable[[State, int, Mapping[str, Any]], list[Event]]] = {
    "PlaceBridge": place_bridge,
    "RemoveBridge": remove_bridge,
    "DiscardCards": discard_cards,
    "DrawCard": draw_card,
}
SYSTEM_COMMANDS: dict[str, Callable[[State, Mapping[str, Any]], list[Event]]] = {
    "ShuffleDeck": shuffle_deck,
    "ScoreRound": score,
}

WAITING = {
    SETUP: ("waiting_for_shuffle", "the cards are being dealt"),
    SCORING: ("waiting_for_scoring", "the round is being scored"),
    ENDED: ("game_ended", "the game is over"),
}


def decide(state: State, command: Command) -> list[Event]:
    """The events `command` causes in `state`; raises IllegalMove when the rules refuse it."""
    if command.seat is None:
        system = SYSTEM_COMMANDS.get(command.type)
        if system is None:
            raise IllegalMove("unknown_command", f"{command.type!r} is not a system command")
        return system(state, command.args)
    handler = SEAT_COMMANDS.get(command.type)
    if handler is None:
        raise IllegalMove(
            "unknown_command",
            f"unknown command {command.type!r}; known: {sorted(SEAT_COMMANDS)}",
        )
    if state.phase != PLAY:
        raise IllegalMove(*WAITING[state.phase])
    if command.seat != state.active:
        raise IllegalMove("not_your_turn", f"it is {state.names[state.active]}'s turn")
    return handler(state, command.seat, command.args)
