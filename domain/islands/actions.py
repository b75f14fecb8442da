"""A seat's actions on the board: bridges (K-3, K-4, I-2, I-4, O-3, O-4, O-11, I-8) and ships (S)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import IllegalMove
from domain.islands import args as read
from domain.islands import events as ev
from domain.islands.board import Line
from domain.islands.folded_runs import after_placement
from domain.islands.majority import (
    Outcome,
    enclosed_by,
    relative_majority,
    settle,
    settle_losses,
    settle_placed,
)
from domain.islands.state import State


def _free(state: State, index: int, line: Line) -> None:
    if state.owners[index] is not None:
        raise IllegalMove("line_not_free", f"the line {line[0]}-{line[1]} already holds a bridge")
    if index in state.turn.taken_back:
        raise IllegalMove(
            "line_taken_back", f"a bridge was taken back from {line[0]}-{line[1]} this turn (O-11)"
        )


def _in_stock(state: State, seat: int) -> None:
    if state.stock[seat] == 0:
        hint = " (a PlaceBridge may take one back, O-11)" if state.rules.take_back_when_out else " (K-8)"
        raise IllegalMove("no_bridges_in_stock", "you have no bridge left to place" + hint)


def _controls_both(state: State, seat: int, line: Line) -> bool:
    return state.controller(line[0]) == seat and state.controller(line[1]) == seat


def _not_enclosed(state: State, seat: int, sea: int) -> None:
    """S-5: a sea space an opponent encloses takes no ship (it would only sink there)."""
    enemy = enclosed_by(state, sea)
    if enemy is not None and enemy != seat:
        raise IllegalMove("sea_enclosed", f"{state.names[enemy]}'s bridges enclose that sea space (S-5)")


def _no_ship_move(state: State) -> None:
    if state.turn.moved:
        raise IllegalMove("ship_moved", "after moving a ship no card may be played this turn (S-4)")


def _place(out: Outcome, seat: int, line: Line, *, relative: bool = True) -> None:
    """A placement resolved with F-1..F-3 and, where the game has it, O-6."""
    out.emit(ev.bridge_placed(seat, line))
    _settle_placed(out, seat, line, relative=relative)


def _settle_placed(out: Outcome, seat: int, line: Line, *, relative: bool = True) -> None:
    """F-1..F-3 and, where the game has it, O-6, after `seat`'s bridge on `line`."""
    settle_placed(out, line)
    if relative and out.initial.rules.relative_majority and not out.ended:
        relative_majority(out, seat, line)


def place_bridge(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """K-3/O-3: one card of X places a bridge on a free line touching X (I-2: not between own).

    O-11: with every bridge placed, `take_back` names one's own bridge that this placement moves.
    """
    # The checks in their order, each helper called only to raise: a search places often.
    card = args.get("card")
    if card not in state.hands[seat]:  # a card in hand is an island: only another is read
        card = read.island(state, card, "card")
    index, line = read.line(state, args)
    back = _take_back(state, seat, args, index) if "take_back" in args else None
    if card not in state.hands[seat]:
        read.in_hand(state, seat, (card,))
    if state.turn.moved:
        _no_ship_move(state)
    if card not in line:
        raise IllegalMove("card_not_on_line", f"the line {line[0]}-{line[1]} does not touch {card}")
    if state.owners[index] is not None or index in state.turn.taken_back:
        _free(state, index, line)
    if back is None and state.stock[seat] == 0:
        _in_stock(state, seat)
    if state.rules.place_needs_uncontrolled_end and _controls_both(state, seat, line):
        raise IllegalMove("controls_both_islands", f"you already control {line[0]} and {line[1]} (I-2)")
    if back is None:  # most placements: the state after both events made at once
        placed = [ev.cards_played(seat, (card,)), ev.bridge_placed(seat, line)]
        out = Outcome(state, placed, after_placement(state, seat, card, index))
        _settle_placed(out, seat, line)
        return out
    out = Outcome(state)
    out.emit(ev.cards_played(seat, (card,)))
    out.emit(ev.bridge_removed(seat, back, by=seat, cause="taken_back"))
    settle_losses(out, back)
    _place(out, seat, line)
    return out


def _take_back(state: State, seat: int, args: Mapping[str, Any], target: int) -> Line | None:
    """O-11: the own bridge a placement takes back first, when it names one."""
    if "take_back" not in args:
        return None
    index, line = read.line(state, args, "take_back")
    if not state.rules.take_back_when_out or state.stock[seat] > 0:
        raise IllegalMove("bridges_in_stock", "a bridge is taken back only when all are placed (O-11)")
    if state.owners[index] != seat:
        raise IllegalMove("not_your_bridge", f"you have no bridge on {line[0]}-{line[1]}")
    if index == target:
        raise IllegalMove("line_taken_back", "a bridge taken back goes onto another line (O-11)")
    return line


Pair = tuple[tuple[str, ...], int, Line, int]


def _pair(state: State, seat: int, args: Mapping[str, Any], size: int = 2) -> Pair:
    pair = read.cards(state, args, count=size)
    index, line = read.line(state, args)
    read.in_hand(state, seat, pair)
    _no_ship_move(state)
    if not all(card in line for card in pair):
        shown = "+".join(pair)
        raise IllegalMove("cards_do_not_match_line", f"{shown} cannot take the bridge {line[0]}-{line[1]}")
    owner = state.owners[index]
    if owner is None or owner == seat:
        raise IllegalMove("no_opponent_bridge", f"no opponent bridge lies on {line[0]}-{line[1]}")
    return pair, index, line, owner


def remove_bridge(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """K-4: two cards naming the ends of an opponent bridge remove it; I-4 then places one's own."""
    pair, _, line, owner = _pair(state, seat, args)
    out = Outcome(state)
    out.emit(ev.cards_played(seat, pair))
    out.emit(ev.bridge_removed(owner, line, by=seat, cause="attack"))
    settle_losses(out, line)
    swap = state.rules.pair == "remove_and_place"
    if swap and out.state.stock[seat] > 0 and not _controls_both(out.state, owner, line):
        _place(out, seat, line)
    return out


def check_swap_bridge(state: State, seat: int, args: Mapping[str, Any]) -> tuple[bool, Pair]:
    """O-4's conditions alone; `legal_commands` lists swaps by these."""
    kanaloa = args.get("kanaloa", False) is True
    if kanaloa and "Kanaloa" not in state.stones[seat]:
        raise IllegalMove("no_such_god", "you hold no Kanaloa stone")
    if kanaloa:
        _god_usable(state)
    pair = _pair(state, seat, args, size=1 if kanaloa else 2)
    _in_stock(state, seat)
    return kanaloa, pair


def swap_bridge(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """O-4: two cards (or one and Kanaloa, G-5) replace another's bridge by one's own."""
    kanaloa, (pair, _, line, owner) = check_swap_bridge(state, seat, args)
    out = Outcome(state)
    if kanaloa:
        out.emit(ev.god_used(seat, "Kanaloa"))
    out.emit(ev.cards_played(seat, pair))
    out.emit(ev.bridge_removed(owner, line, by=seat, cause="swap"))
    settle_losses(out, line)
    _place(out, seat, line, relative=False)
    return out


def check_place_free_bridge(state: State, seat: int, args: Mapping[str, Any]) -> Line:
    """I-8's conditions alone; `legal_commands` lists free bridges by these."""
    if not state.free_bridges or state.free_bridges[seat] == 0:
        raise IllegalMove("no_free_bridges", "you have no handicap bridge left (I-8)")
    index, line = read.line(state, args)
    _free(state, index, line)
    _in_stock(state, seat)
    return line


def place_free_bridge(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """I-8: the handicapped seat places one of its free bridges on any free line, without a card."""
    line = check_place_free_bridge(state, seat, args)
    out = Outcome(state)
    out.emit(ev.free_bridge_placed(seat, line))
    settle_placed(out, line)
    return out


def check_use_kanaloa(state: State, seat: int, args: Mapping[str, Any]) -> Line:
    """G-5's conditions alone: `legal_commands` tries one per free line."""
    if "Kanaloa" not in state.stones[seat]:
        raise IllegalMove("no_such_god", "you hold no Kanaloa stone")
    _god_usable(state)
    _no_ship_move(state)
    index, line = read.line(state, args)
    _free(state, index, line)
    _in_stock(state, seat)
    return line


def use_kanaloa(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """G-5: Kanaloa places a bridge on any free line, as a joker card."""
    line = check_use_kanaloa(state, seat, args)
    out = Outcome(state)
    out.emit(ev.god_used(seat, "Kanaloa"))
    _place(out, seat, line)
    return out


def _god_usable(state: State) -> None:
    if state.round < 2:
        raise IllegalMove("gods_sleep", "god stones other than Kane are used in round 2 only (G-4)")


def play_card(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """O-11: with all bridges placed, a card may be played without placing."""
    card = read.island(state, args.get("card"), "card")
    read.in_hand(state, seat, (card,))
    if not state.rules.take_back_when_out or state.stock[seat] > 0:
        raise IllegalMove("bridges_in_stock", "a card is played without placing only when out of bridges")
    return Outcome(state, [ev.cards_played(seat, (card,))])


def take_back_bridge(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """O-11: a take-back is part of a placement; alone it is refused (stored ones still fold)."""
    raise IllegalMove(
        "take_back_needs_placement",
        "a bridge is taken back only by the placement that moves it: PlaceBridge with take_back (O-11)",
    )


def check_place_ship(state: State, seat: int, args: Mapping[str, Any]) -> tuple[tuple[str, ...], int]:
    """S-1's conditions alone: the cards and the sea space, checked."""
    if not state.rules.seafarers:
        raise IllegalMove("unknown_command", "ships sail only in the seafarer variation")
    trio = read.cards(state, args, count=3)
    sea = read.sea(state, args, "sea")
    read.in_hand(state, seat, trio)
    _no_ship_move(state)
    islands = state.rules.board.sea_spaces[sea]
    if not all(card in islands for card in trio):
        raise IllegalMove("cards_do_not_match_sea", f"{'+'.join(trio)} do not all border {'-'.join(islands)}")
    if state.ship_stock[seat] == 0:
        raise IllegalMove("no_ships_in_stock", "you have no ship left")
    there = state.ships[sea]
    if there == seat:
        raise IllegalMove("own_ship_there", "your own ship already lies on that sea space")
    _not_enclosed(state, seat, sea)
    return trio, sea


def place_ship(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """S-1: three cards naming islands of one sea space put a ship there; S-5 sinks one found there."""
    trio, sea = check_place_ship(state, seat, args)
    islands = state.rules.board.sea_spaces[sea]
    there = state.ships[sea]
    out = Outcome(state)
    out.emit(ev.cards_played(seat, trio))
    if there is not None:
        out.emit(ev.ship_sunk(there, islands, by=seat, cause="placed_on"))
    out.emit(ev.ship_placed(seat, islands))
    settle(out, islands)
    return out


def check_move_ship(state: State, seat: int, args: Mapping[str, Any]) -> tuple[int, int]:
    """S-4's conditions alone: the sea spaces from and to, checked."""
    if not state.rules.seafarers:
        raise IllegalMove("unknown_command", "ships sail only in the seafarer variation")
    origin = read.sea(state, args, "from")
    target = read.sea(state, args, "to")
    if state.ships[origin] != seat:
        raise IllegalMove("not_your_ship", "you have no ship on that sea space")
    if state.turn.played or state.turn.moved:
        raise IllegalMove("ship_move_not_allowed", "a ship moves only on a turn without cards, once (S-4)")
    shared = [n for other, n in state.rules.board.sea_neighbours(origin) if other == target]
    if not shared:
        raise IllegalMove("seas_not_adjacent", "the two sea spaces share no line")
    # Before the passage: the enclosing bridges always block it too, and the enclosure is the reason.
    _not_enclosed(state, seat, target)
    if state.owners[shared[0]] not in (None, seat):
        raise IllegalMove("passage_blocked", "an opponent bridge blocks that passage (S-4)")
    there = state.ships[target]
    if there == seat:
        raise IllegalMove("own_ship_there", "your own ship already lies on that sea space")
    return origin, target


def move_ship(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """S-4: on a turn without cards, move a ship across a line free of opponent bridges."""
    origin, target = check_move_ship(state, seat, args)
    there = state.ships[target]
    board = state.rules.board
    out = Outcome(state)
    out.emit(ev.ship_moved(seat, board.sea_spaces[origin], board.sea_spaces[target]))
    if there is not None:
        out.emit(ev.ship_sunk(there, board.sea_spaces[target], by=seat, cause="collision"))
        out.emit(ev.ship_sunk(seat, board.sea_spaces[target], by=there, cause="collision"))
    settle(out, set(board.sea_spaces[origin]) | set(board.sea_spaces[target]))
    return out
