"""Resign and Abort: a seat ends the game before its rules do, decided over the recorded history.

The policy is the same for every game family, so it reads the record (who acted, whether the
game has ended), never a family's state; a referee re-running the log calls `decide` with the
events before the command and gets the recorded end again. Its rules (docs/finishing.md):

- `Resign`: any seat, at any time while the game is in play, in casual and tournament games.
  The game ends at once with `GameResigned`; the resigning seat loses. With two seats the other
  one wins; with three or four the others share the win and the resigning seat is placed last
  (a tournament places the others equal, as it does after a forfeit). No final scoring is
  played: every seat's `totals` is 0, so a tournament moves no island points.
- `Abort`: any seat, while at most one seat has a move on the record (undone moves do not
  count): the game ends with `GameAborted` and no result. Refused in tournament games, whose
  tables need a result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.actor import Actor
from domain.decider import Command, Event, IllegalMove
from domain.ending import GAME_ABORTED, GAME_RESIGNED, ending
from domain.game_module import Recorded
from domain.undo import live, mode_of, seat_count

RESIGN = "Resign"
ABORT = "Abort"
COMMANDS = frozenset({RESIGN, ABORT})
"""The seat commands this module decides."""

RESIGNED = "resigned"
"""The `reason` of a resignation's result, beside the rules' own reasons."""

# --- refusals --------------------------------------------------------------------------

GAME_OVER = "game_over"
TOO_LATE = "abort_too_late"
IN_TOURNAMENT = "abort_not_allowed_in_tournament"


def game_resigned(seat: int, seats: int) -> Event:
    """The end of a game `seat` resigned: its data is a result as the rules' GameEnded gives one."""
    others = [s for s in range(seats) if s != seat]
    winner = others[0] if len(others) == 1 else None
    data = {
        "seat": seat,
        "winner": winner,
        "winners": others,
        "totals": [0] * seats,
        "reason": RESIGNED,
        "resigned": seat,
    }
    return Event(GAME_RESIGNED, data)


def game_aborted(seat: int) -> Event:
    """The end of a game `seat` called off: no result."""
    return Event(GAME_ABORTED, {"seat": seat})


def movers(records: Sequence[Recorded]) -> set[int]:
    """The seats with a move on the record that still counts (an undone move does not)."""
    return {seat for seat in (Actor.seat_in(r.actor) for r in live(records)) if seat is not None}


def may_abort(records: Sequence[Recorded], end_event: str) -> bool:
    """Whether the game may still be aborted: casual, in play, and no second seat has moved;
    `end_event` is the rules' end, as the game's module declares it."""
    in_play = ending(records, end_event) is None
    return mode_of(records) != "tournament" and in_play and len(movers(records)) <= 1


def decide(records: Sequence[Recorded], command: Command, end_event: str) -> list[Event]:
    """The events of a seat's Resign or Abort, or IllegalMove; `end_event` is the rules' end."""
    seat = command.seat
    if seat is None or command.type not in COMMANDS:
        raise IllegalMove("unknown_command", f"{command.type!r} is not a resign or abort command of a seat")
    seats = seat_count(records)
    if not 0 <= seat < seats:
        raise IllegalMove("bad_seat", f"seat must be 0..{seats - 1}")
    if ending(live(records), end_event) is not None:
        raise IllegalMove(GAME_OVER, "the game is over: its result stands")
    if command.type == RESIGN:
        return [game_resigned(seat, seats)]
    if mode_of(records) == "tournament":
        raise IllegalMove(IN_TOURNAMENT, "a tournament game cannot be aborted: resign instead")
    if len(movers(records)) > 1:
        raise IllegalMove(TOO_LATE, "a game is aborted only before the second player's move: resign instead")
    return [game_aborted(seat)]


def result(end: Recorded | None) -> Mapping[str, Any] | None:
    """The result a platform end gives: a resignation's data, None for an abort or a forfeit."""
    if end is None or end.type != GAME_RESIGNED:
        return None
    return dict(end.data)


def describe(event: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """A resignation or an abort in words; None for any other event."""
    data = event.get("data") or {}
    seat = data.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "A player"
    if event.get("type") == GAME_RESIGNED:
        return f"{who} resigned"
    if event.get("type") == GAME_ABORTED:
        return f"{who} called the game off before it was under way: no result"
    return None
