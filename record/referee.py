"""The referee replay: every recorded command run through the rules again, from the state before it.

A hash chain shows that nothing changed after it was sealed; it cannot show that what was
sealed was fair (whoever holds the store can rewrite a game and seal it again). The referee
asks the rules instead. For each recorded command (record.commands) it checks, in order:

- its form: `{type, seat, args}`, credited to the actor it names (a seat's command to that
  seat; a system command — chance, a scoring — to the system, the worker or the organizer,
  never to a seat; a correction to the organizer), every event it caused by that actor;
- that a seat holding a key (record.seat_keys: from the setup, or registered) signed it, over
  the game, the version before it and the command as recorded; this needs no state, so it
  holds even where the rules cannot be run;
- that this actor could act then: a seat the game waits for (or one with a legal command,
  when several act at once), the system only for the request the rules wait for;
- that the events recorded for it are exactly the ones the rules decide from the state
  before it (the undo policy's for undos and takebacks, the correction's for corrections):
  type, schema, data, secret and audience, none more and none fewer.

The first command at fault is named by the version of its first event. A command whose
hidden part, or one of whose events' secrets, is withheld from the reader cannot be run,
and nothing after it can (the state is unknown from there): those are checked for form
only, and the answer says from which version and why. Events stored before commands were
recorded are folded, not refereed, and the answer says so. The game is reached through the
registry (domain.games) only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from domain import resign, undo
from domain.actor import ORGANIZER, SYSTEM, WORKER, Actor
from domain.decider import Command, DomainError, Event
from domain.ending import FORFEIT, PLATFORM_ENDINGS, game_forfeited, game_timed_out
from domain.game_module import GameModule
from domain.games import rules_for
from domain.history import extend_history, rewind_target
from domain.turns import CHANCE, Seats
from record.canonical import canonical_json
from record.commands import command_of, signature_of, withheld
from record.convert import to_event
from record.entropy import ADD_ENTROPY, entropy_events
from record.envelope import Envelope
from record.open_seats import TAKE_SEAT, seat_events
from record.receipts import stream_id
from record.seat_keys import REGISTER_KEY, command_signature_fault, key_events, keys_after, setup_keys

CORRECT = "Correct"
"""The organizer's correction (service.games): decided by the undo policy, as undos are."""
SYSTEM_ACTORS = frozenset({str(SYSTEM), str(WORKER), str(ORGANIZER)})
"""Who may answer the rules' requests: chance at creation is the organizer's append, after a
scoring the worker's, otherwise the system's."""

NOT_RECORDED = "not_recorded"
PARTIAL = "partial"
REFEREED = "refereed"
FAULT = "fault"


@dataclass(frozen=True)
class Refereed:
    """What the referee replay found.

    `commands`: how many commands the record holds; `checked`: how many were run through the
    rules. `first_fault`: the version of the first command at fault (its first event), with
    `fault` in words. `recorded_from`: the first version that records a command (None: the
    record holds none). `unchecked_from`: the first version not refereed, with `unchecked`
    saying why; None when every event was.
    """

    commands: int
    checked: int
    first_fault: int | None = None
    fault: str = ""
    recorded_from: int | None = None
    unchecked_from: int | None = None
    unchecked: str = ""

    @property
    def ok(self) -> bool:
        return self.first_fault is None

    @property
    def status(self) -> str:
        """`fault`, `not_recorded` (an older record), `partial` or `refereed` (every event)."""
        if self.first_fault is not None:
            return FAULT
        if self.unchecked_from is None:
            return REFEREED
        return NOT_RECORDED if self.recorded_from is None else PARTIAL

    def answer(self) -> dict[str, Any]:
        """The findings as plain data (the `referee` of GET /games/{id}/verify)."""
        return {
            "ok": self.ok,
            "status": self.status,
            "commands": self.commands,
            "checked": self.checked,
            "first_fault": self.first_fault,
            "fault": self.fault,
            "recorded_from": self.recorded_from,
            "unchecked_from": self.unchecked_from,
            "unchecked": self.unchecked,
        }

    def __str__(self) -> str:
        if self.first_fault is not None:
            return f"command at version {self.first_fault}: {self.fault}"
        done = f"the rules referee {self.checked} of {self.commands} recorded commands"
        if self.unchecked_from is None:
            return done
        if self.recorded_from is None:
            return f"not refereed: {self.unchecked}"
        return f"{done}; from version {self.unchecked_from} not refereed: {self.unchecked}"


class _Fault(Exception):
    def __init__(self, version: int, reason: str) -> None:
        super().__init__(reason)
        self.version = version
        self.reason = reason


def referee(envelopes: Sequence[Envelope]) -> Refereed:
    """The referee replay of a game's whole record (version 1 on), as far as its reader sees it.

    Judges the record as given: check its hash chain first (record.chain), since a changed
    event that still hashes is exactly what this is for, and one that does not is not.
    """
    heads = [n for n, envelope in enumerate(envelopes) if envelope.command is not None]
    try:
        return _referee(envelopes, heads)
    except _Fault as fault:
        checked = sum(1 for n in heads if envelopes[n].version < fault.version)
        return Refereed(len(heads), checked, fault.version, fault.reason, _version(envelopes, heads))


def _version(envelopes: Sequence[Envelope], heads: Sequence[int]) -> int | None:
    return envelopes[heads[0]].version if heads else None


def _referee(envelopes: Sequence[Envelope], heads: list[int]) -> Refereed:
    setup = envelopes[0].data
    if envelopes[0].command is not None:
        raise _Fault(1, "GameCreated is the setup, not a command's event")
    rules, states = _start(setup)
    if len(envelopes) == 1:
        return Refereed(0, 0)  # the setup alone: nothing was commanded yet
    if not heads:
        why = (
            "the record holds no commands (it was stored before commands were recorded): "
            "only its chain and the fold of its events can be checked"
        )
        return Refereed(0, 0, unchecked_from=2, unchecked=why)
    unchecked_from, unchecked = None, ""
    if heads[0] > 1:
        unchecked_from = 2
        unchecked = f"versions 2-{heads[0]} were stored before commands were recorded: they fold"
    states, readable = _fold(rules, states, envelopes[1 : heads[0]])
    keys = _keys(setup, envelopes[1 : heads[0]])
    game_id = stream_id(envelopes)
    checked = 0
    # A forfeit, a resignation or an abort ends the game where its rules' state does not show it.
    ended = _platform_end(envelopes[: heads[0]])
    for head, end in zip(heads, [*heads[1:], len(envelopes)], strict=True):
        batch = envelopes[head:end]
        command = _form(batch)
        if ended is not None:
            raise _Fault(
                batch[0].version,
                f"the game ended at version {ended.version} ({ended.type}): nothing may follow",
            )
        ended = _platform_end(batch)
        if command is not None:
            _signed(keys, game_id, batch[0], command)
        keys = _keys_after(keys, batch)
        if readable and (command is None or any(_hidden(e) for e in batch)):
            readable = False
            if unchecked_from is None:
                unchecked_from = batch[0].version
                unchecked = (
                    "a command's hidden part or an event's secret is withheld from this reader "
                    "(the game is not over, or its log is not revealed): the rules cannot be run "
                    "from there; each command's form, actor and digests are checked"
                )
        if not readable or command is None:
            continue
        decided, after = _decided(rules, states[-1], envelopes[:head], setup, batch[0], command)
        _same(decided, batch)
        _advance(rules, states, batch, after)
        checked += 1
    return Refereed(len(heads), checked, None, "", envelopes[heads[0]].version, unchecked_from, unchecked)


def _keys(setup: Mapping[str, Any], envelopes: Sequence[Envelope]) -> dict[int, dict[str, str]]:
    try:
        return keys_after(setup_keys(setup), envelopes)
    except (ValueError, KeyError, TypeError):
        raise _Fault(1, "a seat's recorded key is no P-256 or Ed25519 public key") from None


def _keys_after(
    keys: Mapping[int, Mapping[str, str]], batch: Sequence[Envelope]
) -> dict[int, dict[str, str]]:
    try:
        return keys_after(keys, batch)
    except (ValueError, KeyError, TypeError):
        raise _Fault(batch[0].version, "the key it registers is no P-256 or Ed25519 public key") from None


def _signed(
    keys: Mapping[int, Mapping[str, str]], game_id: str | None, head: Envelope, command: Command
) -> None:
    """A fault unless `command` carries its seat's signature, when its seat holds a key: over
    the game, the version before it (the one it expected) and the command as recorded."""
    if command.seat is None or command.seat not in keys:
        if signature_of(head) is not None and command.seat not in keys:
            raise _Fault(head.version, "it records a signature, but its seat holds no key to check it with")
        return
    if game_id is None:
        raise _Fault(
            head.version, "the record does not name its game: the seat's signature cannot be checked"
        )
    fault = command_signature_fault(keys, game_id, head.version - 1, command, signature_of(head))
    if fault is not None:
        raise _Fault(head.version, fault)


def _platform_end(envelopes: Sequence[Envelope]) -> Envelope | None:
    return next((e for e in envelopes if e.type in PLATFORM_ENDINGS), None)


def _start(setup: Mapping[str, Any]) -> tuple[GameModule[Any], list[Any]]:
    try:
        rules = rules_for(str(setup.get("game")))
        initial = rules.initial_state(setup)
    except (DomainError, LookupError, TypeError, ValueError, AttributeError) as error:
        raise _Fault(1, f"the rules refuse the setup ({type(error).__name__})") from None
    return rules, [initial, initial]


def _fold(rules: GameModule[Any], states: list[Any], envelopes: Sequence[Envelope]) -> tuple[list[Any], bool]:
    """The states after `envelopes` (not refereed), and whether the reader could fold them all."""
    if any(_hidden(e) for e in envelopes):
        return states, False
    for envelope in envelopes:
        try:
            states = extend_history(rules, states, [(envelope.version, to_event(envelope))])
        except Exception as error:  # whatever the rules trip on, the answer names the event
            raise _Fault(envelope.version, f"the rules cannot fold it ({type(error).__name__})") from None
    return states, True


def _advance(rules: GameModule[Any], states: list[Any], batch: Sequence[Envelope], after: Any) -> None:
    """`states` (index v: the state after version v) extended in place past `batch`, as
    domain.history folds; `after` is the state the rules gave with the events, when they did.

    The states inside such a batch are not kept: nothing goes back into the middle of a
    command (the undo policy refuses it, and the referee names that refusal).
    """
    if after is not None:
        states.extend([None] * (len(batch) - 1))
        states.append(after)
        return
    for envelope in batch:
        event = to_event(envelope)
        target = rewind_target(event)
        if target is not None and 1 <= target < envelope.version:
            states.append(states[target])
        else:
            states.append(rules.evolve(states[-1], event))


def _hidden(envelope: Envelope) -> bool:
    """Whether a secret `envelope` holds is withheld from its reader (its own or its command's)."""
    return (envelope.secret is None and bool(envelope.secret_digest)) or withheld(envelope)


def _form(batch: Sequence[Envelope]) -> Command | None:
    """The command at the head of `batch` (None when its hidden part is withheld); a fault
    when its record, its actor or its events' actors do not fit a command."""
    head = batch[0]
    version = head.version
    try:
        command = command_of(head)
    except ValueError as error:
        raise _Fault(version, str(error)) from None
    record = head.command or {}
    kind, seat = record.get("type"), record.get("seat")
    if not isinstance(kind, str) or not (seat is None or type(seat) is int):
        raise _Fault(version, "the recorded command is not {type, seat, args}")
    expected = _actor_of(kind, seat)
    if expected is None and head.actor not in SYSTEM_ACTORS or expected not in (None, head.actor):
        who = f"seat {seat}'s" if seat is not None else "a system"
        raise _Fault(version, f"{who} command {kind} is credited to {head.actor}")
    for envelope in batch[1:]:
        if envelope.actor != head.actor or envelope.command_id != head.command_id:
            raise _Fault(version, f"event {envelope.version} names another actor or command than its command")
    return command


def _actor_of(kind: str, seat: int | None) -> str | None:
    """The one actor a command must be credited to; None for the system's (any of SYSTEM_ACTORS)."""
    if kind == CORRECT:
        return str(ORGANIZER)
    return None if seat is None else str(Actor.of_seat(seat))


def _decided(
    rules: GameModule[Any],
    state: Any,
    before: Sequence[Envelope],
    setup: Mapping[str, Any],
    head: Envelope,
    command: Command,
) -> tuple[list[Event], Any]:
    """The events the rules (or the undo policy) decide for `command` from the state before it,
    and the state after them when the rules give it (None for the undo policy's)."""
    version = head.version
    try:
        if command.type == FORFEIT and "tournament" not in command.args:
            return _timed_out(rules, state, before, setup, head, command), None
        if command.type == FORFEIT:
            return _forfeited(rules, state, command, version), None
        if command.type == CORRECT:
            args = command.args
            organizer = str(setup.get("organizer") or ORGANIZER)
            return undo.correct(before, int(args["to_version"]), str(args["reason"]), organizer, rules), None
        if command.type in undo.COMMANDS:
            return undo.decide(before, command, rules), None
        if command.type in resign.COMMANDS:
            return resign.decide(before, command, rules.end_event), None
        if command.type == ADD_ENTROPY:
            over = rules.is_terminal(state) or _platform_end(before) is not None
            return entropy_events(before, over, command), None
        if command.type == REGISTER_KEY:
            over = rules.is_terminal(state) or _platform_end(before) is not None
            return key_events(before, over, command), None
        if command.type == TAKE_SEAT:
            over = rules.is_terminal(state) or _platform_end(before) is not None
            return seat_events(before, over, command), None
        _allowed(rules, state, command, version)
        events, after = rules.apply(state, command)
        return list(events), after
    except _Fault:
        raise
    except DomainError as error:
        raise _Fault(version, f"the rules refuse it ({error.code})") from None
    except Exception as error:  # whatever the rules trip on, the answer names the command
        raise _Fault(version, f"the rules cannot decide it ({type(error).__name__})") from None


def _forfeited(rules: GameModule[Any], state: Any, command: Command, version: int) -> list[Event]:
    """GameForfeited, as the service appends it for a tournament's forfeit of a game in play.
    Whether the tournament did forfeit that seat is in its own stream, which is not read here."""
    if rules.is_terminal(state):
        raise _Fault(version, "the game had ended: a forfeit cannot follow")
    args = command.args
    return [
        game_forfeited(
            int(args["seat"]), str(args["reason"]), str(args["tournament"]), int(args["tournament_version"])
        )
    ]


def _timed_out(
    rules: GameModule[Any],
    state: Any,
    before: Sequence[Envelope],
    setup: Mapping[str, Any],
    head: Envelope,
    command: Command,
) -> list[Event]:
    """GameForfeited for a casual game's time per move: the setup must set that time, and the
    seat must have waited longer than it since the event before (the log's own times)."""
    seconds = setup.get("move_time")
    if rules.is_terminal(state):
        raise _Fault(head.version, "the game had ended: a forfeit cannot follow")
    if not isinstance(seconds, int) or command.args.get("move_time") != seconds:
        raise _Fault(head.version, "a timeout without the setup's time per move")
    waited = (_moment(head.at) - _moment(before[-1].at)).total_seconds()
    if waited < seconds:
        raise _Fault(head.version, f"a timeout after {waited:.0f} s of a {seconds} s move")
    return [game_timed_out(int(command.args["seat"]), seconds)]


def _moment(at: str) -> datetime:
    return datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def _allowed(rules: GameModule[Any], state: Any, command: Command, version: int) -> None:
    """A fault unless `command`'s seat (or the system) may act in `state`."""
    if command.seat is None:
        pending = rules.pending_system(state)
        if pending is None or pending.command != command.type:
            waits = "nothing" if pending is None else pending.command
            raise _Fault(version, f"the system may not {command.type} here: the rules wait for {waits}")
        return
    waiting = rules.to_act(state)
    if isinstance(waiting, Seats) and command.seat in waiting.seats:
        return
    # Several seats may act at once where the rules name only the first (a choice made in secret).
    if isinstance(waiting, Seats) and any(True for _ in rules.legal_commands(state, command.seat)):
        return
    if isinstance(waiting, Seats):
        expected = f"seat {', '.join(map(str, waiting.seats))}"
    else:
        expected = "the system" if waiting is CHANCE else "no one: the game is over"
    raise _Fault(version, f"seat {command.seat} may not act here: the game waits for {expected}")


def _same(decided: Sequence[Event], batch: Sequence[Envelope]) -> None:
    """A fault naming the first recorded event that is not the rules' (or the count that differs)."""
    version = batch[0].version
    for envelope, event in zip(batch, decided, strict=False):
        if _shape(event) != _shape(envelope):
            raise _Fault(
                version,
                f"event {envelope.version} ({envelope.type}) is not what the rules decide for this command "
                f"({event.type})",
            )
    if len(decided) != len(batch):
        raise _Fault(
            version, f"the record holds {len(batch)} events for this command, the rules decide {len(decided)}"
        )


def _shape(event: Event | Envelope) -> str:
    secret = None if event.secret is None else dict(event.secret)
    return canonical_json([event.type, event.schema, dict(event.data), secret, list(event.audience)])
