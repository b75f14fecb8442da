"""Undo and takeback policy: who may take back what, as pure functions of the recorded history.

The policy reads the history as the store records it (versions, types, actors, command ids,
secrets and their audiences), never a game's state: what may be taken back depends on who
did what and who saw what, which only the record tells. It answers with events to append,
or refuses with an IllegalMove and a stable code. Its rules (design.md, "Undo"):

- casual games: a seat takes back its own commands of the current turn at once (`Undo`,
  one command or back to the start of its turn); anything else is a takeback that every
  other seat must accept (`RequestTakeback`, `AnswerTakeback`);
- tournament games: no undo nor takeback; the organizer corrects, with a reason;
- never across an event that showed the requester (for a correction: any seat) hidden
  information it did not hold before, except in practice: a casual game whose other seats
  are all computer players;
- only back to a command boundary that a seat's command followed, never into the middle
  of a command nor of the system's deal or draw that followed one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.actor import SYSTEM, Actor
from domain.decider import Command, Event, IllegalMove
from domain.ending import ending
from domain.game_module import GameModule, Recorded, UndoHints
from domain.history import REWINDS
from domain.text import is_blank, trimmed

# --- event types -----------------------------------------------------------------------

UNDONE = "Undone"
CORRECTED = "Corrected"
TAKEBACK_REQUESTED = "TakebackRequested"
TAKEBACK_ANSWERED = "TakebackAnswered"
TAKEBACK_DECLINED = "TakebackDeclined"
TAKEBACKS = frozenset({TAKEBACK_REQUESTED, TAKEBACK_ANSWERED, TAKEBACK_DECLINED})
BOOKKEEPING = TAKEBACKS | REWINDS
"""Events about the history itself: the rules' `evolve` ignores them all."""

# --- commands --------------------------------------------------------------------------

UNDO = "Undo"
REQUEST_TAKEBACK = "RequestTakeback"
ANSWER_TAKEBACK = "AnswerTakeback"
COMMANDS = frozenset({UNDO, REQUEST_TAKEBACK, ANSWER_TAKEBACK})
"""The seat commands this module decides (the rules decide every other one)."""
SCOPES = ("command", "turn")
"""What `Undo` takes back: the seat's last command, or all its commands of this turn."""

MAX_DECLINES = 2
"""Declined takebacks a seat may have in one round before it may ask no more that round."""

# --- refusals --------------------------------------------------------------------------

IN_TOURNAMENT = "undo_not_allowed_in_tournament"
NOTHING_TO_UNDO = "nothing_to_undo"
NOT_YOURS = "not_your_actions"
ACROSS_REVEAL = "undo_across_reveal"
BAD_TARGET = "bad_undo_target"
TAKEBACK_PENDING = "takeback_pending"
NO_TAKEBACK_PENDING = "no_takeback_pending"
RATE_LIMITED = "takeback_rate_limited"
OWN_TAKEBACK = "own_takeback"
ALREADY_ANSWERED = "already_answered"
REASON_REQUIRED = "reason_required"
NOT_A_TOURNAMENT = "correction_only_in_tournament"
GAME_ENDED = "game_ended"


@dataclass(frozen=True)
class Record:
    """One recorded event: `actor` is "seat:N", "system", "worker" or "organizer"."""

    version: int
    type: str
    data: Mapping[str, Any]
    actor: str
    command_id: str
    secret: Mapping[str, Any] | None = None
    audience: tuple[int, ...] = ()


@dataclass(frozen=True)
class Takeback:
    """A takeback request still open: who asked, back to which version, who accepted so far."""

    seat: int
    to_version: int
    version: int
    accepted: tuple[int, ...] = ()

    def waiting_for(self, seats: int) -> list[int]:
        """The seats whose answer is still due."""
        return [s for s in range(seats) if s != self.seat and s not in self.accepted]


# --- events ------------------------------------------------------------------------------


def undone(to_version: int, requested_by: int, approved_by: Iterable[int] = ()) -> Event:
    """The state is again the state after `to_version`; `approved_by` is empty for one's own turn."""
    data = {"to_version": to_version, "requested_by": requested_by, "approved_by": sorted(approved_by)}
    return Event(UNDONE, data)


def corrected(to_version: int, reason: str, organizer: str) -> Event:
    """The organizer's correction of a tournament game: as Undone, with who and why."""
    return Event(CORRECTED, {"to_version": to_version, "reason": reason, "organizer": organizer})


def takeback_requested(seat: int, to_version: int) -> Event:
    return Event(TAKEBACK_REQUESTED, {"seat": seat, "to_version": to_version})


def takeback_answered(seat: int, accept: bool) -> Event:
    return Event(TAKEBACK_ANSWERED, {"seat": seat, "accept": accept})


def takeback_declined(seat: int, to_version: int, by: int) -> Event:
    """`seat` asked, `by` declined."""
    return Event(TAKEBACK_DECLINED, {"seat": seat, "to_version": to_version, "by": by})


# --- reading the history -----------------------------------------------------------------


def seat_of(actor: str) -> int | None:
    """The seat of an actor "seat:N"; None for the system, the worker and the organizer."""
    return Actor.seat_in(actor)


def mode_of(records: Sequence[Recorded]) -> str:
    return str(records[0].data.get("mode", "casual"))


def seat_count(records: Sequence[Recorded]) -> int:
    return len(records[0].data["seats"])


def takeback_across_reveal(records: Sequence[Recorded], seat: int | None) -> bool:
    """Whether `seat` may take its own moves back across reveals: practice against the computer.

    In a casual game whose other seats are all computer players, a reveal hides nothing
    from an opponent who could be wronged: the person only fools themselves. Never in a
    tournament, never with another person at the table.
    """
    seats = records[0].data["seats"]
    if mode_of(records) != "casual" or seat is None or not 0 <= seat < len(seats):
        return False
    others = [entry for n, entry in enumerate(seats) if n != seat]
    return bool(others) and all(_is_computer(entry) for entry in others)


def practice(records: Sequence[Recorded]) -> bool:
    """Whether the game's one person may take their moves back across reveals (see above)."""
    people = [n for n, entry in enumerate(records[0].data["seats"]) if not _is_computer(entry)]
    return len(people) == 1 and takeback_across_reveal(records, people[0])


def _is_computer(entry: Any) -> bool:
    return isinstance(entry, Mapping) and bool(entry.get("ai"))


def live(records: Sequence[Recorded]) -> list[Recorded]:
    """The game events that make the current state, in order: those no undo took back.

    Bookkeeping events (takebacks, undos) are never part of it; after a rewind to version t
    the live events are those live after t, then whatever came next.
    """
    tips: dict[int, int] = {0: 0}  # version -> the newest live game version after it
    before: dict[int, int] = {}  # game version -> the newest live game version before it
    tip = 0
    for record in records:
        if record.type in REWINDS:
            target = record.data.get("to_version")
            if type(target) is int and 1 <= target < record.version:
                tip = tips[target]
        elif record.type not in BOOKKEEPING:
            before[record.version] = tip
            tip = record.version
        tips[record.version] = tip
    by_version = {record.version: record for record in records}
    chain = []
    while tip:
        chain.append(by_version[tip])
        tip = before[tip]
    return chain[::-1]


def batches(records: Sequence[Recorded]) -> list[list[Recorded]]:
    """`records` grouped by the command that appended them (neighbours with one command id)."""
    groups: list[list[Recorded]] = []
    for record in records:
        if groups and groups[-1][-1].command_id == record.command_id:
            groups[-1].append(record)
        else:
            groups.append([record])
    return groups


def undo_points(chain: Sequence[Recorded]) -> list[int]:
    """The versions a live `chain` may go back to: each end of a batch a seat's command followed."""
    groups = batches(chain)
    return [
        group[-1].version
        for group, after in zip(groups, groups[1:], strict=False)
        if seat_of(after[0].actor) is not None
    ]


def pending_takeback(records: Sequence[Recorded]) -> Takeback | None:
    """The open takeback request, if any.

    A request is open until it is declined or carried out, or until any other event
    follows it: a game that moved on makes it lapse, without an event saying so.
    """
    accepted: list[int] = []
    for record in reversed(records):
        if record.type == TAKEBACK_ANSWERED and record.data.get("accept") is True:
            accepted.append(int(record.data["seat"]))
            continue
        if record.type == TAKEBACK_REQUESTED:
            seat, to_version = int(record.data["seat"]), int(record.data["to_version"])
            return Takeback(seat, to_version, record.version, tuple(sorted(accepted)))
        return None
    return None


def declines_this_round(records: Sequence[Recorded], seat: int, hints: UndoHints) -> int:
    """How many of `seat`'s takeback requests were declined since the current round started."""
    count = 0
    round_markers = hints.round_markers
    for record in reversed(records):
        if record.type in round_markers:
            break
        if record.type == TAKEBACK_DECLINED and record.data.get("seat") == seat:
            count += 1
    return count


# --- deciding ------------------------------------------------------------------------------


def decide(records: Sequence[Recorded], command: Command, game: GameModule[Any]) -> list[Event]:
    """The events a seat's Undo, RequestTakeback or AnswerTakeback causes, or IllegalMove;
    `game` is the game's module: its `undo` hints (where turns start, what reveals) and its end."""
    seat, args = command.seat, command.args
    if seat is None or command.type not in COMMANDS:
        raise IllegalMove("unknown_command", f"{command.type!r} is not an undo command of a seat")
    if command.type == UNDO:
        scope = args.get("scope", "command")
        if scope not in SCOPES:
            raise IllegalMove("bad_command", f"scope must be one of {list(SCOPES)}")
        return undo(records, seat, game, scope)
    if command.type == REQUEST_TAKEBACK:
        to_version = args.get("to_version")
        if type(to_version) is not int:
            raise IllegalMove("bad_command", "to_version: the version to go back to is required")
        return request_takeback(records, seat, to_version, game)
    accept = args.get("accept")
    if type(accept) is not bool:
        raise IllegalMove("bad_command", "accept: true or false is required")
    return answer_takeback(records, seat, accept)


def refuse_in_tournament(records: Sequence[Recorded]) -> None:
    """IllegalMove when the game is a tournament game: seats take nothing back there."""
    if mode_of(records) == "tournament":
        raise IllegalMove(
            IN_TOURNAMENT, "tournament games take no undo nor takeback; only the organizer corrects"
        )


def undo(
    records: Sequence[Recorded], seat: int, game: GameModule[Any], scope: str = "command"
) -> list[Event]:
    """Undone back to before `seat`'s last command of this turn, or to the start of its turn."""
    refuse_in_tournament(records)
    groups = batches(_playing(records, game.end_event))
    turn_markers = game.undo.turn_markers
    start = max((i for i, g in enumerate(groups) if any(r.type in turn_markers for r in g)), default=0)
    turn = groups[start + 1 :]
    own = [i for i, group in enumerate(turn) if seat_of(group[0].actor) == seat]
    if not own:
        if turn:
            raise IllegalMove(NOT_YOURS, "this turn holds no command of yours: ask for a takeback")
        raise IllegalMove(NOTHING_TO_UNDO, "nothing was done yet this turn")
    first = own[0] if scope == "turn" else own[-1]
    crossed = turn[first:]
    if any(g[0].actor not in (str(Actor.of_seat(seat)), str(SYSTEM)) for g in crossed):
        raise IllegalMove(NOT_YOURS, "another seat acted after you this turn: ask for a takeback")
    target = (turn[first - 1] if first else groups[start])[-1].version
    if not takeback_across_reveal(records, seat):
        _refuse_reveals(records, [r for g in crossed for r in g], {seat}, game.undo)
    return [undone(target, seat)]


def request_takeback(
    records: Sequence[Recorded], seat: int, to_version: int, game: GameModule[Any]
) -> list[Event]:
    """TakebackRequested: back to `to_version`, once every other seat accepts."""
    refuse_in_tournament(records)
    chain = _playing(records, game.end_event)
    if pending_takeback(records) is not None:
        raise IllegalMove(TAKEBACK_PENDING, "a takeback is already waiting for its answers")
    if declines_this_round(records, seat, game.undo) >= MAX_DECLINES:
        raise IllegalMove(
            RATE_LIMITED, f"{MAX_DECLINES} of your takebacks were declined this round: ask again next round"
        )
    crossed = _after(chain, to_version)
    if not takeback_across_reveal(records, seat):
        _refuse_reveals(records, crossed, {seat}, game.undo)
    return [takeback_requested(seat, to_version)]


def answer_takeback(records: Sequence[Recorded], seat: int, accept: bool) -> list[Event]:
    """TakebackAnswered, then TakebackDeclined on a refusal, or Undone once all others accepted."""
    refuse_in_tournament(records)
    pending = pending_takeback(records)
    if pending is None:
        raise IllegalMove(NO_TAKEBACK_PENDING, "no takeback is waiting for an answer")
    if seat == pending.seat:
        raise IllegalMove(OWN_TAKEBACK, "you asked for this takeback: the other seats answer it")
    if seat in pending.accepted:
        raise IllegalMove(ALREADY_ANSWERED, "you have already accepted this takeback")
    events = [takeback_answered(seat, accept)]
    if not accept:
        return [*events, takeback_declined(pending.seat, pending.to_version, seat)]
    if pending.waiting_for(seat_count(records)) == [seat]:
        approved = [*pending.accepted, seat]
        events.append(undone(pending.to_version, pending.seat, approved))
    return events


def correct(
    records: Sequence[Recorded], to_version: int, reason: str, organizer: str, game: GameModule[Any]
) -> list[Event]:
    """Corrected: the organizer sets a tournament game back to `to_version`, saying why."""
    if mode_of(records) != "tournament":
        raise IllegalMove(NOT_A_TOURNAMENT, "only tournament games are corrected by an organizer")
    if is_blank(reason):
        raise IllegalMove(REASON_REQUIRED, "a correction needs a reason")
    seats = seat_count(records)
    crossed = _after(_playing(records, game.end_event), to_version)
    _refuse_reveals(records, crossed, set(range(seats)), game.undo)
    return [corrected(to_version, trimmed(reason), organizer)]


def _playing(records: Sequence[Recorded], end_event: str) -> list[Recorded]:
    """The live events; IllegalMove once the game has ended (its result stands)."""
    chain = live(records)
    if ending(chain, end_event) is not None:
        raise IllegalMove(GAME_ENDED, "the game is over: its result stands")
    return chain


def _after(chain: Sequence[Recorded], to_version: int) -> list[Recorded]:
    """The live events after `to_version`; IllegalMove when the game cannot go back there."""
    if to_version not in undo_points(chain):
        newest = chain[-1].version
        raise IllegalMove(
            BAD_TARGET,
            f"version {to_version} is no point to go back to: it must be below {newest}, still in "
            "play (not undone), and end a command that a seat's command followed",
        )
    return [record for record in chain if record.version > to_version]


def _refuse_reveals(
    records: Sequence[Recorded], crossed: Iterable[Recorded], requesters: set[int], hints: UndoHints
) -> None:
    """IllegalMove when any of `crossed` showed one of `requesters` hidden information."""
    learners, seats = hints.learners, seat_count(records)
    for record in crossed:
        if learners(record, seats) & requesters:
            raise IllegalMove(
                ACROSS_REVEAL,
                f"version {record.version} ({record.type}) showed hidden information: "
                "the game cannot go back before it",
            )
