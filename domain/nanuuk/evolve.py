"""Folding events into the state: pure bookkeeping, never a refusal (every check is in decide)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.decider import Event
from domain.nanuuk.board import Cell, Line, line
from domain.nanuuk.rules import BEAR_FLIGHT, BEAR_HUNT
from domain.nanuuk.setup import with_layout
from domain.nanuuk.state import ENDED, NEW_TURN, PLACING, PLAY, Sheet, State, Turn, changed


def cell_of(value: Any) -> Cell:
    return (int(value[0]), int(value[1]))


def line_of(value: Any) -> Line:
    return line(cell_of(value[0]), cell_of(value[1]))


def _piece(state: State, n: int, **changes: Any) -> State:
    pieces = list(state.pieces)
    pieces[n] = changed(pieces[n], **changes)
    return changed(state, pieces=tuple(pieces))


def _sheet(state: State, n: int, change: Callable[[Sheet], Sheet]) -> State:
    sheets = list(state.sheets)
    sheets[n] = change(sheets[n])
    return changed(state, sheets=tuple(sheets))


def _without_token(state: State, cell: Cell) -> State:
    return changed(state, tokens={c: k for c, k in state.tokens.items() if c != cell})


def _turn(state: State, **changes: Any) -> State:
    return changed(state, turn=changed(state.turn, **changes))


def _to_igloo(sheet: Sheet, items: Any) -> Sheet:
    moved = frozenset(items)
    return changed(sheet, carried=sheet.carried - moved, igloo=sheet.igloo | moved)


def _from_igloo(sheet: Sheet, items: Any) -> Sheet:
    moved = frozenset(items)
    return changed(sheet, carried=sheet.carried | moved, igloo=sheet.igloo - moved)


def _brought_in(sheet: Sheet, animal: str, inuk: bool) -> Sheet:
    brought = dict(sheet.brought)
    brought[animal] = brought.get(animal, 0) + 1
    return changed(
        sheet,
        animals=sheet.animals - {animal},
        brought=brought,
        inuk=sheet.inuk and not inuk,
        inuit=sheet.inuit + int(inuk),
    )


def first_step(state: State, piece: int, sled: bool, one_crack: bool) -> Turn:
    """The turn once `piece` took the first step of its move: the steps still allowed (N-9's
    double move, L-5's bear) and when its cracks come (V-1, L-5)."""
    options = state.rules.options
    bear = state.rules.game in (BEAR_HUNT, BEAR_FLIGHT) and state.pieces[piece].kind == "bear"
    more = int(sled) + int(bear)
    crack_each = not one_crack if sled else (not bear or bool(options.get("crack_each_step")))
    must = bear and bool(options.get("bear_must_move_twice"))
    return changed(state.turn, piece=piece, more=more, crack_each=crack_each, must_step=must and more > 0)


def _moved(state: State, d: Mapping[str, Any]) -> State:
    piece, cell = d["piece"], cell_of(d["to"])
    state = _piece(state, piece, cell=cell)
    if state.turn.piece != piece:
        turn = first_step(state, piece, bool(d.get("sled")), bool(d.get("one_crack")))
    else:
        more = state.turn.more - 1 + int(bool(d.get("sled")))
        turn = changed(state.turn, more=more, must_step=state.turn.must_step and more > 0)
    turn = changed(turn, cell=cell, moved=True, took=False, dealt=False, cracked=False)
    return changed(state, turn=turn)


def _placed(state: State, d: Mapping[str, Any]) -> State:
    state = _piece(state, d["piece"], cell=cell_of(d["cell"]))
    rest = state.to_place[1:]
    if rest:
        return changed(state, to_place=rest, active=rest[0][0])
    return changed(state, to_place=(), phase=PLAY, active=state.first, turn=NEW_TURN)


def _out(state: State, d: Mapping[str, Any]) -> State:
    state = _piece(state, d["piece"], out=True, cell=None)
    seat = d.get("seat")
    left = any(p.seat == seat and not p.out for p in state.pieces)
    return state if seat is None or left else changed(state, gone=(*state.gone, seat))


def _laid_out(state: State, d: Mapping[str, Any]) -> State:
    tokens = {cell_of(t["cell"]): t["kind"] for t in d["tokens"]}
    bears = [cell_of(c) for c in d["bears"]]
    state = with_layout(state, tokens, bears, (line_of(c) for c in d["cracks"]))
    return changed(state, phase=PLACING, active=state.to_place[0][0])


HANDLERS: dict[str, Callable[[State, Mapping[str, Any]], State]] = {
    "IceLaidOut": _laid_out,
    "PiecePlaced": _placed,
    "EquipmentUsed": lambda s, d: _sheet(s, d["piece"], lambda sh: _to_igloo(sh, d["items"])),
    "PieceMoved": _moved,
    "PieceStayed": lambda s, d: _turn(s, piece=d["piece"], cell=cell_of(d["cell"]), more=0, cracked=False),
    "StepsEnded": lambda s, d: _turn(s, more=0, must_step=False),
    "CrackPlaced": lambda s, d: changed(_turn(s, cracked=True), cracks=s.cracks | {line_of(d["crack"])}),
    "InukJoined": lambda s, d: _sheet(
        _without_token(s, cell_of(d["cell"])), d["piece"], lambda sh: changed(sh, inuk=True)
    ),
    "AnimalTaken": lambda s, d: _turn(
        _sheet(
            _without_token(s, cell_of(d["cell"])),
            d["piece"],
            lambda sh: changed(sh, animals=sh.animals | {d["animal"]}),
        ),
        took=True,
    ),
    "AnimalLeft": lambda s, d: _turn(s, took=True),
    "BearSent": lambda s, d: _sheet(
        _piece(s, d["bear"], cell=cell_of(d["to"])), d["piece"], lambda sh: _to_igloo(sh, ["harpoon"])
    ),
    "HarpoonReturned": lambda s, d: _sheet(s, d["piece"], lambda sh: _from_igloo(sh, ["harpoon"])),
    "AnimalExchanged": lambda s, d: _sheet(
        s, d["piece"], lambda sh: _from_igloo(_brought_in(sh, d["animal"], bool(d["inuk"])), d["equipment"])
    ),
    "AnimalBroughtIn": lambda s, d: _sheet(
        s, d["piece"], lambda sh: _brought_in(sh, d["animal"], bool(d["inuk"]))
    ),
    "IglooVisitEnded": lambda s, d: _turn(s, dealt=True),
    "HunterRetired": lambda s, d: _piece(s, d["piece"], retired=True),
    "MoveEnded": lambda s, d: changed(s, turn=Turn(part=s.turn.part + 1, moved=s.turn.moved)),
    "MoveSkipped": lambda s, d: _turn(s, part=s.turn.part + 1),
    "TurnEnded": lambda s, d: changed(
        s, active=d["next"], turn=NEW_TURN, idle=0 if d.get("moved") else s.idle + 1
    ),
    "TurnSkipped": lambda s, d: changed(s, active=d["next"], turn=NEW_TURN, idle=s.idle + 1),
    "PieceOut": _out,
    "GameEnded": lambda s, d: changed(s, phase=ENDED, result=dict(d)),
}


def evolve(state: State, event: Event) -> State:
    """The state after `event`; events it does not know (bookkeeping) leave it unchanged."""
    handler = HANDLERS.get(event.type)
    return state if handler is None else handler(state, event.data)
