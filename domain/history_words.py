"""The platform's own events in words, for every family's `describe`: a new game, an undo, a
takeback and an organizer's correction. No version numbers: a player reads moves, not events.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Name = Callable[[Any], str]
Clause = Callable[[Name, Mapping[str, Any]], str]


def listed(items: Sequence[Any]) -> str:
    """ "A", "A and B", "A, B and C"."""
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}" if words else ""


def speaker(names: Sequence[str]) -> Name:
    """The name a sentence gives a seat: the seat's own, "the system" for none."""

    def who(seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
            return str(names[seat])
        return "the system" if seat is None else f"seat {seat}"

    return who


def game_created(title: str) -> Clause:
    """The opening clause of a game called `title`: who plays, and who starts."""

    def clause(who: Name, d: Mapping[str, Any]) -> str:
        names = [str(seat.get("name", "?")) for seat in d.get("seats") or [] if isinstance(seat, Mapping)]
        first = d.get("first_seat")
        starts = f"; {names[first]} starts" if isinstance(first, int) and 0 <= first < len(names) else ""
        mode = " (tournament)" if d.get("mode") == "tournament" else ""
        return f"new game of {title} for {listed(names)}{mode}{starts}"

    return clause


def _undone(who: Name, d: Mapping[str, Any]) -> str:
    approved = list(d.get("approved_by") or [])
    if approved:
        return f"{who(d.get('requested_by'))}'s takeback is accepted by {listed([who(a) for a in approved])}"
    return f"{who(d.get('requested_by'))} takes back a move"


def _corrected(who: Name, d: Mapping[str, Any]) -> str:
    reason = f": {d['reason']}" if d.get("reason") else ""
    return f"the organizer sets the game back{reason}"


CLAUSES: dict[str, Clause] = {
    "Undone": _undone,
    "Corrected": _corrected,
    "TakebackRequested": lambda who, d: f"{who(d.get('seat'))} asks to take back a move",
    "TakebackAnswered": lambda who, d: (
        f"{who(d.get('seat'))} {'accepts' if d.get('accept') else 'declines'} the takeback"
    ),
    "TakebackDeclined": lambda who, d: f"{who(d.get('by'))} declines {who(d.get('seat'))}'s takeback",
}
"""The bookkeeping events of domain/undo.py, which any game may record."""


def spoken(kind: str) -> str:
    """An event type no clause knows, in lower-case words: "PiecesMoved" -> "pieces moved"."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", kind).lower() or "something happens"


def seat_named(names: Sequence[str], seat: Any) -> str:
    """A seat as a button names it: its player's name, or "seat N" when there is none."""
    try:
        return names[int(seat)]
    except (ValueError, TypeError, IndexError):
        return f"seat {seat}"
