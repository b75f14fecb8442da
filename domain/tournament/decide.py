"""decide(state, command, actor): a tournament command's events, or IllegalMove with a stable code.

`actor` is who sends the command (domain.actor): the organizer, the service (system, worker),
or an entrant as seat n (entrant "e<n>").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.actor import Actor
from domain.core import Command, Event, IllegalMove
from domain.tournament import entrants, play
from domain.tournament.events import tournament_closed
from domain.tournament.standings import standings
from domain.tournament.state import CLOSED, RUNNING, State

STAFF = entrants.STAFF
SERVICE = ("system", "worker")
Handler = Callable[[State, Actor, Mapping[str, Any]], list[Event]]


def _withdraw(state: State, actor: Actor, args: Mapping[str, Any]) -> list[Event]:
    """EntrantWithdrawn; a game the entrant is playing is forfeited to the others."""
    entrant, event = entrants.withdrawn(state, actor, args)
    table = state.seat_of(state.round, entrant.id)
    if table is None or table.result is not None:
        return [event]
    seat = table.seats.index(entrant.id)
    return play.completing(state, [event, play.forfeited(state, table, seat, "withdrawal", None)])


def _running(handler: Handler) -> Handler:
    def check(state: State, actor: Actor, args: Mapping[str, Any]) -> list[Event]:
        if state.phase != RUNNING:
            raise IllegalMove("not_started", "the tournament has not started")
        return handler(state, actor, args)

    return check


def _bye(state: State, actor: Actor, args: Mapping[str, Any]) -> list[Event]:
    entrant = entrants.known(state, args.get("entrant"))
    if entrant.withdrawn is not None:
        raise IllegalMove("entrant_withdrawn", f"{entrant.id} has withdrawn", "entrant")
    return play.give_bye(state, entrant.id)


# Command type -> (the actors that may send it, their refusal code, the handler).
COMMANDS: dict[str, tuple[tuple[str, ...] | None, str, Handler]] = {
    "RegisterEntrant": (None, "", lambda s, a, x: entrants.register(s, a, x)),
    "WithdrawEntrant": (None, "", _withdraw),
    "StartTournament": (STAFF, "organizer_only", lambda s, a, x: entrants.start(s)),
    "DrawLots": (("system",), "system_only", lambda s, a, x: entrants.draw_lots(s, x)),
    "PairRound": (STAFF, "organizer_only", lambda s, a, x: play.pair(s)),
    "AssignGame": (STAFF, "organizer_only", _running(lambda s, a, x: play.assign(s, x))),
    "RecordResult": (SERVICE, "system_only", _running(lambda s, a, x: play.record(s, x))),
    "CorrectResult": (("organizer",), "organizer_only", _running(play.correct)),
    "ForfeitSeat": (STAFF, "organizer_only", _running(lambda s, a, x: play.forfeit(s, x))),
    "GiveBye": (STAFF, "organizer_only", _running(_bye)),
    "CloseTournament": (STAFF, "organizer_only", lambda s, a, x: close(s, a)),
}


def close(state: State, actor: Actor) -> list[Event]:
    """TournamentClosed with the final ranking; never while a round is unfinished."""
    if state.in_progress:
        raise IllegalMove("round_unfinished", f"round {state.round} still has tables without a result")
    return [tournament_closed([line.entrant for line in standings(state)], state.completed)]


def decide(state: State, command: Command, actor: Actor) -> list[Event]:
    """The events `command` from `actor` causes; IllegalMove when the rules refuse it."""
    if command.type not in COMMANDS:
        raise IllegalMove(
            "unknown_command", f"no tournament command {command.type!r}; known: {sorted(COMMANDS)}"
        )
    if state.phase == CLOSED:
        raise IllegalMove("tournament_closed", "the tournament is closed")
    allowed, code, handler = COMMANDS[command.type]
    if allowed is not None:
        entrants.require(actor, allowed, code)
    return handler(state, actor, command.args)
