"""decide(state, command): the events a command causes, or IllegalMove with a stable code."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain import resign, undo
from domain.decider import Command, Event, IllegalMove
from domain.islands import actions, gods, setup, turns
from domain.islands import args as read
from domain.islands import events as ev
from domain.islands.majority import Outcome, remove_for_relative_majority
from domain.islands.ruleset import Ruleset
from domain.islands.scoring import final_result, premature_end, score_round
from domain.islands.state import ACTING, CHOOSING, ENDED, SCORING, SETUP, State

SeatHandler = Callable[[State, int, Mapping[str, Any]], Outcome]
SeatCheck = Callable[[State, int, Mapping[str, Any]], object]
SystemHandler = Callable[[State, Mapping[str, Any]], Outcome]


def choose_removal(state: State, seat: int, args: Mapping[str, Any]) -> Outcome:
    """O-6: the bridge the active seat removes when it holds the most alone."""
    pending = state.pending[0]
    _, line = read.line(state, args)
    if list(line) not in [list(o) for o in pending.options]:
        shown = f"{line[0]}-{line[1]}"
        raise IllegalMove("bridge_not_offered", f"{shown} is not among the bridges you may remove")
    out = Outcome(state)
    out.emit(ev.choice_resolved(pending.kind, seat))
    remove_for_relative_majority(out, seat, pending.island, list(line))
    return out


def seat_commands(rules: Ruleset) -> dict[str, SeatHandler]:
    """The commands a seat of this game may send, by type."""
    table: dict[str, SeatHandler] = {
        "PlaceBridge": actions.place_bridge,
        "DiscardCards": turns.discard_cards,
        "DrawCard": turns.draw_card,
    }
    if rules.pair == "swap":
        table["SwapBridge"] = actions.swap_bridge
    else:
        table["RemoveBridge"] = actions.remove_bridge
    if rules.final_turns or rules.discard == "one_per_turn":
        table["EndTurn"] = turns.finish_turn
    if rules.may_skip_draw:
        table["SkipDraw"] = turns.skip_draw
    if rules.handicap is not None and rules.handicap.free_bridges:
        table["PlaceFreeBridge"] = actions.place_free_bridge
    if rules.defer_final_turn:
        table["DeferFinalTurn"] = turns.defer_final_turn
    if rules.take_back_when_out:
        table["PlayCard"] = actions.play_card
        table["TakeBackBridge"] = actions.take_back_bridge
    if rules.seafarers:
        table["PlaceShip"] = actions.place_ship
        table["MoveShip"] = actions.move_ship
    if rules.gods:
        table.update(
            UseKanaloa=actions.use_kanaloa, UseKu=gods.use_ku, UsePele=gods.use_pele, UseLono=gods.use_lono
        )
    return table


# The commands whose conditions stand apart from their effects: listing them checks only.
CHECKS: dict[SeatHandler, SeatCheck] = {
    turns.skip_draw: turns.check_skip_draw,
    turns.finish_turn: turns.check_finish_turn,
    gods.use_lono: gods.check_use_lono,
    gods.give_back: gods.check_give_back,
    actions.use_kanaloa: actions.check_use_kanaloa,
    actions.swap_bridge: actions.check_swap_bridge,
    actions.place_free_bridge: actions.check_place_free_bridge,
    actions.place_ship: actions.check_place_ship,
    actions.move_ship: actions.check_move_ship,
}


# The command that answers each pending choice (the only one accepted meanwhile).
CHOICE_COMMANDS: dict[str, tuple[str, SeatHandler]] = {
    "relative_majority": ("ChooseRemoval", choose_removal),
    "ku": ("TakeCard", gods.take_from_hand),
    "pele_return": ("GiveCards", gods.give_back),
}


def answer_commands(rules: Ruleset) -> set[str]:
    """The commands that answer a choice, in the games that have such choices."""
    names = set()
    if rules.choose_face_up:
        names.add("ChooseFaceUp")
    if rules.relative_majority:
        names.add("ChooseRemoval")
    if rules.gods:
        names |= {"TakeCard", "GiveCards"}
    return names


SYSTEM_COMMANDS: dict[str, SystemHandler] = {
    "ShuffleDeck": setup.shuffle_deck,
    "ScoreRound": lambda state, args: _score(state, args),
    "DrawAtRandom": gods.draw_at_random,
}

WAITING = {
    SETUP: ("waiting_for_shuffle", "the cards are being dealt"),
    SCORING: ("waiting_for_scoring", "the round is being scored"),
    ENDED: ("game_ended", "the game is over"),
    CHOOSING: ("choosing_face_up", "every seat first chooses its face-up card (O-2)"),
}


def _score(state: State, args: Mapping[str, Any]) -> Outcome:
    """The scoring of the round just ended, and the game's end after the last round."""
    round_ = args.get("round")
    if state.phase != SCORING or type(round_) is not int or round_ != state.round:
        raise IllegalMove("no_scoring_due", f"round {args.get('round')!r} is not waiting for scoring")
    out = Outcome(state)
    out.emit(score_round(state))
    if state.round == state.rules.rounds:
        out.emit(final_result(out.state))
    return out


def decide(state: State, command: Command) -> list[Event]:
    """The events `command` causes in `state`; raises IllegalMove when the rules refuse it."""
    return _then_premature_end(command_outcome(state, command)).events


def decide_with_state(state: State, command: Command) -> tuple[list[Event], State]:
    """`decide`'s events and the state they lead to, exactly as folding them with `evolve` gives.

    A command's rules already applied most of its events to read their effects; a search
    that wants the state too is spared applying them a second time.
    """
    seat = command.seat
    if type(seat) is int and 0 <= seat < state.seats:  # `command_outcome`, a call spared
        out = _seat_handler(state, command)(state, seat, command.args)
    else:
        out = command_outcome(state, command)
    if state.rules.premature_end and _may_leave_a_seat_bare(state, out.events):  # as `_then_premature_end`
        _end_if_bare(out)
    return out.events, out.state


def command_outcome(state: State, command: Command) -> Outcome:
    """The events of `command` itself, without I-7's end, which never refuses a command."""
    if command.seat is None:
        system = SYSTEM_COMMANDS.get(command.type)
        if system is None:
            raise IllegalMove("unknown_command", f"{command.type!r} is not a system command")
        return system(state, command.args)
    if type(command.seat) is not int or not 0 <= command.seat < state.seats:
        raise IllegalMove("not_a_seat", f"seat {command.seat!r} does not play in this game")
    handler = _seat_handler(state, command)
    return handler(state, command.seat, command.args)


def check_command(state: State, command: Command) -> None:
    """Raises the IllegalMove `command_outcome` would, without the effects where they stand apart.

    `legal_commands` tries candidates with this: deciding each in full applied its events
    once per candidate (one Kanaloa placement per free line, say).
    """
    if command.seat is None:
        command_outcome(state, command)
        return
    if type(command.seat) is not int or not 0 <= command.seat < state.seats:
        raise IllegalMove("not_a_seat", f"seat {command.seat!r} does not play in this game")
    handler = _seat_handler(state, command)
    check = CHECKS.get(handler)
    if check is None:
        handler(state, command.seat, command.args)
    else:
        check(state, command.seat, command.args)


def check_listed(state: State, command: Command) -> None:
    """`check_command` for what `legal_commands` tries: a command of this game's seat table,
    from the seat to act, with no choice pending and no draw due; those it has checked already.
    """
    assert command.seat is not None
    handler = known_commands(state.rules)[0][command.type]
    CHECKS.get(handler, handler)(state, command.seat, command.args)


def known_commands(rules: Ruleset) -> tuple[dict[str, SeatHandler], frozenset[str]]:
    """This game's seat commands by type, and every command it knows (answers too)."""
    known = rules.derived.get("commands")
    if known is None:
        table = seat_commands(rules)
        known = rules.derived["commands"] = (table, frozenset({*table, *answer_commands(rules)}))
    return known


def _seat_handler(state: State, command: Command) -> SeatHandler:
    table, known = state.rules.derived.get("commands") or known_commands(state.rules)
    # The commonest case first: a seat command of the seat to act, nothing pending, and (K-5/I-3)
    # no discard waiting for its draw. It passes every check below, which then find the refusals.
    if state.phase in ACTING and command.seat == state.active and not state.pending:
        handler = table.get(command.type)
        # `turns.draw_only`, its call spared
        if handler is not None and (
            command.type == "DrawCard" or not (state.turn.discarded and state.rules.discard == "full_hand")
        ):
            return handler
    if command.type not in known:
        # Undo, takebacks, Resign and Abort reach the platform's policies, not these rules, but a
        # seat sends them alike.
        listed = sorted(known | undo.COMMANDS | resign.COMMANDS)
        raise IllegalMove("unknown_command", f"unknown command {command.type!r}; known: {listed}")
    if state.phase == CHOOSING and command.type == "ChooseFaceUp":
        return setup.choose_face_up
    if state.phase not in ACTING:
        raise IllegalMove(*WAITING[state.phase])
    if command.seat != state.active:
        raise IllegalMove("not_your_turn", f"it is {state.names[state.active]}'s turn")
    if state.pending:
        pending = state.pending[0]
        expected = CHOICE_COMMANDS.get(pending.kind)
        if expected is None or command.type != expected[0]:
            answer = f"send {expected[0]}" if expected else "wait for the draw"
            raise IllegalMove(f"pending_{pending.kind}", f"a {pending.kind} choice is pending: {answer}")
        return expected[1]
    if turns.draw_only(state) and command.type != "DrawCard":
        raise IllegalMove("must_draw", "after a face-down discard the turn's only command is the draw (K-5)")
    if command.type not in table:
        raise IllegalMove("no_choice_pending", f"{command.type} answers a choice, and none is due")
    return table[command.type]


def _then_premature_end(out: Outcome) -> Outcome:
    """I-7: after any command, a seat left without bridges in rounds 2-3 ends the game."""
    state = out.initial
    if state.rules.premature_end and _may_leave_a_seat_bare(state, out.events):
        _end_if_bare(out)
    return out


def _end_if_bare(out: Outcome) -> None:
    """I-7's end emitted, when a seat is left without bridges while the game is played."""
    if out.state.phase in ACTING:
        ended = premature_end(out.state)
        if ended is not None:
            out.emit(ended)


def _may_leave_a_seat_bare(state: State, events: list[Event]) -> bool:
    """Whether I-7 can apply after `events`, read without applying them.

    Applying them again after every command made this check cost as much as the command
    itself. Only BridgeRemoved takes a bridge off the board, and rounds only advance, so a
    seat can be bare afterwards only if it has no more bridges than the events remove, and
    only in round 2 or later.
    """
    round_ = state.round
    removed: dict[int, int] = {}  # seat: bridges the events take off the board
    for event in events:
        if event.type == "BridgeRemoved":
            seat = event.data["seat"]
            removed[seat] = removed.get(seat, 0) + 1
        elif event.type == "RoundStarted":
            round_ = max(round_, event.data["round"])
    if round_ < 2:
        return False
    held = state.held
    if 0 in held:  # a seat bare already: no event need take anything
        return True
    return bool(removed) and any(held[seat].bit_count() <= gone for seat, gone in removed.items())
