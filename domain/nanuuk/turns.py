"""The flow of a turn: who has a move, what follows by itself, how turns and games end
(X-3's forced cracks, N-4, N-10, N-11, L-4, L-5, L-6, L-7, L-8)."""

from __future__ import annotations

from domain.decider import Event
from domain.nanuuk import events as ev
from domain.nanuuk.cracks import crack_choices
from domain.nanuuk.evolve import evolve
from domain.nanuuk.moves import can_step, enclosed, may_stay, movers, parts, steps
from domain.nanuuk.rules import AIMS, BEAR_FLIGHT, BEAR_HUNT, HELPER, LEARNING, PARTNERS
from domain.nanuuk.shut import shut_in
from domain.nanuuk.stage import stage
from domain.nanuuk.state import CRACK, PLAY, STEP, State


class Outcome:
    """Events as decide emits them, with the state folded so far (each rule sees the last)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


# --- who has a move ------------------------------------------------------------------------


def can_act(state: State, piece: int) -> bool:
    """Whether `piece` has a move to make: a step, or L-5's staying. Retiring (N-10) is no
    move: a hunter that cannot step stays (N-4), in an igloo too, and is never left with
    retiring as its only command."""
    return can_step(state, piece) or may_stay(state, piece)


# --- what follows by itself -----------------------------------------------------------------


def settle(out: Outcome) -> None:
    """Play on by itself up to the next real choice: single-line cracks (X-3), a second step
    that cannot be taken, the end of a move, of a turn (N-4), of the game."""
    while out.state.phase == PLAY:
        state = out.state
        name, turn, seat = stage(state), state.turn, state.active
        if name == CRACK and turn.cell is not None:
            kind, choices = crack_choices(state, turn.cell)
            if len(choices) > 1:
                return
            out.emit(ev.crack_placed(seat, turn.cell, choices[0], kind, forced=True))
        elif name == STEP and turn.piece is not None:
            if steps(state, turn.piece):
                return
            out.emit(ev.steps_ended(turn.piece, seat, declined=False))
        elif name is None and turn.piece is not None:
            out.emit(ev.move_ended(turn.piece, seat))
            open_part(out)
        else:
            return


def open_part(out: Outcome) -> None:
    """The next move of the turn, skipping one nothing can make (L-6's bears), or the turn's end."""
    state = out.state
    while state.turn.part < parts(state):
        if any(can_act(state, p) for p in movers(state, state.active, state.turn.part)):
            return
        out.emit(ev.move_skipped(state.active, state.turn.part, "cannot_move"))
        state = out.state
    end_turn(out)


def next_seat(state: State, seat: int) -> int:
    """The next seat in turn order that is still in the game."""
    for k in range(1, state.seats + 1):
        other = (seat + k) % state.seats
        if other not in state.gone:
            return other
    return seat


def end_turn(out: Outcome) -> None:
    state = out.state
    out.emit(ev.turn_ended(state.active, next_seat(state, state.active), state.turn.moved))
    if state.rules.game == BEAR_HUNT and _capture_first(out, state.active):
        return
    begin_turn(out)


def _capture_first(out: Outcome, mover: int) -> bool:
    """L-5: a move that leaves both the bear and an Inuk shut in counts for the mover, whose
    capture comes first (not the next seat's turn start). True when the game ended."""
    state = out.state
    bear_seat = state.rules.option("bear_seat")
    placed = [n for n, p in enumerate(state.pieces) if p.cell is not None and not p.out]
    bears = [n for n in placed if state.pieces[n].kind == "bear" and shut_in(state, n)]
    if not bears or not any(state.pieces[n].kind == "inuk" and shut_in(state, n) for n in placed):
        return False
    if mover == bear_seat:
        out.emit(_won(state, [bear_seat], "inuk_shut_in"))
        return True
    if not state.rules.option("play_on"):
        inuit = sorted({p.seat for p in state.pieces if p.kind == "inuk" and p.seat is not None})
        out.emit(_won(state, inuit, "bear_shut_in"))
        return True
    out.emit(ev.piece_out(bears[0], bear_seat, "shut_in"))
    if out.state.active == bear_seat:
        out.emit(ev.turn_skipped(bear_seat, next_seat(out.state, bear_seat), "out"))
    return False


def begin_turn(out: Outcome) -> None:
    """The checks at the start of a turn: the learning games' losses, N-4/N-10's skipped
    turns and the end after a whole round without a move."""
    while out.state.phase == PLAY:
        state, seat = out.state, out.state.active
        if state.rules.full:
            if state.idle >= state.seats and not any(can_step(state, p) for p in hunters(state)):
                out.emit(final_result(state))
                return
            mine = movers(state, seat, 0)
            if any(can_act(state, p) for p in mine):
                return
            reason = "retired" if not mine else "cannot_move"
            out.emit(ev.turn_skipped(seat, next_seat(state, seat), reason))
            continue
        if not _learning_start(out):
            return
    return


def hunters(state: State) -> list[int]:
    """The hunters still in play: placed and not retired."""
    return [n for s in range(state.seats) for n in movers(state, s, 0)]


def _learning_start(out: Outcome) -> bool:
    """A learning game's turn start: True when the turn passed on (a seat went out)."""
    state, seat, game = out.state, out.state.active, out.state.rules.game
    if game == LEARNING:
        return _elimination(out)
    mine = movers(state, seat, parts(state) - 1)
    if game == PARTNERS:  # L-7: whoever aims at the stuck seat wins alone
        if not all(can_step(state, p) for p in mine):
            winner = (seat - AIMS[state.rules.option("aim")]) % state.seats
            out.emit(_won(state, [winner], "partner_shut_in"))
    elif game == BEAR_HUNT:
        caught = [p for p in mine if shut_in(state, p)]
        if caught:
            _bear_hunt_end(out, seat, caught)
            return out.state.phase == PLAY
    elif game in (BEAR_FLIGHT, HELPER):  # L-6: one's Inuk; L-8: one's bear
        watched = "inuk" if game == BEAR_FLIGHT else "bear"
        if any(state.pieces[p].kind == watched and shut_in(state, p) for p in mine):
            out.emit(_won(state, [1 - seat], f"{watched}_shut_in"))
    if out.state.phase == PLAY:
        open_part(out)
    return False


def _elimination(out: Outcome) -> bool:
    """L-4: with 2 seats, a seat loses when neither hunter can move or one is shut in by
    cracks and the edge; with 3-4 a hunter that cannot move goes out, the last one left wins."""
    state, seat = out.state, out.state.active
    mine = movers(state, seat, 0)
    stuck = [p for p in mine if not can_step(state, p)]
    if state.seats == 2:
        if len(stuck) == len(mine) or any(enclosed(state, p) for p in mine):
            out.emit(_won(state, [1 - seat], "shut_in"))
        return False
    if not stuck:
        return False
    out.emit(ev.piece_out(stuck[0], seat, "cannot_move"))
    state = out.state
    left = [s for s in range(state.seats) if s not in state.gone]
    if len(left) == 1:
        totals = [state.gone.index(s) if s in state.gone else state.seats - 1 for s in range(state.seats)]
        out.emit(ev.game_ended(left[0], left, totals, "last_left"))
        return False
    out.emit(ev.turn_skipped(seat, next_seat(state, seat), "out"))
    return True


def _bear_hunt_end(out: Outcome, seat: int, stuck: list[int]) -> None:
    """L-5: the bear shut in makes the Inuit win together (or, playing on, leaves the ice);
    an Inuk shut in makes the bear win (playing on, the other Inuk)."""
    state = out.state
    bear_seat = state.rules.option("bear_seat")
    inuit = sorted({p.seat for p in state.pieces if p.kind == "inuk" and p.seat is not None})
    if seat == bear_seat:
        if state.rules.option("play_on"):
            out.emit(ev.piece_out(stuck[0], seat, "shut_in"))
            out.emit(ev.turn_skipped(seat, next_seat(out.state, seat), "out"))
        else:
            out.emit(_won(state, inuit, "bear_shut_in"))
    elif bear_seat in state.gone:
        out.emit(_won(state, [s for s in inuit if s != seat], "inuk_shut_in"))
    else:
        out.emit(_won(state, [bear_seat], "inuk_shut_in"))


def _won(state: State, winners: list[int], reason: str) -> Event:
    """A learning game's end: 1 for each winner, 0 for the others; a team has no single winner."""
    totals = [int(s in winners) for s in range(state.seats)]
    return ev.game_ended(winners[0] if len(winners) == 1 else None, winners, totals, reason)


# --- scores --------------------------------------------------------------------------------


def carried_equipment(state: State) -> list[int]:
    counts = [0] * state.seats
    for n, sheet in enumerate(state.sheets):
        seat = state.pieces[n].seat
        if seat is not None:
            counts[seat] += len(sheet.carried)
    return counts


def final_result(state: State) -> Event:
    """N-10/N-11: most points wins; a tie goes to the most carried equipment, else stays one."""
    scores, equipment = state.scores, carried_equipment(state)
    best = max(zip(scores, equipment, strict=True))
    winners = [s for s in range(state.seats) if (scores[s], equipment[s]) == best]
    winner = winners[0] if len(winners) == 1 else None
    return ev.game_ended(winner, winners, scores, "no_move_for_a_round", points=scores, equipment=equipment)
