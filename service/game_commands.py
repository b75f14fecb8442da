"""A game's commands: decided on the newest version, appended with the version they read.

Seat commands, the organizer's correction and the system's own steps all end up as one
batch of records (`batch`): each command recorded beside the events it caused.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain import resign, undo
from domain.actor import ORGANIZER as ORGANIZER_ACTOR
from domain.actor import Actor
from domain.decider import Command, Event
from record.commands import recorded, with_command
from record.envelope import Envelope, NewEvent
from record.seat_keys import SIGNATURE_HEADER, command_signature_fault
from service.entropy import ADD_ENTROPY, entropy_events
from service.errors import (
    ChainBroken,
    Conflict,
    Forbidden,
    PreconditionFailed,
    PreconditionRequired,
    SeatNotFound,
    VersionConflict,
)
from service.game_parts import GameParts
from service.idempotency import game_command_id
from service.loaded import Loaded
from service.open_seats import TAKE_SEAT, refuse_while_open, seat_events
from service.seat_keys import REGISTER_KEY, key_events

CONFLICT_RETRIES = 5
ORGANIZER = str(ORGANIZER_ACTOR)
"""The actor of what the organizer appends: the game's creation and corrections."""
CORRECT = "Correct"

Step = tuple[Command | None, Sequence[Event]]
"""A command and the events it caused, in the order they are appended; None for the events
no command caused (GameCreated: the setup the rules start from)."""


@dataclass(frozen=True)
class Executed:
    version: int
    envelopes: list[Envelope]
    duplicate: bool
    loaded: Loaded


def execute(
    service: GameParts,
    game_id: str,
    seat: int,
    body: Mapping[str, Any],
    expected_version: int | None = None,
    key: str | None = None,
    signature: str | None = None,
) -> Executed:
    """Run one seat's command (GameService.execute)."""
    command_id = game_command_id(service.redis, service.layout, game_id, seat, body, key)
    args = {k: v for k, v in body.items() if k != "type"}
    command = Command(str(body.get("type")), seat, args)
    return run(service, game_id, str(Actor.of_seat(seat)), command, command_id, expected_version, signature)


def take_seat(service: GameParts, game_id: str, seat: int, name: str) -> tuple[Executed, str]:
    """Take the open `seat` under `name` and issue its token (GameService.take_seat)."""
    loaded = service.load(game_id)
    if not 0 <= seat < len(loaded.setup.get("seats") or []):
        raise SeatNotFound(game_id, seat)
    command = Command(TAKE_SEAT, seat, {"name": name})
    command_id = f"take-{seat}-{secrets.token_hex(8)}"
    executed = run(service, game_id, str(Actor.of_seat(seat)), command, command_id, None)
    # After the append: only the one whose SeatTaken was stored gets a token.
    return executed, service.tokens.reissue(game_id, seat)


def correct(
    service: GameParts,
    game_id: str,
    to_version: int,
    reason: str,
    expected_version: int | None = None,
    key: str | None = None,
) -> Executed:
    """The organizer's correction of a tournament game (GameService.correct)."""
    body = {"type": CORRECT, "to_version": to_version, "reason": reason}
    command_id = game_command_id(service.redis, service.layout, game_id, ORGANIZER, body, key)
    command = Command(CORRECT, None, {"to_version": to_version, "reason": reason})
    return run(service, game_id, ORGANIZER, command, command_id, expected_version)


def run(
    service: GameParts,
    game_id: str,
    actor: str,
    command: Command,
    command_id: str,
    expected_version: int | None,
    signature: str | None = None,
) -> Executed:
    """Decide `command` on the newest version and append its events as `actor`."""
    if service.archived.holds(game_id):
        raise Conflict("game_archived", "this game was imported from a file: it is read-only")
    for _ in range(CONFLICT_RETRIES):
        loaded = service.load(game_id)
        if loaded.broken is not None:
            raise ChainBroken(game_id, loaded.broken)
        earlier = loaded.written_by(command_id)
        if earlier:
            if earlier[-1].version == loaded.version:
                # The first try may have been refused after its append (a full store
                # refusing the scoring's enqueue or the next deal): start what it could not.
                service.follow_up(loaded)
            return Executed(earlier[-1].version, earlier, True, loaded)
        refuse(service, loaded, command, expected_version)
        signed = _signed(loaded, command, expected_version, signature)
        events = decide(loaded, actor, command)
        try:
            result = service.store.append(
                game_id, loaded.version, batch([(command, events)], actor, command_id, signed)
            )
        except VersionConflict:
            if expected_version is not None:
                raise
            continue
        after = service.after_append(loaded, result)
        service.follow_up(after)
        written = after.envelopes[result.versions[0] - 1 : result.versions[-1]]
        return Executed(result.versions[-1], written, result.duplicate, after)
    raise VersionConflict(game_id, loaded.version, service.store.version(game_id))


def refuse(service: GameParts, loaded: Loaded, command: Command, expected_version: int | None) -> None:
    """Refuse `command` before it is decided: after the end, against the tournament mode's undo
    policy, without the If-Match a tournament game needs or with a stale one, or while a seat
    is open."""
    _refuse_after_end(service, loaded)
    if command.type in undo.COMMANDS:
        # Refused whatever the version: no point in asking for If-Match first.
        undo.refuse_in_tournament(loaded.envelopes)
    # Taking a seat names no version (its operation has no If-Match); a tournament game has no
    # open seat, which the seat's own refusal says (409 seat_not_open).
    if expected_version is None and loaded.setup.get("mode") == "tournament" and command.type != TAKE_SEAT:
        raise PreconditionRequired(
            "if_match_required",
            "tournament games take commands only with If-Match naming the version",
        )
    if expected_version is not None and expected_version != loaded.version:
        raise PreconditionFailed(
            "version_mismatch",
            f"If-Match names version {expected_version}, the game is at {loaded.version}",
        )
    refuse_while_open(loaded.envelopes, command)


def _refuse_after_end(service: GameParts, loaded: Loaded) -> None:
    """Conflict for a game of a closed tournament (tournament_closed) or one that a forfeit,
    a resignation or an abort ended (game_over): nothing moves after the end. A game the
    rules ended refuses by its rules."""
    if service.tournaments is not None:
        service.tournaments.refuse_if_closed(loaded)
    ended = loaded.platform_ended
    if ended is not None:
        how = {
            "GameForfeited": "its tournament forfeited seat",
            "GameResigned": "it was resigned by seat",
            "GameAborted": "it was aborted by seat",
        }[ended.type]
        raise Conflict(
            "game_over", f"the game ended at version {ended.version}: {how} {ended.data.get('seat')}"
        )


def decide(loaded: Loaded, actor: str, command: Command) -> list[Event]:
    """The events of `command`: the undo policy's for undos, the rules' for the rest."""
    if actor == ORGANIZER and command.type == CORRECT:
        organizer = str(loaded.setup.get("organizer") or ORGANIZER)
        args = command.args
        return undo.correct(loaded.envelopes, args["to_version"], args["reason"], organizer, loaded.rules)
    if command.type in undo.COMMANDS:
        return undo.decide(loaded.envelopes, command, loaded.rules)
    if command.type in resign.COMMANDS:
        return resign.decide(loaded.envelopes, command, loaded.rules.end_event)
    if command.type == ADD_ENTROPY:
        return entropy_events(loaded.envelopes, loaded.over, command)
    if command.type == REGISTER_KEY:
        return key_events(loaded.envelopes, loaded.over, command)
    if command.type == TAKE_SEAT:
        return seat_events(loaded.envelopes, loaded.over, command)
    return list(loaded.rules.decide(loaded.state, command))


def _signed(
    loaded: Loaded, command: Command, expected_version: int | None, signature: str | None
) -> str | None:
    """The signature to record with `command`; None when its seat holds no key. A seat that holds
    one names the version it signed (428 if_match_required) and signs (403 signature_required,
    403 signature_invalid): the service can refuse its move, never make one up."""
    keys = loaded.seat_keys
    if command.seat is None or command.seat not in keys or command.type == REGISTER_KEY:
        return None  # a second key is refused as such (409 key_registered), signed or not
    if expected_version is None:
        raise PreconditionRequired(
            "if_match_required",
            f"seat {command.seat} signs its commands: If-Match names the version the signature covers",
        )
    if not signature:
        raise Forbidden(
            "signature_required",
            f"seat {command.seat} registered a key: each of its commands carries its signature "
            f"in the {SIGNATURE_HEADER} header",
        )
    fault = command_signature_fault(keys, loaded.game_id, expected_version, command, signature)
    if fault is not None:
        raise Forbidden("signature_invalid", fault)
    return signature


def batch(steps: Sequence[Step], actor: str, command_id: str, signature: str | None = None) -> list[NewEvent]:
    """The records of `steps`, appended as one batch: each command on its first event (a
    seat's signed command, always alone in its batch, with its `signature`)."""
    found: list[NewEvent] = []
    for command, events in steps:
        new = [NewEvent.recording(e, len(found) + i, actor, command_id) for i, e in enumerate(events)]
        found += new if command is None else with_command(new, recorded(command, events, signature))
    return found
