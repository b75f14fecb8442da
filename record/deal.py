"""The check of a game's deal: every chance event recomputed from the revealed seed.

GameCreated commits to the seed (`deal.commitment` = sha256 of the seed) and holds the seed as
its secret for no seat, revealed with the rest of the log at the end. With it, anyone redraws
the first-seat lot and, wherever the rules wait for chance, the draw at the version of its
first event (record.draws), asks the rules what that draw causes, and requires exactly the
recorded events. Before the seed is revealed the deal is only committed, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain.actor import SYSTEM, WORKER, Actor
from domain.decider import DomainError
from domain.ending import ending
from domain.games import end_event_of, rules_for
from domain.history import extend_history
from domain.tournament_rules import rules as tournament_rules
from record.canonical import canonical_json
from record.convert import to_event
from record.draws import (
    FIRST_SEAT_DRAW,
    SCHEME,
    DrawStream,
    commitment,
    creator_entropy,
    entropy_from,
    entropy_log,
)
from record.envelope import Envelope

NONE, COMMITTED, CHECKED, FAULT = "none", "committed", "checked", "fault"


@dataclass(frozen=True)
class DealReport:
    """`status`: `none` (a game recorded before deals were committed), `committed` (the seed
    is not revealed to this viewer yet), `checked` (every draw recomputed and equal) or
    `fault` (`first_bad` names the first event that is not what the seed draws)."""

    status: str
    commitment: str | None = None
    draws: int = 0
    first_bad: int | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.status != FAULT

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "commitment": self.commitment,
            "draws": self.draws,
            "first_bad_version": self.first_bad,
            "reason": self.reason,
        }


def check_deal(envelopes: Sequence[Envelope]) -> DealReport:
    """The deal of a whole game (`envelopes` from GameCreated on, as one viewer holds them)."""
    if not envelopes:
        return DealReport(NONE, reason="no events")
    created = envelopes[0]
    deal = created.data.get("deal")
    if not isinstance(deal, Mapping):
        return DealReport(NONE, reason="the game was recorded before deals were committed")
    promised = str(deal.get("commitment"))
    seed_hex = (created.secret or {}).get("seed")
    if not isinstance(seed_hex, str):
        return DealReport(COMMITTED, promised, reason="the seed is revealed when the game ends")
    return _checked(envelopes, deal, promised, seed_hex)


def _checked(
    envelopes: Sequence[Envelope], deal: Mapping[str, Any], promised: str, seed_hex: str
) -> DealReport:
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return DealReport(FAULT, promised, first_bad=1, reason="the revealed seed is not hex")
    if commitment(seed) != promised:
        return DealReport(FAULT, promised, first_bad=1, reason="the revealed seed is not the one committed")
    if deal.get("scheme") != SCHEME:
        return DealReport(FAULT, promised, first_bad=1, reason=f"unknown deal scheme {deal.get('scheme')!r}")
    setup = envelopes[0].data
    lot = DrawStream(seed, creator_entropy(deal), FIRST_SEAT_DRAW).below(max(1, len(setup["seats"])))
    # A first seat the creator chose is no draw; one that differs from the lot is not checkable.
    draws = 1 if setup.get("first_seat") == lot else 0
    try:
        rules = rules_for(setup["game"])
        initial = rules.initial_state(setup)
    except (DomainError, LookupError, TypeError, ValueError) as error:
        return DealReport(FAULT, promised, first_bad=1, reason=f"the rules refuse the setup: {error}")
    return _redrawn(rules, initial, envelopes, deal, seed, promised, draws)


def _redrawn(
    rules: Any,
    initial: Any,
    envelopes: Sequence[Envelope],
    deal: Mapping[str, Any],
    seed: bytes,
    promised: str,
    draws: int,
) -> DealReport:
    """Walk the game command by command: where the rules wait for chance once a command's
    events are all folded, the next events must be the ones the draw causes.

    A seat's command is appended alone (its chance follows in another append), so a seat's
    batch is one command; the service's batches hold a creation or a scoring (the rules say
    how many events it made) and then draws, each as many events as the rules make of it.
    """
    states = [initial, initial]
    version = 2
    entropy = entropy_log(envelopes)  # read once, not once per draw
    while version <= len(envelopes):
        state = states[version - 1]
        pending = rules.pending_system(state)
        envelope = envelopes[version - 1]
        by_seat = Actor.seat_in(envelope.actor) is not None
        drawn = pending is not None and pending.immediate and not by_seat
        scored = pending is not None and not pending.immediate and envelope.actor == str(WORKER)
        if pending is not None and (drawn or scored):
            source = DrawStream(seed, entropy_from(deal, entropy, version), version)
            try:
                expected = rules.decide(state, pending.answer(source))
            except DomainError as error:
                return DealReport(FAULT, promised, draws, version, f"the rules refuse the draw: {error}")
            if drawn:
                fault = _compared(expected, envelopes, version, promised, draws)
                if fault is not None:
                    return fault
                draws += 1
            following = list(envelopes[version - 1 : version - 1 + len(expected)])
        else:
            following = list(_rest_of_batch(envelopes, version))
        states = extend_history(rules, states, [(e.version, to_event(e)) for e in following])
        version += len(following)
    return DealReport(CHECKED, promised, draws)


def _compared(
    expected: Sequence[Any], envelopes: Sequence[Envelope], version: int, promised: str, draws: int
) -> DealReport | None:
    """The fault of the recorded events from `version` on against a draw's, or None."""
    recorded = envelopes[version - 1 : version - 1 + len(expected)]
    for want, got in zip(expected, recorded, strict=False):
        if not _same(want, got):
            return _fault(promised, draws, got.version, want.type)
    if len(recorded) < len(expected):
        return _fault(promised, draws, len(envelopes) + 1, expected[len(recorded)].type)
    return None


def _rest_of_batch(envelopes: Sequence[Envelope], version: int) -> Sequence[Envelope]:
    """The events from `version` on that one append wrote under the same command id."""
    command_id = envelopes[version - 1].command_id
    end = version
    while end < len(envelopes) and envelopes[end].command_id == command_id:
        end += 1
    return envelopes[version - 1 : end]


def _fault(promised: str, draws: int, version: int, wanted: str) -> DealReport:
    reason = f"not what the revealed seed draws there ({wanted} with other contents)"
    return DealReport(FAULT, promised, draws, version, reason)


def _same(event: Any, envelope: Envelope) -> bool:
    """Whether the recorded event is the one the rules made of the draw (secret included)."""
    want = [event.type, event.schema, dict(event.data), _plain(event.secret), list(event.audience)]
    got = [envelope.type, envelope.schema, envelope.data, envelope.secret, list(envelope.audience)]
    return canonical_json(want) == canonical_json(got)


def _plain(secret: Mapping[str, Any] | None) -> Any:
    return None if secret is None else dict(secret)


# --- what a viewer holds, and the tournament's lots ------------------------------------------

TOURNAMENT_CLOSED = "TournamentClosed"


def sealed_until_revealed(envelopes: Sequence[Envelope], revealed: bool) -> list[Envelope]:
    """`envelopes` as a viewer holds them before the reveal: the seed withheld."""
    if revealed or not envelopes:
        return list(envelopes)
    return [replace(envelopes[0], secret=None), *envelopes[1:]]


def game_revealed(envelopes: Sequence[Envelope]) -> bool:
    """As the service reveals a game's log: after its end (the rules' or a forfeit), unless it
    was created otherwise."""
    ended = ending(envelopes, end_event_of(envelopes)) is not None
    return ended and bool(envelopes[0].data.get("reveal_after_end", True))


def tournament_revealed(envelopes: Sequence[Envelope]) -> bool:
    """A tournament's seed is revealed when it closes: no lot is drawn after that."""
    return any(e.type == TOURNAMENT_CLOSED for e in envelopes)


def check_lots(envelopes: Sequence[Envelope]) -> DealReport:
    """The lots of a tournament (`envelopes` from TournamentCreated on, as a viewer holds them),
    each drawn again from the revealed seed at the version of its first event."""
    if not envelopes:
        return DealReport(NONE, reason="no events")
    deal = envelopes[0].data.get("deal")
    if not isinstance(deal, Mapping):
        return DealReport(NONE, reason="the tournament was recorded before its lots were committed")
    promised = str(deal.get("commitment"))
    seed_hex = (envelopes[0].secret or {}).get("seed")
    if not isinstance(seed_hex, str):
        return DealReport(COMMITTED, promised, reason="the seed is revealed when the tournament closes")
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return DealReport(FAULT, promised, first_bad=1, reason="the revealed seed is not hex")
    if commitment(seed) != promised:
        return DealReport(FAULT, promised, first_bad=1, reason="the revealed seed is not the one committed")
    state = tournament_rules.initial_state(envelopes[0].data)
    draws, version = 0, 2
    entropy = entropy_log(envelopes)  # read once, not once per draw
    while version <= len(envelopes):
        pending = tournament_rules.pending_system(state)
        batch = list(_rest_of_batch(envelopes, version))
        if pending is not None and batch[0].actor == str(SYSTEM):
            source = DrawStream(seed, entropy_from(deal, entropy, version), version)
            expected = tournament_rules.decide(state, pending.answer(source), SYSTEM)
            fault = _compared(expected, envelopes, version, promised, draws)
            if fault is not None:
                return fault
            draws += 1
            batch = list(envelopes[version - 1 : version - 1 + len(expected)])
        for envelope in batch:
            state = tournament_rules.evolve(state, to_event(envelope))
        version += len(batch)
    return DealReport(CHECKED, promised, draws)
