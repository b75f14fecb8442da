"""When a learning-game piece is shut in (L-5, L-6, L-8): it cannot move once every move its
owner must or may make first in that turn has been taken into account: L-6's bear move,
which comes before the Inuk's, or a move of the owner's other piece (L-8, 2-player L-5)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.nanuuk import events as ev
from domain.nanuuk.cracks import crack_choices
from domain.nanuuk.evolve import evolve
from domain.nanuuk.moves import can_step, may_stay, movers, steps
from domain.nanuuk.rules import BEAR_FLIGHT
from domain.nanuuk.stage import stage
from domain.nanuuk.state import CRACK, NEW_TURN, STEP, State, changed


def _finished(state: State) -> Iterator[State]:
    """Every position the move under way may end in: each crack the mover may choose (X-3),
    each further step a learning-game bear may take, or none."""
    turn, seat = state.turn, state.active
    name = stage(state)
    if name == CRACK and turn.cell is not None:
        kind, lines = crack_choices(state, turn.cell)
        for side in lines:
            yield from _finished(evolve(state, ev.crack_placed(seat, turn.cell, side, kind, len(lines) == 1)))
    elif name == STEP and turn.piece is not None and turn.cell is not None:
        onward = steps(state, turn.piece)
        for cell, _ in onward:
            moved = ev.piece_moved(turn.piece, seat, turn.cell, cell, False, False, False)
            yield from _finished(evolve(state, moved))
        if not onward or not turn.must_step:
            yield from _finished(evolve(state, ev.steps_ended(turn.piece, seat, declined=bool(onward))))
    else:
        yield state


def outcomes(state: State, piece: int) -> Iterator[State]:
    """Every position a whole move of the learning-game piece `piece` may leave, from a turn
    with no move under way: its steps, its staying (L-5's option) and its cracks."""
    state = changed(state, turn=changed(NEW_TURN, part=state.turn.part))
    cell, seat = state.pieces[piece].cell, state.active
    if cell is None:
        return
    for near, _ in steps(state, piece):
        yield from _finished(evolve(state, ev.piece_moved(piece, seat, cell, near, False, False, False)))
    if may_stay(state, piece):
        yield from _finished(evolve(state, ev.piece_stayed(piece, seat, cell)))


def _freed_by(state: State, piece: int, others: list[int]) -> bool:
    """Whether some whole move of one of `others` leaves `piece` able to step."""
    return any(can_step(after, piece) for other in others for after in outcomes(state, other))


def shut_in(state: State, piece: int) -> bool:
    """At the start of its owner's turn (or right after another seat's move): `piece` cannot
    move whatever its owner does first. In L-6 the bear's move comes first and is owed when a
    bear can move; elsewhere a piece that can step is free, and one that cannot is freed when
    a move of its owner's other piece opens its way."""
    if state.rules.game == BEAR_FLIGHT and state.turn.part == 0:
        bears = [b for b in movers(state, state.active, 0) if can_step(state, b) or may_stay(state, b)]
        if bears:
            return not _freed_by(state, piece, bears)
    if can_step(state, piece):
        return False
    owner = state.pieces[piece].seat
    others = [
        n
        for n, p in enumerate(state.pieces)
        if n != piece and owner is not None and p.seat == owner and p.cell is not None and not p.out
    ]
    return not _freed_by(state, piece, others)
