"""Setting up a Nanuuk! game: pieces, placing order, and the ice's layout (N-1, N-2, N-3, V-3, L-2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from domain.decider import IllegalMove
from domain.nanuuk.board import Cell, Ice, Line, line
from domain.nanuuk.rules import BEAR_FLIGHT, BEAR_HUNT, HELPER, LEARNING, Rules, rules_of
from domain.nanuuk.state import LAYOUT, PLACING, Piece, Sheet, State

SCATTERED = ("whale", "inuk")
"""N-2: placed first, apart from each other and from the igloos."""
FILLING = ("bear", "fish", "seal", "walrus")


# --- pieces and who places them -------------------------------------------------------------


def _hunters(rules: Rules) -> int:
    """Hunters per seat: two with the 2-player option (N-1) and in the 2-player learning game (L-1)."""
    if rules.options.get("two_hunters") or (rules.game == LEARNING and rules.seats == 2):
        return 2
    return 1


def make_pieces(rules: Rules) -> tuple[Piece, ...]:
    """Every piece, hunters first (their number is their sheet's), in seat order."""
    seats, game = range(rules.seats), rules.game
    if game == BEAR_HUNT:
        bear = rules.option("bear_seat")
        inuit = [s for s in seats if s != bear]
        per_seat = inuit * 2 if len(inuit) == 1 else inuit
        return (Piece("bear", bear), *(Piece("inuk", s) for s in per_seat))
    if game == BEAR_FLIGHT:
        return (
            *(Piece("inuk", s) for s in seats),
            *(Piece("bear", None) for _ in range(rules.option("bears"))),
        )
    if game == HELPER:
        return tuple(Piece(kind, s) for s in seats for kind in ("bear", "inuk"))
    hunters = tuple(Piece("hunter", s) for s in seats for _ in range(_hunters(rules)))
    bears = tuple(Piece("bear", None) for _ in range(rules.material["bear"])) if rules.full else ()
    return hunters + bears


def in_turn_order(first: int, seats: int) -> list[int]:
    return [(first + k) % seats for k in range(seats)]


def placing_order(rules: Rules, pieces: Sequence[Piece], first: int) -> tuple[tuple[int, int], ...]:
    """(seat, piece) in the order pieces are placed (N-3, L-2; our order for L-5, L-6, L-8)."""
    order = in_turn_order(first, rules.seats)
    own = {s: [n for n, p in enumerate(pieces) if p.seat == s] for s in order}
    if rules.game == HELPER:  # L-8: one's own bear, then the other's Inuk
        bears = [(s, own[s][0]) for s in order]
        return (*bears, *((s, own[(s + 1) % 2][1]) for s in order))
    if rules.game == BEAR_FLIGHT:  # our order: one's own Inuk, then the bears in turn
        shared = [n for n, p in enumerate(pieces) if p.seat is None]
        bears = [(order[k % 2], n) for k, n in enumerate(shared)]
        return (*((s, own[s][0]) for s in order), *bears)
    if rules.game == LEARNING and rules.seats == 2:  # L-2: one, two, then the first's second
        a, b = order
        return ((a, own[a][0]), (b, own[b][0]), (b, own[b][1]), (a, own[a][1]))
    placed: list[tuple[int, int]] = []
    while any(own[s] for s in order):  # in turn, one piece each, while any is left
        placed += [(s, own[s].pop(0)) for s in order if own[s]]
    return tuple(placed)


# --- the ice's layout ---------------------------------------------------------------------


def _apart(ice: Ice, cell: Cell, near: Iterable[Cell]) -> bool:
    around = set(ice.near(cell))
    return not any(c in around for c in near)


def scatter(ice: Ice, order: Sequence[Cell], whales: int, inuit: int, strict: bool) -> dict[Cell, str] | None:
    """N-2: whales and Inuit on the first cells of `order` (searching back when stuck) that
    touch no igloo and, `strict`, no other whale or Inuk; else no whale touches an Inuk."""
    candidates = [c for c in order if _apart(ice, c, ice.igloos) and not ice.is_igloo(c)]
    kinds = ["whale"] * whales + ["inuk"] * inuit
    chosen: dict[Cell, str] = {}

    def fits(cell: Cell, kind: str) -> bool:
        near = set(ice.near(cell))
        if strict:
            return not near & set(chosen)
        return not any(c in near and k != kind for c, k in chosen.items())

    def place(k: int, start: int) -> bool:
        if k == len(kinds):
            return True
        for i in range(start, len(candidates)):
            cell = candidates[i]
            if cell not in chosen and fits(cell, kinds[k]):
                chosen[cell] = kinds[k]
                if place(k + 1, i + 1 if k + 1 < len(kinds) and kinds[k + 1] == kinds[k] else 0):
                    return True
                del chosen[cell]
        return False

    return dict(chosen) if place(0, 0) else None


def meets_n2(ice: Ice, scattered: Mapping[Cell, str]) -> tuple[bool, bool]:
    """Whether whales and Inuit lie as N-2 wants (no igloo, no neighbour), and whether at
    least as its exception allows (no igloo, no whale beside an Inuk)."""
    if any(not _apart(ice, c, ice.igloos) for c in scattered):
        return False, False
    strict = all(_apart(ice, c, [o for o in scattered if o != c]) for c in scattered)
    relaxed = all(
        _apart(ice, c, [o for o, k in scattered.items() if k != kind]) for c, kind in scattered.items()
    )
    return strict, relaxed


def draw_layout(rules: Rules, cells: Sequence[int]) -> tuple[dict[Cell, str], list[Cell]]:
    """Tokens by cell and the bears' cells from a permutation of the cells to fill (N-2)."""
    ice, material = rules.ice, rules.material
    fillable = [c for c in ice.cells if not ice.is_igloo(c)]
    order = [fillable[i] for i in cells]
    scattered = scatter(ice, order, material["whale"], material["inuk"], strict=True)
    if scattered is None:
        scattered = scatter(ice, order, material["whale"], material["inuk"], strict=False)
    if scattered is None:
        raise IllegalMove("bad_layout", "whales and Inuit cannot be placed apart on this ice")
    rest = [c for c in order if c not in scattered]
    kinds = [kind for kind in FILLING for _ in range(material[kind])]
    laid = dict(zip(rest, kinds, strict=True))
    bears = [c for c, k in laid.items() if k == "bear"]
    return {**scattered, **{c: k for c, k in laid.items() if k != "bear"}}, bears


def _permutation(args: Mapping[str, Any], name: str, size: int) -> list[int]:
    order = args.get(name)
    if (
        not isinstance(order, list)
        or not all(type(i) is int for i in order)
        or sorted(order) != list(range(size))
    ):
        raise IllegalMove("bad_order", f"{name}: a permutation of 0..{size - 1} is required")
    return order


def layout_due(state: State) -> dict[str, int]:
    """The permutations the service draws for the set-up: the cells to fill, the lines to crack."""
    if state.phase != LAYOUT:
        return {}
    ice = state.rules.ice
    due = {} if state.tokens else {"cells": sum(not ice.is_igloo(c) for c in ice.cells)}
    if state.rules.option("pre_cracks") and state.rules.option("cracks") is None:
        due["lines"] = len(ice.lines)
    return due


def drawn(state: State, args: Mapping[str, Any]) -> tuple[dict[Cell, str], list[Cell], list[Line]]:
    """The layout and the pre-laid cracks (V-3) the system's permutations give."""
    due = layout_due(state)
    if not due:
        raise IllegalMove("no_layout_due", "the ice is laid out already")
    tokens, bears = dict(state.tokens), [p.cell for p in state.pieces if p.kind == "bear" and p.cell]
    if "cells" in due:
        tokens, bears = draw_layout(state.rules, _permutation(args, "cells", due["cells"]))
    cracks = sorted(state.cracks)
    if "lines" in due:
        lines = state.rules.ice.lines
        cracks = sorted(
            lines[i] for i in _permutation(args, "lines", due["lines"])[: state.rules.option("pre_cracks")]
        )
    return tokens, [b for b in bears if b is not None], cracks


# --- a layout given at creation ----------------------------------------------------------


def _bad_layout(message: str, where: str = "layout") -> IllegalMove:
    return IllegalMove("bad_option", message, f"options.{where}")


def _cell(ice: Ice, value: Any, where: str) -> Cell:
    ok = isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value)
    if not ok or not ice.has((value[0], value[1])):
        raise _bad_layout(f"{value!r} is not a cell [q, r] of this game's ice", where)
    return (value[0], value[1])


def given_layout(rules: Rules, layout: Any) -> tuple[dict[Cell, str], list[Cell]]:
    """The tokens and bears of a layout given at creation, checked against N-1 and N-2."""
    ice, material = rules.ice, rules.material
    if not isinstance(layout, Mapping) or set(layout) != set(material):
        raise _bad_layout(f"layout maps each of {', '.join(sorted(material))} to its cells")
    placed: dict[Cell, str] = {}
    for kind in sorted(material):
        cells = layout[kind]
        if not isinstance(cells, list) or len(cells) != material[kind]:
            raise _bad_layout(
                f"layout.{kind}: {material[kind]} cells for {rules.seats} seats", f"layout.{kind}"
            )
        for value in cells:
            cell = _cell(ice, value, f"layout.{kind}")
            if ice.is_igloo(cell) or cell in placed:
                raise _bad_layout(
                    f"layout.{kind}: {list(cell)} is an igloo or holds another piece", f"layout.{kind}"
                )
            placed[cell] = kind
    scattered = {c: k for c, k in placed.items() if k in SCATTERED}
    strict, relaxed = meets_n2(ice, scattered)
    if not strict:
        possible = scatter(ice, list(ice.cells), material["whale"], material["inuk"], strict=True) is not None
        if possible or not relaxed:
            raise _bad_layout("N-2: whales and Inuit may touch neither each other nor an igloo")
    bears = [c for c, k in placed.items() if k == "bear"]
    return {c: k for c, k in placed.items() if k != "bear"}, bears


def given_cracks(rules: Rules, cracks: Any) -> list[Line]:
    """V-3's cracks given at creation: distinct lines of the ice."""
    if not isinstance(cracks, list):
        raise _bad_layout("cracks is a list of lines [[q, r], [q, r]]", "cracks")
    lines: set[Line] = set()
    for value in cracks:
        if not isinstance(value, list) or len(value) != 2:
            raise _bad_layout(f"{value!r} is not a line [[q, r], [q, r]]", "cracks")
        a, b = (_cell(rules.ice, v, "cracks") for v in value)
        if b not in rules.ice.near(a) or line(a, b) in lines:
            raise _bad_layout(f"{value!r}: not a line between two neighbouring cells, or twice", "cracks")
        lines.add(line(a, b))
    pre = rules.option("pre_cracks")
    if pre and pre != len(lines):
        raise _bad_layout(f"pre_cracks is {pre} but {len(lines)} cracks are given", "pre_cracks")
    return sorted(lines)


def check_seated_options(game: str, options: Mapping[str, Any], seats: int) -> None:
    """IllegalMove(bad_option) on options `game` refuses at `seats` seats, as the game's
    creation would: N-1's two hunters, the bear's seat, a layout or cracks that do not fit
    the ice of that seat count (bad_seat_count on a seat count the game is not played by)."""
    rules = rules_of(game, seats, options)
    if not rules.full:
        return
    layout, cracks = rules.option("layout"), rules.option("cracks")
    if layout is not None:
        given_layout(rules, layout)
    if cracks is not None:
        given_cracks(rules, cracks)


# --- the state at creation ------------------------------------------------------------------


def _first(setup: Mapping[str, Any], seats: int) -> int:
    first = setup.get("first_seat") or 0
    if type(first) is not int or not 0 <= first < seats:
        raise IllegalMove("bad_first_seat", f"first_seat is a seat 0..{seats - 1}", "first_seat")
    return first


def initial_state(setup: Mapping[str, Any]) -> State:
    """The game as GameCreated sets it up; the layout waits for the system unless given."""
    seats = setup.get("seats") or []
    names = tuple(str(s.get("name", f"seat {n}")) for n, s in enumerate(seats))
    rules = rules_of(str(setup.get("game")), len(names), setup.get("options") or {})
    first = _first(setup, rules.seats)
    pieces = make_pieces(rules)
    order = placing_order(rules, pieces, first)
    state = State(rules, names, PLACING, order[0][0], first, pieces, to_place=order)
    if not rules.full:
        return state
    state = _with_sheets(state)
    layout, cracks = rules.option("layout"), rules.option("cracks")
    if layout is not None:
        tokens, bears = given_layout(rules, layout)
        state = with_layout(state, tokens, bears, state.cracks)
    if cracks is not None:
        state = with_layout(state, dict(state.tokens), _bears(state), given_cracks(rules, cracks))
    due = layout is None or (rules.option("pre_cracks") and cracks is None)
    return _phase(state, LAYOUT) if due else state


def _with_sheets(state: State) -> State:
    hunters = sum(p.kind == "hunter" for p in state.pieces)
    return replace(state, sheets=tuple(Sheet() for _ in range(hunters)))


def _bears(state: State) -> list[Cell]:
    return [p.cell for p in state.pieces if p.kind == "bear" and p.cell is not None]


def with_layout(
    state: State, tokens: Mapping[Cell, str], bears: Sequence[Cell], cracks: Iterable[Line]
) -> State:
    """The state with its tokens, bears and pre-laid cracks on the ice."""
    spots = iter(bears)
    pieces = tuple(replace(p, cell=next(spots)) if p.kind == "bear" else p for p in state.pieces)
    return replace(state, tokens=dict(tokens), pieces=pieces, cracks=frozenset(cracks))


def _phase(state: State, phase: str) -> State:
    return replace(state, phase=phase)
