"""Commands into events (decide) and the commands each seat may give (legal_commands)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.nanuuk import events as ev
from domain.nanuuk.board import Cell, line
from domain.nanuuk.cracks import crack_choices
from domain.nanuuk.hunt import bought, dealings, takeable
from domain.nanuuk.moves import bear_at, free_cells, in_igloo, may_stay, movers, sheet_of, steps
from domain.nanuuk.rules import ANIMALS, MOVER_CHOOSES
from domain.nanuuk.setup import drawn, layout_due
from domain.nanuuk.stage import stage
from domain.nanuuk.state import CRACK, ENDED, IGLOO, LAYOUT, MOVE, PLACING, STEP, TAKE, State
from domain.nanuuk.turns import Outcome, begin_turn, end_turn, settle

# The commands each stage of a turn takes (PlacePiece while placing).
STAGE_COMMANDS = {
    MOVE: ("Move", "Retire", "Stay"),
    STEP: ("Move", "EndMove"),
    TAKE: ("TakeAnimal", "LeaveAnimal"),
    IGLOO: ("Exchange", "BringIn", "EndIglooVisit"),
    CRACK: ("PlaceCrack",),
}
COMMANDS = frozenset({"PlacePiece", "LayOutIce"} | {c for names in STAGE_COMMANDS.values() for c in names})
REFUSALS = {
    "PlacePiece": ("cannot_place", "that piece is not placed next, or not on that cell"),
    "Move": (
        "cannot_move",
        "that piece cannot step to that cell now, or not so (X-2; N-6: a bear's cell takes the harpoon"
        " and `bear`, a free cell to chase it to; N-8: `kayak` across a crack; N-9: `sled`)",
    ),
    "Retire": ("cannot_retire", "only one's own hunter standing in an igloo retires (N-10)"),
    "Stay": ("cannot_stay", "only a learning-game bear with the option to stay may stay (L-5)"),
    "EndMove": ("must_step", "this piece must take its second step"),
    "Exchange": ("cannot_exchange", "the hunter carries no such animal, or lacks nothing it buys (N-7)"),
    "BringIn": ("cannot_bring_in", "the hunter carries no such animal (N-7)"),
    "PlaceCrack": ("crack_not_allowed", "the crack goes on a free line of the first kind that has one (X-3)"),
}


def _cell_json(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


# --- what a seat may do ------------------------------------------------------------------


def _moves(state: State, piece: int) -> list[Command]:
    seat = state.active
    sheet = sheet_of(state, piece)
    sled = sheet is not None and {"husky", "sled"} <= sheet.carried
    choose = state.rules.options.get("double_move_cracks") == MOVER_CHOOSES and state.turn.piece is None
    variants: list[dict[str, Any]] = [{}]
    if sled:
        variants += [{"sled": True, "one_crack": c} for c in (False, True)] if choose else [{"sled": True}]
    found = []
    for cell, kayak in steps(state, piece):
        base: dict[str, Any] = {"piece": piece, "cell": _cell_json(cell)}
        if kayak:
            base["kayak"] = True
        chases: list[dict[str, Any]] = [{}]
        if bear_at(state, cell) is not None:  # N-6: the bear is sent to a free cell on entering
            chases = [{"bear": _cell_json(c)} for c in free_cells(state, piece, cell)]
        found += [Command("Move", seat, {**base, **chase, **extra}) for chase in chases for extra in variants]
    return found


def _placements(state: State, seat: int) -> list[Command]:
    owner, piece = state.to_place[0]
    if owner != seat:
        return []
    ice = state.rules.ice
    taken = {p.cell for p in state.pieces if p.cell is not None}
    if state.rules.full:  # N-3: an igloo; a seat's two hunters in different ones
        own = {p.cell for p in state.pieces if p.seat == seat and p.kind == "hunter"}
        cells = [c for c in ice.igloos if c not in own]
    else:  # L-2: any free cell
        cells = [c for c in ice.cells if c not in taken]
    return [Command("PlacePiece", seat, {"piece": piece, "cell": _cell_json(c)}) for c in cells]


def _stage_commands(state: State, seat: int, name: str) -> list[Command]:
    turn, cell = state.turn, state.turn.cell
    piece = turn.piece if turn.piece is not None else -1
    if name == MOVE:
        found = []
        for p in movers(state, seat, turn.part):
            found += _moves(state, p)
            if state.rules.full and in_igloo(state, p):
                found.append(Command("Retire", seat, {"piece": p}))
            if may_stay(state, p):
                found.append(Command("Stay", seat, {"piece": p}))
        return found
    if name == STEP:
        return _moves(state, piece) + ([] if turn.must_step else [Command("EndMove", seat)])
    if name == TAKE:
        return [Command("TakeAnimal", seat), Command("LeaveAnimal", seat)]
    sheet = sheet_of(state, piece)
    if name == IGLOO and sheet is not None:
        found = [Command(kind, seat, {"animal": animal}) for kind, animal in dealings(sheet)]
        return [*found, Command("EndIglooVisit", seat)]
    if name == CRACK and cell is not None:
        lines = crack_choices(state, cell)[1]
        return [Command("PlaceCrack", seat, {"crack": [_cell_json(a), _cell_json(b)]}) for a, b in lines]
    return []


def legal_commands(state: State, seat: int) -> list[Command]:
    """Every command `seat` may give now (none when it is not that seat's turn)."""
    if state.phase in (ENDED, LAYOUT) or seat != state.active:
        return []
    if state.phase == PLACING:
        return _placements(state, seat)
    name = stage(state)
    return [] if name is None else _stage_commands(state, seat, name)


# --- reading a command ---------------------------------------------------------------------


def _bad(message: str) -> IllegalMove:
    return IllegalMove("bad_command", message)


def _read_cell(value: Any, name: str) -> list[int]:
    if not (isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value)):
        raise _bad(f"{name} is a cell [q, r]")
    return [value[0], value[1]]


def canonical(command_type: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The args in the form legal_commands gives them; bad_command when malformed."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if name == "piece":
            if type(value) is not int:
                raise _bad("piece is a piece number")
            out[name] = value
        elif name in ("cell", "bear"):
            out[name] = _read_cell(value, name)
        elif name == "crack":
            if not (isinstance(value, list | tuple) and len(value) == 2):
                raise _bad("crack is a line [[q, r], [q, r]]")
            a, b = (tuple(_read_cell(v, "crack")) for v in value)
            ends = line((a[0], a[1]), (b[0], b[1]))
            out[name] = [list(ends[0]), list(ends[1])]
        elif name in ("kayak", "sled", "one_crack"):
            if not isinstance(value, bool):
                raise _bad(f"{name} is true or false")
            if value or name == "one_crack":
                out[name] = value
        elif name == "animal":
            if value not in ANIMALS:
                raise _bad(f"animal is one of {', '.join(ANIMALS)}")
            out[name] = value
        else:
            raise _bad(f"{command_type} takes no {name!r}")
    return out


def _offered(state: State, kind: str, args: Mapping[str, Any]) -> list[Command]:
    """The legal commands that could match a command of type `kind`: legal_commands' own,
    narrowed to the piece a Move names (a search decides that often)."""
    seat = state.active
    if state.phase == PLACING:
        return _placements(state, seat)
    name = stage(state)
    if kind == "Move" and name == MOVE:
        piece = args.get("piece")
        return _moves(state, piece) if piece in movers(state, seat, state.turn.part) else []
    return [c for c in _stage_commands(state, seat, name or "") if c.type == kind]


def _check(state: State, command: Command) -> dict[str, Any]:
    """The command's canonical args once the rules allow it; else IllegalMove, saying why."""
    if command.type not in COMMANDS:
        raise IllegalMove(
            "unknown_command", f"Nanuuk! knows {', '.join(sorted(COMMANDS))}, not {command.type!r}"
        )
    if state.phase == ENDED:
        raise IllegalMove("game_over", "the game is over")
    if command.seat != state.active or state.phase == LAYOUT:
        raise IllegalMove("not_your_turn", "it is not your turn")
    args = canonical(command.type, command.args)
    wanted = ("PlacePiece",) if state.phase == PLACING else STAGE_COMMANDS.get(stage(state) or "", ())
    if command.type not in wanted:
        raise IllegalMove(
            "not_now", f"{command.type} is not asked now; the game waits for {' or '.join(wanted)}"
        )
    if any(c.type == command.type and dict(c.args) == args for c in _offered(state, command.type, args)):
        return args
    code, why = REFUSALS.get(command.type, ("not_allowed", "not allowed now"))
    raise IllegalMove(code, why)


# --- applying it ---------------------------------------------------------------------------


def _arrive(out: Outcome, piece: int) -> None:
    """What entering a cell does by itself: an Inuk joins (N-5), a lost harpoon returns (N-7)."""
    state = out.state
    sheet, cell, seat = sheet_of(state, piece), state.pieces[piece].cell, state.active
    if sheet is None or cell is None:
        return
    if state.tokens.get(cell) == "inuk" and not sheet.inuk:
        out.emit(ev.inuk_joined(piece, seat, cell))
    if state.rules.ice.is_igloo(cell) and "harpoon" not in sheet.carried:
        out.emit(ev.harpoon_returned(piece, seat))


def _move(out: Outcome, args: Mapping[str, Any]) -> None:
    state, piece = out.state, args["piece"]
    start, cell = state.pieces[piece].cell, (args["cell"][0], args["cell"][1])
    sled, kayak = bool(args.get("sled")), bool(args.get("kayak"))
    used = (["husky", "sled"] if sled else []) + (["kayak"] if kayak else [])
    if used:  # N-8, N-9: to the igloo side before the move
        out.emit(ev.equipment_used(piece, state.active, used))
    assert start is not None
    bear = bear_at(state, cell)
    out.emit(ev.piece_moved(piece, state.active, start, cell, kayak, sled, bool(args.get("one_crack"))))
    if bear is not None:  # N-6: chased at once, so no two pieces ever share a cell of ice
        out.emit(ev.bear_sent(piece, state.active, bear, cell, (args["bear"][0], args["bear"][1])))
    _arrive(out, piece)


def _apply(out: Outcome, command: Command, args: Mapping[str, Any]) -> None:
    state, seat = out.state, out.state.active
    piece = state.turn.piece if state.turn.piece is not None else -1
    cell = state.turn.cell
    kind = command.type
    if kind == "Move":
        _move(out, args)
    elif kind == "EndMove":
        out.emit(ev.steps_ended(piece, seat, declined=True))
    elif kind == "Stay":
        stay = state.pieces[args["piece"]].cell
        assert stay is not None
        out.emit(ev.piece_stayed(args["piece"], seat, stay))
    elif kind == "Retire":
        out.emit(ev.hunter_retired(args["piece"], seat))
        end_turn(out)
        return
    elif kind in ("TakeAnimal", "LeaveAnimal") and cell is not None:
        sheet = sheet_of(state, piece)
        animal = takeable(state, sheet, cell) if sheet is not None else None
        out.emit(ev.animal_taken(piece, seat, cell, str(animal), kind == "TakeAnimal"))
    elif kind in ("Exchange", "BringIn"):
        sheet = sheet_of(state, piece)
        assert sheet is not None
        animal = args["animal"]
        inuk = animal == "whale" and sheet.inuk  # N-7: the Inuk goes in with its whale only
        if kind == "Exchange":
            out.emit(ev.animal_exchanged(piece, seat, animal, bought(sheet, animal), inuk))
        else:
            out.emit(ev.animal_brought_in(piece, seat, animal, inuk))
    elif kind == "EndIglooVisit":
        out.emit(ev.igloo_visit_ended(piece, seat))
    elif kind == "PlaceCrack" and cell is not None:
        a, b = args["crack"]
        crack = line((a[0], a[1]), (b[0], b[1]))
        out.emit(ev.crack_placed(seat, cell, crack, crack_choices(state, cell)[0], forced=False))
    settle(out)


def decide_with_state(state: State, command: Command) -> tuple[list[Event], State]:
    """The events `command` causes and the state after them; IllegalMove when refused."""
    out = Outcome(state)
    if command.type == "LayOutIce" and command.seat is None:
        if not layout_due(state):
            raise IllegalMove("no_layout_due", "the ice is laid out already")
        tokens, bears, cracks = drawn(state, command.args)
        out.emit(ev.ice_laid_out(tokens, bears, cracks))
        return out.events, out.state
    args = _check(state, command)
    if command.type == "PlacePiece":
        out.emit(ev.piece_placed(args["piece"], state.active, (args["cell"][0], args["cell"][1])))
        if out.state.phase != PLACING:
            begin_turn(out)
        return out.events, out.state
    _apply(out, command, args)
    return out.events, out.state


def decide(state: State, command: Command) -> list[Event]:
    return decide_with_state(state, command)[0]
