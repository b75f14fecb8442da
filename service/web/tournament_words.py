"""What the tournament pages say about where a tournament stands, read from its view: the
phase line, each round's state, each entrant's state, and which of the organizer's commands
the rules would take now (the organizer's page shows a button for those only).

The view (domain.tournament.module.view) holds `phase`, `round` (the last round paired) and
`completed` (the last round with every result): a round is being played while
`round > completed`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.tournament_rules import CLOSED, REGISTRATION, RUNNING

View = Mapping[str, Any]


def in_progress(view: View) -> bool:
    """Whether the last round paired still has a table without a result."""
    return bool(view["round"] > view["completed"])


def phase_text(view: View) -> str:
    """The tournament's state in a few words."""
    if view["phase"] == REGISTRATION:
        return "registration"
    if view["phase"] == CLOSED:
        played = view["completed"]
        return f"closed after {played} round{'' if played == 1 else 's'}"
    current, planned = view["round"], view["rounds"]
    if current == 0:
        return "started; no round paired yet"
    if in_progress(view):
        return f"round {current} being played"
    if planned is not None and current >= planned:
        return f"all {planned} rounds played; waiting for the close"
    return f"round {current} over; round {current + 1} not paired yet"


def round_text(view: View, round_: int) -> str:
    """One round's header: its number and whether it is over."""
    if round_ == view["round"] and in_progress(view):
        return f"Round {round_}: being played"
    return f"Round {round_}: over"


def _active(view: View) -> list[Mapping[str, Any]]:
    return [e for e in view["entrants"] if e["withdrawn"] is None]


def _current_table(view: View, entrant: str) -> Mapping[str, Any] | None:
    return next((t for t in view["tables"] if t["round"] == view["round"] and entrant in t["seats"]), None)


def _has_bye(view: View, entrant: str) -> bool:
    return any(b["round"] == view["round"] and b["entrant"] == entrant for b in view["byes"])


def entrant_state(view: View, entrant: Mapping[str, Any]) -> str:
    """One entrant's state: withdrawn, finished (closed), or where it stands in the round."""
    if entrant["withdrawn"] is not None:
        return f"withdrawn after round {entrant['withdrawn']}" if entrant["withdrawn"] else "withdrawn"
    if view["phase"] == CLOSED:
        rank = next((s["rank"] for s in view["standings"] if s["entrant"] == entrant["id"]), None)
        return "finished" if rank is None else f"finished, rank {rank + 1}"
    if view["phase"] == REGISTRATION:
        return "registered"
    current = view["round"]
    if current == 0:
        return "waiting for round 1"
    table = _current_table(view, entrant["id"])
    if table is not None:
        return f"playing round {current}" if table["result"] is None else f"round {current} played"
    if _has_bye(view, entrant["id"]):
        return f"bye in round {current}"
    return f"not paired in round {current}" if in_progress(view) else f"waiting for round {current + 1}"


@dataclass(frozen=True)
class OrganizerActions:
    """What the organizer's page offers now: each list holds what a command may name."""

    start: bool
    pair: bool
    close: bool
    register: bool
    byes: Sequence[Mapping[str, Any]]  # entrants without a table or a bye in the current round
    forfeits: Sequence[Mapping[str, Any]]  # tables of the current round with a game and no result
    corrections: Sequence[Mapping[str, Any]]  # tables with a result
    withdrawals: Sequence[Mapping[str, Any]]  # entrants still in

    @property
    def any(self) -> bool:
        return any(
            (self.start, self.pair, self.close, self.register, self.byes, self.forfeits, self.corrections)
        ) or bool(self.withdrawals)


def organizer_actions(view: View, registration_open: bool) -> OrganizerActions:
    """The organizer's commands the rules would take in this view (docs/tournaments.md, Commands).

    A command refused for what the view cannot tell (too many rounds for the entrants, no
    Swiss pairing without a rematch) is still offered: its refusal is shown in words."""
    phase, current = view["phase"], view["round"]
    active = _active(view)
    least = min(view["table_sizes"])
    running = phase == RUNNING
    unfinished = in_progress(view)
    planned = view["rounds"]
    pair = (
        running
        and not view["lots_due"]
        and not unfinished
        and (planned is None or current < planned)
        and len(active) >= least
    )
    byes = [
        e
        for e in active
        if running and current > 0 and _current_table(view, e["id"]) is None and not _has_bye(view, e["id"])
    ]
    current_tables = [t for t in view["tables"] if t["round"] == current]
    forfeits = [t for t in current_tables if running and t["game_id"] is not None and t["result"] is None]
    corrections = [
        t for t in view["tables"] if running and t["game_id"] is not None and t["result"] is not None
    ]
    return OrganizerActions(
        start=phase == REGISTRATION and len(active) >= least,
        pair=pair,
        close=running and not unfinished,
        register=registration_open,
        byes=byes,
        forfeits=forfeits,
        corrections=corrections,
        withdrawals=active if phase != CLOSED else [],
    )
