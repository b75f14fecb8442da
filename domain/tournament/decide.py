"""decide(state, command, actor): a tournament command's events, or IllegalMove with a stable code.

`actor` is who sends the command (domain.actor): the organizer, the service (system, worker),
or an entrant as seat n (entrant "e<n>").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import domain.tournament.entrants as entrants
import domain.tournament.play as play
from domain.actor import Actor
from domain.decider import Command, Event, IllegalMove
from domain.tournament.state import CLOSED, RUNNING, State

Args = Mapping[str, Any]
Handler = Callable[[State, Actor, Args], list[Event]]
STAFF = entrants.STAFF
SERVICE = ("system", "worker")


@dataclass(frozen=True)
class Rule:
    """Who may send a command (None: anyone), the code refusing the others, and its handler."""

    senders: tuple[str, ...] | None
    refusal: str
    handler: Handler
    running: bool = False  # only once the tournament has started


def _withdraw(state: State, actor: Actor, args: Args) -> list[Event]:
    """EntrantWithdrawn; a game the entrant is playing is forfeited to the others."""
    entrant, event = entrants.withdrawn(state, actor, args)
    table = state.seat_of(state.round, entrant.id)
    if table is None or table.result is not None:
        return [event]
    seat = table.seats.index(entrant.id)
    return play.completing(state, [event, play.forfeited(state, table, seat, "withdrawal", None)])


def _bye(state: State, actor: Actor, args: Args) -> list[Event]:
    entrant = entrants.known(state, args.get("entrant"))
    if entrant.withdrawn is not None:
        raise IllegalMove("entrant_withdrawn", f"{entrant.id} has withdrawn", "entrant")
    return play.give_bye(state, entrant.id)


def _state_only(handler: Callable[[State], list[Event]]) -> Handler:
    return lambda state, actor, args: handler(state)


def _args_only(handler: Callable[[State, Args], list[Event]]) -> Handler:
    return lambda state, actor, args: handler(state, args)


COMMANDS: dict[str, Rule] = {
    "RegisterEntrant": Rule(None, "", entrants.register),
    "WithdrawEntrant": Rule(None, "", _withdraw),
    "StartTournament": Rule(STAFF, "organizer_only", _state_only(entrants.start)),
    "DrawLots": Rule(("system",), "system_only", _args_only(entrants.draw_lots)),
    "PairRound": Rule(STAFF, "organizer_only", _state_only(play.pair)),
    "AssignGame": Rule(STAFF, "organizer_only", _args_only(play.assign), running=True),
    "RecordResult": Rule(SERVICE, "system_only", _args_only(play.record), running=True),
    "CorrectResult": Rule(("organizer",), "organizer_only", play.correct, running=True),
    "ForfeitSeat": Rule(STAFF, "organizer_only", _args_only(play.forfeit), running=True),
    "GiveBye": Rule(STAFF, "organizer_only", _bye, running=True),
    "CloseTournament": Rule(STAFF, "organizer_only", _state_only(play.close)),
}


def decide(state: State, command: Command, actor: Actor) -> list[Event]:
    """The events `command` from `actor` causes; IllegalMove when the rules refuse it."""
    rule = COMMANDS.get(command.type)
    if rule is None:
        known = sorted(COMMANDS)
        raise IllegalMove("unknown_command", f"no tournament command {command.type!r}; known: {known}")
    if state.phase == CLOSED:
        raise IllegalMove("tournament_closed", "the tournament is closed")
    if rule.senders is not None:
        entrants.require(actor, rule.senders, rule.refusal)
    if rule.running and state.phase != RUNNING:
        raise IllegalMove("not_started", "the tournament has not started")
    return rule.handler(state, actor, command.args)
